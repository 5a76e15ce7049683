"""`iospec bump-review`: the real history 0.5.23 → 0.5.25 (every change the 0.5.25 entry of spec/CHANGELOG.md lists,
with its classification, the data backstop, the behaviour diff, the gate's verdict), one synthetic pair of spec folders
per classification rule, the gate on synthetic bumps, the release snapshots, and bad input.
"""

from __future__ import annotations

import json
import re
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from seq_io import vectors
from seq_io.bump_review import behaviour, main, report, rules
from seq_io.bump_review.review import Review, review
from seq_io.bump_review.rules import RULES, Change, render_location
from seq_io.bump_review.schema_diff import diff
from seq_io.bump_review.snapshot import (
    InputError,
    latest_release,
    load_folder,
    load_git_ref,
    open_snapshot,
    working_tree,
)
from seq_io.reference.beyond_schema import BEYOND_SCHEMA_RULES
from seq_io.reference.rule_ids import known_rule_ids, schema_rule_ids
from seq_io.reference.spec_data import load_spec
from seq_io.reference.validation import MODEL_REFUSED, contract
from seq_io.reference.validation_cases import outcome_of

REPO_ROOT = Path(__file__).resolve().parents[1]
"""The checkout these tests run in."""

SPEC = REPO_ROOT / "spec"
RELEASES = SPEC / "releases"
OLD, NEW = RELEASES / "0.5.23", RELEASES / "0.5.25"


# ---------------------------------------------------------------- the real history 0.5.23 -> 0.5.25


@pytest.fixture(scope="module")
def history() -> Review:
    """0.5.23 → 0.5.25 from the two release snapshots (the working tree may move on; the releases do not)."""
    return review(load_folder(OLD, "spec/releases/0.5.23"), load_folder(NEW, "spec/releases/0.5.25"))


def _entries(r: Review) -> set[tuple[str, str, str, bool, bool]]:
    return {
        (c.type_name, c.rule, render_location(c.location), c.old_readers, c.new_readers)
        for c in r.diff.changes
        if c.rule != "annotation-changed"
    }


# fmt: off
B, C = True, False  # readability of the table below: B = breaks, C = does not break
CHANGELOG_0_5_25: list[tuple[str, list[tuple[str, str, str, bool, bool]]]] = [
    ("new module own-I/O: Stream, Observations, Actions, Tensors, MAX_STREAMS, MAX_WINDOW", [
        ("Stream", "type-added", "$", C, C), ("Observations", "type-added", "$", C, C),
        ("Actions", "type-added", "$", C, C), ("Tensors", "type-added", "$", C, C),
        ("(contract.json)", "constant-added", "$.limits.MAX_STREAMS", C, C),
        ("(contract.json)", "constant-added", "$.limits.MAX_WINDOW", C, C)]),
    ("new module observe: ObserveFrame, ObserveRequest, ObserveResponse, FORMAT, FRAMES_*", [
        ("ObserveFrame", "type-added", "$", C, C), ("ObserveRequest", "type-added", "$", C, C),
        ("ObserveResponse", "type-added", "$", C, C),
        ("(contract.json)", "constant-added", "$.observe_format", C, C),
        ("(contract.json)", "constant-added", "$.error_codes.frames_missing", C, C),
        ("(contract.json)", "constant-added", "$.error_codes.frames_over_limit", C, C)]),
    ("new alias Episodes", [("Episodes", "type-added", "$", C, C)]),
    ("ActRequest seq (a 0.5.23 reader refuses a body carrying it)",
     [("ActRequest", "property-added-closed", "$.seq", B, C)]),
    ("Timeouts episode_idle (a 0.5.23 reader refuses it)",
     [("Timeouts", "property-added-closed", "$.episode_idle", B, C)]),
    ("Camera codec", [("Camera", "property-added-closed", "$.codec", B, C)]),
    ("Camera quality, and its rule needing codec jpeg", [
        ("Camera", "property-added-closed", "$.quality", B, C), ("Camera", "rule-added", "$", C, C)]),
    ("Camera layout", [("Camera", "property-added-closed", "$.layout", B, C)]),
    ("ObservationContract camera rule", [("ObservationContract", "rule-added", "$.cameras.*", C, C)]),
    ("ConnectResponse observations", [("ConnectResponse", "property-added-closed", "$.observations", B, C)]),
    ("ConnectResponse actions", [("ConnectResponse", "property-added-closed", "$.actions", B, C)]),
    ("DeploymentPolicy episodes", [("DeploymentPolicy", "property-added-closed", "$.episodes", B, C)]),
    ("DeploymentPolicy streaming: no longer written, normalized with episodes, refused beside shared", [
        ("DeploymentPolicy", "normalization-added", "$", B, C),
        ("DeploymentPolicy", "rule-added", "$", C, C),
        # its description now states that rule (`true` means `episodes: "own"`): values changed, undecided
        ("DeploymentPolicy", "description-values-changed", "$.streaming", B, B)]),
    ("DeploymentPolicy own_observations removed (breaks new readers of old records)",
     [("DeploymentPolicy", "property-removed-closed", "$.own_observations", C, B)]),
    ("DeploymentPolicy own_actions removed",
     [("DeploymentPolicy", "property-removed-closed", "$.own_actions", C, B)]),
    ("DeploymentPolicy observations, actions, tensors (a 0.5.23 reader refuses a 0.5.25 dump)", [
        ("DeploymentPolicy", "property-added-closed", "$.observations", B, C),
        ("DeploymentPolicy", "property-added-closed", "$.actions", B, C),
        ("DeploymentPolicy", "property-added-closed", "$.tensors", B, C),
        # the type's description names the new members in code spans: values changed, undecided
        ("DeploymentPolicy", "description-values-changed", "$", B, B)]),
    ("DeploymentPolicy own-I/O exclusivity rule keeps its shape over the new fields",
     [("DeploymentPolicy", "rule-changed", "$", C, C)]),
    ("SeqFlags SAMPLE", [("SeqFlags", "enum-values-added", "$", B, C)]),
    ("limits: stream limits", [
        ("(contract.json)", "constant-added", f"$.limits.{name}", C, C)
        for name in ("MAX_STREAM_FRAMES", "MAX_STREAM_BYTES", "MAX_WORKER_STREAM_BYTES", "STREAM_WAIT_S")]),
]
"""Every change of the 0.5.25 entry of spec/CHANGELOG.md → the entries the report must have."""

SPEC_DECISIONS: list[tuple[str, list[tuple[str, str, str, bool, bool]]]] = [
    ("wire.json-syntax now names the BOM and lone surrogates (spec/decisions.md A8)",
     [("(wire)", "rule-changed", "$", B, B)]),
    ("DeploymentPolicy.param-name tests the key as sent, Unicode 14.0 (AMBIGUITIES.md A3)",
     [("DeploymentPolicy", "rule-changed", "$", B, B)]),
    ("StreamError: the error body of the observation stream (spec/stream.md § 10)",
     [("StreamError", "type-added", "$", C, C)]),
    ("the contract limits MAX_JSON_DEPTH and MAX_INTEGER_DIGITS (wire.too-deep, wire.integer-too-long; issue 12)",
     [("(wire)", "rule-added", "$", False, True),
      *(("(contract.json)", "constant-added", f"$.limits.{name}", C, C)
        for name in ("MAX_JSON_DEPTH", "MAX_INTEGER_DIGITS"))]),
]
"""Changes between the two snapshots that are this spec's own decisions for 0.5.25 (the changelog entry's last
list, "Decided by this package")."""

DECISION_DETAILS = {
    "wire rule `wire.json-syntax`: its text in validation.md changed",
    "beyond-schema rule `DeploymentPolicy.param-name`: its text in validation.md changed",
    "wire rule `wire.too-deep` added (validation.md)",
    "wire rule `wire.integer-too-long` added (validation.md)",
}
"""The same changes as the report words them."""
LIMIT_RULES = {"wire.too-deep", "wire.integer-too-long"}
"""Wire rules 0.5.25 gained with the contract limits (spec/validation.md, "Limits")."""

DECISION_CASES = {
    "val-action-contract-0028", "val-action-contract-0029", "val-action-contract-0030", "val-connect-response-0019",
    *(f"val-deployment-policy-{n:04d}" for n in range(68, 76)), *(f"val-infer-param-{n:04d}" for n in range(32, 36)),
    "val-lease-0014", "val-observation-contract-0024", *(f"val-act-request-{n:04d}" for n in range(13, 22)),
}
"""Cases of types 0.5.23 already had that appeared in 0.5.25 to pin those decisions (AMBIGUITIES.md A1-A9)."""


def _is_edge_case(case_id: str) -> bool:
    """A case of a `<type>-edges.yaml` file (id prefix `val-<type>-edge`): the edges of a type, written so that the
    vectors kill the schema mutants (`make mutation-schemas`), some pinning the tie decisions of validation.md."""
    return case_id.rsplit("-", 1)[0].endswith("-edge")
# fmt: on

OUT_OF_SCOPE: list[tuple[str, str, tuple[str, ...]]] = [
    # upstream change, why this spec's review does not list it, names that must not be types of either version
    ("version", "the gate compares the contract versions (test_the_gate_refuses_the_real_history)", ()),
    (
        "new module obs_schedule",
        "pure functions of spec/schedule.md; their vectors: a kind only 0.5.25 has",
        ("Schedule",),
    ),
    ("rows_of", "a pure function of spec/schedule.md (vector kind rows_of)", ()),
    ("new module episode", "the runtime Episode object is never serialized", ("Episode",)),
    ("validator order", "spec/validation.md lets an implementation report refusals in any order", ()),
    ("PolicySpec, PolicyRegistration", "not types of this spec", ("PolicySpec", "PolicyRegistration")),
    ("exports", "the Python package's names, not the contract", ()),
    (
        "errors ErrorCode enum",
        "not a type of this spec; its two error codes are contract.json constants",
        ("ErrorCode", "ErrorCodes"),
    ),
]
"""Changes upstream made in the same versions that are outside this spec's surface (README.md: the own-I/O and
observation-stream types), each with the reason the review does not list them."""


@pytest.mark.parametrize(("row", "expected"), CHANGELOG_0_5_25, ids=[row for row, _ in CHANGELOG_0_5_25])
def test_every_change_of_the_changelog_entry_is_reported_with_its_classification(
    history: Review, row: str, expected: list[tuple[str, str, str, bool, bool]]
) -> None:
    missing = set(expected) - _entries(history)
    assert not missing, f"{row}: not in the report as expected: {missing}"


PROSE_0_5_25 = {
    ("removed", "§ Validation at contract 0.5.23 (release snapshot)"),
    ("added", "§ Validation: what makes an instance valid"),
    ("edited", "§ Rule ids"),
    ("edited", "§ Language-neutral decisions"),
    ("edited", "§ Rules beyond the schema"),
    ("edited", "§ Normalization"),
    ("removed", "§ Differences from sequence-base 0.4.26"),
    ("added", "§ Where the generated models are looser than the schema"),
    ("added", "§ Differences from sequence-base 0.4.28"),
    ("added", "§ Limits"),
    ("added", "§ Writing an instance"),
    ("added", "§ Where the schema bounds come from"),
    ("added", "§ Which refusals an implementation reports"),
}
"""The sections of validation.md whose prose moved from 0.5.23 to 0.5.25 (the rule rows apart)."""


NEW_DOCUMENTS = {p.name for p in NEW.glob("*.md")} - {p.name for p in OLD.glob("*.md")}
"""The Markdown documents the 0.5.25 snapshot holds and the 0.5.23 one does not (0.5.23 was cut with validation.md
alone, 0.5.25 with all of spec/, spec/compatibility.md "Release snapshots and the head")."""


def test_the_report_has_no_change_beyond_the_changelog_entry(history: Review) -> None:
    expected = {entry for _, entries in CHANGELOG_0_5_25 + SPEC_DECISIONS for entry in entries}
    documents = {f"({name})" for name in NEW_DOCUMENTS}
    # behaviour changes (vector cases whose expectation moved): test_the_behaviour_diff_lists_moved_cases
    moved = ("prose-changed", "behaviour-changed")
    assert {e for e in _entries(history) if e[1] not in moved and e[0] not in documents} - expected == set()


def test_a_document_only_the_newer_snapshot_holds_is_listed_section_by_section(history: Review) -> None:
    assert {"schedule.md", "stream.md", "compatibility.md"} <= set(NEW_DOCUMENTS)
    listed = [c for c in history.diff.changes if c.type_name.strip("()") in NEW_DOCUMENTS]
    assert {c.type_name.strip("()") for c in listed} == set(NEW_DOCUMENTS)
    assert all(c.rule in ("document-added", "annotation-changed") and c.level != "breaking" for c in listed)
    assert all(c.rule == "annotation-changed" for c in listed if c.type_name in ("(README.md)", "(decisions.md)"))


def test_every_section_of_validation_md_that_moved_is_in_the_report_with_its_diff(history: Review) -> None:
    prose = [c for c in history.diff.changes if c.rule == "prose-changed"]
    assert {(c.detail.rsplit(" ", 1)[1], c.location[0]) for c in prose} == PROSE_0_5_25
    assert all(
        c.type_name == "(validation.md)" and c.excerpt and (c.old_readers, c.new_readers) == (True, True) for c in prose
    )
    text = report.markdown(history)
    assert "`§ Language-neutral decisions` (normative text edited):" in text and "```diff" in text


@pytest.mark.parametrize(("row", "reason", "names"), OUT_OF_SCOPE, ids=[row for row, _, _ in OUT_OF_SCOPE])
def test_the_rows_outside_this_spec_are_not_part_of_it(
    history: Review, row: str, reason: str, names: tuple[str, ...]
) -> None:
    types = set(history.base.spec.schemas) | set(history.head.spec.schemas)
    assert reason and types.isdisjoint(names), row


@pytest.mark.slow
def test_the_schedule_vector_kinds_are_new_in_the_working_tree() -> None:
    kinds = behaviour.compare(load_folder(OLD, "spec/releases/0.5.23"), working_tree()).kinds_on_one_side
    assert set(kinds) <= {"schedule", "envelope", "rows_of", "stream", "uploader"}
    assert all(text.endswith("only in working tree") for text in kinds.values())


def test_the_contract_json_additions_are_each_named(history: Review) -> None:
    added = {c.detail.split("`")[1] for c in history.diff.changes if c.rule == "constant-added"}
    assert added == {
        "observe_format",
        "error_codes.frames_missing",
        "error_codes.frames_over_limit",
        "limits.MAX_STREAMS",
        "limits.MAX_WINDOW",
        "limits.MAX_STREAM_FRAMES",
        "limits.MAX_STREAM_BYTES",
        "limits.MAX_WORKER_STREAM_BYTES",
        "limits.STREAM_WAIT_S",
        "limits.MAX_JSON_DEPTH",
        "limits.MAX_INTEGER_DIGITS",
    }


def test_camera_reaches_every_type_that_holds_it(history: Review) -> None:
    via = {(c.type_name, c.detail.split("`")[1], c.old_readers, c.new_readers) for c in history.diff.via}
    assert via == {
        (name, "Camera", True, False)
        for name in ("ObservationContract", "Embodiment", "ConnectResponse", "DeploymentPolicy")
    }


def test_the_unchanged_types_are_reported_unchanged(history: Review) -> None:
    for name in (
        "ActResponse",
        "Lease",
        "SecretRef",
        "InferParam",
        "ActionSpace",
        "ActionContract",
        "Embodiment",
    ):
        # 0.5.25 names the limit its ±(2^53 - 1) bounds come from (`x-limits`, an annotation): nothing else moved.
        moved = [
            c
            for c in history.diff.for_type(name)
            if not (c.rule == "annotation-changed" and c.detail.startswith("`x-limits`"))
        ]
        assert moved == [], name


def test_the_rules_that_cannot_fire_say_why(history: Review) -> None:
    quiet = [
        c for c in history.diff.changes if c.rule in ("rule-added", "rule-changed") and c.detail not in DECISION_DETAILS
    ]
    assert len(quiet) == 4 and all(c.level == "compatible" and "can carry" in c.note for c in quiet)
    decided = [c for c in history.diff.changes if c.detail in DECISION_DETAILS]
    assert len(decided) == 4 and all(c.level == "breaking" for c in decided)


def test_the_data_backs_every_prediction(history: Review) -> None:
    b = history.backstop
    assert b.gaps == [] and b.own_refusals == [] and b.problems == []
    assert b.checked["new-readers"] > 80 and b.checked["old-readers"] > 100
    by_case = {f.case_id: f for f in b.findings}
    assert by_case["val-deployment-policy-0004"].direction == "new-readers"  # own_observations: null, a 0.5.23 dump
    assert [
        c.detail for c in by_case["val-deployment-policy-0004"].explained_by if c.detail not in DECISION_DETAILS
    ] == ["property `own_observations` removed from a closed object"]
    assert by_case["val-seq-flags-0013"].direction == "old-readers"
    assert by_case["val-observation-contract-0006"].explained_by[0].type_name == "Camera"  # via the reference
    shown = {c.detail for c in history.diff.changes if history.backstop.evidence(c)}
    breaking = {
        c.detail
        for c in history.diff.changes
        if c.level == "breaking" and not c.meaning_only and c.rule not in ("prose-changed", "behaviour-changed")
    }
    assert breaking <= shown, breaking - shown


def test_the_behaviour_diff_lists_moved_cases(history: Review) -> None:
    moved = {m.case_id: m for m in history.behaviour.changes}
    assert (moved["val-seq-flags-0013"].before, moved["val-seq-flags-0013"].after) == (
        "refused at $ [enum]",
        "valid",
    )
    assert moved["val-deployment-policy-0012"].before == "valid"
    assert moved["val-deployment-policy-0012"].after.startswith("valid, normalized to")
    assert moved["val-deployment-policy-0004"].after == "refused at $ [additionalProperties]"
    gone = sorted(m.case_id for m in history.behaviour.changes if m.movement == "disappeared")
    assert gone == [f"val-deployment-policy-{n:04d}" for n in range(58, 68)]
    assert all(
        m.subject in history.diff.added_types or m.case_id in DECISION_CASES or _is_edge_case(m.case_id)
        for m in history.behaviour.changes
        if m.movement == "appeared"
    )
    assert "val-act-request-0002" not in moved  # the same expectation in both versions
    counted = {c.location[0].removeprefix("case "): c for c in history.diff.changes if c.rule == "behaviour-changed"}
    assert set(counted) == {m.case_id for m in history.behaviour.changes if m.movement == "changed"}
    assert (counted["val-seq-flags-0013"].old_readers, counted["val-seq-flags-0013"].new_readers) == (True, False)
    assert (counted["val-deployment-policy-0004"].old_readers, counted["val-deployment-policy-0004"].new_readers) == (
        False,
        True,
    )
    assert counted["val-act-request-0006"].level == "breaking" and "undecided" in counted["val-act-request-0006"].note


def test_the_gate_refuses_the_real_history(history: Review) -> None:
    v = history.verdict
    assert (v.passed, v.required, v.actual, v.changelog) == (
        False,
        "minor",
        "patch",
        "entry for 0.5.25 present",
    )
    assert v.reasons == [
        "breaking changes need a minor bump (at least 0.6.0); the contract moved 0.5.23 → 0.5.25 (patch)"
    ]


def test_make_bump_review_prints_the_report_and_writes_both_files(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out_md, out_json = tmp_path / "out" / "r.md", tmp_path / "out" / "r.json"
    code = main(["--base", str(OLD), "--head", str(NEW), "--markdown", str(out_md), "--json", str(out_json)])
    printed = capsys.readouterr().out
    assert code == 1 and printed.startswith("# Contract bump review: 0.5.23 → 0.5.25")
    assert printed.index("## Summary") < printed.index("## Details per type") < printed.index("## Data backstop")
    assert "**Gate: FAIL**" in printed and out_md.read_text(encoding="utf-8") == printed
    data = json.loads(out_json.read_text(encoding="utf-8"))
    assert data["gate"]["passed"] is False and data["head"]["version"] == "0.5.25"
    rows = {row["type"]: row for row in data["summary"]}
    # 2 removed properties, param-name, 2 descriptions whose values changed
    assert rows["DeploymentPolicy"]["breaks_new_readers_of_old_data"] == 5
    assert rows["SecretRef"]["status"] == "unchanged" and rows["Lease"]["status"] == "edited"  # x-limits only
    assert rows["Stream"]["status"] == "added"
    assert all(f["unexplained"] == [] for f in data["backstop"]["findings"])


# ---------------------------------------------------------------- synthetic pairs, one per rule

URI = "https://seq-io-spec.example/schemas/{}.json"


def obj(props: dict[str, Any], *, closed: bool = True, **extra: Any) -> dict[str, Any]:
    schema: dict[str, Any] = {"type": "object", "properties": props, **extra}
    if closed:
        schema["additionalProperties"] = False
    return schema


def write_spec(
    root: Path,
    version: str,
    schemas: dict[str, dict[str, Any]],
    *,
    tables: str = "",
    changelog: tuple[str, ...] = (),
    constants: dict[str, Any] | None = None,
    valid: dict[str, list[Any]] | None = None,
    documents: dict[str, str] | None = None,
) -> Path:
    """A spec folder: contract.json, schemas/, validation.md (from `tables`), CHANGELOG.md, vectors/."""
    (root / "schemas").mkdir(parents=True)
    (root / "contract.json").write_text(json.dumps({"contract_version": version, "limits": constants or {}}))
    for title, body in schemas.items():
        schema = {
            "$schema": "https://json-schema.org/draft/2020-12/schema",
            "$id": URI.format(title),
            "title": title,
            **body,
        }
        (root / "schemas" / f"{title}.json").write_text(json.dumps(schema, indent=2))
    (root / "validation.md").write_text(f"# Validation\n\n{tables}\n")
    for name, text in (documents or {}).items():
        (root / name).write_text(text)
    if changelog:
        (root / "CHANGELOG.md").write_text("# Changelog\n" + "".join(f"\n## {v}\n\nWhat changed.\n" for v in changelog))
    for type_name, instances in (valid or {}).items():
        cases = [
            {"id": f"syn-{n + 1:04d}", "why": "a synthetic instance", "instance": instance, "valid": True}
            for n, instance in enumerate(instances)
        ]
        doc = {
            "$schema": "x",
            "kind": "validation",
            "type": type_name,
            "id_prefix": "syn",
            "groups": [{"group": "g", "why": "synthetic cases", "cases": cases}],
        }
        (root / "vectors" / "validation").mkdir(parents=True, exist_ok=True)
        (root / "vectors" / "validation" / f"{type_name}.yaml").write_text(json.dumps(doc, indent=1))
    return root


# fmt: off
INT, NUM, STR = {"type": "integer"}, {"type": "number"}, {"type": "string"}
NOT_XY = {"x-rule": "A.r", "description": "x and y never together", "not": {"required": ["x", "y"]}}
ROW = "## {}\n\n| id | rule |\n|---|---|\n| `A.{}` | {} |\n"
PAIRS: list[tuple[str, dict[str, Any], dict[str, Any], dict[str, Any], tuple[str, str, bool, bool]]] = [
    # rule id, base schemas, head schemas, write_spec extras by side, expected (type, location, old, new)
    ("type-added", {"A": obj({})}, {"A": obj({}), "B": obj({})}, {}, ("B", "$", C, C)),
    ("type-removed", {"A": obj({}), "B": obj({})}, {"A": obj({})}, {}, ("B", "$", C, B)),
    ("property-added-closed", {"A": obj({"x": INT})}, {"A": obj({"x": INT, "y": INT})}, {},
     ("A", "$.y", B, C)),
    ("property-added-open", {"A": obj({"x": INT}, closed=False)},
     {"A": obj({"x": INT, "y": STR}, closed=False)}, {},
     ("A", "$.y", C, B)),
    ("property-removed-closed", {"A": obj({"x": INT, "y": INT})}, {"A": obj({"x": INT})}, {},
     ("A", "$.y", C, B)),
    ("property-removed-open", {"A": obj({"x": INT, "y": STR}, closed=False)},
     {"A": obj({"x": INT}, closed=False)}, {},
     ("A", "$.y", B, C)),
    ("required-added", {"A": obj({"x": INT})}, {"A": obj({"x": INT}, required=["x"])}, {}, ("A", "$", C, B)),
    ("required-removed", {"A": obj({"x": INT}, required=["x"])}, {"A": obj({"x": INT})}, {},
     ("A", "$", B, C)),
    ("type-widened", {"A": obj({"x": INT})}, {"A": obj({"x": NUM})}, {}, ("A", "$.x", B, C)),
    ("type-narrowed", {"A": obj({"x": NUM})}, {"A": obj({"x": INT})}, {}, ("A", "$.x", C, B)),
    ("type-changed", {"A": obj({"x": STR})}, {"A": obj({"x": INT})}, {}, ("A", "$.x", B, B)),
    ("enum-values-added", {"A": obj({"x": {"enum": ["a", "b"]}})},
     {"A": obj({"x": {"enum": ["a", "b", "c"]}})}, {},
     ("A", "$.x", B, C)),
    ("enum-values-removed", {"A": obj({"x": {"enum": ["a", "b"]}})}, {"A": obj({"x": {"enum": ["a"]}})}, {},
     ("A", "$.x", C, B)),
    ("bound-tightened", {"A": obj({"x": {**INT, "maximum": 10}})},
     {"A": obj({"x": {**INT, "maximum": 5}})}, {},
     ("A", "$.x", C, B)),
    ("bound-loosened", {"A": obj({"x": {**STR, "maxLength": 5}})},
     {"A": obj({"x": {**STR, "maxLength": 9}})}, {},
     ("A", "$.x", B, C)),
    ("bound-changed", {"A": obj({"x": {**STR, "pattern": "^a"}})},
     {"A": obj({"x": {**STR, "pattern": "^b"}})}, {},
     ("A", "$.x", B, B)),
    ("default-changed", {"A": obj({"x": {**INT, "default": 1}})},
     {"A": obj({"x": {**INT, "default": 2}})}, {},
     ("A", "$.x", B, B)),
    ("content-closed", {"A": obj({"x": INT}, closed=False)}, {"A": obj({"x": INT})}, {}, ("A", "$", C, B)),
    ("content-opened", {"A": obj({"x": INT})}, {"A": obj({"x": INT}, closed=False)}, {}, ("A", "$", B, C)),
    ("ref-changed", {"A": obj({"x": {"$ref": "B.json"}}), "B": obj({"b": INT}), "D": obj({"d": INT})},
     {"A": obj({"x": {"$ref": "D.json"}}), "B": obj({"b": INT}), "D": obj({"d": INT})}, {}, ("A", "$.x", B, B)),
    ("subschema-changed", {"A": {**obj({"x": INT, "y": INT}), "not": {"required": ["x"]}}},
     {"A": {**obj({"x": INT, "y": INT}), "not": {"required": ["y"]}}}, {}, ("A", "$", B, B)),
    ("rule-added", {"A": obj({"x": INT, "y": INT})}, {"A": obj({"x": INT, "y": INT}, allOf=[NOT_XY])}, {},
     ("A", "$", C, B)),
    ("rule-removed", {"A": obj({"x": INT, "y": INT}, allOf=[NOT_XY])}, {"A": obj({"x": INT, "y": INT})}, {},
     ("A", "$", B, C)),
    ("rule-changed", {"A": obj({"x": INT, "y": INT}, allOf=[{**NOT_XY, "not": {"required": ["x"]}}])},
     {"A": obj({"x": INT, "y": INT}, allOf=[{**NOT_XY, "not": {"required": ["y"]}}])}, {}, ("A", "$", B, B)),
    ("normalization-added", {"A": obj({})}, {"A": obj({})},
     {"head": {"tables": ROW.format("Normalization", "n", "x")}},
     ("A", "$", B, C)),
    ("normalization-removed", {"A": obj({})}, {"A": obj({})},
     {"base": {"tables": ROW.format("Normalization", "n", "x")}},
     ("A", "$", C, B)),
    ("normalization-changed", {"A": obj({})}, {"A": obj({})},
     {"base": {"tables": ROW.format("Normalization", "n", "x")},
      "head": {"tables": ROW.format("Normalization", "n", "y")}},
     ("A", "$", B, B)),
    ("constant-added", {"A": obj({})}, {"A": obj({})}, {"head": {"constants": {"MAX_X": 1}}},
     ("(contract.json)", "$.limits.MAX_X", C, C)),
    ("constant-removed", {"A": obj({})}, {"A": obj({})}, {"base": {"constants": {"MAX_X": 1}}},
     ("(contract.json)", "$.limits.MAX_X", B, B)),
    ("constant-changed", {"A": obj({})}, {"A": obj({})},
     {"base": {"constants": {"WAIT_X": 1}}, "head": {"constants": {"WAIT_X": 2}}},
     ("(contract.json)", "$.limits.WAIT_X", B, B)),
    ("prose-changed", {"A": obj({})}, {"A": obj({})},
     {"base": {"tables": "## Dates\n\nA leap second is accepted.\n"},
      "head": {"tables": "## Dates\n\nA leap second is refused.\n"}},
     ("(validation.md)", "§ Dates", B, B)),
    ("document-added", {"A": obj({})}, {"A": obj({})}, {"head": {"documents": {"stream.md": "# Stream\n\nNew.\n"}}},
     ("(stream.md)", "§ Stream", C, C)),
    ("document-removed", {"A": obj({})}, {"A": obj({})}, {"base": {"documents": {"stream.md": "# Stream\n\nOld.\n"}}},
     ("(stream.md)", "§ Stream", B, B)),
    ("description-values-changed", {"A": obj({"x": {**INT, "description": "Null means 95."}})},
     {"A": obj({"x": {**INT, "description": "Null means 75."}})}, {}, ("A", "$.x", B, B)),
    ("annotation-changed", {"A": obj({"x": {**INT, "description": "old"}})},
     {"A": obj({"x": {**INT, "description": "new"}})}, {}, ("A", "$.x", C, C)),
]
# fmt: on


def pair(
    tmp_path: Path,
    base: dict[str, Any],
    head: dict[str, Any],
    extras: dict[str, Any] | None = None,
    versions: tuple[str, str] = ("0.1.0", "0.1.0"),
) -> list[Change]:
    extras = extras or {}
    old = load_folder(write_spec(tmp_path / "base", versions[0], base, **extras.get("base", {})))
    new = load_folder(write_spec(tmp_path / "head", versions[1], head, **extras.get("head", {})))
    return diff(old, new).changes


@pytest.mark.parametrize(("rule", "base", "head", "extras", "expected"), PAIRS, ids=[p[0] for p in PAIRS])
def test_one_synthetic_pair_per_rule(
    tmp_path: Path,
    rule: str,
    base: dict[str, Any],
    head: dict[str, Any],
    extras: dict[str, Any],
    expected: tuple[str, str, bool, bool],
) -> None:
    found = [
        (c.type_name, render_location(c.location), c.old_readers, c.new_readers)
        for c in pair(tmp_path, base, head, extras)
        if c.rule == rule
    ]
    assert found == [expected]


def test_every_rule_has_a_synthetic_pair() -> None:
    covered = {p[0] for p in PAIRS} | {"via-reference", "behaviour-changed"}
    # via-reference: test_a_contained_type_reaches_its_holders; behaviour-changed: tests/test_bump_review_behaviour.py
    covered |= {rule for rule, r in RULES.items() if r.source}  # code-…: tests/test_bump_generated_code.py
    assert covered == set(RULES)


def test_a_rule_that_cannot_fire_on_old_data_is_compatible(tmp_path: Path) -> None:
    needs_z = {
        "x-rule": "A.z",
        "description": "z needs x",
        "if": {"required": ["z"]},
        "then": {"required": ["x"]},
    }
    changes = pair(tmp_path, {"A": obj({"x": INT})}, {"A": obj({"x": INT, "z": INT}, allOf=[needs_z])})
    added = next(c for c in changes if c.rule == "rule-added")
    assert (added.old_readers, added.new_readers) == (False, False) and "`z`" in added.note
    assert [c.rule for c in changes if c.level == "breaking"] == ["property-added-closed"]


def test_a_rule_of_the_beyond_schema_table_is_compared_by_id(tmp_path: Path) -> None:
    row = ROW.format("Rules beyond the schema", "sum", "x + y is at most 10.")
    changes = pair(tmp_path, {"A": obj({})}, {"A": obj({})}, {"head": {"tables": row}})
    assert [(c.rule, c.new_readers) for c in changes if c.rule != "prose-changed"] == [("rule-added", True)]


def test_null_allowed_is_a_widening(tmp_path: Path) -> None:
    changes = pair(tmp_path, {"A": obj({"x": INT})}, {"A": obj({"x": {"anyOf": [INT, {"type": "null"}]}})})
    assert [(c.rule, c.detail) for c in changes] == [("type-widened", "null is now accepted")]


def test_a_contained_type_reaches_its_holders(tmp_path: Path) -> None:
    holder = obj({"b": {"$ref": "B.json"}, "bs": {"type": "array", "items": {"$ref": "B.json"}}})
    old = load_folder(write_spec(tmp_path / "base", "0.1.0", {"A": holder, "B": obj({"x": INT})}))
    new = load_folder(write_spec(tmp_path / "head", "0.1.0", {"A": holder, "B": obj({"x": INT, "y": INT})}))
    result = diff(old, new)
    assert result.for_type("A") == []
    assert [(c.type_name, c.rule, c.old_readers, c.new_readers) for c in result.via] == [
        ("A", "via-reference", True, False)
    ]
    assert "$.b, $.bs[]" in result.via[0].detail


# ---------------------------------------------------------------- the data backstop on synthetic data


def _secret_ref(max_length: int) -> dict[str, Any]:
    # A type name the reference knows (its generated model exists), so its validator runs end to end.
    return {"SecretRef": obj({"name": {**STR, "maxLength": max_length}}, required=["name"])}


def test_a_refusal_the_rules_predict_is_explained(tmp_path: Path) -> None:
    old = load_folder(
        write_spec(tmp_path / "base", "0.1.0", _secret_ref(10), valid={"SecretRef": [{"name": "abcdefgh"}]})
    )
    new = load_folder(write_spec(tmp_path / "head", "0.2.0", _secret_ref(5), changelog=("0.2.0",)))
    r = review(old, new)
    (finding,) = r.backstop.findings
    assert (finding.case_id, finding.direction, finding.refusals) == (
        "syn-0001",
        "new-readers",
        ("$.name [maxLength]",),
    )
    assert [c.rule for c in finding.explained_by] == ["bound-tightened"] and not finding.gap
    assert r.verdict.passed


def test_a_refusal_the_rules_miss_is_a_classifier_gap(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(rules.RULES, "bound-tightened", rules.Rule(False, False, False, "a wrong rule"))
    old = load_folder(
        write_spec(tmp_path / "base", "0.1.0", _secret_ref(10), valid={"SecretRef": [{"name": "abcdefgh"}]})
    )
    new = load_folder(write_spec(tmp_path / "head", "0.1.1", _secret_ref(5), changelog=("0.1.1",)))
    r = review(old, new)
    assert [(f.case_id, f.unexplained) for f in r.backstop.gaps] == [("syn-0001", ("$.name [maxLength]",))]
    assert not r.verdict.passed and r.verdict.required == "minor"
    assert any("classifier gaps" in reason for reason in r.verdict.reasons)
    assert "**classifier gap**: syn-0001" in report.markdown(r)


# ---------------------------------------------------------------- the gate


BREAKING = ({"A": obj({"x": INT})}, {"A": obj({"x": INT, "y": INT})})


@pytest.mark.parametrize(
    ("versions", "changelog", "passed"),
    [
        (("0.1.0", "0.1.0"), (), False),  # breaking, no bump
        (("0.1.0", "0.1.1"), ("0.1.1",), False),  # breaking, only a patch bump
        (("0.1.0", "0.2.0"), (), False),  # bumped enough, no changelog entry
        (("0.1.0", "0.2.0"), ("0.1.0",), False),  # a changelog without the new version
        (("0.1.0", "0.2.0"), ("0.2.0",), True),  # declared: minor bump and entry
        (("0.1.0", "1.0.0"), ("1.0.0",), True),  # more than needed is fine
        (("1.2.3", "1.3.0"), ("1.3.0",), False),  # from 1.0 on, breaking needs major
        (("1.2.3", "2.0.0"), ("2.0.0",), True),
        (("0.2.0", "0.1.9"), ("0.1.9",), False),  # a downgrade
    ],
)
def test_the_gate_on_a_breaking_change(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    versions: tuple[str, str],
    changelog: tuple[str, ...],
    passed: bool,
) -> None:
    base = write_spec(tmp_path / "base", versions[0], BREAKING[0])
    head = write_spec(tmp_path / "head", versions[1], BREAKING[1], changelog=changelog)
    assert main(["--base", str(base), "--head", str(head)]) == (0 if passed else 1)
    assert ("**Gate: PASS**" if passed else "**Gate: FAIL**") in capsys.readouterr().out


@pytest.mark.parametrize(
    ("base", "head", "versions", "required", "passed"),
    [
        ({"A": obj({})}, {"A": obj({}), "B": obj({})}, ("0.1.0", "0.1.0"), "patch", False),
        ({"A": obj({})}, {"A": obj({}), "B": obj({})}, ("0.1.0", "0.1.1"), "patch", True),
        ({"A": obj({})}, {"A": obj({}), "B": obj({})}, ("1.1.0", "1.1.1"), "minor", False),
        ({"A": obj({}, description="a")}, {"A": obj({}, description="b")}, ("0.1.0", "0.1.0"), "none", True),
        ({"A": obj({})}, {"A": obj({})}, ("0.1.0", "0.1.0"), "none", True),
    ],
)
def test_the_gate_on_compatible_and_editorial_changes(
    tmp_path: Path,
    base: dict[str, Any],
    head: dict[str, Any],
    versions: tuple[str, str],
    required: str,
    passed: bool,
) -> None:
    old = load_folder(write_spec(tmp_path / "base", versions[0], base))
    new = load_folder(write_spec(tmp_path / "head", versions[1], head, changelog=(versions[1],)))
    verdict = review(old, new).verdict
    assert (verdict.required, verdict.passed) == (required, passed)


# ---------------------------------------------------------------- release snapshots


SNAPSHOT_SCHEMA = ("$schema: ../../schema/", "$schema: ../../../../../conformance/schema/")
"""A vector file's `$schema` line in conformance/vectors/<kind>/ → the same line in a release snapshot's
vectors/<kind>/ (`make release-snapshot`)."""


def _files(folder: Path, leave_out: tuple[str, ...] = ()) -> dict[str, bytes]:
    """Every file under a folder by its relative path, but those under the top-level names left out."""
    return {
        path.relative_to(folder).as_posix(): path.read_bytes()
        for path in sorted(folder.rglob("*"))
        if path.is_file() and path.relative_to(folder).parts[0] not in leave_out
    }


def test_the_release_of_the_working_tree_equals_it() -> None:
    """spec/releases/<the working tree's version> holds every file of spec/ (but releases/ and CHANGELOG.md) and
    every vector kind of conformance/vectors/, byte for byte but the vectors' `$schema` paths, while contract.json
    says that version (spec/compatibility.md, "Release snapshots and the head")."""
    version = load_spec(SPEC).contract_version
    release = RELEASES / version
    fix = f"re-cut spec/releases/{version}: make release-snapshot"
    assert release.is_dir(), f"no release snapshot for the working tree's version {version}: {fix}"
    expected = _files(SPEC, ("releases", "CHANGELOG.md"))
    old, new = (line.encode() for line in SNAPSHOT_SCHEMA)
    expected |= {
        f"vectors/{name}": content.replace(old, new, 1) for name, content in _files(vectors.VECTORS_DIR).items()
    }
    cut = _files(release)
    assert sorted(cut) == sorted(expected), (
        f"only in the snapshot: {sorted(set(cut) - set(expected))}; "
        f"only in the working tree: {sorted(set(expected) - set(cut))}: {fix}"
    )
    differing = sorted(name for name in expected if cut[name] != expected[name])
    assert not differing, f"{differing} differ: {fix}"


def test_each_release_folder_is_named_by_its_version_and_has_a_changelog_entry() -> None:
    entries = set(re.findall(r"^## (\d+\.\d+\.\d+)", (SPEC / "CHANGELOG.md").read_text(encoding="utf-8"), re.M))
    releases = {p.name for p in RELEASES.iterdir() if p.is_dir()}
    assert releases >= {"0.5.23", "0.5.25"} and releases <= entries
    for name in releases:
        assert load_spec(RELEASES / name).contract_version == name


def test_the_0_5_23_snapshot_has_the_types_of_then() -> None:
    old = load_spec(OLD)
    assert set(old.type_names) == {
        "ActRequest",
        "ActResponse",
        "ActionContract",
        "ActionSpace",
        "Camera",
        "ConnectResponse",
        "DeploymentPolicy",
        "Embodiment",
        "InferParam",
        "Lease",
        "ObservationContract",
        "SecretRef",
        "SeqFlags",
        "Timeouts",
    }
    assert schema_rule_ids(old) == {
        "DeploymentPolicy.own-io-excludes-robot-arm",
        "DeploymentPolicy.model-name",
        "InferParam.bounds-need-numeric-type",
    }
    policy = old.schemas["DeploymentPolicy"]["properties"]
    assert policy["own_observations"]["anyOf"][0]["enum"] == ["latest", "since_last_act"]
    assert policy["own_actions"]["anyOf"][0]["enum"] == ["one", "steps"]
    assert policy["streaming"] == {
        "description": policy["streaming"]["description"],
        "type": "boolean",
        "default": False,
    }
    assert 524288 not in old.schemas["SeqFlags"]["enum"]


def test_the_0_5_23_snapshot_lists_the_same_rules_beyond_the_schema_and_no_normalization() -> None:
    tables = load_folder(OLD).tables
    assert set(tables["beyond-schema"]) == set(BEYOND_SCHEMA_RULES)
    assert tables["normalization"] == {} and set(tables["wire"]) == set(load_folder(SPEC).tables["wire"]) - LIMIT_RULES


def test_the_0_5_23_vectors_are_well_formed_and_hold_under_0_5_23() -> None:
    old = load_spec(OLD)
    files, problems = vectors.load_suite(OLD / "vectors")
    problems += list(vectors.lint(files, vectors.read_ledger(), known_rule_ids(old), set(old.type_names)))
    assert not problems, "\n".join(map(str, problems))
    judged = 0
    for vector_file in files:
        for case in vector_file.cases:
            assert "normalized" not in case.data, f"{case.id}: 0.5.23 normalizes nothing"
            issues = [
                i
                for i in outcome_of(contract(OLD), vector_file.doc["type"], case.data).issues
                if i.rule != MODEL_REFUSED
            ]
            if case.data["valid"]:
                assert not issues, f"{case.id}: {issues}"
            else:
                want = case.data["error"]
                assert any((i.path, i.rule) == (want["path"], want["rule"]) for i in issues), f"{case.id}: {issues}"
            judged += 1
    assert judged == 303


def test_a_release_snapshot_uses_the_changelog_beside_releases() -> None:
    assert load_folder(NEW).changelog == SPEC / "CHANGELOG.md"


# ---------------------------------------------------------------- spec/compatibility.md and the rule table


def test_compatibility_md_states_every_rule_with_its_directions() -> None:
    text = (SPEC / "compatibility.md").read_text(encoding="utf-8")
    rows = re.findall(r"^\| `([a-z-]+)` \| .*? \| (breaks|—|inherited) \| (breaks|—|inherited) \|$", text, re.M)
    stated = {rule: (old, new) for rule, old, new in rows}
    assert set(stated) == set(RULES)
    for rule_id, rule in RULES.items():
        if rule_id != "via-reference":
            assert stated[rule_id] == (
                "breaks" if rule.old_readers else "—",
                "breaks" if rule.new_readers else "—",
            )


# ---------------------------------------------------------------- git refs and bad input


def test_a_git_ref_is_exported_and_read(tmp_path: Path) -> None:
    snapshot = load_git_ref("HEAD", tmp_path)
    shown = subprocess.run(
        ["git", "-C", str(REPO_ROOT), "show", "HEAD:spec/schemas/Camera.json"],
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    ).stdout
    assert snapshot.spec.schemas["Camera"] == json.loads(shown)
    assert snapshot.label.startswith("HEAD (") and snapshot.vectors_root == tmp_path / "conformance" / "vectors"


@pytest.mark.slow
def test_a_git_ref_as_base_gives_a_report(capsys: pytest.CaptureFixture[str]) -> None:
    with open_snapshot("HEAD") as base:
        temp = base.spec.root
        assert temp.is_dir()
    assert not temp.exists()  # the exported folder is removed afterwards
    assert main(["--base", "HEAD", "--head", str(OLD)]) in (0, 1)
    assert "Base: HEAD (" in capsys.readouterr().out


def _broken(tmp_path: Path) -> Iterator[tuple[list[str], str]]:
    yield ["--base", str(tmp_path / "missing")], "neither a folder nor a git ref"
    yield ["--base", "no-such-ref-0f3c"], "neither a folder nor a git ref"
    yield ["--base", str(OLD), "--head", str(tmp_path / "missing")], "neither a folder nor a git ref"
    not_spec = tmp_path / "not-spec"
    not_spec.mkdir()
    yield ["--base", str(not_spec)], "not a spec folder"
    broken = write_spec(tmp_path / "broken", "0.1.0", {"A": obj({})})
    (broken / "schemas" / "A.json").write_text('{"title": "A",\n "$id": }')
    yield ["--base", str(broken)], "A.json:2: not valid JSON"
    unversioned = write_spec(tmp_path / "unversioned", "0.1.0", {"A": obj({})})
    (unversioned / "contract.json").write_text('{"contract_version": "one"}')
    yield ["--base", str(unversioned)], "is not X.Y.Z"
    blocker = tmp_path / "file"
    blocker.write_text("")
    yield ["--base", str(OLD), "--head", str(OLD), "--json", str(blocker / "r.json")], "cannot write"


def test_bad_input_is_a_message_not_a_traceback(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    for argv, words in _broken(tmp_path):
        assert main(argv) == 2, argv
        captured = capsys.readouterr()
        assert words in captured.err and "Traceback" not in captured.err + captured.out, (argv, captured.err)


# ---------------------------------------------------------------- the default base


def test_the_default_base_is_the_release_snapshot_of_the_highest_version(tmp_path: Path) -> None:
    for name in ("0.5.9", "0.10.0", "0.5.23", "notes"):
        (tmp_path / "releases" / name).mkdir(parents=True)
    assert latest_release(tmp_path) == tmp_path / "releases" / "0.10.0"  # by number, not by spelling
    assert latest_release() == RELEASES / max((p.name for p in RELEASES.iterdir()), key=_version)


def _version(name: str) -> tuple[int, ...]:
    return tuple(int(n) for n in name.split("."))


def test_no_release_snapshot_is_one_clear_line(tmp_path: Path) -> None:
    with pytest.raises(InputError, match=r"releases: no release snapshot .* name one with --base"):
        latest_release(tmp_path)


@pytest.mark.slow
def test_without_base_the_working_tree_is_compared_with_the_latest_release(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code = main([])
    printed = capsys.readouterr().out
    version = load_spec(SPEC).contract_version
    assert f"Base: spec/releases/{version} (the latest release)" in printed
    assert code == 0 and "**Gate: PASS**" in printed  # the snapshot is a copy of the working tree
