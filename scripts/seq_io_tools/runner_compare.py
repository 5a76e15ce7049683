"""Vector cases → protocol requests; a testee's answer + the case's expectation → a `Verdict` (pass, fail or
skip) with the first difference of each compared field.

WHY it is shaped this way: the comparison rules are conformance/protocol.md's, in one place, so that the stdio
runner, the in-process fast path and every report judge the same way. Requests carry the vector's inputs
unchanged (a validation instance given as YAML is sent as `json.dumps` of that value, the same text the
validation judge uses); nothing is normalized on the way, so a testee sees exactly the tokens the vector
author wrote. Values compare as JSON values (`json_equal`: numbers by value, booleans only equal booleans,
object member order ignored, arrays ordered) except the one documented set: a validation answer's `errors`.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from fnmatch import fnmatchcase
from pathlib import Path
from typing import Any

from seq_io_ref.beyond_schema import json_equal
from seq_io_ref.issues import format_path
from seq_io_ref.wire import parse_json_text

from seq_io_tools.runner_protocol import Printed
from seq_io_tools.validation_cases import instance_text
from seq_io_tools.vectors import VECTORS_DIR, Case, Problem, VectorFile, load_suite

KINDS = ("validation", "schedule", "envelope", "rows_of")
SHOWN = 240
"""Characters of a JSON value shown in a one-line message."""


class _Absent:
    """Stands for a member or element that is not there."""

    def __repr__(self) -> str:
        return "(absent)"


ABSENT: Any = _Absent()


@dataclass(frozen=True)
class SuiteCase:
    """One case as the runner sees it: its kind, its vector data, and where it belongs (file, group, tags)."""

    kind: str
    case: Case
    type_name: str | None
    group: str
    """`<file under vectors/ without .yaml>/<group name>`, e.g. `schedule/windows/window-and-alone`."""
    tags: frozenset[str]

    @property
    def id(self) -> str:
        return self.case.id

    @property
    def expected_error(self) -> str | None:
        expect = self.case.data.get("expect")
        return str(expect["error"]) if isinstance(expect, dict) and "error" in expect else None


@dataclass(frozen=True)
class Difference:
    """Where an answer departs from the expectation: a JSON path into the result and the two values there."""

    at: str
    expected: Any
    got: Any
    note: str = ""

    def __str__(self) -> str:
        return f"{self.at}: expected {show(self.expected)}, got {show(self.got)}{self.note}"


@dataclass(frozen=True)
class Verdict:
    """How one case went. `status`: pass, fail, skip (the testee or the runner did not run it) or error (no
    testee could be asked). `rule`: the rule id of an error answer, for the expected-failure list."""

    status: str
    detail: str = ""
    differences: tuple[Difference, ...] = ()
    rule: str | None = None
    printed: Printed | None = None


def show(value: Any) -> str:
    if value is ABSENT:
        return "(absent)"
    text = json.dumps(value, ensure_ascii=False, separators=(",", ":"), default=repr)
    return text if len(text) <= SHOWN else text[:SHOWN] + "…"


# -- the suite ----------------------------------------------------------------------------------------------


def suite_cases(files: Iterable[VectorFile], root: Path = VECTORS_DIR) -> list[SuiteCase]:
    """Every case of the loaded files, in file order (files sorted by path, cases as written)."""
    out: list[SuiteCase] = []
    for vector_file in files:
        try:
            stem = vector_file.path.resolve().relative_to(root.resolve()).with_suffix("").as_posix()
        except ValueError:
            stem = vector_file.path.stem
        type_name = vector_file.doc.get("type") if vector_file.kind == "validation" else None
        for case in vector_file.cases:
            tags = frozenset(case.group.get("tags", ())) | frozenset(case.data.get("tags", ()))
            out.append(SuiteCase(vector_file.kind, case, type_name, f"{stem}/{case.group['group']}", tags))
    return out


def load_cases(root: Path = VECTORS_DIR) -> tuple[list[SuiteCase], list[Problem]]:
    files, problems = load_suite(root)
    return suite_cases(files, root), problems


def select(cases: Sequence[SuiteCase], *, ids: Sequence[str] = (), groups: Sequence[str] = (),
           tags: Sequence[str] = (), kinds: Sequence[str] = ()) -> list[SuiteCase]:
    """The cases every given filter lets through. Ids and groups are shell-style patterns (`sch-windows-*`); a
    group pattern matches the qualified name (`schedule/windows/*`) or the bare group name."""
    def wanted(case: SuiteCase) -> bool:
        bare = case.group.rsplit("/", 1)[-1]
        return ((not ids or any(fnmatchcase(case.id, p) for p in ids))
                and (not groups or any(fnmatchcase(case.group, p) or fnmatchcase(bare, p) for p in groups))
                and (not tags or bool(case.tags & set(tags)))
                and (not kinds or case.kind in kinds))
    return [case for case in cases if wanted(case)]


# -- requests -----------------------------------------------------------------------------------------------


def request(case: SuiteCase) -> dict[str, Any]:
    """The protocol's case request for one vector case, inputs as the vector gives them."""
    data, group = case.case.data, case.case.group
    if case.kind == "validation":
        body: dict[str, Any] = {"type_name": case.type_name, "json": instance_text(data)}
    elif case.kind == "schedule":
        body = {"declaration": group["declaration"]}
        if "rate" in group:
            body["rate"] = group["rate"]
        body |= {"t": data["t"], "t_prev": data.get("t_prev", -1)}
    elif case.kind == "envelope":
        body = {name: data[name] for name in ("picks", "frames", "own", "t")}
    else:
        body = {"answer": data["answer"], "actions": data["actions"]}
    return {"type": "case", "id": case.id, "kind": case.kind, "input": body}


# -- comparison ---------------------------------------------------------------------------------------------


def first_difference(expected: Any, got: Any, at: tuple[str | int, ...] = ()) -> Difference | None:
    """The first place, walking the expectation, where `got` is not the same JSON value (None: equal)."""
    if isinstance(expected, list) and isinstance(got, list):
        for index, (want, have) in enumerate(zip(expected, got, strict=False)):
            found = first_difference(want, have, (*at, index))
            if found is not None:
                return found
        if len(expected) == len(got):
            return None
        index = min(len(expected), len(got))
        return Difference(format_path([*at, index]), expected[index] if index < len(expected) else ABSENT,
                          got[index] if index < len(got) else ABSENT,
                          f" (lengths: expected {len(expected)}, got {len(got)})")
    if isinstance(expected, dict) and isinstance(got, dict):
        for key in [*expected, *(key for key in got if key not in expected)]:
            found = first_difference(expected.get(key, ABSENT), got.get(key, ABSENT), (*at, key))
            if found is not None:
                return found
        return None
    if expected is ABSENT or got is ABSENT or not json_equal(expected, got):
        return Difference(format_path(list(at)), expected, got)
    return None


def _fields(result: dict[str, Any], expected: dict[str, Any], names: Sequence[str]) -> list[Difference]:
    found: list[Difference] = []
    for name in names:
        difference = first_difference(expected[name], result.get(name, ABSENT), (name,))
        if difference is not None:
            found.append(difference)
    return found


def _verdict(differences: list[Difference]) -> Verdict:
    if not differences:
        return Verdict("pass")
    return Verdict("fail", "; ".join(map(str, differences)), tuple(differences))


def _instance(data: dict[str, Any]) -> Any:
    if "instance" in data:
        return data["instance"]
    return parse_json_text(str(data["json"]))[0]


def _errors_text(errors: Any) -> str:
    if not isinstance(errors, list):
        return show(errors)
    shown = [f"{e.get('path')} [{e.get('rule')}]" if isinstance(e, dict) else show(e) for e in errors]
    return "; ".join(shown) or "(none)"


def _validation(case: SuiteCase, result: dict[str, Any]) -> Verdict:
    data = case.case.data
    valid = result.get("valid")
    if not isinstance(valid, bool):
        return _verdict([Difference("$.valid", data["valid"], result.get("valid", ABSENT),
                                    " (the result must say valid true or false)")])
    if data["valid"]:
        if not valid:
            return Verdict("fail", f"expected valid, refused: {_errors_text(result.get('errors'))}",
                           (Difference("$.valid", True, False),))
        expected = data["normalized"] if "normalized" in data else _instance(data)
        difference = first_difference(expected, result.get("normalized", ABSENT), ("normalized",))
        return _verdict([] if difference is None else [difference])
    want = data["error"]
    if valid:
        return Verdict("fail", f"expected a refusal at {want['path']} [{want['rule']}], but it was accepted",
                       (Difference("$.valid", False, True),))
    errors = result.get("errors")
    if isinstance(errors, list) and any(isinstance(e, dict) and e.get("path") == want["path"]
                                        and e.get("rule") == want["rule"] for e in errors):
        return Verdict("pass")
    difference = Difference("$.errors", [want], ABSENT if errors is None else errors,
                            " (the expected {path, rule} must be among them)")
    return Verdict("fail", f"refused, but not at {want['path']} [{want['rule']}]; reported: "
                           f"{_errors_text(errors)}", (difference,))


def _schedule(case: SuiteCase, result: dict[str, Any]) -> Verdict:
    expect = case.case.data["expect"]
    found = _fields(result, expect, ("picks", "needed", "wanted", "keeps_from"))
    if "reads_past" in case.case.group:
        found += _fields(result, {"reads_past": case.case.group["reads_past"]}, ("reads_past",))
    return _verdict(found)


def _envelope(case: SuiteCase, result: dict[str, Any]) -> Verdict:
    return _verdict(_fields(result, case.case.data["expect"], ("observations", "steps")))


def _rows_of(case: SuiteCase, result: dict[str, Any]) -> Verdict:
    return _verdict(_fields(result, case.case.data["expect"], ("rows",)))


_RESULTS: dict[str, Callable[[SuiteCase, dict[str, Any]], Verdict]] = {
    "validation": _validation, "schedule": _schedule, "envelope": _envelope, "rows_of": _rows_of,
}


def compare(case: SuiteCase, answer: dict[str, Any]) -> Verdict:
    """Judge an answer (already known to answer this case: `runner_protocol.envelope_problem`)."""
    if answer["type"] == "skipped":
        return Verdict("skip", f"skipped by the testee: {answer.get('reason', '(no reason given)')}")
    expected_error = case.expected_error
    if answer["type"] == "error":
        rule, message = answer["rule"], answer.get("message")
        if rule == expected_error:
            return Verdict("pass", rule=rule)
        said = f"the refusal {rule}" + (f" ({message})" if isinstance(message, str) and message else "")
        if expected_error is not None:
            detail = f"expected the refusal {expected_error}, got {said}"
        elif case.kind == "validation":
            detail = f"got {said} as an error answer; a validation refusal is a result with \"valid\": false"
        else:
            detail = f"expected a result, got {said}"
        return Verdict("fail", detail, (Difference("$.rule", expected_error or ABSENT, rule),), rule=rule)
    if expected_error is not None:
        difference = Difference("$.rule", expected_error, ABSENT, " (a result came instead)")
        return Verdict("fail", f"expected the refusal {expected_error}, got the result "
                               f"{show(answer['result'])}", (difference,))
    return _RESULTS[case.kind](case, answer["result"])
