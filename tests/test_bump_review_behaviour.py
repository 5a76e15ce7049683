"""Behaviour changes and contradictions in the bump review (spec/compatibility.md, "Behaviour changes", "The data
backstop", "Editorial marks"): a changed expectation of every vector kind is counted, shown in full in both
reports and cannot be marked editorial; a head whose own vectors its own rules contradict fails the gate with
that reason first. The accuracy of the same on realistic changes is tests/bump_cases/behaviour.yaml's; here each
part is pinned on the repository's own spec and vectors, changed in a temporary copy.
"""

from __future__ import annotations

import json
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from seq_io.bump_review import behaviour, behaviour_report, findings, main, report
from seq_io.bump_review.accept import FILE_NAME
from seq_io.bump_review.behaviour import CaseChange, differences
from seq_io.bump_review.review import Review, review
from seq_io.bump_review.snapshot import load_folder
from seq_io.reference.issues import format_path

REPO_ROOT = Path(__file__).resolve().parents[1]
ACT = "vectors/stream/act.yaml"
HANDED = ("expect: {handed: {x: 1, y: [2]}}}", "expect: {handed: {x: 1}}}")
"""str-act-0001's expectation, and the same with `y` dropped."""
ONE_PER_KIND = [
    (ACT, *HANDED),
    ("vectors/schedule/pad.yaml", "keeps_from: 0\n      - id: sch-pad-0002", "keeps_from: 1\n      - id: sch-pad-0002"),
    ("vectors/envelope/envelope.yaml", "steps: [5, 20]", "steps: [20, 5]"),
    (
        "vectors/rows-of/rows-of.yaml",
        "actions: {open_loop_horizon: 2}\n        expect: {rows: [[1, 2], [3, 4]]}",
        "actions: {open_loop_horizon: 2}\n        expect: {rows: [[1, 2]]}",
    ),
    (
        "vectors/uploader/acts.yaml",
        "expect: [{act: {seq: 1, inputs: text}}]",
        "expect: [{act: {seq: 2, inputs: text}}]",
    ),
]
"""One edit of an expectation per non-validation vector kind: (file, text, replacement)."""
WIDTH_0 = (
    'instance: {width: 0, height: 480}\n        valid: false\n        error: {path: "$.width", rule: minimum}',
    "instance: {width: 0, height: 480}\n        valid: true",
)
"""val-camera-0005 (a width of 0, refused by `minimum`) declared valid instead: Camera's schema still refuses it."""


@pytest.fixture(scope="module")
def base(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The repository's spec/ (releases left out) with conformance/vectors/ as `vectors/`, version 0.5.25."""
    folder = tmp_path_factory.mktemp("behaviour") / "base"
    shutil.copytree(REPO_ROOT / "spec", folder, ignore=shutil.ignore_patterns("releases"))
    shutil.copytree(REPO_ROOT / "conformance" / "vectors", folder / "vectors")
    contract = json.loads((folder / "contract.json").read_text(encoding="utf-8"))
    contract["contract_version"] = "0.5.25"
    (folder / "contract.json").write_text(json.dumps(contract, indent=2), encoding="utf-8")
    (folder / "CHANGELOG.md").write_text("# Changelog\n\n## 0.5.25\n\nThe release.\n", encoding="utf-8")
    return folder


def head_of(base: Path, into: Path, edits: list[tuple[str, str, str]], version: str = "", entry: str = "") -> Path:
    """A copy of `base` with each (file, text, replacement) applied (the text must occur once), its version moved
    to `version` with a changelog `entry` when given."""
    head = into / "head"
    shutil.copytree(base, head)
    for file, old, new in edits:
        text = (head / file).read_text(encoding="utf-8")
        assert text.count(old) == 1, (file, old)
        (head / file).write_text(text.replace(old, new), encoding="utf-8")
    if version:
        contract = json.loads((head / "contract.json").read_text(encoding="utf-8"))
        contract["contract_version"] = version
        (head / "contract.json").write_text(json.dumps(contract, indent=2), encoding="utf-8")
        with (head / "CHANGELOG.md").open("a", encoding="utf-8") as changelog:
            changelog.write(f"\n## {version}\n\n{entry or 'What changed.'}\n")
    return head


def run(base: Path, head: Path) -> Review:
    return review(load_folder(base, "base"), load_folder(head, "head"))


def _counted(r: Review) -> dict[str, tuple[str, bool, bool]]:
    """Case id → (type, old readers, new readers) of each behaviour change the gate counts."""
    return {
        c.location[0].removeprefix("case "): (c.type_name, c.old_readers, c.new_readers)
        for c in r.diff.changes
        if c.rule == behaviour.RULE
    }


# ---------------------------------------------------------------- every kind counts


@pytest.fixture(scope="module")
def every_kind(base: Path, tmp_path_factory: pytest.TempPathFactory) -> Review:
    return run(base, head_of(base, tmp_path_factory.mktemp("every-kind"), ONE_PER_KIND))


def test_a_changed_expectation_of_every_vector_kind_is_a_breaking_change(every_kind: Review) -> None:
    assert _counted(every_kind) == {
        "str-act-0001": ("(stream vectors)", True, True),
        "sch-pad-0001": ("(schedule vectors)", True, True),
        "env-0001": ("(envelope vectors)", True, True),
        "rows-0002": ("(rows_of vectors)", True, True),
        "upl-acts-0002": ("(uploader vectors)", True, True),
    }
    assert all("undecided" in c.note for c in every_kind.diff.changes if c.rule == behaviour.RULE)
    v = every_kind.verdict
    assert (v.required, v.passed) == ("minor", False)
    assert v.reasons == [
        "breaking changes need a minor bump (at least 0.6.0); the contract moved 0.5.25 → 0.5.25 (none)"
    ]


def test_the_markdown_report_shows_each_changed_case_in_full(every_kind: Review) -> None:
    text = report.markdown(every_kind)
    section = text[text.index("## Behaviour changes") : text.index("## Data backstop")]
    assert "Base 0.5.25 (base) → head 0.5.25 (head)" in section and "5 changed, 0 appeared, 0 disappeared" in section
    assert "| JSON path | base | head |" in section and "| 0.5.25 | 0.5.25 |" not in text
    assert "| `$.operations[0].expect.handed.y` | `[2]` | (absent) |" in section
    assert "| `$.expect.steps[0]` | `5` | `20` |" in section and "| `$.expect.steps[1]` | `20` | `5` |" in section
    assert "| `$.expect.rows[1]` | `[3, 4]` | (absent) |" in section
    assert "| `$.events[4].expect[0].act.seq` | `1` | `2` |" in section
    full = (
        '{"declaration": null, "operations": [{"act": {"inputs": {"x": 1, "y": [2]}}, "expect": {"handed": {"x": 1}}}]}'
    )
    assert f"```json\n{full}\n```" in section
    assert "(for another input)" not in text
    details = text[text.index("## Details per type") : text.index("## Behaviour changes")]
    assert "### (stream vectors)" in details and "`case str-act-0001`" in details


def test_the_json_report_carries_both_sides_and_every_differing_path(every_kind: Review) -> None:
    data = json.loads(json.dumps(report.as_json(every_kind)))
    moved = {m["case"]: m for m in data["behaviour"]["changes"]}
    act = moved["str-act-0001"]
    assert act["base"]["operations"][0]["expect"] == {"handed": {"x": 1, "y": [2]}}
    assert act["head"]["operations"][0]["expect"] == {"handed": {"x": 1}}
    assert act["differences"] == [{"path": "$.operations[0].expect.handed.y", "base": [2]}]
    assert (act["differences_total"], act["differences_cut"]) == (1, False)
    assert act["breaks_old_readers_of_new_data"] and act["breaks_new_readers_of_old_data"]
    assert act["file"].endswith("stream/act.yaml") and act["line"] > 0
    assert moved["sch-pad-0001"]["differences"] == [{"path": "$.expect.keeps_from", "base": 0, "head": 1}]
    counted = [c for c in data["changes"] if c["rule"] == "behaviour-changed"]
    assert {c["type"] for c in counted} == {
        f"({k} vectors)" for k in ("stream", "schedule", "envelope", "rows_of", "uploader")
    }


# ---------------------------------------------------------------- validation cases: the exact direction


def test_a_validation_case_that_flips_breaks_one_way_and_a_moved_refusal_both(base: Path, tmp_path: Path) -> None:
    camera = "vectors/validation/camera.yaml"
    edits = [
        (
            camera,
            "instance: {width: 1, height: 1}\n        valid: true",
            'instance: {width: 1, height: 1}\n        valid: false\n        error: {path: "$.width", rule: minimum}',
        ),
        (camera, *WIDTH_0),
        (
            camera,
            'quality: 101}\n        valid: false\n        error: {path: "$.quality", rule: maximum}',
            'quality: 101}\n        valid: false\n        error: {path: "$", rule: maximum}',
        ),
    ]
    r = run(base, head_of(base, tmp_path, edits))
    assert _counted(r) == {
        "val-camera-0002": ("(validation vectors)", False, True),
        "val-camera-0005": ("(validation vectors)", True, False),
        "val-camera-0012": ("(validation vectors)", True, True),
    }
    moved = {m.case_id: m for m in r.behaviour.changes}
    assert (moved["val-camera-0005"].before, moved["val-camera-0005"].after) == (
        "refused at $.width [minimum]",
        "valid",
    )
    assert [d.path for d in moved["val-camera-0012"].differences] == ["$.error.path"]


def test_a_case_that_appeared_disappeared_or_only_got_another_why_has_no_level(base: Path, tmp_path: Path) -> None:
    new_case = (
        "      - id: str-act-9001\n        why: A number is handed as it is.\n        declaration: null\n"
        "        operations:\n          - {act: {inputs: 5}, expect: {handed: 5}}\n"
    )
    edits = [
        (ACT, "      - id: str-act-0002\n", new_case + "      - id: str-act-0002\n"),
        (ACT, "an object here.", "an object, here."),
    ]
    head = head_of(base, tmp_path, edits)
    (head / "vectors/schedule/alone.yaml").unlink()
    r = run(base, head)
    assert _counted(r) == {}
    movements = {m.case_id: m.movement for m in r.behaviour.changes}
    assert movements["str-act-9001"] == "appeared" and "str-act-0001" not in movements
    assert {m for c, m in movements.items() if c.startswith("sch-alone-")} == {"disappeared"}
    assert (r.verdict.required, r.verdict.passed) == ("none", True)
    text = report.markdown(r)
    assert "Cases that appeared (1, no level of their own): stream: str-act-9001" in text


# ---------------------------------------------------------------- editorial marks


def test_an_editorial_mark_on_a_case_id_is_refused_and_says_why(base: Path, tmp_path: Path) -> None:
    entry = "Editorial:\n\n- `str-act-0001`: the expectation written more simply.\n"
    r = run(base, head_of(base, tmp_path, [(ACT, *HANDED)], "0.5.26", entry))
    assert _counted(r) == {"str-act-0001": ("(stream vectors)", True, True)}
    assert any("`str-act-0001` is a case whose expected result moved" in p for p in r.mark_problems)
    (change,) = [c for c in r.diff.changes if c.rule == behaviour.RULE]
    assert "not honoured" in change.note
    assert (r.verdict.required, r.verdict.actual, r.verdict.passed) == ("minor", "patch", False)


@pytest.mark.parametrize(
    ("document", "text", "reworded", "section", "edit", "honoured"),
    [
        ("stream.md", "The line only moves up", "The line never moves down", "8. Retention", ONE_PER_KIND[0], False),
        ("stream.md", "The line only moves up", "The line never moves down", "8. Retention", ONE_PER_KIND[1], True),
        (
            "schedule.md",
            "The next act is at",
            "The next act comes at",
            "6. `keeps_from(s, t)` → integer",
            ONE_PER_KIND[3],
            False,
        ),
        ("uploader.md", "its seconds with one", "its seconds by one", "7. The clock", ONE_PER_KIND[4], False),
    ],
    ids=["stream-case-moved", "only-schedule-case-moved", "rows-of-case-moved", "uploader-case-moved"],
)
def test_a_section_mark_is_refused_while_a_case_its_document_governs_moved(
    base: Path,
    tmp_path: Path,
    document: str,
    text: str,
    reworded: str,
    section: str,
    edit: tuple[str, str, str],
    honoured: bool,
) -> None:
    entry = f"Editorial:\n\n- {document} § {section}: reworded.\n"
    r = run(base, head_of(base, tmp_path, [(document, text, reworded), edit], "0.5.26", entry))
    (prose,) = [c for c in r.diff.changes if c.type_name == f"({document})"]
    assert (prose.level == "editorial") is honoured, prose.note
    refusals = [p for p in r.mark_problems if f"{document} decides the expectations of its vector cases" in p]
    assert bool(refusals) is not honoured


# ---------------------------------------------------------------- the head contradicting itself


def test_a_head_that_contradicts_its_own_vectors_fails_with_that_reason_first(
    base: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    edits = [("vectors/validation/camera.yaml", *WIDTH_0)]
    head = head_of(base, tmp_path, edits, "0.6.0", "A width of 0 is accepted.")
    r = run(base, head)
    v = r.verdict
    assert (v.required, v.actual, v.passed) == ("minor", "minor", False)  # the bump alone would pass
    assert v.reasons == [
        "the head contradicts its own vectors: 1 case(s), first val-camera-0005 (Camera) is declared valid, and the "
        "head's own rules refuse it at $.width [minimum]"
    ]
    assert main(["--base", str(base), "--head", str(head), "--json", str(tmp_path / "r.json")]) == 1
    printed = capsys.readouterr().out
    gate = printed[printed.index("**Gate: FAIL**") : printed.index("## Summary")]
    assert gate.splitlines()[1].startswith("- the head contradicts its own vectors")
    assert "- the head contradicts its own vectors (1 case(s); the gate fails):" in printed
    data = json.loads((tmp_path / "r.json").read_text(encoding="utf-8"))
    assert data["backstop"]["contradictions"] == [
        {
            "side": "head",
            "case": "val-camera-0005",
            "type": "Camera",
            "declared": "valid",
            "found": "refuse it at $.width [minimum]",
        }
    ]


def test_a_head_that_declares_refused_what_its_rules_accept_fails_and_a_base_doing_so_is_listed(
    base: Path, tmp_path: Path
) -> None:
    refused = (
        "instance: {width: 1, height: 1}\n        valid: true",
        'instance: {width: 1, height: 1}\n        valid: false\n        error: {path: "$.width", rule: minimum}',
    )
    wrong = head_of(base, tmp_path / "wrong", [("vectors/validation/camera.yaml", *refused)], "0.6.0")
    r = run(base, wrong)
    assert r.verdict.reasons[0].startswith("the head contradicts its own vectors: 1 case(s), first val-camera-0002")
    assert "declared refused, and the head's own rules accept it" in r.verdict.reasons[0]
    back = review(load_folder(wrong, "base"), load_folder(base, "head"))
    assert [c.case_id for c in back.backstop.contradicting("base")] == ["val-camera-0002"]
    assert not any("contradicts" in reason for reason in back.verdict.reasons)
    assert "- the base contradicts its own vectors (1 case(s); listed):" in report.markdown(back)


# ---------------------------------------------------------------- the differences, as data


def test_differences_name_every_path_with_each_sides_value() -> None:
    base = {"a": 1, "b": [1, 2, 3], "c": {"d": None}, "same": 1.0}
    head = {"a": 2, "b": [1, 3], "c": {}, "e": "new", "same": 1}
    found, total = differences(base, head)
    shown = [(d.path, d.base if d.in_base else "-", d.head if d.in_head else "-") for d in found]
    assert shown == [
        ("$.a", 1, 2),
        ("$.b[1]", 2, 3),
        ("$.b[2]", 3, "-"),
        ("$.c.d", None, "-"),
        ("$.e", "-", "new"),
    ]
    assert total == 5


def test_a_long_list_of_differences_is_cut_and_says_so() -> None:
    found, total = differences(list(range(600)), [n + 1 for n in range(600)])
    assert (len(found), total) == (behaviour.MAX_DIFFERENCES, 600)
    change = CaseChange(
        "x-0001", "stream", "(stream vectors)", "changed", "a", "b", differences=found, differences_total=total
    )
    lines = behaviour_report.difference_lines(change)
    assert f"(the first {behaviour.MAX_DIFFERENCES} of 600 paths are listed)" in lines


@pytest.mark.parametrize(
    ("parts", "path"),
    [((), "$"), (("a", 0, "b"), "$.a[0].b"), (("front cam",), '$["front cam"]'), (("x-y", 2), '$["x-y"][2]')],
)
def test_json_paths_read_like_the_reports_others(parts: tuple[Any, ...], path: str) -> None:
    assert format_path(parts) == path


def _kinds(root: Path) -> Iterator[str]:
    yield from sorted({p.parent.name for p in (root / "conformance" / "vectors").rglob("*.yaml")})


def test_every_kind_the_repository_has_is_governed_or_known() -> None:
    governed = {kind for kinds in behaviour.GOVERNED_BY.values() for kind in kinds}
    folders = {kind.replace("-", "_") for kind in _kinds(REPO_ROOT)}
    assert folders == governed


def test_a_vector_of_a_type_its_version_lacks_is_not_a_contradiction(base: Path, tmp_path: Path) -> None:
    head = head_of(base, tmp_path, [("schemas/Episodes.json", '"title": "Episodes"', '"title": "EpisodeMode"')])
    r = run(base, head)
    assert r.backstop.contradicting("head") == [] and r.backstop.not_checked["Episodes"] > 0
    assert not any("contradicts" in reason for reason in r.verdict.reasons)


def test_a_behaviour_change_is_one_finding_whose_fingerprint_an_entry_accepts(base: Path, tmp_path: Path) -> None:
    r = run(base, head_of(base, tmp_path / "plain", [(ACT, *HANDED)]))
    (change,) = [c for c in r.diff.changes if c.rule == behaviour.RULE]
    (moved,) = [m for m in r.behaviour.changes if m.case_id == "str-act-0001"]
    fingerprint = r.fingerprints[change]
    assert fingerprint == r.case_fingerprints[moved]
    (item,) = [i for i in findings.items(r) if "str-act-0001" in i.title]
    assert item.level == "error" and item.place is not None and item.place.file.endswith("stream/act.yaml")
    assert f"fingerprint `{fingerprint}`" in report.markdown(r)
    head = head_of(base, tmp_path / "accepted", [(ACT, *HANDED)])
    entry = f'accepted:\n  - fingerprint: "{fingerprint}"\n    reason: "Intended."\n    approved_by: "@owners"\n'
    (head / FILE_NAME).write_text(entry, encoding="utf-8")
    accepted = run(base, head)
    assert (accepted.verdict.required, accepted.verdict.passed) == ("none", True)
    (moved_json,) = [m for m in report.as_json(accepted)["behaviour"]["changes"] if m["case"] == "str-act-0001"]
    assert moved_json["fingerprint"] == fingerprint and moved_json["accepted"]["reason"] == "Intended."
