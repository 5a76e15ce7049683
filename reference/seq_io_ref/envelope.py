"""The entries `picks` chose, the frames kept so far, the act's own observation and its step → what `infer` is
handed: `{"observations": [...], "steps": [...]}`, one observation per entry, in the entries' order.

WHY it is shaped this way: the frames arrive over JSON, where an object's keys are strings, so the caller turns
them into integer steps once (the vector judge does so for the suite) and this function stays a plain walk. A
picked step with no frame is a refusal with a rule id, not a KeyError, so every language reports it the same way.
An observation that is not a JSON object cannot be cut to keys and passes whole.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from seq_io_ref.schedule import Entry, ScheduleError

FRAME_MISSING = "envelope.frame-missing"


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
            raise ScheduleError(FRAME_MISSING, f"step {step} is picked for the act at step {t}, but no frame of "
                                               f"step {step} was kept (kept: {sorted(frames)})")
        observations.append(_cut(observation, keys))
        steps.append(step)
    return {"observations": observations, "steps": steps}
