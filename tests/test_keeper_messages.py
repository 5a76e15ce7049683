"""Every stream vector played through the reference keeper in process, and a few direct calls → the text of each
refusal's StreamError message and of each ValueError a malformed scenario or a caller's clock misuse raises → held
to what a sentence must do and to the reviewed snapshot tests/golden/keeper-messages.json.

WHY: a refusal's message is what a robot SDK's author reads in a worker's 4xx answer, yet the vectors by design do
not compare it (spec/stream.md § 10), so nothing else would notice a message that lost its numbers or its words.
The properties say what every message must do whatever its words (a sentence that names the `missing` numbers, the
`limit` and the `last_act` its body carries); the snapshot pins the words themselves, so a change to one is read
by a person before it lands: review the diff, then run `python tests/test_keeper_messages.py --write`. The direct
calls reach what no vector provokes: more than 20 missing numbers, more than 5 issues in a body, and the keeper's
ValueErrors (a scenario that would raise one is refused before it is played). This module also judges the keeper's
mutants (`make mutation-keeper`, scripts/mutation.py).
"""

from __future__ import annotations

import json
import re
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

import suite_cache
from seq_io.reference import testee
from seq_io.reference.keeper import ERRORS, Keeper, Limits, StreamError, episode_idle_of
from seq_io.runner.kinds import TABLE

SNAPSHOT = Path(__file__).resolve().parent / "golden" / "keeper-messages.json"
HINT = "messages changed: review them and run `python tests/test_keeper_messages.py --write`"
_ERROR = "refusal"
"""The member under which a played outcome carries its StreamError (see `vector_refusals`)."""


def vector_refusals() -> dict[str, dict[str, StreamError]]:
    """Case id → operation index → the StreamError of that operation's outcome, for every stream vector that the
    reference keeper plays (a scenario refused as a whole, STR-SETUP or STR-SCENARIO, has none)."""
    error_outcome = testee._error_outcome

    def with_error(error: StreamError) -> dict[str, Any]:
        return error_outcome(error) | {_ERROR: error}

    found: dict[str, dict[str, StreamError]] = {}
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(testee, "_error_outcome", with_error)
        for case in suite_cache.cases()[0]:
            if case.kind != "stream" or "expect" in case.case.data:
                continue
            outcomes = testee._stream(TABLE["stream"].input(case))["outcomes"]
            errors = {str(index): outcome[_ERROR] for index, outcome in enumerate(outcomes) if _ERROR in outcome}
            if errors:
                found[case.id] = errors
    return found


def _waited_too_long(missing: int) -> StreamError:
    """The refusal of an act that waited in vain for `missing` frames (STR-ACT-MISSING)."""
    keeper = Keeper.of({"every": 1})
    assert keeper.act({"episode_id": "e", "seq": missing, "inputs": 0}, 0.0).waiting
    keeper.tick(keeper.wait_s + 1.0)
    error = keeper.take_events().answers[0].error
    assert error is not None
    return error


def _refusal(send: Callable[[], object]) -> StreamError:
    with pytest.raises(StreamError) as refused:
        send()
    return refused.value


def _issues(count: int) -> StreamError:
    """The refusal of an ObserveRequest with `count` issues: an episode id that is no string, frames numbered -1."""
    body = {"episode_id": 5, "frames": [{"seq": -1, "inputs": 0}] * (count - 1)}
    return _refusal(lambda: Keeper(None).post(body, 0.0))


def _reads_too_far(last_act: int) -> StreamError:
    """The refusal of an act that reads more earlier frames than an episode may hold, after an act at `last_act`."""
    keeper = Keeper.of({"every": 1}, limits=Limits(2, 1000, 1000))
    if last_act >= 0:
        keeper.act({"episode_id": "e", "seq": last_act, "inputs": 0}, 0.0)
    return _refusal(lambda: keeper.act({"episode_id": "e", "seq": last_act + 4, "inputs": 0}, 0.0))


def direct_refusals() -> dict[str, StreamError]:
    """The refusals no vector provokes: a message cut after 20 missing numbers or 5 issues, and each side of those
    cuts and of the first act's missing previous act."""
    return {
        "20 missing": _waited_too_long(20),
        "21 missing": _waited_too_long(21),
        "5 issues": _issues(5),
        "6 issues": _issues(6),
        "an act after the act at 0 reads too far": _reads_too_far(0),
        "a first act reads too far": _reads_too_far(-1),
    }


def _value_error(call: Callable[[], object]) -> str:
    try:
        call()
    except ValueError as error:
        return str(error)
    raise AssertionError("no ValueError")


def _clock_back() -> None:
    keeper = Keeper(None)
    keeper.tick(5.0)
    keeper.tick(4.0)


def value_errors() -> dict[str, str]:
    """What the keeper raises at a malformed scenario (STR-SCENARIO) and at a clock that goes back (STR-CLOCK)."""
    return {
        "limits naming another limit": _value_error(lambda: Limits.scaled({"STREAM_WAIT_S": 1})),
        "limits that are no object": _value_error(lambda: Limits.scaled([1])),
        "a limit out of its range": _value_error(lambda: Limits.scaled({"MAX_STREAM_BYTES": 0})),
        "a limit that is no integer": _value_error(lambda: Keeper(None, limits=Limits(1, 1, 1, True))),
        "episode_idle out of its range": _value_error(lambda: episode_idle_of(9)),
        "episode_idle that is no integer": _value_error(lambda: episode_idle_of(10.5)),
        "a clock that goes back": _value_error(_clock_back),
        "a clock that is not finite": _value_error(lambda: Keeper(None).tick(float("inf"))),
    }


def current() -> dict[str, Any]:
    """The snapshot as the keeper writes it now."""
    return {
        "vectors": {
            case: {index: error.message for index, error in errors.items()}
            for case, errors in vector_refusals().items()
        },
        "direct": {name: error.message for name, error in direct_refusals().items()},
        "value_errors": value_errors(),
    }


def _every_refusal() -> Iterator[tuple[str, StreamError]]:
    for case, errors in vector_refusals().items():
        for index, error in errors.items():
            yield f"{case} operation {index}", error
    yield from direct_refusals().items()


def _named(number: int, text: str) -> bool:
    return re.search(rf"(?<![\w-]){number}(?!\w)", text) is not None


def problems_of(error: StreamError) -> list[str]:
    """What a refusal's message fails of a sentence that names what its body carries (empty when it is fine)."""
    message, details = error.message, error.details
    found = []
    if not (message[:1].isupper() and message.endswith(".")):
        found.append("not a sentence (an upper-case letter first, a full stop last)")
    if "XX" in message:
        found.append('holds "XX"')
    if str(error) != f"{message} [{error.rule}]":
        found.append(f"the exception's text is {str(error)!r}, not the message and the error id")
    missing = details.get("missing", [])
    if [number for number in missing[:20] if not _named(number, message)]:
        found.append("does not name each of the first 20 missing numbers")
    if len(missing) > 20 and f"and {len(missing) - 20} more" not in message:
        found.append("does not say how many more numbers are missing")
    if "limit" in details and details["limit"] not in message:
        found.append(f"does not name the limit {details['limit']}")
    if "last_act" in details and not _named(details["last_act"], message):
        found.append(f"does not name the last act, {details['last_act']}")
    issues = details.get("issues", [])
    if [issue for issue in issues[:5] if f"{issue['path']}: " not in message or f"[{issue['rule']}]" not in message]:
        found.append("does not name the path and rule of each of the first 5 issues")
    if len(issues) > 5 and f"and {len(issues) - 5} more" not in message:
        found.append("does not say how many more issues there are")
    return found


def test_the_messages_checked_are_of_every_error_id_and_every_detail() -> None:
    refusals = [error for _, error in _every_refusal()]
    assert {error.rule for error in refusals} == set(ERRORS)
    assert {detail for error in refusals for detail in error.details} == {"missing", "limit", "last_act", "issues"}


def test_every_refusal_message_is_a_sentence_that_names_what_its_body_carries() -> None:
    bad = [
        f"{where}: {problem}: {error.message!r}" for where, error in _every_refusal() for problem in problems_of(error)
    ]
    assert not bad, f"{len(bad)} messages: {bad[0]}"


def test_every_value_error_is_a_sentence() -> None:
    texts = value_errors()
    bad = {name: text for name, text in texts.items() if not (text[:1].isupper() and text.endswith("."))}
    assert not bad, bad
    assert (
        "MAX_STREAM_BYTES" in texts["a limit out of its range"]
        and "STREAM_WAIT_S" in texts["limits naming another limit"]
    )
    assert "5.0" in texts["a clock that goes back"] and "4.0" in texts["a clock that goes back"]


def test_the_messages_are_the_reviewed_ones() -> None:
    assert current() == json.loads(SNAPSHOT.read_text(encoding="utf-8")), HINT


def test_a_message_that_drops_a_missing_number_is_caught() -> None:
    """The properties can fail: a message that names no number, or one that is no sentence, is found out."""
    error = _waited_too_long(3)
    assert problems_of(error) == []
    error.message = "the act waited for its frames"
    assert problems_of(error) == [
        "not a sentence (an upper-case letter first, a full stop last)",
        f"the exception's text is {str(error)!r}, not the message and the error id",
        "does not name each of the first 20 missing numbers",
    ]


def main(argv: list[str]) -> int:
    if argv != ["--write"]:
        print("usage: python tests/test_keeper_messages.py --write  (rewrites tests/golden/keeper-messages.json)")
        return 2
    SNAPSHOT.parent.mkdir(exist_ok=True)
    SNAPSHOT.write_text(json.dumps(current(), indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    print(f"wrote {SNAPSHOT}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
