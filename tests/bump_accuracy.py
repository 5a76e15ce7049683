"""The bump review measured on the synthetic spec changes of tests/bump_cases/*.yaml: each case → a base folder
(four parts of spec/releases/0.5.25 with a changelog entry, or with `base: repo` the repository's spec/ with every
vector kind) and a head (the base with the case's patch) in a temporary folder → the review → per location, the reported
classification against the expected one, the required bump and the gate's verdict against the expected ones →
one row of the accuracy table. A case with `expect.code` is also measured on the generated-code axis: per
(type, location, rule), the bindings each finding touches. A case's accept list (accepted-changes.yaml in the
head) may name a finding by a placeholder `<Type location rule>`, replaced here by that finding's fingerprint
before the review reads the list.

WHY a module apart from its test: the same rows make the test (tests/test_bump_accuracy.py) and the table in
tests/bump_cases/accuracy.md (`python tests/bump_accuracy.py > tests/bump_cases/accuracy.md`), so the document
cannot drift from what the tool does.
"""

from __future__ import annotations

import contextlib
import io
import json
import re
import shutil
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from seq_io.bump_review import main
from seq_io.bump_review.accept import FILE_NAME as ACCEPT_LIST
from seq_io.bump_review.review import Review, review
from seq_io.bump_review.rules import Change, render_location
from seq_io.bump_review.snapshot import InputError, load_folder
from seq_io.strict_yaml import load_file

REPO_ROOT = Path(__file__).resolve().parents[1]

CASES = Path(__file__).parent / "bump_cases"
BASE = REPO_ROOT / "spec" / "releases" / "0.5.25"
CHANGELOG = "# Changelog\n\n## 0.5.25\n\nThe release.\n"
RELEASE_PARTS = ("contract.json", "schemas", "validation.md", "vectors/validation")
"""What `base: release` takes from the snapshot: the four parts 0.5.25 was first cut with, so that the cases keep
their meaning now that the snapshot holds all of spec/ and every vector kind."""
BASES = ("release", "repo")
"""`release`: spec/releases/0.5.25's RELEASE_PARTS (validation vectors only); `repo`: spec/ with
conformance/vectors/ (every kind)."""


@dataclass(frozen=True)
class Outcome:
    name: str
    expected: dict[tuple[str, str], str]
    reported: dict[tuple[str, str], str]
    expected_bump: str
    reported_bump: str
    expected_finding: str | None
    findings: tuple[str, ...]
    expected_gate: str = "-"
    reported_gate: str = "-"
    expected_code: dict[tuple[str, str, str], str] | None = None
    """(type, location, rule) → the bindings, comma-separated; None: the case is not measured on that axis."""
    reported_code: dict[tuple[str, str, str], str] = field(default_factory=dict)

    @property
    def code_right(self) -> bool:
        return self.expected_code is None or self.expected_code == self.reported_code

    @property
    def classification_right(self) -> bool:
        return self.expected == self.reported and self.code_right

    @property
    def bump_right(self) -> bool:
        return self.expected_bump == self.reported_bump

    @property
    def gate_right(self) -> bool:
        return self.expected_gate == self.reported_gate

    @property
    def agrees(self) -> bool:
        return self.classification_right and self.bump_right and self.finding_right and self.gate_right

    @property
    def finding_right(self) -> bool:
        if self.expected_finding is None:
            return not self.findings
        return any(self.expected_finding in text for text in self.findings)


def _pointer(target: str) -> tuple[str, list[str]]:
    file, _, pointer = target.partition("#")
    return file, [part.replace("~1", "/").replace("~0", "~") for part in pointer.split("/")[1:]]


def _apply(root: Path, operation: dict[str, Any]) -> None:
    if "set" in operation or "remove" in operation:
        file, parts = _pointer(operation.get("set") or operation["remove"])
        document = json.loads((root / file).read_text(encoding="utf-8"))
        node = document
        for part in parts[:-1]:
            node = node[int(part)] if isinstance(node, list) else node.setdefault(part, {})
        last = parts[-1]
        if "set" in operation:
            if isinstance(node, list):
                index = int(last)
                node[index : index + 1] = [operation["value"]]
            else:
                node[last] = operation["value"]
        else:
            del node[int(last) if isinstance(node, list) else last]
        (root / file).write_text(json.dumps(document, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    elif "delete" in operation:
        (root / operation["delete"]).unlink()
    elif "write" in operation:
        text = operation["text"] if "text" in operation else json.dumps(operation["value"], indent=2) + "\n"
        (root / operation["write"]).write_text(text, encoding="utf-8")
    elif "replace" in operation:
        path = root / operation["replace"]
        text = path.read_text(encoding="utf-8")
        assert text.count(operation["old"]) == 1, f"{operation['replace']}: the text to replace must occur once"
        path.write_text(text.replace(operation["old"], operation["new"]), encoding="utf-8")
    elif "append" in operation:
        path = root / operation["append"]
        path.write_text(path.read_text(encoding="utf-8") + operation["text"], encoding="utf-8")
    else:
        raise ValueError(f"unknown patch operation {operation}")


def _breaks(changes: list[Change]) -> str:
    old, new = any(c.old_readers for c in changes), any(c.new_readers for c in changes)
    if old or new:
        return "both" if old and new else "old" if old else "new"
    return "editorial" if all(c.level == "editorial" for c in changes) else "none"


_PLACEHOLDER = re.compile(r"<(\S+) (.+?) ([a-z-]+)>")


def resolve_placeholders(head: Path, base: Path) -> None:
    """Replace each `<Type location rule>` of the head's accept list by the fingerprint of the change the review
    reports there (the review runs once without the list); a placeholder that names no change stays as written."""
    path = head / ACCEPT_LIST
    if not path.is_file() or not _PLACEHOLDER.search(text := path.read_text(encoding="utf-8")):
        return
    path.unlink()
    try:
        found = review(load_folder(base), load_folder(head))
    finally:
        path.write_text(text, encoding="utf-8")
    prints = {(c.type_name, render_location(c.location), c.rule): fp for c, fp in found.fingerprints.items()}
    prints |= {(c.type_name, render_location(c.location), c.rule): fp for c, fp in found.code_fingerprints.items()}
    path.write_text(
        _PLACEHOLDER.sub(lambda m: prints.get((m.group(1), m.group(2), m.group(3)), m.group(0)), text),
        encoding="utf-8",
    )


def _reported(result: Review) -> dict[tuple[str, str], str]:
    """Per location, whom the changes there break, `(accepted)` when an accept-list entry accepts every change
    there that is not editorial; and per entry that accepts nothing, why."""
    by_location: dict[tuple[str, str], list[Change]] = {}
    for change in result.diff.changes:
        by_location.setdefault((change.type_name, render_location(change.location)), []).append(change)
    reported = {}
    for where, found in by_location.items():
        counted = [c for c in found if c.level != "editorial"]
        accepted = bool(counted) and all(result.entry_for(c) is not None for c in counted)
        reported[where] = _breaks(found) + (" (accepted)" if accepted else "")
    for warning in result.accept_warnings:
        reported[(f"({ACCEPT_LIST})", f"[{warning.entry.index}]")] = warning.status
    return reported


def base_folder(folder: Path, kind: str = "release") -> Path:
    """The base a case starts from, with a changelog entry for 0.5.25: the release snapshot (`release`), or the
    repository's spec/ (its release snapshots left out) with conformance/vectors/ as `vectors/` (`repo`)."""
    if kind == "release":
        folder.mkdir(parents=True)
        for part in RELEASE_PARTS:
            if (BASE / part).is_dir():
                shutil.copytree(BASE / part, folder / part)
            else:
                shutil.copy(BASE / part, folder / part)
    else:
        shutil.copytree(REPO_ROOT / "spec", folder, ignore=shutil.ignore_patterns("releases"))
        shutil.copytree(REPO_ROOT / "conformance" / "vectors", folder / "vectors")
    (folder / "CHANGELOG.md").write_text(CHANGELOG, encoding="utf-8")
    return folder


def _touched(operation: dict[str, Any]) -> str:
    return str(
        next(operation[key] for key in ("set", "remove", "delete", "write", "replace", "append") if key in operation)
    )


def expected_gate(case: dict[str, Any]) -> str:
    """The case's `gate`, or when it leaves the version alone, what the spec's gate makes of its bump: pass when
    nothing needs one (and no limit finding fails the head), else fail."""
    expect = case["expect"]
    if "gate" in expect:
        return str(expect["gate"])
    moved = any(_touched(op) == "contract.json#/contract_version" for op in case["patch"])
    assert not moved, f"{case['name']}: a case that moves the version states `gate`"
    return "pass" if expect["bump"] == "none" and not expect.get("finding") else "fail"


def measure(case: dict[str, Any], base: Path, folder: Path) -> Outcome:
    """Run the review on one case: `base` (shared, never changed) against its head, made in `folder`."""
    head = folder / "head"
    shutil.copytree(base, head, ignore=shutil.ignore_patterns("vectors"))
    if any(_touched(op).startswith("vectors/") for op in case["patch"]):
        shutil.copytree(base / "vectors", head / "vectors")
    else:
        (head / "vectors").symlink_to(base / "vectors")  # untouched: read them once for all cases
    for operation in case["patch"]:
        _apply(head, operation)
    with contextlib.suppress(InputError):  # a malformed list: the review below says why
        resolve_placeholders(head, base)
    expect = case["expect"]
    if expect.get("error"):
        with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
            code = main(["--base", str(base), "--head", str(head)])
        exited = "error (exit 2)" if code == 2 else f"exit {code}"
        return Outcome(
            case["name"], {("(input)", "-"): "error (exit 2)"}, {("(input)", "-"): exited}, "-", "-", None, ()
        )
    expected = {(e["type"], str(e["at"])): e["breaks"] for e in expect["changes"]}
    try:
        result = review(load_folder(base), load_folder(head))
    except InputError as error:
        said = str(error).replace(str(head), "<head>").replace(str(base), "<base>")
        return Outcome(
            case["name"],
            expected,
            {("(input)", "-"): f"error: {said}"},
            expect["bump"],
            "-",
            None,
            (),
            expected_gate(case),
            "-",
        )
    expected_code = (
        {(e["type"], str(e["at"]), e["rule"]): ", ".join(sorted(e["bindings"])) for e in expect["code"]}
        if "code" in expect
        else None
    )
    reported_code = {
        (c.type_name, render_location(c.location), c.rule): ", ".join(sorted(c.bindings)) for c in result.code.changes
    }
    return Outcome(
        case["name"],
        expected,
        _reported(result),
        expect["bump"],
        result.verdict.required,
        expect.get("finding"),
        tuple(result.limits["head"]),
        expected_gate(case),
        "pass" if result.verdict.passed else "fail",
        expected_code,
        reported_code,
    )


def cases() -> list[dict[str, Any]]:
    """Every case of every file of tests/bump_cases/, in file-name order; a name is used once."""
    found: list[dict[str, Any]] = []
    for path in sorted(CASES.glob("*.yaml")):
        found += load_file(path).value["cases"]
    names = [case["name"] for case in found]
    assert len(names) == len(set(names)), sorted({n for n in names if names.count(n) > 1})
    unknown = {case.get("base", "release") for case in found} - set(BASES)
    assert not unknown, f"unknown base(s) {unknown}: one of {BASES}"
    return found


def disagreements() -> dict[str, str]:
    """Case name → why the review's answer differs from the case's expectation (its `disagrees`)."""
    return {case["name"]: str(case["disagrees"]) for case in cases() if "disagrees" in case}


def outcomes() -> list[Outcome]:
    found = []
    with tempfile.TemporaryDirectory(prefix="bump-cases-") as shared:
        bases: dict[str, Path] = {}
        for case in cases():
            kind = case.get("base", "release")
            if kind not in bases:
                bases[kind] = base_folder(Path(shared) / kind, kind)
            with tempfile.TemporaryDirectory(prefix="bump-case-") as temp:
                found.append(measure(case, bases[kind], Path(temp)))
    return found


def _cell(values: dict[tuple[str, str], str]) -> str:
    return "; ".join(f"{t} `{at}` {breaks}" for (t, at), breaks in sorted(values.items())) or "(nothing)"


def _code_cell(values: dict[tuple[str, str, str], str] | None) -> str:
    """The generated-code findings of a case, after its wire changes ("" when the case is not measured on them)."""
    if values is None:
        return ""
    found = "; ".join(f"{t} `{at}` {rule} ({bindings})" for (t, at, rule), bindings in sorted(values.items()))
    return f"; code: {found or '(nothing)'}"


def table(results: list[Outcome], disagreements: dict[str, str]) -> str:
    right = sum(r.classification_right for r in results)
    bumps = [r for r in results if r.expected_bump != "-"]
    gates = [r for r in results if r.expected_gate != "-"]
    coded = [r for r in results if r.expected_code is not None]
    lines = [
        "# Bump review accuracy on the synthetic changes",
        "",
        "Generated by `python tests/bump_accuracy.py > tests/bump_cases/accuracy.md` from tests/bump_cases/*.yaml "
        "(the expectations were written before the review was first run on them); tests/test_bump_accuracy.py "
        "checks that this file is current.",
        "",
        f"Classification right in **{right} of {len(results)}** cases; required bump right in "
        f"**{sum(r.bump_right for r in bumps)} of {len(bumps)}**; limit findings right in "
        f"**{sum(r.finding_right for r in results)} of {len(results)}**; gate verdict right in "
        f"**{sum(r.gate_right for r in gates)} of {len(gates)}**; generated code right in "
        f"**{sum(r.code_right for r in coded)} of {len(coded)}**.",
        "",
        "| case | expected | reported | bump expected / reported | gate expected / reported | agrees | why not |",
        "|---|---|---|---|---|---|---|",
    ]
    for r in results:
        same = r.expected == r.reported and r.code_right
        reported = (
            "the same"
            if same
            else _cell(r.reported) + (_code_cell(r.reported_code) if r.expected_code is not None else "")
        )
        lines.append(
            f"| {r.name} | {_cell(r.expected)}{_code_cell(r.expected_code)} | {reported} | "
            f"{r.expected_bump} / {r.reported_bump} | {r.expected_gate} / {r.reported_gate} | "
            f"{'yes' if r.agrees else 'no'} | {disagreements.get(r.name, '')} |"
        )
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    sys.stdout.write(table(outcomes(), disagreements()))
