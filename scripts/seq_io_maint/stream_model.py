"""A stream scenario (declaration in steps, limits, idle timeout, operations) → the outcome of every operation,
computed by brute force from the definitions of spec/stream.md and spec/schedule.md, written again here.

WHY it exists: the generated long vectors (scripts/gen_stream_vectors.py) and the property test of the keeper
(tests/test_keeper_property.py) need expectations that do not come from the code they check. This model shares
nothing with src/seq_io/reference/keeper.py or schedule.py: it keeps the accounted numbers of each episode as a
plain set, recomputes `through` and every limit's quantity from scratch every time, copies the whole episode to
stage a post or an act's own frame, walks every episode at every clock reading, lists every step of `picks` by the
pseudo-code of spec/schedule.md § 4 and counts sizes with its own canonical-text writer; after every operation it
checks that no quantity is above its limit, as spec/stream.md § 6 claims. It is slow on purpose, and only as
general as those callers need: declarations in unit "steps" (no rate), bodies that are JSON values. Body validity
is decided by the validator of record (spec/validation.md), which is not under test here.
"""

from __future__ import annotations

import copy
import json
import math
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

from seq_io.reference.validation import checking_contract

MAX_STEP = 2**53 - 1
WAIT_S = 10.0
ERROR_STATUS = {
    "stream.invalid-body": 400,
    "stream.invalid-skipped": 400,
    "stream.seq-required": 400,
    "stream.episode-required": 400,
    "stream.act-not-after-previous": 409,
    "stream.act-waiting": 409,
    "stream.frames-missing": 409,
    "stream.episode-ended": 410,
    "stream.frames-over-limit": 413,
    "stream.act-over-limit": 413,
    "stream.too-many-episodes": 503,
}
CONTRACT_LIMITS = {
    "MAX_STREAM_FRAMES": 1024,
    "MAX_STREAM_BYTES": 67108864,
    "MAX_WORKER_STREAM_BYTES": 1073741824,
    "MAX_EPISODES": 1024,
}
"""spec/contract.json's limits, and MAX_EPISODES as this package's keepers set it (STR-LIMIT-EPISODES)."""
LIMIT_RANGES = {
    "MAX_STREAM_FRAMES": 1_000_000,
    "MAX_STREAM_BYTES": MAX_STEP,
    "MAX_WORKER_STREAM_BYTES": MAX_STEP,
    "MAX_EPISODES": MAX_STEP,
}
"""The largest value a scenario may give each limit (STR-SETUP); the least is 1."""
OPERATIONS = ("observe", "act", "advance")


# -- spec/schedule.md, by its pseudo-code, for declarations in steps ---------------------------------------------


@dataclass
class Sched:
    windows: dict[str, list[int]]
    fed: dict[str, int]
    alone: list[str]
    every: int | None
    whole: bool
    pad: str


def schedule_of(declaration: Any) -> Sched | None:
    """of(declaration) for a valid declaration in unit "steps" (§ 3)."""
    if declaration is None:
        return None
    assert declaration.get("unit", "steps") == "steps", "the model knows declarations in steps only"
    streams = declaration.get("streams")
    windows: dict[str, list[int]] = {}
    fed: dict[str, int] = {}
    alone: list[str] = []
    for key, stream in (streams or {}).items():
        if stream.get("at") is not None:
            windows[key] = sorted({min(0, int(x)) for x in stream["at"]})
        elif stream.get("every") is not None:
            fed[key] = max(1, int(stream["every"]))
        else:
            alone.append(key)
    every = declaration.get("every")
    return Sched(
        windows,
        fed,
        alone,
        None if every is None else max(1, int(every)),
        streams is None,
        declaration.get("pad", "repeat_first"),
    )


def picks(s: Sched | None, t: int, t_prev: int) -> list[tuple[int, list[str] | None]]:
    if s is None:
        return [(t, None)]
    asked: dict[int, set[str]] = {}
    for key, offsets in s.windows.items():
        for off in offsets:
            asked.setdefault(t + off, set()).add(key)
    for key, k in s.fed.items():
        u = t
        while u > t_prev:
            asked.setdefault(u, set()).add(key)
            u -= k
    for key in s.alone:
        asked.setdefault(t, set()).add(key)
    whole_steps: set[int] = set()
    if s.whole:
        if s.every is None:
            whole_steps = {t}
        else:
            u = t
            while u > t_prev:
                whole_steps.add(u)
                u -= s.every
    result: list[tuple[int, list[str] | None]] = []
    for u in sorted(set(asked) | whole_steps):
        if u < 0 and s.pad == "drop":
            continue
        keys = None if u in whole_steps else sorted(asked[u])
        result.append((max(0, u), keys))
    return result


def needed(s: Sched | None, t: int, t_prev: int) -> list[int]:
    return sorted({u for u, _ in picks(s, t, t_prev) if u != t})


def keeps_from(s: Sched | None, t: int) -> int:
    reach = min([0, *(offsets[0] for offsets in s.windows.values())]) if s is not None else 0
    return max(0, t + 1 + reach)


def envelope(entries: list[tuple[int, list[str] | None]], frames: dict[int, Any], own: Any, t: int) -> Any:
    observations: list[Any] = []
    steps: list[int] = []
    for u, keys in entries:
        obs = own if u == t else frames[u]
        if keys is not None and isinstance(obs, dict):
            obs = {name: value for name, value in obs.items() if name in keys}
        observations.append(obs)
        steps.append(u)
    return {"observations": observations, "steps": steps}


# -- STR-SIZE -----------------------------------------------------------------------------------------------------


def canonical(value: Any) -> str:
    """The canonical JSON text (spec/stream.md STR-SIZE), written plainly (recursive: the model's values are
    shallow)."""
    if value is None or isinstance(value, bool):
        return json.dumps(value)
    if isinstance(value, int) or (isinstance(value, float) and value == int(value)):
        return str(int(value))
    if isinstance(value, float):
        sign, digits, exponent = Decimal(repr(value)).normalize().as_tuple()
        text = "".join(map(str, digits))
        n = int(exponent) + len(digits)
        if 0 < n <= 21:
            body = text[:n] + "." + text[n:]
        elif -6 < n <= 0:
            body = "0." + "0" * (-n) + text
        else:
            body = text[0] + ("." + text[1:] if len(text) > 1 else "") + "e-" + str(1 - n)
        return ("-" if sign else "") + body
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)
    if isinstance(value, list):
        return "[" + ",".join(canonical(item) for item in value) + "]"
    return "{" + ",".join(json.dumps(k, ensure_ascii=False) + ":" + canonical(v) for k, v in value.items()) + "}"


def frame_size(value: Any) -> int:
    return len(canonical(value).encode("utf-8"))


# -- spec/stream.md -------------------------------------------------------------------------------------------------


@dataclass
class Episode:
    seen: float
    acc: set[int] = field(default_factory=set)  # the accounted numbers (STR-ACCOUNTED)
    held: dict[int, Any] = field(default_factory=dict)
    line: int = 0
    last_act: int = -1
    waiting: dict[str, Any] | None = None  # t, inputs, deadline, index


def through(acc: set[int]) -> int:
    n = -1
    while n + 1 in acc:
        n += 1
    return n


def remembered(e: Episode) -> int:
    top = through(e.acc)
    return len(e.held) + sum(1 for n in e.acc if n > top and n not in e.held)


def held_bytes(e: Episode) -> int:
    return sum(frame_size(v) for v in e.held.values())


class Refused(Exception):
    def __init__(self, rule: str, **details: Any) -> None:
        super().__init__(rule)
        self.outcome = {"error": rule, "status": ERROR_STATUS[rule], **details}


class Malformed(Exception):
    """The scenario itself breaks spec/stream.md (STR-SCENARIO): the whole case is the error
    stream.invalid-scenario."""

    rule = "stream.invalid-scenario"


def whole(value: Any) -> int:
    return int(value)


def is_whole(value: Any) -> bool:
    """A JSON number whose value is an integer (3.0 is 3; true is not a number)."""
    return type(value) is int or (type(value) is float and math.isfinite(value) and value == int(value))


def check_scenario(scenario: dict[str, Any]) -> None:
    """STR-SCENARIO, STR-SETUP, STR-CLOCK: Malformed unless every limit, the idle timeout and every advance is in
    its range."""
    limits = scenario.get("limits")
    if limits is not None and not isinstance(limits, dict):
        raise Malformed
    for name, value in (limits or {}).items():
        if name not in LIMIT_RANGES or not is_whole(value) or not 1 <= value <= LIMIT_RANGES[name]:
            raise Malformed
    idle = scenario.get("episode_idle")
    if idle is not None and not (is_whole(idle) and 10 <= idle <= 86400):
        raise Malformed
    clock = 0.0
    for operation in scenario["operations"]:
        if not isinstance(operation, dict) or len(operation) != 1 or next(iter(operation)) not in OPERATIONS:
            raise Malformed
        if "advance" in operation:
            seconds = operation["advance"]
            if type(seconds) not in (int, float) or seconds < 0:
                raise Malformed
            try:
                clock += float(seconds)
            except OverflowError:  # an integer beyond every double: its nearest double is infinite
                raise Malformed from None
            if not math.isfinite(clock):
                raise Malformed


class Model:
    """One worker, played operation by operation on a virtual clock."""

    def __init__(self, declaration: Any, limits: dict[str, int], idle: int | None) -> None:
        self.s = schedule_of(declaration)
        self.limits = limits
        self.idle = idle
        self.episodes: dict[str, Episode] = {}
        self.ended: dict[str, float] = {}
        self.clock = 0.0
        self.outcomes: list[Any] = []

    def worker_bytes(self) -> int:
        return sum(held_bytes(e) for e in self.episodes.values())

    def crosses(self, after: Episode, others: int) -> str | None:
        """The first limit the episode's state `after` would be above (STR-LIMIT-CHECK), `others` being the bytes
        the other episodes hold."""
        for name, quantity in (
            ("MAX_STREAM_FRAMES", remembered(after)),
            ("MAX_STREAM_BYTES", held_bytes(after)),
            ("MAX_WORKER_STREAM_BYTES", others + held_bytes(after)),
        ):
            if quantity > self.limits[name]:
                return name
        return None

    def within_limits(self) -> bool:
        """No quantity is ever above its limit (spec/stream.md § 6): checked after every operation."""
        others = self.worker_bytes()
        return all(self.crosses(e, others - held_bytes(e)) is None for e in self.episodes.values())

    def expire(self, index: int) -> list[str]:
        now = self.clock
        for e in self.episodes.values():
            if e.waiting is not None and e.waiting["deadline"] < now:
                missing = [n for n in needed(self.s, e.waiting["t"], e.last_act) if n not in e.acc]
                self.outcomes[e.waiting["index"]] = {
                    "error": "stream.frames-missing",
                    "status": 409,
                    "missing": missing,
                    "at": index,
                }
                e.waiting = None
        ended = []
        if self.idle is not None:
            for episode_id, e in list(self.episodes.items()):
                if e.seen + self.idle < now:
                    del self.episodes[episode_id]
                    self.ended[episode_id] = e.seen + self.idle
                    ended.append(episode_id)
            for episode_id, end in list(self.ended.items()):
                if end + self.idle < now:
                    del self.ended[episode_id]
        return sorted(ended)

    def episode(self, episode_id: str) -> Episode:
        """The episode a request names (STR-EPISODE): refused when ended, or when it would be one too many."""
        if episode_id in self.ended:
            raise Refused("stream.episode-ended")
        if episode_id in self.episodes:
            return self.episodes[episode_id]
        if len(self.episodes) >= self.limits["MAX_EPISODES"]:
            raise Refused("stream.too-many-episodes")
        return Episode(self.clock)

    def post(self, body: Any, index: int) -> dict[str, Any]:
        if not checking_contract().validate_value("ObserveRequest", body).valid:
            raise Refused("stream.invalid-body")
        skipped = [whole(n) for n in body.get("skipped", [])]
        if any(n < 0 for n in skipped):
            raise Refused("stream.invalid-skipped")
        episode_id = body["episode_id"]
        e = self.episode(episode_id)
        e2 = copy.deepcopy(e)
        for frame in body.get("frames", []):
            n = whole(frame["seq"])
            if n in e2.acc:
                continue
            e2.acc.add(n)
            if n >= e2.line:
                e2.held[n] = frame["inputs"]
        e2.acc.update(skipped)
        crossed = self.crosses(e2, self.worker_bytes() - held_bytes(e))
        if crossed is not None:
            raise Refused("stream.frames-over-limit", limit=crossed)
        e2.seen = self.clock
        self.episodes[episode_id] = e2
        answer = {"through": through(e2.acc)}
        w = e2.waiting
        if w is not None and all(n in e2.acc for n in needed(self.s, w["t"], e2.last_act)):
            self.outcomes[w["index"]] = {"handed": self.hand_over(e2, w["t"], w["inputs"]), "at": index}
        return answer

    def act(self, body: Any, index: int) -> dict[str, Any] | None:
        if not checking_contract().validate_value("ActRequest", body).valid:
            raise Refused("stream.invalid-body")
        t = None if body.get("seq") is None else whole(body["seq"])
        if t is None:
            if self.s is None:
                return {"handed": body["inputs"], "at": index}
            raise Refused("stream.seq-required")
        episode_id = body.get("episode_id")
        if episode_id is None or not 1 <= len(episode_id) <= 256:  # STR-ACT-EPISODE: code points, as a post's
            raise Refused("stream.episode-required")
        e = self.episode(episode_id)
        if e.waiting is not None:
            raise Refused("stream.act-waiting")
        if t <= e.last_act:
            raise Refused("stream.act-not-after-previous", last_act=e.last_act)
        if self.too_many(t, e.last_act) or len(needed(self.s, t, e.last_act)) > self.limits["MAX_STREAM_FRAMES"]:
            raise Refused("stream.act-over-limit", limit="MAX_STREAM_FRAMES")
        need = needed(self.s, t, e.last_act)
        e.seen = self.clock
        self.episodes[episode_id] = e
        if all(n in e.acc for n in need):
            return {"handed": self.hand_over(e, t, body["inputs"]), "at": index}
        e.waiting = {"t": t, "inputs": body["inputs"], "deadline": self.clock + WAIT_S, "index": index}
        return None

    def too_many(self, t: int, t_prev: int) -> bool:
        """One fed key or the whole `every` alone reads more than the limit before t: so does the act. Only so
        can a brute force refuse an act at 2^53 - 1 without listing its steps (spec/stream.md STR-ACT-BOUND)."""
        s = self.s
        if s is None:
            return False
        periods = [*s.fed.values(), *([s.every] if s.whole and s.every else [])]
        return any((t - t_prev - 1) // k > self.limits["MAX_STREAM_FRAMES"] for k in periods)

    def hand_over(self, e: Episode, t: int, own: Any) -> Any:
        if self.s is None:
            handed = own
        else:
            entries = [(u, k) for u, k in picks(self.s, t, e.last_act) if u == t or u in e.held]
            handed = envelope(entries, e.held, own, t)
        e.waiting = None
        e.last_act = t
        e.line = keeps_from(self.s, t)
        e.held = {n: v for n, v in e.held.items() if n >= e.line}
        if t not in e.acc:  # STR-ACT-OWN: held, else accounted, else nothing, whichever first crosses no limit
            others = self.worker_bytes() - held_bytes(e)
            holding = copy.deepcopy(e)
            holding.acc.add(t)
            holding.held[t] = own
            accounting = copy.deepcopy(e)
            accounting.acc.add(t)
            if t >= e.line and self.crosses(holding, others) is None:
                e.acc.add(t)
                e.held[t] = own
            elif self.crosses(accounting, others) is None:
                e.acc.add(t)
        return handed


def play(scenario: dict[str, Any]) -> list[Any]:
    """The outcome of each operation of a scenario in the protocol's form (conformance/protocol.md, kind stream);
    Malformed when the scenario itself is (STR-SCENARIO)."""
    check_scenario(scenario)
    limits = {**CONTRACT_LIMITS, **{name: whole(value) for name, value in (scenario.get("limits") or {}).items()}}
    idle = scenario.get("episode_idle")
    model = Model(scenario["declaration"], limits, None if idle is None else whole(idle))
    for index, operation in enumerate(scenario["operations"]):
        model.outcomes.append(None)
        try:
            if "advance" in operation:
                model.clock += float(operation["advance"])
                model.outcomes[index] = {"ended": model.expire(index)}
            elif "observe" in operation:
                model.outcomes[index] = model.post(operation["observe"], index)
            else:
                model.outcomes[index] = model.act(operation["act"], index)
        except Refused as refused:
            model.outcomes[index] = refused.outcome | ({"at": index} if "act" in operation else {})
        assert model.within_limits(), f"operation {index} left a quantity above its limit"
    return [{"waiting": True} if outcome is None else outcome for outcome in model.outcomes]
