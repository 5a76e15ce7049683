"""`iospec bump-review` on what its reviewers found: bad folders are one line and exit 2 (never the gate's 1, never
a traceback), directions are decided by content with a witness as evidence (patterns as regular languages,
x-rules by proof and witness search), every edited section of a normative document is in the report, an
editorial mark in the changelog is honoured unless the data contradicts it, a contract limit that disagrees
with its schema is flagged, and the report names base and head and lists only what changed.

The accuracy on 50 synthetic changes is tests/test_bump_accuracy.py's; here each behaviour has a small pair.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from seq_io.bump_review import number_sets, regex_language, report
from seq_io.bump_review.decide import Side, expand, includes
from seq_io.bump_review.review import review
from seq_io.bump_review.snapshot import load_folder
from test_bump_review import INT, STR, obj, write_spec

REPO_ROOT = Path(__file__).resolve().parents[1]

RELEASE = REPO_ROOT / "spec" / "releases" / "0.5.25"


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "seq_io.bump_review", *args], capture_output=True, text=True, timeout=120, cwd=REPO_ROOT
    )


# -- bad input ----------------------------------------------------------------------------------------------


def _holder(root: Path) -> Path:
    return write_spec(root, "0.1.0", {"A": obj({"b": {"$ref": "B.json"}}), "B": obj({"y": STR})})


def _bad_folders(tmp: Path) -> list[tuple[str, Path, str]]:
    out = []
    deleted = _holder(tmp / "deleted")
    (deleted / "schemas" / "B.json").unlink()
    out.append(
        (
            "a schema removed while another refers to it",
            deleted,
            "A.json: /properties/b: `$ref` 'B.json' names nothing in",
        )
    )
    pointer = write_spec(tmp / "pointer", "0.1.0", {"A": obj({"x": {"$ref": "#/$defs/nope"}})})
    out.append(("a pointer to nothing", pointer, "`$ref` '#/$defs/nope' names nothing"))
    remote = write_spec(tmp / "remote", "0.1.0", {"A": obj({"x": {"$ref": "https://example.com/x.json"}})})
    out.append(("a remote reference", remote, "names nothing"))
    twice = _holder(tmp / "twice")
    (twice / "schemas" / "C.json").write_text(
        json.dumps({"$id": "https://seq-io-spec.example/schemas/C.json", "title": "B"})
    )
    out.append(("two schemas with one title", twice, "its title 'B' is also the title of B.json"))
    cycle = write_spec(tmp / "cycle", "0.1.0", {"A": {"$ref": "A.json"}})
    out.append(("a $ref cycle", cycle, "refers back to itself"))
    deep = write_spec(tmp / "deep", "0.1.0", {"A": obj({})})
    (deep / "schemas" / "A.json").write_text(
        '{"$id": "https://seq-io-spec.example/schemas/A.json", "title": "A", '
        '"items": ' + '{"items": ' * 5000 + "{}" + "}" * 5001
    )
    out.append(("a schema nested 5,000 deep", deep, "nested deeper than 100 levels"))
    latin = _holder(tmp / "latin")
    (latin / "validation.md").write_bytes(b"# Validation\n\ncaf\xe9\n")
    out.append(("validation.md not UTF-8", latin, "validation.md: not UTF-8"))
    changelog = _holder(tmp / "changelog")
    (changelog / "CHANGELOG.md").write_bytes(b"## 0.1.0 \xff\n")
    out.append(("CHANGELOG.md not UTF-8", changelog, "CHANGELOG.md: not UTF-8"))
    return out


@pytest.mark.slow
def test_a_bad_folder_is_one_line_and_exit_2_on_either_side(tmp_path: Path) -> None:
    good = _holder(tmp_path / "good")
    for what, folder, words in _bad_folders(tmp_path):
        for argv in (["--base", str(folder), "--head", str(good)], ["--base", str(good), "--head", str(folder)]):
            done = run(*argv)
            assert done.returncode == 2, (what, done.returncode, done.stderr[-500:])
            assert words in done.stderr and done.stderr.count("\n") == 1, (what, done.stderr)
            assert "Traceback" not in done.stderr + done.stdout and done.stdout == "", what


# -- directions by content ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("old", "new", "relation"),
    [
        ("^[a-z0-9][a-z0-9._-]{0,31}(?![\\s\\S])", "^[a-z0-9][a-z0-9._-]{0,15}(?![\\s\\S])", "narrowed"),
        ("^[a-z0-9][a-z0-9._-]{0,31}(?![\\s\\S])", "^[a-z0-9][a-z0-9._-]{0,63}(?![\\s\\S])", "widened"),
        ("^[a-z0-9][a-z0-9._-]{0,31}(?![\\s\\S])", "^[0-9a-z][-a-z0-9._]{0,31}(?![\\s\\S])", "equal"),
        ("^[0-9]{4}$", "^\\d{4}$", "equal"),
        ("a", "^a", "narrowed"),  # unanchored: "a" anywhere
        ("^a.b$", "^a[\\s\\S]b$", "widened"),  # . excludes line terminators
        ("^x$", "^y$", "changed"),
        ("^\\u00e9+$", "^é$", "narrowed"),
    ],
)
def test_patterns_are_compared_as_regular_languages(old: str, new: str, relation: str) -> None:
    found = regex_language.compare(old, new)
    assert found is not None and found.relation == relation
    for text, accepted_by_old in ((found.only_old, True), (found.only_new, False)):
        if text is not None:  # each witness really lies on its side only
            assert regex_language.accepts(old, text) is accepted_by_old
            assert regex_language.accepts(new, text) is not accepted_by_old


@pytest.mark.parametrize("pattern", ["(?=a)b", "(a)\\1", "\\bword", "a(?<=a)"])
def test_a_pattern_outside_the_subset_is_undecided_not_guessed(pattern: str) -> None:
    assert regex_language.compare(pattern, "a") is None


def test_a_narrowed_pattern_is_reported_with_its_witness(tmp_path: Path) -> None:
    old = load_folder(write_spec(tmp_path / "b", "0.1.0", {"A": obj({"x": {**STR, "pattern": "^[a-z]{0,31}$"}})}))
    new = load_folder(
        write_spec(
            tmp_path / "h", "0.2.0", {"A": obj({"x": {**STR, "pattern": "^[a-z]{0,15}$"}})}, changelog=("0.2.0",)
        )
    )
    r = review(old, new)
    (change,) = r.diff.changes
    assert (change.rule, change.old_readers, change.new_readers) == ("bound-tightened", False, True)
    assert change.evidence == ('"aaaaaaaaaaaaaaaa" is accepted by the old pattern only',)
    assert 'witness for `$.x`: "aaaaaaaaaaaaaaaa" is accepted by the old pattern only' in report.markdown(r)


QUALITY = {
    "x-rule": "A.q",
    "description": "q needs c = jpeg",
    "if": {"required": ["q"]},
    "then": {"required": ["c"], "properties": {"c": {"const": "jpeg"}}},
}
A = {"q": INT, "c": {"enum": ["jpeg", "png", "raw"]}}


@pytest.mark.parametrize(
    ("then", "old", "new", "witness"),
    [
        ({"required": ["c"], "properties": {"c": {"enum": ["jpeg", "png"]}}}, True, False, '"c": "png"'),
        ({"required": ["c"], "properties": {"c": {"const": "png"}}}, True, True, '"c": "png"'),
        ({"required": ["c"], "properties": {"c": {"enum": ["jpeg"]}}}, False, False, None),
    ],
)
def test_an_x_rule_is_decided_by_proof_and_witness(
    tmp_path: Path, then: dict[str, Any], old: bool, new: bool, witness: str | None
) -> None:
    base = load_folder(write_spec(tmp_path / "b", "0.1.0", {"A": obj(A, allOf=[QUALITY])}))
    head = load_folder(write_spec(tmp_path / "h", "0.1.0", {"A": obj(A, allOf=[{**QUALITY, "then": then}])}))
    (change,) = review(base, head).diff.changes
    assert (change.old_readers, change.new_readers) == (old, new), change.note
    assert (witness is None) == (not change.evidence)
    if witness:
        assert (
            witness in change.evidence[0] and "accepted by the new version and refused by the old" in change.evidence[0]
        )
    if not old and not new:
        assert change.level == "editorial" and "proven" in change.note


def test_the_proof_is_sound_on_what_it_claims() -> None:
    side = Side(load_folder(RELEASE).spec)
    assert includes({"enum": [1, 2, 3]}, {"const": 2})
    assert not includes({"const": 2}, {"enum": [1, 2]})
    assert includes({"type": "number"}, {"type": "integer", "minimum": 0})
    assert includes({"maximum": 10}, {"exclusiveMaximum": 10}) and not includes(
        {"exclusiveMaximum": 10}, {"maximum": 10}
    )
    assert includes({"not": {"required": ["x", "y"]}}, {"not": {"required": ["x"]}})
    assert not includes({"not": {"required": ["x"]}}, {"not": {"required": ["x", "y"]}})
    assert includes(
        {"$ref": "Camera.json"},
        {"$ref": "Camera.json"},
        side,
        side,
        "https://seq-io-spec.example/schemas/Stream.json",
        "https://seq-io-spec.example/schemas/Stream.json",
    )
    assert not includes(
        {"if": {"required": ["a"]}, "then": {"required": ["b"]}},
        {"if": {"required": ["b"]}, "then": {"required": ["b"]}},
    )  # another `if`: unproven


def test_a_limit_raised_in_contract_json_is_loosening_and_a_mismatch_with_its_schema(tmp_path: Path) -> None:
    schemas = {"A": obj({"at": {"type": "array", "maxItems": 4, "x-limits": {"maxItems": "MAX_W"}}})}
    base = load_folder(write_spec(tmp_path / "b", "0.1.0", schemas, constants={"MAX_W": 4}))
    head = load_folder(write_spec(tmp_path / "h", "0.2.0", schemas, constants={"MAX_W": 8}, changelog=("0.2.0",)))
    r = review(base, head)
    (change,) = r.diff.changes
    assert (change.rule, change.old_readers, change.new_readers) == ("constant-changed", True, False)
    assert r.limits == {"base": [], "head": ["A.json#/properties/at: `maxItems` is 4 but contract.json's MAX_W is 8"]}
    assert not r.verdict.passed and "disagree on 1 limit(s)" in r.verdict.reasons[0]


# -- prose and editorial marks ------------------------------------------------------------------------------

DOC = "# Validation\n\n## Dates\n\nA leap second is accepted at any minute.\n\n## Numbers\n\nUnchanged.\n"


def _prose_pair(tmp_path: Path, new_text: str, changelog: str = "") -> Any:
    base = load_folder(write_spec(tmp_path / "b", "0.1.0", {"A": obj({})}, changelog=("0.1.0",)))
    head_root = write_spec(tmp_path / "h", "0.1.0", {"A": obj({})}, changelog=("0.1.0",))
    (base.spec.root / "validation.md").write_text(DOC)
    (head_root / "validation.md").write_text(new_text)
    (head_root / "CHANGELOG.md").write_text("# Changelog\n\n## 0.1.0\n\nWhat changed.\n" + changelog)
    return review(load_folder(base.spec.root), load_folder(head_root))


def test_a_tightened_sentence_of_normative_prose_is_in_the_report_and_needs_a_bump(tmp_path: Path) -> None:
    r = _prose_pair(tmp_path, DOC.replace("at any minute", "only at 23:59 UTC"))
    (change,) = r.diff.changes
    assert (change.type_name, change.location, change.rule) == ("(validation.md)", ("§ Dates",), "prose-changed")
    assert (change.old_readers, change.new_readers) == (True, True) and "undecided" in change.note
    assert change.excerpt == (
        "@@ -1,3 +1,3 @@",
        " ",
        "-A leap second is accepted at any minute.",
        "+A leap second is accepted only at 23:59 UTC.",
        " ",
    )
    text = report.markdown(r)
    assert "+A leap second is accepted only at 23:59 UTC." in text and not r.verdict.passed


def test_an_editorial_mark_in_the_changelog_is_honoured_and_shown(tmp_path: Path) -> None:
    mark = '\nEditorial:\n\n- validation.md § Dates: "at any minute" reads "at every minute".\n'
    r = _prose_pair(tmp_path, DOC.replace("at any minute", "at every minute"), mark)
    (change,) = r.diff.changes
    assert change.level == "editorial" and r.verdict.passed and r.verdict.required == "none"
    assert change.note == 'marked editorial (CHANGELOG.md, entry 0.1.0): "at any minute" reads "at every minute".'
    assert "marked editorial (CHANGELOG.md, entry 0.1.0)" in report.markdown(r)


def test_a_mark_may_name_a_heading_that_holds_a_colon(tmp_path: Path) -> None:
    # spec/stream.md's "10. On the wire: statuses, …": the item's first ": " is inside the heading, so the mark must
    # try the later one too (before, the target was the heading's first half, which names no section).
    doc = DOC.replace("## Dates", "## Dates: leap seconds")
    base_changelog = '\nEditorial:\n\n- validation.md § Dates: leap seconds: "any" reads "every".\n'
    base = load_folder(write_spec(tmp_path / "b", "0.1.0", {"A": obj({})}, changelog=("0.1.0",)))
    head_root = write_spec(tmp_path / "h", "0.1.0", {"A": obj({})}, changelog=("0.1.0",))
    (base.spec.root / "validation.md").write_text(doc)
    (head_root / "validation.md").write_text(doc.replace("at any minute", "at every minute"))
    (head_root / "CHANGELOG.md").write_text("# Changelog\n\n## 0.1.0\n\nWhat changed.\n" + base_changelog)
    r = review(load_folder(base.spec.root), load_folder(head_root))
    (change,) = r.diff.changes
    assert change.location == ("§ Dates: leap seconds",) and change.level == "editorial" and r.verdict.passed
    assert change.note == 'marked editorial (CHANGELOG.md, entry 0.1.0): "any" reads "every".'
    assert not any("names no change" in note for note in r.notes)


def test_a_mark_the_data_contradicts_is_not_honoured_and_a_stale_mark_is_reported(tmp_path: Path) -> None:
    base = load_folder(write_spec(tmp_path / "b", "0.1.0", {"A": obj({"x": {**STR, "pattern": "^a+$"}})}))
    head = write_spec(tmp_path / "h", "0.1.0", {"A": obj({"x": {**STR, "pattern": "^a$"}})}, changelog=("0.1.0",))
    (head / "CHANGELOG.md").write_text(
        "## 0.1.0\n\nEditorial:\n\n- A $.x: the same pattern.\n- validation.md § Nowhere: a typo.\n"
    )
    r = review(base, load_folder(head))
    (change,) = r.diff.changes
    assert change.level == "breaking" and "not honoured" in change.note
    assert any("`A $.x` is not honoured" in note for note in r.notes)
    assert any("`validation.md § Nowhere` (0.1.0) names no change" in note for note in r.notes)


# -- the report ---------------------------------------------------------------------------------------------


def test_the_report_names_base_and_head_and_lists_only_what_changed(tmp_path: Path) -> None:
    same = load_folder(RELEASE, "spec/releases/0.5.25")
    r = review(same, same)
    text = report.markdown(r)
    assert (
        "valid vector(s) of the base (0.5.25, spec/releases/0.5.25) validated under the head (0.5.25, "
        "spec/releases/0.5.25)" in text
    )
    assert "Nothing changed." in text and f"{len(same.spec.schemas)} other type(s) unchanged." in text
    head = tmp_path / "h"
    shutil.copytree(RELEASE, head)
    camera = json.loads((head / "schemas" / "Camera.json").read_text())
    camera["properties"]["width"]["maximum"] = 4096
    (head / "schemas" / "Camera.json").write_text(json.dumps(camera))
    text = report.markdown(review(same, load_folder(head, "head")))
    summary = text.split("## Summary")[1].split("## Details")[0]
    assert "| Camera | changed |" in summary and "| Lease |" not in summary
    assert "other type(s) unchanged." in summary


# -- numbers as sets (number_sets) and references followed (decide.expand) ------------------------------------


def _ints(**bounds: Any) -> number_sets.NumberSet:
    return number_sets.of(bounds, Fraction(1))


@pytest.mark.parametrize(
    ("before", "after"),
    [
        ({"maximum": 100}, {"exclusiveMaximum": 101}),
        ({"minimum": 1}, {"exclusiveMinimum": 0}),
        ({"minimum": 1}, {"exclusiveMinimum": 0.5}),
        ({"maximum": 100}, {"maximum": 100.5}),
        ({"minimum": 1, "maximum": 64}, {"exclusiveMinimum": 0, "exclusiveMaximum": 65}),
    ],
)
def test_integer_bounds_spelled_two_ways_are_one_set(before: dict[str, Any], after: dict[str, Any]) -> None:
    old, new = _ints(**before), _ints(**after)
    assert old == new and number_sets.includes(old, new) and number_sets.includes(new, old)
    assert number_sets.witness(old, new) is None and number_sets.witness(new, old) is None


def test_on_the_reals_the_same_rewrite_is_a_loosening_with_a_witness() -> None:
    old, new = number_sets.of({"maximum": 100}, None), number_sets.of({"exclusiveMaximum": 101}, None)
    assert number_sets.includes(new, old) and not number_sets.includes(old, new)
    only_new = number_sets.witness(new, old)
    assert only_new is not None and only_new in new and only_new not in old


def test_an_exclusive_bound_at_the_same_integer_drops_that_integer_and_shows_it() -> None:
    old, new = _ints(maximum=100), _ints(exclusiveMaximum=100)
    assert number_sets.includes(old, new) and not number_sets.includes(new, old)
    assert number_sets.witness(old, new) == 100


def test_shifted_integer_bounds_break_both_ways_with_a_witness_each() -> None:
    old, new = _ints(minimum=1, maximum=10), _ints(minimum=2, maximum=11)
    assert not number_sets.includes(old, new) and not number_sets.includes(new, old)
    assert number_sets.witness(old, new) == 1 and number_sets.witness(new, old) == 11


def test_the_tighter_of_two_keywords_wins_and_an_empty_set_is_within_any() -> None:
    both = _ints(minimum=1, exclusiveMinimum=3)
    assert both.low == 4
    empty = _ints(minimum=5, maximum=4)
    assert empty.empty and number_sets.includes(_ints(minimum=100), empty)
    assert not number_sets.includes(empty, _ints())


def test_a_grid_of_multiples_closes_the_ends_onto_it() -> None:
    evens = number_sets.of({"minimum": 1, "exclusiveMaximum": 10}, Fraction(2))
    assert (evens.low, evens.high) == (Fraction(2), Fraction(8))
    assert Fraction(4) in evens and Fraction(5) not in evens
    assert number_sets.step_of({"multipleOf": 0.5}, False) == Fraction(1, 2)
    assert number_sets.step_of({"multipleOf": 0.5}, True) == 1
    assert number_sets.step_of({"multipleOf": 1.5}, True) == 3
    assert number_sets.step_of({}, True) == 1 and number_sets.step_of({}, False) is None
    assert number_sets.number(True) is None and number_sets.number(0.1) == Fraction(1, 10)


def _side(tmp: Path, schemas: dict[str, Any]) -> tuple[Side, str]:
    root = write_spec(tmp, "0.1.0", schemas)
    return Side(load_folder(root).spec), "https://seq-io-spec.example/schemas/A.json"


def test_expand_follows_references_and_keeps_siblings_beside_them(tmp_path: Path) -> None:
    side, uri = _side(tmp_path, {"A": obj({"b": {"$ref": "B.json"}}), "B": obj({"y": STR})})
    found = expand(side, uri, {"$ref": "B.json", "required": ["y"]})
    assert not found.cut
    target, siblings = found.node["allOf"]
    assert target["properties"] == {"y": STR} and siblings == {"required": ["y"]}
    assert expand(side, uri, {"enum": [{"$ref": "B.json"}]}).node == {"enum": [{"$ref": "B.json"}]}


def test_expand_stops_at_32_references_and_says_so(tmp_path: Path) -> None:
    chain = {f"T{i}": {**obj({}), "properties": {"n": {"$ref": f"T{i + 1}.json"}}} for i in range(40)}
    chain["T40"] = obj({})
    side, _ = _side(tmp_path, chain)
    found = expand(side, "https://seq-io-spec.example/schemas/T0.json", {"$ref": "T0.json"})
    assert found.cut
    assert not expand(side, "https://seq-io-spec.example/schemas/T0.json", {"$ref": "T30.json"}).cut


def test_a_ref_to_a_type_accepting_the_same_is_editorial_and_says_why(tmp_path: Path) -> None:
    schemas = {"B": obj({"y": STR}), "D": obj({"y": STR}, description="the same, named otherwise")}
    old = write_spec(tmp_path / "base", "0.1.0", {"A": obj({"b": {"$ref": "B.json"}}), **schemas})
    new = write_spec(tmp_path / "head", "0.1.0", {"A": obj({"b": {"$ref": "D.json"}}), **schemas})
    (change,) = review(load_folder(old), load_folder(new)).diff.changes
    assert (change.rule, change.level) == ("ref-changed", "editorial") and "proven" in change.note


def test_a_nullable_union_gaining_a_branch_is_one_row_breaking_old_readers_only(tmp_path: Path) -> None:
    nullable = {"anyOf": [STR, {"type": "null"}]}
    gained = {"anyOf": [STR, {"type": "null"}, {**INT, "minimum": 0, "maximum": 9}]}
    old = write_spec(tmp_path / "base", "0.1.0", {"A": obj({"x": nullable})})
    new = write_spec(tmp_path / "head", "0.1.0", {"A": obj({"x": gained})})
    (change,) = review(load_folder(old), load_folder(new)).diff.changes
    assert (change.old_readers, change.new_readers) == (True, False)
    assert change.evidence and "accepted by the new version" in change.evidence[0]


def test_a_type_with_few_values_is_proven_within_an_enumeration_holding_them() -> None:
    assert includes({"enum": [None, "raw"]}, {"type": "null"})
    assert includes({"enum": [True, False, 0]}, {"type": "boolean"})
    assert not includes({"const": True}, {"type": "boolean"})
    assert not includes({"enum": [None]}, {"type": ["null", "string"]})
