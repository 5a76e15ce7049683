"""The entries `picks` chose, the frames kept so far, the act's own observation and its step → what `infer` is
handed: `{"observations": [...], "steps": [...]}`, one observation per entry, in the entries' order.

WHY it is shaped this way: the frames arrive over JSON, where an object's keys are strings, so the caller turns
them into integer steps once (the vector judge does so for the suite) and this function stays a plain walk. A
picked step with no frame is a refusal with a rule id, not a KeyError, so every language reports it the same way.
An observation that is not a JSON object cannot be cut to keys and passes whole. `envelope_of_json` is the
same call on the JSON forms (vectors, the testee protocol): it first checks them (ENV-INPUT), so a step of 2.5,
-1 or 2^53, or keys that are not a list of strings, is refused with `envelope.invalid-input`, never read as
something else.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from seq_io.reference.schedule import MAX_STEP, Entry, ScheduleError

FRAME_MISSING = "envelope.frame-missing"
INVALID_INPUT = "envelope.invalid-input"
_STEP_NAME = re.compile(r"0|[1-9][0-9]*")


def _cut(observation: object, keys: tuple[str, ...] | None) -> object:
    """The observation reduced to the keys read at its step that it has, in the keys' order."""
    if keys is None or not isinstance(observation, dict):
        return observation
    return {key: observation[key] for key in keys if key in observation}


def envelope(picked: Sequence[Entry], frames: Mapping[int, object], own: object, t: int) -> dict[str, list[Any]]:
    """The observations handed to the act at step t: `own` at step t, `frames[step]` at any other picked step."""
    observations: list[Any] = []
    steps: list[int] = []
    for step, keys in picked:
        if step == t:
            observation = own
        elif step in frames:
            observation = frames[step]
        else:
            raise ScheduleError(
                FRAME_MISSING,
                f"step {step} is picked for the act at step {t}, but no frame of "
                f"step {step} was kept (kept: {sorted(frames)})",
            )
        observations.append(_cut(observation, keys))
        steps.append(step)
    return {"observations": observations, "steps": steps}


def _step(value: object, what: str) -> int:
    """A step given as a JSON number: an integer by value in 0 .. MAX_STEP (3.0 is 3), else a refusal."""
    if (
        isinstance(value, int | float)
        and not isinstance(value, bool)
        and float(value).is_integer()
        and 0 <= value <= MAX_STEP
    ):
        return int(value)
    raise ScheduleError(INVALID_INPUT, f"{what} must be an integer from 0 to {MAX_STEP}; got {value!r}")


def _keys(value: object, what: str) -> tuple[str, ...] | None:
    if value is None:
        return None
    if isinstance(value, list) and all(isinstance(key, str) for key in value):
        return tuple(value)
    raise ScheduleError(INVALID_INPUT, f"{what} must be null or a list of strings; got {value!r}")


def envelope_of_json(picks: object, frames: object, own: object, t: object) -> dict[str, list[Any]]:
    """envelope() on the JSON forms, after the ENV-INPUT checks: `picks` a list of [step, keys] pairs, `frames` an
    object whose member names in canonical decimal are steps (other names, and steps beyond MAX_STEP, name no
    step that can be picked), `t` a step."""
    step_t = _step(t, "t")
    if not isinstance(picks, list):
        raise ScheduleError(INVALID_INPUT, f"picks must be a list of [step, keys] entries; got {picks!r}")
    entries: list[Entry] = []
    for index, entry in enumerate(picks):
        if not (isinstance(entry, list) and len(entry) == 2):
            raise ScheduleError(INVALID_INPUT, f"picks[{index}] must be a [step, keys] pair; got {entry!r}")
        entries.append((_step(entry[0], f"the step of picks[{index}]"), _keys(entry[1], f"the keys of picks[{index}]")))
    if not isinstance(frames, dict):
        raise ScheduleError(INVALID_INPUT, f"frames must be an object keyed by decimal steps; got {frames!r}")
    by_step = {int(name): frame for name, frame in frames.items() if _STEP_NAME.fullmatch(name)}
    return envelope(entries, by_step, own, step_t)
