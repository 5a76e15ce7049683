"""The bump review as a pull-request check: fingerprints from facts (stable across rewording and unrelated edits,
different when the change differs), the accept list (accepting, stale, expired, malformed), the places of findings
(file and line in the head), GitHub workflow commands with GitHub's escaping, SARIF 2.1.0 (checked against the
SARIF 2.1.0 JSON Schema, see `SARIF_SCHEMA`), the changelog draft, and the Makefile target.
"""

from __future__ import annotations

import datetime
import json
import os
import shutil
import subprocess
from collections.abc import Callable
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from seq_io import workflow_commands as shared_commands
from seq_io.bump_review import changelog_draft, main, marks, sarif, workflow_commands
from seq_io.bump_review.accept import FILE_NAME, SCHEMA
from seq_io.bump_review.fingerprint import of_facts
from seq_io.bump_review.places import line_of, pointer_lines
from seq_io.bump_review.review import Review, review
from seq_io.bump_review.rules import render_location
from seq_io.bump_review.snapshot import InputError, load_folder

REPO_ROOT = Path(__file__).resolve().parents[1]
RELEASE = REPO_ROOT / "spec" / "releases" / "0.5.25"
CHANGELOG = "# Changelog\n\n## 0.5.25\n\nThe release.\n"


@pytest.fixture(scope="module")
def base(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("pr") / "base"
    shutil.copytree(RELEASE, folder)
    (folder / "CHANGELOG.md").write_text(CHANGELOG, encoding="utf-8")
    return folder


Edit = Callable[[Path], None]


def _head(base: Path, tmp_path: Path, *edits: Edit, name: str = "head") -> Path:
    head = tmp_path / name
    shutil.copytree(base, head)
    for edit in edits:
        edit(head)
    return head


def _schema_edit(title: str, change: Callable[[dict[str, Any]], None]) -> Edit:
    def edit(head: Path) -> None:
        path = head / "schemas" / f"{title}.json"
        document = json.loads(path.read_text(encoding="utf-8"))
        change(document)
        path.write_text(json.dumps(document, indent=2) + "\n", encoding="utf-8")

    return edit


def _width_max(value: int) -> Edit:
    """Camera's width at most `value`; below 8192 the case that pins 8192 as valid (val-camera-0004) goes, or
    the head would contradict its own vectors (spec/compatibility.md, "The data backstop"), which no acceptance
    overrides. A case that disappears has no level of its own."""
    schema = _schema_edit("Camera", lambda d: d["properties"]["width"].__setitem__("maximum", value))

    def edit(head: Path) -> None:
        schema(head)
        if value < 8192:
            path = head / "vectors" / "validation" / "camera.yaml"
            text = path.read_text(encoding="utf-8")
            pinned = text[text.index("      - id: val-camera-0004\n") : text.index("      - id: val-camera-0005\n")]
            path.write_text(text.replace(pinned, ""), encoding="utf-8")

    return edit


def _describe(prop: str, text: str) -> Edit:
    return _schema_edit("Camera", lambda d: d["properties"][prop].__setitem__("description", text))


def _prose(old: str, new: str) -> Edit:
    def edit(head: Path) -> None:
        path = head / "validation.md"
        text = path.read_text(encoding="utf-8")
        assert text.count(old) == 1
        path.write_text(text.replace(old, new), encoding="utf-8")

    return edit


def _accept(*entries: dict[str, str]) -> Edit:
    def edit(head: Path) -> None:
        lines = ["accepted:"]
        for entry in entries:
            lines += [
                f"  - {key}: {json.dumps(value)}" if n == 0 else f"    {key}: {json.dumps(value)}"
                for n, (key, value) in enumerate(entry.items())
            ]
        (head / FILE_NAME).write_text("\n".join(lines) + "\n", encoding="utf-8")

    return edit


def _run(base: Path, head: Path, today: datetime.date | None = None) -> Review:
    return review(load_folder(base), load_folder(head), today)


def _width_print(base: Path, folder: Path) -> str:
    """The fingerprint of the break every accept-list test approves: Camera's width limit lowered to 4096."""
    return _print(_run(base, _head(base, folder, _width_max(4096), name="plain")), "Camera", "$.width")


def _print(r: Review, type_name: str, location: str) -> str:
    found = [
        fp for c, fp in r.fingerprints.items() if (c.type_name, render_location(c.location)) == (type_name, location)
    ]
    assert len(found) == 1, found
    return found[0]


SENTENCE = "names no limit and is normative as the schema writes it."


# ---------------------------------------------------------------- fingerprints


def test_fingerprint_is_16_hex_digits_and_depends_on_every_fact() -> None:
    facts: list[Any] = ["bound-tightened", "Camera", "$.width", ["new-readers"], {"maximum": 1}, {"maximum": 2}]
    first = of_facts(*facts)
    assert len(first) == 16 and all(ch in "0123456789abcdef" for ch in first)
    assert of_facts(*facts) == first
    for index, other in enumerate(["bound-loosened", "Lens", "$.height", ["old-readers"], {"maximum": 3}, None]):
        changed = list(facts)
        changed[index] = other
        assert of_facts(*changed) != first, index
    both = ("bound-changed", "Camera", "$.width")
    assert of_facts(*both, ["new-readers", "old-readers"], 1, 2) == of_facts(
        *both, ["old-readers", "new-readers"], 1, 2
    )


def test_fingerprint_stays_under_unrelated_edits_and_moves_with_the_change(base: Path, tmp_path: Path) -> None:
    alone = _run(base, _head(base, tmp_path, _width_max(4096), name="alone"))
    noisy = _run(
        base,
        _head(
            base,
            tmp_path,
            _width_max(4096),
            _describe("height", "Frame height, in pixels."),
            _describe("width", "Width of a frame, in pixels."),
            _prose(SENTENCE, "names no limit; the schema is its only source."),
            name="noisy",
        ),
    )
    other = _run(base, _head(base, tmp_path, _width_max(2048), name="other"))
    bound = [c for c in alone.diff.changes if c.rule == "bound-tightened"]
    assert len(bound) == 1
    fingerprint = alone.fingerprints[bound[0]]
    assert fingerprint in {fp for c, fp in noisy.fingerprints.items() if c.rule == "bound-tightened"}
    assert fingerprint not in set(other.fingerprints.values())
    assert len(set(noisy.fingerprints.values())) == len(noisy.fingerprints), "distinct findings, distinct prints"


# ---------------------------------------------------------------- the accept list


def test_an_accepted_break_is_shown_with_its_reason_and_passes_the_gate(base: Path, tmp_path: Path) -> None:
    plain = _run(base, _head(base, tmp_path, _width_max(4096), name="plain"))
    assert not plain.verdict.passed
    fingerprint = _print(plain, "Camera", "$.width")
    head = _head(
        base,
        tmp_path,
        _width_max(4096),
        _accept({"fingerprint": fingerprint, "reason": "No camera is wider.", "approved_by": "@owners"}),
    )
    accepted = _run(base, head)
    assert accepted.verdict.passed and accepted.verdict.required == "none"
    assert set(accepted.accepted) == {fingerprint} and not accepted.accept_warnings
    from seq_io.bump_review import report

    text = report.markdown(accepted)
    assert "**accepted** (accepted-changes.yaml entry 0, approved by @owners): No camera is wider." in text
    assert f"`{fingerprint}`" in text
    change = next(c for c in report.as_json(accepted)["changes"] if c["fingerprint"] == fingerprint)
    assert change["accepted"]["reason"] == "No camera is wider." and change["level"] == "breaking"


def test_stale_and_expired_entries_are_warnings_that_accept_nothing(base: Path, tmp_path: Path) -> None:
    fingerprint = _width_print(base, tmp_path)
    head = _head(
        base,
        tmp_path,
        _width_max(4096),
        _accept(
            {
                "fingerprint": fingerprint,
                "reason": "Until the upgrade.",
                "approved_by": "@owners",
                "expires": "2027-01-31",
            },
            {"fingerprint": "0123456789abcdef", "reason": "An old approval.", "approved_by": "@owners"},
        ),
    )
    on_the_day = _run(base, head, datetime.date(2027, 1, 31))
    assert set(on_the_day.accepted) == {fingerprint} and on_the_day.verdict.passed
    assert [(w.entry.index, w.status) for w in on_the_day.accept_warnings] == [(1, "stale")]
    after = _run(base, head, datetime.date(2027, 2, 1))
    assert not after.accepted and not after.verdict.passed
    assert [(w.entry.index, w.status) for w in after.accept_warnings] == [(0, "expired"), (1, "stale")]
    annotations = workflow_commands.render(after)
    assert f"::warning file={FILE_NAME},line=2,title=accept list%3A entry 0 accepts nothing (expired)::" in annotations
    assert f"::warning file={FILE_NAME},line=6," in annotations


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            'accepted:\n  - fingerprint: "0123456789abcdef"\n    approved_by: x\n',
            ":2: $.accepted[0]: required: 'reason'",
        ),
        (
            'accepted:\n  - fingerprint: "ABC"\n    reason: r\n    approved_by: x\n',
            ":2: $.accepted[0].fingerprint: pattern:",
        ),
        (
            'accepted:\n  - fingerprint: "0123456789abcdef"\n    reason: r\n    approved_by: x\n'
            '    expires: "2027-13-01"\n',
            ":5: $.accepted[0].expires: format: '2027-13-01' is not a date",
        ),
        (
            'accepted:\n  - fingerprint: "0123456789abcdef"\n    reason: r\n    approved_by: x\n'
            '  - fingerprint: "0123456789abcdef"\n    reason: r\n    approved_by: y\n',
            ":5: $.accepted[1].fingerprint: unique-fingerprint:",
        ),
        (
            'accepted:\n  - fingerprint: "0123456789abcdef"\n    reason: r\n    approved_by: x\n'
            "    expires: 2027-01-31\n",
            ":5: $: yaml:",
        ),
        ("accepts: []\n", ":1: $.accepts: additionalProperties:"),
        (
            'accepted:\n  - fingerprint: "0123456789abcdef"\n    reason: r\n    approved_by: x\n'
            '    expire: "2027-01-01"\n',
            ":5: $.accepted[0].expire: additionalProperties: Additional properties are not allowed ('expire'",
        ),
    ],
)
def test_a_malformed_accept_list_is_exit_2_with_file_line_path_and_rule(
    base: Path, tmp_path: Path, text: str, expected: str, capsys: pytest.CaptureFixture[str]
) -> None:
    def write(head: Path) -> None:
        (head / FILE_NAME).write_text(text, encoding="utf-8")

    head = _head(base, tmp_path, write)
    with pytest.raises(InputError) as raised:
        _run(base, head)
    assert f"{FILE_NAME}{expected}" in str(raised.value)
    assert main(["--base", str(base), "--head", str(head)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and f"{FILE_NAME}{expected}" in err and "Traceback" not in err


def test_the_accept_list_schema_is_a_valid_2020_12_schema() -> None:
    jsonschema.Draft202012Validator.check_schema(json.loads(SCHEMA.read_text(encoding="utf-8")))


# ---------------------------------------------------------------- places


def test_pointer_lines_follow_the_json_text() -> None:
    text = '{\n  "a": {\n    "b\\"/~": [\n      1,\n      {"c": true}\n    ]\n  },\n  "d": "x,y"\n}\n'
    lines = pointer_lines(text)
    assert lines[()] == 1 and lines[("a",)] == 2 and lines[("a", 'b"/~')] == 3
    assert lines[("a", 'b"/~', 0)] == 4 and lines[("a", 'b"/~', 1, "c")] == 5 and lines[("d",)] == 8
    assert line_of(text, ("a", "missing", "deeper")) == 2
    assert pointer_lines("not json") == {}


def test_annotations_stand_on_the_changed_member_and_section(base: Path, tmp_path: Path) -> None:
    head = _head(
        base,
        tmp_path,
        _width_max(4096),
        _schema_edit("Camera", lambda d: d.__setitem__("required", [*d["required"], "codec"])),
        _prose(SENTENCE, "names no limit; the schema is its only source."),
    )
    r = _run(base, head)
    camera = (head / "schemas" / "Camera.json").read_text(encoding="utf-8").splitlines()
    document = (head / "validation.md").read_text(encoding="utf-8").splitlines()
    out = workflow_commands.render(r).splitlines()
    width = next(line for line in out if "title=Camera $.width%3A bound-tightened" in line)
    number = int(width.split("line=")[1].split(",")[0])
    assert width.startswith("::error file=schemas/Camera.json,") and '"maximum": 4096' in camera[number - 1]
    required = next(line for line in out if "required-added" in line)
    assert '"required"' in camera[int(required.split("line=")[1].split(",")[0]) - 1]
    prose = next(line for line in out if "prose-changed" in line)
    assert document[int(prose.split("line=")[1].split(",")[0]) - 1] == "## Where the schema bounds come from"
    assert out[-1].startswith("::error title=iospec bump-review%3A gate::Gate FAIL")


def test_workflow_commands_escape_as_github_reads_them() -> None:
    line = shared_commands.command(
        "warning", "50% done\r\nnext: a, b", file="spec/a,b:c.json", line=3, title="x: y, z%"
    )
    assert line == "::warning file=spec/a%2Cb%3Ac.json,line=3,title=x%3A y%2C z%25::50%25 done%0D%0Anext: a, b"
    assert shared_commands.command("notice", "plain") == "::notice::plain"


# ---------------------------------------------------------------- SARIF


SARIF_SCHEMA = REPO_ROOT / "implementations/js/node_modules/@microsoft/jest-sarif/lib/schemas/sarif-2.1.0-rtm.5.json"
"""The SARIF 2.1.0 JSON Schema as Microsoft's SARIF matcher package ships it (a dev dependency of
implementations/js, installed by `make setup`; docs/dependencies.md says why): the schema itself is not kept in
this repository."""


def _sarif_schema() -> dict[str, Any]:
    assert SARIF_SCHEMA.is_file(), f"{SARIF_SCHEMA} is missing: run `make setup` (npm ci in implementations/js)"
    loaded: dict[str, Any] = json.loads(SARIF_SCHEMA.read_text(encoding="utf-8"))
    return loaded


@pytest.fixture(scope="module")
def accepted_and_broken(base: Path, tmp_path_factory: pytest.TempPathFactory) -> Review:
    folder = tmp_path_factory.mktemp("sarif")
    fingerprint = _width_print(base, folder)
    head = _head(
        base,
        folder,
        _width_max(4096),
        _schema_edit("Camera", lambda d: d.__setitem__("required", [*d["required"], "codec"])),
        _describe("height", "Frame height, in pixels."),
        _prose(SENTENCE, "names no limit; the schema is its only source."),
        _accept({"fingerprint": fingerprint, "reason": "No camera is wider.", "approved_by": "@owners"}),
    )
    return _run(base, head)


def test_sarif_log_carries_levels_places_fingerprints_and_suppressions(accepted_and_broken: Review) -> None:
    log = sarif.log(accepted_and_broken)
    assert log["version"] == "2.1.0"
    run = log["runs"][0]
    rules = [rule["id"] for rule in run["tool"]["driver"]["rules"]]
    results = run["results"]
    for result in results:
        assert rules[result["ruleIndex"]] == result["ruleId"]
        for location in result.get("locations", []):
            assert location["physicalLocation"]["region"]["startLine"] >= 1
    by_rule = {result["ruleId"]: result for result in results}
    assert by_rule["bound-tightened"]["suppressions"][0]["status"] == "accepted"
    assert by_rule["bound-tightened"]["level"] == "note"
    assert by_rule["required-added"]["level"] == "error" and "suppressions" not in by_rule["required-added"]
    assert by_rule["annotation-changed"]["level"] == "note"
    assert by_rule["gate"]["level"] == "error" and "locations" not in by_rule["gate"]
    prints = {r["partialFingerprints"][sarif.FINGERPRINT_KEY] for r in results if r["ruleId"] != "gate"}
    r = accepted_and_broken
    assert prints == {*r.fingerprints.values(), *r.code_fingerprints.values(), *r.case_fingerprints.values()}


def test_sarif_log_is_valid_against_the_sarif_2_1_0_schema(accepted_and_broken: Review) -> None:
    schema = _sarif_schema()
    validator = jsonschema.validators.validator_for(schema)(schema)
    errors = [f"{list(e.absolute_path)}: {e.message}" for e in validator.iter_errors(sarif.log(accepted_and_broken))]
    assert errors == []


# ---------------------------------------------------------------- the changelog draft


def test_changelog_draft_demands_the_version_and_never_marks_on_its_own(base: Path, tmp_path: Path) -> None:
    edits = (_width_max(4096), _prose(SENTENCE, "names no limit; the schema is its only source."))
    r = _run(base, _head(base, tmp_path, *edits, name="first"))
    text = changelog_draft.draft(r)
    assert text.startswith("## 0.6.0\n")
    width = next(line for line in text.splitlines() if line.startswith("- Camera $.width: "))
    assert width.endswith("(breaks new readers of old data)") and text.index("Breaking:") < text.index(width)
    skeleton = "<!-- - validation.md § Where the schema bounds come from: <why nothing accepted or meant changes> -->"
    assert "Editorial:" in text and skeleton in text

    def with_entry(entry: str) -> Edit:
        def edit(head: Path) -> None:
            (head / "contract.json").write_text(
                (head / "contract.json").read_text(encoding="utf-8").replace('"0.5.25"', '"0.6.0"'), encoding="utf-8"
            )
            with (head / "CHANGELOG.md").open("a", encoding="utf-8") as out:
                out.write("\n" + entry)

        return edit

    untouched = _run(base, _head(base, tmp_path, *edits, with_entry(text), name="untouched"))
    assert marks.marks(untouched.head) == []
    assert untouched.verdict.passed  # the draft's version and heading satisfy the gate as they stand
    prose = next(c for c in untouched.diff.changes if c.rule == "prose-changed")
    assert prose.level == "breaking"
    judged = text.replace(skeleton, "- validation.md § Where the schema bounds come from: a rewording.")
    marked = _run(base, _head(base, tmp_path, *edits, with_entry(judged), name="marked"))
    prose = next(c for c in marked.diff.changes if c.rule == "prose-changed")
    assert prose.level == "editorial"


# ---------------------------------------------------------------- the command line and make


def test_the_command_writes_sarif_and_the_draft_and_prints_annotations(
    base: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    head = _head(base, tmp_path, _width_max(4096))
    code = main(
        [
            "--base", str(base), "--head", str(head), "--sarif", str(tmp_path / "out" / "r.sarif"),
            "--changelog-draft", str(tmp_path / "out" / "draft.md"), "--annotations", "github",
        ]
    )  # fmt: skip
    assert code == 1
    out = capsys.readouterr().out
    assert out.startswith("# Contract bump review") and "\n::error file=schemas/Camera.json,line=" in out
    assert json.loads((tmp_path / "out" / "r.sarif").read_text(encoding="utf-8"))["version"] == "2.1.0"
    assert (tmp_path / "out" / "draft.md").read_text(encoding="utf-8").startswith("## 0.6.0\n")


def test_make_bump_review_writes_sarif_and_the_draft_and_annotates_under_github_actions() -> None:
    def recipe(*extra: str) -> str:
        env = {k: v for k, v in os.environ.items() if k != "GITHUB_ACTIONS"}
        done = subprocess.run(
            ["make", "-n", "bump-review", *extra], cwd=REPO_ROOT, capture_output=True, text=True, env=env, check=True
        )
        return done.stdout

    plain, github = recipe(), recipe("GITHUB_ACTIONS=true")
    for text in (plain, github):
        assert "--sarif build/bump-review.sarif" in text and "--changelog-draft build/changelog-draft.md" in text
    assert "--annotations github" in github and "--annotations" not in plain


def test_editorial_findings_are_in_sarif_but_not_annotated(accepted_and_broken: Review) -> None:
    annotated = workflow_commands.render(accepted_and_broken)
    assert "annotation-changed" not in annotated and "(accepted)::" in annotated
    results = sarif.log(accepted_and_broken)["runs"][0]["results"]
    assert any(result["ruleId"] == "annotation-changed" for result in results)


def test_changelog_draft_of_an_unchanged_spec_needs_no_bump(base: Path, tmp_path: Path) -> None:
    text = changelog_draft.draft(_run(base, _head(base, tmp_path)))
    assert text.startswith("## 0.5.25\n") and "need no bump" in text and "Nothing accepted or meant changed." in text
    assert "Editorial:" not in text
