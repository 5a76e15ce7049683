"""A policy's answer (a JSON value) and its Actions declaration (or null) → the rows that play, in order, or a
`ScheduleError` naming the `rows_of.*` rule that refuses it (rules in spec/schedule.md).

WHY it is shaped this way: an eval and a robot must play the same rows from the same answer, so the rule is one
function over JSON values only (lists, objects, numbers, strings, booleans, null): no tuples or arrays, which JSON
cannot carry. Declared, every element of the named list is a row and the horizon cuts them; the declaration is
validated first, so a horizon of 0 is refused rather than read as "no cut". Undeclared, only two shapes are
unambiguous (a list of numbers is one action; a list of equal-length lists is rows); anything else between them
is refused with the reason, so a policy author declares what they mean instead of a guess playing on a robot.
"""

from __future__ import annotations

from typing import Any

from seq_io.reference.schedule import ScheduleError
from seq_io.reference.validation import checking_contract

MISSING_KEY = "rows_of.missing-key"
NOT_A_LIST = "rows_of.not-a-list"
NO_ROWS = "rows_of.no-rows"
RAGGED = "rows_of.ragged"
OBJECTS = "rows_of.objects"
MIXED = "rows_of.mixed"
INVALID_ACTIONS = "rows_of.invalid-actions"

_UNDECLARED = (
    "plays neither as one action (an object, or a list of numbers) nor row by row (a list of lists "
    "of one length): declare Actions for its rows to play in order, or convert the answer yourself"
)


def _is_number(value: object) -> bool:
    """A number for this rule; booleans count as numbers here."""
    return isinstance(value, int | float)


def _kind(value: object) -> str:
    if _is_number(value):
        return "numbers"
    if isinstance(value, list):
        return "lists"
    if isinstance(value, dict):
        return "objects"
    if isinstance(value, str):
        return "strings"
    return "nulls"


def _json_type(value: object) -> str:
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, dict):
        return "an object"
    return "null" if value is None else f"a {_kind(value).rstrip('s')}"


def _declared(answer: Any, actions: object) -> list[Any]:
    outcome = checking_contract().validate_value("Actions", actions)
    if not outcome.valid:
        reasons = "; ".join(map(str, outcome.issues))
        raise ScheduleError(INVALID_ACTIONS, f"the Actions declaration is not valid: {reasons}")
    assert isinstance(actions, dict)  # a valid Actions is a JSON object
    key, horizon = actions.get("key"), actions.get("open_loop_horizon")
    where = "answer" if key is None else f"answer's {key!r} member"
    if key is not None:
        if not isinstance(answer, dict) or key not in answer:
            raise ScheduleError(
                MISSING_KEY, f"the answer has no {key!r} member, which Actions.key names as the rows to play"
            )
        answer = answer[key]
    if not isinstance(answer, list):
        raise ScheduleError(NOT_A_LIST, f"the {where} must be a list of rows; it is {_json_type(answer)}")
    if not answer:
        raise ScheduleError(NO_ROWS, f"the {where} holds no rows to play")
    return answer if horizon is None else answer[: int(horizon)]


def _undeclared(answer: Any) -> list[Any]:
    if not isinstance(answer, list) or all(_is_number(value) for value in answer):
        return [answer]
    if all(isinstance(value, list) for value in answer):
        lengths = [len(value) for value in answer]
        if len(set(lengths)) == 1:
            return list(answer)
        raise ScheduleError(
            RAGGED, f"the answer, a list of lists of lengths {', '.join(map(str, lengths))}, " + _UNDECLARED
        )
    if all(isinstance(value, dict) for value in answer):
        raise ScheduleError(OBJECTS, f"the answer, a list of {len(answer)} objects, " + _UNDECLARED)
    kinds = " and ".join(dict.fromkeys(_kind(value) for value in answer))
    raise ScheduleError(MIXED, f"the answer, a list of {kinds}, " + _UNDECLARED)


def rows_of(answer: Any, actions: object = None) -> list[Any]:
    """The rows of `answer` that play, in order. `actions`: the Actions declaration (a JSON object), or None."""
    if actions is not None:
        return _declared(answer, actions)
    return _undeclared(answer)
