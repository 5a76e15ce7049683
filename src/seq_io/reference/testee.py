"""The Python reference as a testee: protocol v1 requests on stdin → seq_io.reference (validation, schedule,
envelope, rows_of, the stream keeper, the robot's uploader) → one answer line per request on stdout.
`answer(request)` is the same work without the pipes; the runner's in-process fast path calls it directly.

WHY it is shaped this way: the reference must pass the suite through the very protocol every other language
uses, so that a failure of another implementation is never the runner's or the protocol's fault. The
conversions between the protocol's JSON forms and the reference API's (lists ↔ tuples, frame names "5" → step
5) happen here, at the boundary, as spec/schedule.md describes them, and so does the playing of a stream
scenario: its operations in order on a virtual clock, each act's outcome written at its own index once decided,
and of an uploader scenario: its events in order on a virtual clock, the requests sent during each at its index.
A refusal of the spec is an `error` answer with its rule id; anything else that goes wrong inside is answered as
`testee.internal-error` (with the traceback on stderr), so one bug fails one case instead of the session.
Run: `python -m seq_io.reference.testee`.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import traceback
from collections.abc import Callable
from functools import cache
from importlib import metadata
from typing import Any, BinaryIO, TextIO

from seq_io.reference import schedule as sch
from seq_io.reference.envelope import envelope_of_json
from seq_io.reference.keeper import INVALID_SCENARIO, Keeper, Limits, StreamError, episode_idle_of
from seq_io.reference.rows_of import rows_of
from seq_io.reference.schedule import Entry, ScheduleError
from seq_io.reference.spec_data import SpecError, load_spec
from seq_io.reference.uploader import Uploader
from seq_io.reference.validation import Contract, contract
from seq_io.reference.wire import number_value

NAME = "seq-io-ref"
PROTOCOL = 1
KINDS = ("validation", "schedule", "envelope", "rows_of", "stream", "uploader")
KEEPER_OPERATIONS = ("observe", "act", "advance")
INTERNAL_ERROR = "testee.internal-error"
_OPTIONS = {"fast": False}


@cache
def _contract(fast: bool) -> Contract:
    return contract(fast=fast)


def version() -> str:
    try:
        return metadata.version("sequences-io-spec")
    except metadata.PackageNotFoundError:
        return "0+unknown"


def hello() -> dict[str, Any]:
    return {
        "type": "hello",
        "protocol": PROTOCOL,
        "implementation": {"name": NAME, "version": version()},
        "contract_version": load_spec().contract_version,
        "kinds": list(KINDS),
    }


def _json_entries(entries: list[Entry]) -> list[list[Any]]:
    return [[step, None if keys is None else list(keys)] for step, keys in entries]


class _MalformedScenario(Exception):
    """A stream scenario that breaks spec/stream.md itself (STR-SCENARIO): answered as the error
    stream.invalid-scenario."""


class _UnknownType(Exception):
    """A validation request names a type this testee does not know: answered `skipped` (conformance/protocol.md)."""


def _validation(given: dict[str, Any], checker: Contract | None = None) -> dict[str, Any]:
    checker = checker or _contract(_OPTIONS["fast"])
    if given["type_name"] not in checker.type_names:
        raise _UnknownType(f"the type {given['type_name']!r} is not a type of contract {checker.spec.contract_version}")
    outcome = checker.validate_text(given["type_name"], given["json"])
    if outcome.valid:
        return {"valid": True, "normalized": outcome.normalized}
    errors = [{"path": issue.path, "rule": issue.rule, "message": issue.message} for issue in outcome.issues]
    return {"valid": False, "errors": errors}


def _schedule(given: dict[str, Any]) -> dict[str, Any]:
    declaration, t, t_prev = given["declaration"], given["t"], given["t_prev"]
    schedule = sch.of(declaration, given.get("rate"))
    return {
        "picks": _json_entries(sch.picks(schedule, t, t_prev)),
        "needed": sch.needed(schedule, t, t_prev),
        "wanted": _json_entries(sch.wanted(schedule, t_prev, t)),
        "keeps_from": sch.keeps_from(schedule, t),
        "reads_past": {"declaration": sch.reads_past_declaration(declaration), "schedule": sch.reads_past(schedule)},
    }


def _envelope(given: dict[str, Any]) -> dict[str, Any]:
    # ENV-INPUT first; a member name that is not a step in canonical decimal ("05", "x") names no frame.
    return envelope_of_json(given["picks"], given["frames"], given["own"], given["t"])


def _rows_of(given: dict[str, Any]) -> dict[str, Any]:
    return {"rows": rows_of(given["answer"], given["actions"])}


def _error_outcome(error: StreamError) -> dict[str, Any]:
    outcome = {"error": error.rule, "status": error.status}
    return outcome | {name: error.details[name] for name in ("missing", "limit", "last_act") if name in error.details}


def _scenario_setup(given: dict[str, Any]) -> tuple[Limits, int | None]:
    """The keeper's limits and idle timeout, and every advance checked, before anything is played (STR-SCENARIO);
    _MalformedScenario names what breaks spec/stream.md."""
    try:
        limits = Limits.scaled(given.get("limits"))
        idle = episode_idle_of(given.get("episode_idle"))
    except ValueError as error:
        raise _MalformedScenario(str(error)) from None
    problem = malformed_operations(given["operations"])
    if problem is not None:
        raise _MalformedScenario(problem)
    return limits, idle


def malformed_operations(operations: list[Any]) -> str | None:
    """What makes a scenario's operations malformed (STR-SCENARIO: not exactly one of the three operations, an
    advance that is not a finite number >= 0 or that makes the virtual clock infinite, STR-CLOCK), or None."""
    clock = 0.0
    for index, operation in enumerate(operations):
        if not isinstance(operation, dict) or len(operation) != 1 or next(iter(operation)) not in KEEPER_OPERATIONS:
            return f"operation {index} is not exactly one of {', '.join(KEEPER_OPERATIONS)}"
        seconds = operation.get("advance", 0.0)
        if type(seconds) not in (int, float) or seconds < 0:
            return f"operation {index}: advance is a number of seconds >= 0; got {seconds!r}"
        try:
            clock += float(seconds)
        except OverflowError:
            clock = float("inf")
        if not math.isfinite(clock):
            return f"operation {index}: the virtual clock would no longer be finite (STR-CLOCK)"
    return None


def _stream(given: dict[str, Any]) -> dict[str, Any]:
    """One scenario (conformance/protocol.md, kind stream) → the outcome of each operation, in order."""
    limits, idle = _scenario_setup(given)
    keeper = Keeper.of(given["declaration"], given.get("rate"), limits=limits, episode_idle=idle)
    clock = 0.0
    outcomes: list[Any] = []
    waiting: dict[str, int] = {}  # episode id → index of its act that waits
    for index, operation in enumerate(given["operations"]):
        outcome: dict[str, Any] | None = None
        try:
            if "advance" in operation:
                clock += float(operation["advance"])
                keeper.tick(clock)
                outcome = {}
            elif "observe" in operation:
                outcome = {"through": keeper.post(operation["observe"], clock)}
            else:
                acted = keeper.act(operation["act"], clock)
                if acted.waiting:
                    waiting[operation["act"]["episode_id"]] = index
                else:
                    outcome = {"handed": acted.handed, "at": index}
        except StreamError as error:
            outcome = _error_outcome(error) | ({"at": index} if "act" in operation else {})
        outcomes.append(outcome)
        events = keeper.take_events()
        for answer in events.answers:
            decided = {"handed": answer.handed} if answer.error is None else _error_outcome(answer.error)
            outcomes[waiting.pop(answer.episode_id)] = decided | {"at": index}
        if "advance" in operation:
            outcomes[index] = {"ended": events.ended}
    for index in waiting.values():
        outcomes[index] = {"waiting": True}
    return {"outcomes": outcomes}


def _uploader(given: dict[str, Any]) -> dict[str, Any]:
    """One client-mode scenario (conformance/protocol.md, kind uploader) → the requests sent during each event, in
    order, on a virtual clock that starts at 0.0 and moves by one binary64 addition per advance (UPL-CLOCK)."""
    uploader = Uploader(given["declaration"], given.get("rate"), given["episode_id"], given.get("backlog"))
    clock = 0.0
    requests: list[list[dict[str, Any]]] = []
    for event in given["events"]:
        if isinstance(event, dict) and "advance" in event:
            clock += float(event["advance"])
        requests.append(uploader.event(event, clock))
    return {"requests": requests}


_KINDS: dict[str, Callable[[dict[str, Any]], dict[str, Any]]] = {
    "validation": _validation,
    "schedule": _schedule,
    "envelope": _envelope,
    "rows_of": _rows_of,
    "stream": _stream,
    "uploader": _uploader,
}


def answer(request: dict[str, Any], checker: Contract | None = None) -> dict[str, Any]:
    """One case request → its answer message (result, error or skipped); never raises. `checker`: the Contract
    that validates (another spec folder's, e.g. a schema mutant's); the repository's own by default."""
    case_id = request.get("id")
    work = _KINDS.get(str(request.get("kind")))
    if work is None:
        reason = f"the kind {request.get('kind')!r} is not implemented"
        return {"type": "skipped", "id": case_id, "reason": reason}
    try:
        given = request["input"]
        result = _validation(given, checker) if work is _validation else work(given)
        return {"type": "result", "id": case_id, "result": result}
    except ScheduleError as error:
        return {"type": "error", "id": case_id, "rule": error.rule, "message": error.message}
    except _MalformedScenario as error:
        return {"type": "error", "id": case_id, "rule": INVALID_SCENARIO, "message": str(error)}
    except _UnknownType as error:
        return {"type": "skipped", "id": case_id, "reason": str(error)}
    except Exception as error:  # a bug of the reference: report it on this case and keep serving
        traceback.print_exc(file=sys.stderr)
        return {"type": "error", "id": case_id, "rule": INTERNAL_ERROR, "message": f"{type(error).__name__}: {error}"}


def _line(message: dict[str, Any]) -> bytes:
    try:
        text = json.dumps(message, allow_nan=False, separators=(",", ":"))
    except (TypeError, ValueError) as error:
        text = json.dumps(
            {
                "type": "error",
                "id": message.get("id"),
                "rule": INTERNAL_ERROR,
                "message": f"the answer cannot be written as JSON: {error}",
            }
        )
    return text.encode("ascii") + b"\n"


def _refuse(stderr: TextIO, text: str) -> int:
    print(f"reference_testee: {text}", file=stderr)
    return 2


def serve(stdin: BinaryIO, stdout: BinaryIO, stderr: TextIO = sys.stderr) -> int:
    """The session: the runner's hello, ours, then one answer per case until stdin closes (exit status 0)."""
    first = stdin.readline()
    if not first:
        return 0
    try:
        greeting = json.loads(first)
    except ValueError:
        return _refuse(stderr, f"the first line is not a JSON hello: {first[:200]!r}")
    if not isinstance(greeting, dict) or greeting.get("type") != "hello":
        return _refuse(stderr, f"the first line is not a hello: {first[:200]!r}")
    stdout.write(_line(hello()))
    stdout.flush()
    for raw in stdin:
        if not raw.strip():
            continue
        try:
            request = json.loads(raw, parse_float=number_value)  # 1e+23 is the integer 10^23 (spec/validation.md)
        except ValueError:
            return _refuse(stderr, f"a request is not JSON: {raw[:200]!r}")
        is_case = isinstance(request, dict) and request.get("type") == "case"
        if not (is_case and isinstance(request.get("id"), str)):
            return _refuse(stderr, f"not a case request: {raw[:200]!r}")
        stdout.write(_line(answer(request)))
        stdout.flush()
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m seq_io.reference.testee", description=(__doc__ or "").split("\n")[0]
    )
    parser.add_argument("--fast", action="store_true", help="validate with the jsonschema-rs fast path")
    _OPTIONS["fast"] = parser.parse_args(argv).fast
    try:
        load_spec()  # a spec that cannot be read ends the testee with one line, before any hello
    except SpecError as error:
        print(f"{NAME}: the spec cannot be read: {error}", file=sys.stderr)
        return 2
    try:
        return serve(sys.stdin.buffer, sys.stdout.buffer)
    except BrokenPipeError:  # the runner went away; nothing is left to answer
        return 1


if __name__ == "__main__":
    sys.exit(main())
