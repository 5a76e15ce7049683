"""The vectors of two versions → the cases whose expected result changed, appeared or disappeared
(`CaseChange`, each with both sides in full and every JSON path where they differ) → for each changed one, a
classified `Change` (rule `behaviour-changed`) that takes part in the required bump and the editorial check.

A case id names one case for ever (conformance/README.md), so the same id on both sides is the same question
asked of two versions of the contract. Its answer is what the case expects: for a validation case, valid or
refused at (path, rule), and the normalized form; for the other kinds (stream, schedule, envelope, rows_of,
uploader, …), the whole expectation. Comparing the expectations of the two versions (instead of running two
reference implementations, of which the repository keeps one) lists every decided behaviour that moved; the data
backstop separately runs the valid cases of each version under the other version's schemas.

WHY every kind counts (spec/compatibility.md, "Behaviour changes"): an expectation that moved is what an
implementation must now do differently, whatever document governs it; the review cannot tell which readers that
breaks except for a validation case, whose two answers are acceptances (valid → refused refuses old data, refused
→ valid produces data old readers refuse). So a changed case is breaking, in the exact direction where the kind
allows it, else both ways (undecided, said in the note); a case that only appeared or disappeared asks a new
question or stops asking one, and has no level of its own.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from seq_io import vectors
from seq_io.bump_review import rules
from seq_io.bump_review.snapshot import Snapshot, suite
from seq_io.reference.issues import format_path
from seq_io.reference.json_values import json_equal
from seq_io.reference.validation_cases import instance_text
from seq_io.reference.wire import parse_json_text

Movement = Literal["changed", "appeared", "disappeared"]
RULE = "behaviour-changed"
MAX_DIFFERENCES = 500
"""JSON paths listed per changed case; a longer list is cut, and the report says how many there were."""
GOVERNED_BY: dict[str, tuple[str, ...]] = {
    "stream.md": ("stream",),
    "schedule.md": ("schedule", "envelope", "rows_of"),
    "validation.md": ("validation",),
    "uploader.md": ("uploader",),
}
"""A normative document → the vector kinds whose expectations it decides (spec/compatibility.md, "Editorial
marks"): an editorial mark on one of its sections is refused while a case of those kinds moved."""
_NOT_EXPECTATIONS = frozenset({"id", "why", "tags", "upstream"})
_NOT_CONTEXT = frozenset({"group", "why", "cases", "tags", "rules"})
_ABSENT: Any = object()
"""A member or item that one side does not have (unlike `None`, which is JSON null)."""


@dataclass(frozen=True)
class Expectation:
    """One case as the comparison sees it: what is asked (`question`), what is expected (`answer`), the case
    as written without its explanations (`value`, what the report shows) and where it is written."""

    case_id: str
    kind: str
    subject: str
    question: Any
    answer: Any
    summary: str
    value: Any
    file: str
    line: int


@dataclass(frozen=True)
class Difference:
    """A JSON path where the two sides of a case differ, with each side's value there (`in_base`/`in_head` False:
    that side has nothing at that path, and its value is None)."""

    path: str
    base: Any
    head: Any
    in_base: bool
    in_head: bool


@dataclass(frozen=True, eq=False)
class CaseChange:
    """A case id whose case moved: `before`/`after` are one-line summaries, `base`/`head` the cases in full
    (None on the side that lacks the id), `differences` every differing path (at most MAX_DIFFERENCES of
    `differences_total`). Compared by identity: it holds JSON values, and a review keys its fingerprints by it."""

    case_id: str
    kind: str
    subject: str
    movement: Movement
    before: str
    after: str
    base: Any = None
    head: Any = None
    file: str = ""
    line: int = 0
    old_readers: bool = False
    new_readers: bool = False
    note: str = ""
    differences: tuple[Difference, ...] = ()
    differences_total: int = 0


@dataclass
class Behaviour:
    changes: list[CaseChange] = field(default_factory=list)
    compared: int = 0
    problems: list[str] = field(default_factory=list)
    kinds_on_one_side: dict[str, str] = field(default_factory=dict)


def type_name(kind: str) -> str:
    """The name a behaviour change of a vector kind is reported under, like a type: `(stream vectors)`."""
    return f"({kind} vectors)"


def location(case_id: str) -> rules.Location:
    """Where a behaviour change sits: the case (`case str-act-0001`)."""
    return (f"case {case_id}",)


def _parsed(text: str) -> Any:
    value, issues = parse_json_text(text)
    return {"unparsed": text} if issues else value


def _short(value: Any) -> str:
    text = json.dumps(value, ensure_ascii=False, sort_keys=True)
    return text if len(text) <= 90 else text[:87] + "..."


def _validation(case: vectors.Case, type_name_: str) -> Expectation:
    data = case.data
    question = _parsed(instance_text(data))
    if data["valid"]:
        normalized = data.get("normalized", question)
        summary = "valid" if "normalized" not in data else f"valid, normalized to {_short(normalized)}"
        answer: Any = {"valid": True, "normalized": normalized}
    else:
        error = data["error"]
        summary = f"refused at {error['path']} [{error['rule']}]"
        answer = {"valid": False, "path": error["path"], "rule": error["rule"]}
    value = {k: v for k, v in data.items() if k not in _NOT_EXPECTATIONS and k != "json"}
    value = {"instance": question, **{k: v for k, v in value.items() if k != "instance"}}
    return Expectation(case.id, "validation", type_name_, question, answer, summary, value, case.file, case.line)


def _without_expect(value: Any) -> Any:
    """A case with every `expect` member taken out, at any depth: what it asks (a stream or uploader case expects
    something after each of its operations or events, the other kinds once)."""
    if isinstance(value, dict):
        return {k: _without_expect(v) for k, v in value.items() if k != "expect"}
    if isinstance(value, list):
        return [_without_expect(item) for item in value]
    return value


def _expects(value: Any, parts: tuple[str | int, ...] = ()) -> Iterator[tuple[str, Any]]:
    """Each `expect` member of a case, at any depth, with its JSON path: what it is expected to answer."""
    if isinstance(value, dict):
        for key, item in value.items():
            if key == "expect":
                yield format_path((*parts, key)), item
            else:
                yield from _expects(item, (*parts, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from _expects(item, (*parts, index))


def _other(case: vectors.Case, kind: str) -> Expectation:
    context = {k: v for k, v in case.group.items() if k not in _NOT_CONTEXT}
    expectation = {k: v for k, v in case.data.items() if k not in _NOT_EXPECTATIONS}
    value = {"group": context, **expectation} if context else expectation
    answer = dict(_expects(expectation))
    summary = _short(answer["$.expect"]) if list(answer) == ["$.expect"] else f"{len(answer)} expectation(s)"
    return Expectation(
        case.id, kind, type_name(kind), _without_expect(value), answer, summary, value, case.file, case.line
    )


def expectations(root: Path | None, label: str, problems: list[str]) -> dict[str, Expectation]:
    """Every case of a vectors folder by id (files that cannot be read go to `problems`)."""
    if root is None:
        return {}
    files, found = suite(root)
    problems.extend(f"{label}: {problem}" for problem in found)
    out: dict[str, Expectation] = {}
    for vector_file in files:
        for case in vector_file.cases:
            kind = vector_file.kind
            out[case.id] = (
                _validation(case, str(vector_file.doc["type"])) if kind == "validation" else _other(case, kind)
            )
    return out


def _differing(base: Any, head: Any, parts: tuple[str | int, ...]) -> Iterator[Difference]:
    """Every deepest path where two JSON values differ (members compared by name, items by position)."""
    if isinstance(base, dict) and isinstance(head, dict):
        for key in [*base, *(k for k in head if k not in base)]:
            yield from _differing(base.get(key, _ABSENT), head.get(key, _ABSENT), (*parts, key))
    elif isinstance(base, list) and isinstance(head, list):
        for index in range(max(len(base), len(head))):
            old = base[index] if index < len(base) else _ABSENT
            new = head[index] if index < len(head) else _ABSENT
            yield from _differing(old, new, (*parts, index))
    elif base is _ABSENT or head is _ABSENT or not json_equal(base, head):
        yield Difference(
            format_path(parts),
            None if base is _ABSENT else base,
            None if head is _ABSENT else head,
            base is not _ABSENT,
            head is not _ABSENT,
        )


def differences(base: Any, head: Any, limit: int = MAX_DIFFERENCES) -> tuple[tuple[Difference, ...], int]:
    """The first `limit` paths where two cases differ, and how many there are in all."""
    found: list[Difference] = []
    total = 0
    for difference in _differing(base, head, ()):
        total += 1
        if len(found) < limit:
            found.append(difference)
    return tuple(found), total


def _direction(before: Expectation, after: Expectation) -> tuple[bool, bool, str]:
    """(breaks old readers of new data, breaks new readers of old data, why) for a case whose expectation
    moved: exact for a validation case asked the same question whose acceptance flipped, else both."""
    same_question = json_equal(before.question, after.question)
    if before.kind == "validation" and same_question and before.answer["valid"] != after.answer["valid"]:
        if before.answer["valid"]:
            why = (
                f"the same instance was valid and is now {after.summary}: new readers refuse data old readers accepted"
            )
            return False, True, why + " (a behaviour change)"
        why = f"the same instance was {before.summary} and is now valid: old readers refuse data new readers accept"
        return True, False, why + " (a behaviour change)"
    if not same_question:
        why = "the case asks another question under the same id (a case id names one case for ever)"
    else:
        why = f"the expected result of a {before.kind} case moved"
    undecided = "which readers it breaks is undecided (the review cannot run the two versions' implementations)"
    return True, True, f"{why}: a behaviour change; {undecided}, so both"


def _changed(before: Expectation, after: Expectation) -> CaseChange:
    old, new, note = _direction(before, after)
    found, total = differences(before.value, after.value)
    return CaseChange(
        after.case_id,
        after.kind,
        after.subject,
        "changed",
        before.summary,
        after.summary,
        before.value,
        after.value,
        after.file,
        after.line,
        old,
        new,
        note,
        found,
        total,
    )


def _one_side(expectation: Expectation, movement: Movement) -> CaseChange:
    appeared = movement == "appeared"
    return CaseChange(
        expectation.case_id,
        expectation.kind,
        expectation.subject,
        movement,
        "—" if appeared else expectation.summary,
        expectation.summary if appeared else "—",
        None if appeared else expectation.value,
        expectation.value if appeared else None,
        expectation.file,
        expectation.line,
        note="a case that appeared asks a new question: listed, no level of its own"
        if appeared
        else "a case that disappeared no longer asks its question: listed, no level of its own",
    )


def compare(base: Snapshot, head: Snapshot) -> Behaviour:
    """The cases whose expectation moved from `base` to `head` (a kind only one side has is counted only)."""
    result = Behaviour()
    old = expectations(base.vectors_root, base.label, result.problems)
    new = expectations(head.vectors_root, head.label, result.problems)
    old_kinds, new_kinds = {e.kind for e in old.values()}, {e.kind for e in new.values()}
    for kind in sorted(old_kinds ^ new_kinds):
        side, cases = (head, new) if kind in new_kinds else (base, old)
        count = sum(1 for e in cases.values() if e.kind == kind)
        result.kinds_on_one_side[kind] = f"{count} case(s), only in {side.label}"
    for case_id in set(new) - set(old):
        if new[case_id].kind not in result.kinds_on_one_side:
            result.changes.append(_one_side(new[case_id], "appeared"))
    for case_id in set(old) - set(new):
        if old[case_id].kind not in result.kinds_on_one_side:
            result.changes.append(_one_side(old[case_id], "disappeared"))
    for case_id in set(old) & set(new):
        before, after = old[case_id], new[case_id]
        result.compared += 1
        if not json_equal(before.question, after.question) or not json_equal(before.answer, after.answer):
            result.changes.append(_changed(before, after))
    result.changes.sort(key=lambda change: change.case_id)
    return result


def as_changes(found: Behaviour) -> list[rules.Change]:
    """Each case whose expectation changed → a classified change (rule `behaviour-changed`) at the case, under
    its kind's name, so the gate, the editorial marks and every report count it like any other change."""
    return [
        rules.make(
            RULE,
            type_name(m.kind),
            location(m.case_id),
            f"the expected result of `{m.case_id}` changed ({m.file}:{m.line})",
            old_readers=m.old_readers,
            new_readers=m.new_readers,
            note=m.note,
        )
        for m in found.changes
        if m.movement == "changed"
    ]


def case_id(change: rules.Change) -> str:
    """The case a behaviour change is about."""
    return change.location[0].removeprefix("case ")


def moved_kinds(changes: list[rules.Change]) -> dict[str, list[str]]:
    """Vector kind → the ids of its cases whose expectation changed, read from classified changes."""
    out: dict[str, list[str]] = {}
    for change in changes:
        if change.rule == RULE:
            kind = change.type_name.removeprefix("(").removesuffix(" vectors)")
            out.setdefault(kind, []).append(case_id(change))
    return out


def shown(value: Any) -> str:
    """A side of a case as one line of JSON, in full, members in their written order."""
    return json.dumps(value, ensure_ascii=False)
