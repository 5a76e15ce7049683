"""The case kinds, one table entry each: a vector case → the `input` of its protocol request, and a result
answer + the case's expectation → a `Verdict`.

WHY a table: everything that differs between kinds (what is sent, what is compared, in what order a report
lists them) lives in one entry of `TABLE`, so adding a kind is adding one entry (plus its result schema in
conformance/protocol/ and its section in conformance/protocol.md). Requests carry the vector's inputs
unchanged (a validation instance given as YAML is sent as `json.dumps` of that value, the same text the
validation judge uses); nothing is normalized on the way, so a testee sees exactly the tokens the vector author
wrote. The one documented exception to comparing as JSON values is a validation answer's `errors`, a set in
which the expected {path, rule} must appear.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from seq_io.reference.validation_cases import instance_text
from seq_io.reference.wire import parse_json_text
from seq_io.runner.suite import SuiteCase
from seq_io.runner.uploader_judge import judge_requests, uploader_case_data, uploader_input
from seq_io.runner.verdict import (
    ABSENT,
    Difference,
    Verdict,
    differences,
    differences_text,
    field_differences,
    show,
    verdict_of,
)


@dataclass(frozen=True)
class Kind:
    """One case kind: its name in the protocol and the vector files, how a case becomes a request's input,
    and how a result answer is judged."""

    name: str
    input: Callable[[SuiteCase], dict[str, Any]]
    judge: Callable[[SuiteCase, dict[str, Any]], Verdict]


# -- validation ---------------------------------------------------------------------------------------------


def _validation_input(case: SuiteCase) -> dict[str, Any]:
    return {"type_name": case.type_name, "json": instance_text(case.case.data)}


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
        return verdict_of(
            (
                [
                    Difference(
                        "$.valid",
                        data["valid"],
                        result.get("valid", ABSENT),
                        " (the result must say valid true or false)",
                    )
                ],
                0,
            )
        )
    if data["valid"]:
        if not valid:
            return Verdict(
                "fail",
                f"expected valid, refused: {_errors_text(result.get('errors'))}",
                (Difference("$.valid", True, False),),
            )
        expected = data["normalized"] if "normalized" in data else _instance(data)
        return verdict_of(field_differences(result, {"normalized": expected}, ("normalized",)))
    want = data["error"]
    if valid:
        return Verdict(
            "fail",
            f"expected a refusal at {want['path']} [{want['rule']}], but it was accepted",
            (Difference("$.valid", False, True),),
        )
    errors = result.get("errors")
    if isinstance(errors, list) and any(
        isinstance(e, dict) and e.get("path") == want["path"] and e.get("rule") == want["rule"] for e in errors
    ):
        return Verdict("pass")
    difference = Difference(
        "$.errors", [want], ABSENT if errors is None else errors, " (the expected {path, rule} must be among them)"
    )
    return Verdict(
        "fail", f"refused, but not at {want['path']} [{want['rule']}]; reported: {_errors_text(errors)}", (difference,)
    )


# -- schedule -----------------------------------------------------------------------------------------------


def _schedule_input(case: SuiteCase) -> dict[str, Any]:
    data, group = case.case.data, case.case.group
    body: dict[str, Any] = {"declaration": group["declaration"]}
    if "rate" in group:
        body["rate"] = group["rate"]
    return body | {"t": data["t"], "t_prev": data.get("t_prev", -1)}


def _schedule(case: SuiteCase, result: dict[str, Any]) -> Verdict:
    expect = case.case.data["expect"]
    names = ["picks", "needed", "wanted", "keeps_from"]
    if "reads_past" in case.case.group:
        expect, names = expect | {"reads_past": case.case.group["reads_past"]}, [*names, "reads_past"]
    return verdict_of(field_differences(result, expect, names))


# -- envelope and rows_of -----------------------------------------------------------------------------------


def _envelope_input(case: SuiteCase) -> dict[str, Any]:
    return {name: case.case.data[name] for name in ("picks", "frames", "own", "t")}


def _envelope(case: SuiteCase, result: dict[str, Any]) -> Verdict:
    return verdict_of(field_differences(result, case.case.data["expect"], ("observations", "steps")))


def _rows_of_input(case: SuiteCase) -> dict[str, Any]:
    return {"answer": case.case.data["answer"], "actions": case.case.data["actions"]}


def _rows_of(case: SuiteCase, result: dict[str, Any]) -> Verdict:
    return verdict_of(field_differences(result, case.case.data["expect"], ("rows",)))


# -- stream -------------------------------------------------------------------------------------------------

OPERATIONS = ("observe", "act", "advance")
"""The operations of a stream scenario, each a one-member object in the request (spec/stream.md, the keeper's
requests and the virtual clock)."""


def _stream_input(case: SuiteCase) -> dict[str, Any]:
    data = case.case.data
    body: dict[str, Any] = {"declaration": data["declaration"]}
    body |= {name: data[name] for name in ("rate", "episode_idle", "limits") if name in data}
    body["operations"] = [
        {name: operation[name]} for operation in data["operations"] for name in OPERATIONS if name in operation
    ]
    return body


def operation_name(operation: dict[str, Any]) -> str:
    return next(name for name in OPERATIONS if name in operation)


def expected_outcome(index: int, operation: dict[str, Any]) -> dict[str, Any]:
    """An operation's `expect` as a result states it: an act that is answered (handed over or refused) carries
    `at`, the index of the operation during which it was decided, which the vector may leave out when that is the
    act itself."""
    expect = dict(operation["expect"])
    if "act" in operation and ("handed" in expect or "error" in expect):
        expect.setdefault("at", index)
    return expect


def _stream(case: SuiteCase, result: dict[str, Any]) -> Verdict:
    """Outcome by outcome, in order; the verdict names the first operation that differs and lists the differences
    inside it (conformance/protocol.md, Comparison)."""
    operations = case.case.data["operations"]
    outcomes = result.get("outcomes")
    if not isinstance(outcomes, list):
        return verdict_of(
            (
                [
                    Difference(
                        "$.outcomes", f"a list of {len(operations)} outcomes", ABSENT if outcomes is None else outcomes
                    )
                ],
                0,
            )
        )
    for index, operation in enumerate(operations):
        got = outcomes[index] if index < len(outcomes) else ABSENT
        found, more = differences(expected_outcome(index, operation), got, ("outcomes", index))
        if found:
            where = f"operation {index} ({operation_name(operation)})"
            return Verdict(
                "fail",
                f"the first operation that differs is {where}: {differences_text(found, more)}",
                tuple(found),
                more=more,
            )
    if len(outcomes) != len(operations):
        return verdict_of(
            (
                [
                    Difference(
                        f"$.outcomes[{len(operations)}]",
                        ABSENT,
                        outcomes[len(operations)],
                        f" (lengths: expected {len(operations)} outcomes, one per operation, got {len(outcomes)})",
                    )
                ],
                0,
            )
        )
    return Verdict("pass")


# -- uploader -----------------------------------------------------------------------------------------------


def _uploader_input(case: SuiteCase) -> dict[str, Any]:
    return uploader_input(uploader_case_data(case))


def _uploader(case: SuiteCase, result: dict[str, Any]) -> Verdict:
    """Event by event, request by request (conformance/protocol.md, Comparison): seq_io.runner.uploader_judge."""
    return judge_requests(uploader_case_data(case), result.get("requests", ABSENT))


TABLE: dict[str, Kind] = {
    kind.name: kind
    for kind in (
        Kind("validation", _validation_input, _validation),
        Kind("schedule", _schedule_input, _schedule),
        Kind("envelope", _envelope_input, _envelope),
        Kind("rows_of", _rows_of_input, _rows_of),
        Kind("stream", _stream_input, _stream),
        Kind("uploader", _uploader_input, _uploader),
    )
}
"""Every kind the runner knows, in the order reports list them."""

KINDS = tuple(TABLE)
