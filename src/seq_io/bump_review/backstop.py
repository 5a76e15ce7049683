"""Valid vectors of each version → validated under the other version → each refusal explained by a classified
change, or reported as a classifier gap (`Backstop`).

The rules of spec/compatibility.md predict whom a change breaks; the vectors show it. A case valid in the base
that the head refuses is old data a new reader cannot read; a case valid in the head that the base refuses is
new data an old reader cannot read. Each refusal (path, rule) must lie on the location of a change that breaks
that direction, in the vector's own type or in a type it contains (Camera inside ObservationContract); a
refusal no change explains is a gap in the classifier, and the gate counts it as a break. Both versions are
validated with the reference validator built on their own spec folder (which types the result with the generated
models only when the folder's schemas are the repository's own, so a model never judges another version).

Before crossing, each version's vectors are checked against that version's own rules: a case declared valid that
they refuse, or declared refused that they accept, is a `Contradiction` (a case of a type the version does not
have is not checked: after a type is renamed, its vectors may still carry the old name, which the vectors' own lint
reports). Crossing such a version would measure the
classifier against vectors that are wrong, so a contradiction in the head fails the gate on its own (one in the
base, a release already made, is listed).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any, Literal

from seq_io.bump_review.rules import Change, Location
from seq_io.bump_review.schema_diff import WIRE, Diff
from seq_io.bump_review.schema_walk import JsonPathParts, on_same_branch, parse_path
from seq_io.bump_review.snapshot import Snapshot, suite
from seq_io.reference.validation import contract
from seq_io.reference.validation_cases import instance_text
from seq_io.reference.wire import parse_json_text

Direction = Literal["old-readers", "new-readers"]
Side = Literal["base", "head"]


@dataclass(frozen=True)
class Finding:
    """A valid case of one version refused by the other."""

    case_id: str
    type_name: str
    direction: Direction
    refusals: tuple[str, ...]
    explained_by: tuple[Change, ...]
    unexplained: tuple[str, ...]

    @property
    def gap(self) -> bool:
        return bool(self.unexplained)


@dataclass(frozen=True)
class Contradiction:
    """A validation case its own version's schemas and rules decide otherwise: declared valid and refused
    (`found` lists the refusals), or declared refused and accepted."""

    side: Side
    label: str
    case_id: str
    type_name: str
    declared: str
    found: str

    def __str__(self) -> str:
        return (
            f"{self.case_id} ({self.type_name}) is declared {self.declared}, and the {self.side}'s own rules "
            f"{self.found}"
        )


@dataclass
class Backstop:
    """What crossing the vectors showed."""

    checked: dict[Direction, int] = field(default_factory=lambda: {"old-readers": 0, "new-readers": 0})
    findings: list[Finding] = field(default_factory=list)
    not_checked: dict[str, int] = field(default_factory=dict)
    contradictions: list[Contradiction] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)

    @property
    def gaps(self) -> list[Finding]:
        return [f for f in self.findings if f.gap]

    @property
    def own_refusals(self) -> list[str]:
        """`label: case id` of each valid case its own version refuses."""
        return [f"{c.label}: {c.case_id}" for c in self.contradictions if c.declared == "valid"]

    def contradicting(self, side: Side) -> list[Contradiction]:
        """The cases a version declares one way and its own rules decide the other."""
        return [c for c in self.contradictions if c.side == side]

    def evidence(self, change: Change) -> list[str]:
        """The cases whose refusal this change explains."""
        return sorted({f.case_id for f in self.findings if change in f.explained_by})


@dataclass(frozen=True)
class ValidCase:
    case_id: str
    type_name: str
    text: str


def valid_cases(snapshot: Snapshot, problems: list[str], valid: bool = True) -> Iterator[ValidCase]:
    """The cases a version's validation vectors declare valid (or, `valid` False, refused); unreadable files go to
    `problems`."""
    if snapshot.vectors_root is None:
        return
    files, found = suite(snapshot.vectors_root)
    problems.extend(f"{snapshot.label}: {problem}" for problem in found)
    for vector_file in files:
        if vector_file.kind == "validation":
            for case in vector_file.cases:
                if case.data["valid"] is valid:
                    yield ValidCase(case.id, str(vector_file.doc["type"]), instance_text(case.data))


def _refusals(snapshot: Snapshot, case: ValidCase) -> list[tuple[str, str]]:
    """(path, rule) of each refusal of a case by one version's rules (schema, rules beyond it, wire)."""
    outcome = contract(snapshot.spec.root).validate_text(case.type_name, case.text)
    return sorted({(issue.path, issue.rule) for issue in outcome.issues})


def _explainers(diff: Diff, type_name: str) -> list[tuple[Location, Change]]:
    """Every change that can cause a refusal inside an instance of `type_name`, at its location there."""
    found = [(c.location, c) for c in diff.changes if c.type_name in (type_name, WIRE)]
    for location, inner in diff.contains.get(type_name, set()):
        found += [((*location, *c.location), c) for c in diff.changes if c.type_name == inner]
    return found


def _node_at(value: Any, parts: JsonPathParts) -> Any:
    for part in parts:
        try:
            value = value[part]
        except (KeyError, IndexError, TypeError):
            return None
    return value


def _explains(location: Location, path: JsonPathParts, rule: str, keys: set[str]) -> bool:
    """Whether a change at `location` accounts for a refusal (path, rule).

    An unknown-key refusal on an object is explained by a property change of one of the object's own keys
    (or by its content being closed); any other refusal by a change at or above its path, or at a property
    of the refused object."""
    if rule == "additionalProperties":
        if on_same_branch(location, path) and len(location) == len(path):
            return True
        return len(location) == len(path) + 1 and on_same_branch(location, path) and location[-1] in keys
    if len(location) <= len(path):
        return on_same_branch(location, path)
    return len(location) == len(path) + 1 and on_same_branch(location, path)


def _cross(diff: Diff, result: Backstop, case: ValidCase, reader: Snapshot, direction: Direction) -> None:
    refusals = _refusals(reader, case)
    if not refusals:
        return
    explainers = [
        (loc, c)
        for loc, c in _explainers(diff, case.type_name)
        if not c.meaning_only and (c.old_readers if direction == "old-readers" else c.new_readers)
    ]
    instance = parse_json_text(case.text)[0]
    explained: list[Change] = []
    unexplained: list[str] = []
    for path, rule in refusals:
        parts = parse_path(path)
        node = _node_at(instance, parts)
        keys = set(node) if isinstance(node, dict) else set()
        matching = [c for loc, c in explainers if _explains(loc, parts, rule, keys)]
        explained += [c for c in matching if c not in explained]
        if not matching:
            unexplained.append(f"{path} [{rule}]")
    result.findings.append(
        Finding(
            case.case_id,
            case.type_name,
            direction,
            tuple(f"{p} [{r}]" for p, r in refusals),
            tuple(explained),
            tuple(unexplained),
        )
    )


def _accepted_refusals(snapshot: Snapshot, side: Side, result: Backstop) -> None:
    """Each case a version declares refused that its own rules accept (a case of a type the version lacks is
    refused by it, so never contradicts it)."""
    for case in valid_cases(snapshot, result.problems, valid=False):
        if case.type_name in snapshot.spec.schemas and not _refusals(snapshot, case):
            result.contradictions.append(
                Contradiction(side, snapshot.label, case.case_id, case.type_name, "refused", "accept it")
            )


def run(diff: Diff, base: Snapshot, head: Snapshot) -> Backstop:
    """Validate each side's valid vectors under the other side and explain every refusal; check each side's
    vectors against its own rules."""
    result = Backstop()
    crossings: tuple[tuple[Snapshot, Snapshot, Direction, Side], ...] = (
        (base, head, "new-readers", "base"),
        (head, base, "old-readers", "head"),
    )
    for writer, reader, direction, side in crossings:
        _accepted_refusals(writer, side, result)
        for case in valid_cases(writer, result.problems):
            if case.type_name not in writer.spec.schemas:  # its type is the other side's only: nothing to check
                result.not_checked[case.type_name] = result.not_checked.get(case.type_name, 0) + 1
                continue
            own = _refusals(writer, case)
            if own:
                found = "refuse it at " + ", ".join(f"{path} [{rule}]" for path, rule in own)
                result.contradictions.append(
                    Contradiction(side, writer.label, case.case_id, case.type_name, "valid", found)
                )
            elif case.type_name not in reader.spec.schemas:
                result.not_checked[case.type_name] = result.not_checked.get(case.type_name, 0) + 1
            else:
                result.checked[direction] += 1
                _cross(diff, result, case, reader, direction)
    return result
