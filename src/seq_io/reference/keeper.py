"""Observe posts, acts and clock readings of one worker → each episode's accounted numbers, held frames and
`through`, and each act's hand-over or refusal, as spec/stream.md defines them (its `STR-…` rules and `stream.…`
error ids).

WHY it is shaped this way:

- Pure: no I/O, no threads, no clock of its own. Every call takes the clock reading `now`; what the passing of
  time decides (an act's wait running out, an episode going idle) happens at the start of the next call, and what
  a call decides for acts that wait is reported as events (`take_events`), so a worker, a test and a conformance
  testee drive it alike, with a real or a virtual clock.
- Bounded: an episode remembers its held frames plus the accounted numbers above `through` that it does not hold
  (everything at or below `through` is implied by `through` itself), at most MAX_STREAM_FRAMES of them, an act
  never lists more steps than that (STR-ACT-BOUND), and a keeper holds at most MAX_EPISODES episodes. No kind is
  kept per number: an act is handed exactly the picked frames the episode holds (STR-ACT-SKIPPED). An act's own
  frame goes through the same limits as a posted one (STR-ACT-OWN), so no quantity ever exceeds its limit. Per
  frame the work is a few dict operations and one heap push (O(log n)); `through` moves over each number once;
  retention pops the heap of held numbers; idle episodes and waiting acts leave from the front of
  insertion-ordered dicts, because `seen` and deadlines only grow.
- The schedule is not re-derived: `needed`, `picks`, `keeps_from` (seq_io.reference.schedule) and `envelope`
  (seq_io.reference.envelope) are called as spec/schedule.md defines them.
- Each request is two halves: a stateless check (`check_observe`, `check_act`: the body against its schema, its
  frames measured and put in the keeper's `store` form) and a stateful apply (`post_checked`, `act_checked`).
  `post` and `act` are the two in a row, so every vector runs both; a worker runs the check in the child process
  that reads a large body, so that neither the body's value nor its check ever costs the event loop.
- A post is staged, checked against the limits, then committed, so that a refusal changes nothing
  (STR-POST-ATOMIC).
- A body is first checked by a short structural test that accepts only what the schema and the wire rules a value
  can break accept (lone surrogates, non-finite numbers, depth from the body's root: STR-POST-BODY, STR-DEPTH);
  whatever it is unsure of goes to the validator of record (spec/validation.md), which names the refusal. Bodies
  are JSON values as a wire parser builds them (dict, list, str, int, float, bool, None); the keeper shares, never
  copies, the frames' values, so callers treat what they pass and receive as immutable.
"""

from __future__ import annotations

import heapq
import math
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any

from seq_io.reference import schedule as sch
from seq_io.reference.envelope import envelope
from seq_io.reference.frame_size import checked_size, size
from seq_io.reference.schedule import MAX_STEP, Schedule
from seq_io.reference.spec_data import load_spec
from seq_io.reference.validation import checking_contract
from seq_io.reference.wire import plainly_json

INVALID_BODY = "stream.invalid-body"
INVALID_SKIPPED = "stream.invalid-skipped"
SEQ_REQUIRED = "stream.seq-required"
EPISODE_REQUIRED = "stream.episode-required"
ACT_NOT_AFTER_PREVIOUS = "stream.act-not-after-previous"
ACT_WAITING = "stream.act-waiting"
FRAMES_MISSING = "stream.frames-missing"
EPISODE_ENDED = "stream.episode-ended"
FRAMES_OVER_LIMIT = "stream.frames-over-limit"
ACT_OVER_LIMIT = "stream.act-over-limit"
TOO_MANY_EPISODES = "stream.too-many-episodes"
INVALID_SCENARIO = "stream.invalid-scenario"
"""A scenario or a test keeper's setup that STR-SETUP or STR-SCENARIO refuses; never an answer of a keeper."""

ERRORS: dict[str, tuple[int, str]] = {
    INVALID_BODY: (400, "invalid_request"),
    INVALID_SKIPPED: (400, "invalid_request"),
    SEQ_REQUIRED: (400, "invalid_request"),
    EPISODE_REQUIRED: (400, "invalid_request"),
    ACT_NOT_AFTER_PREVIOUS: (409, "conflict"),
    ACT_WAITING: (409, "conflict"),
    FRAMES_MISSING: (409, "conflict"),
    EPISODE_ENDED: (410, "gone"),
    FRAMES_OVER_LIMIT: (413, "payload_too_large"),
    ACT_OVER_LIMIT: (413, "payload_too_large"),
    TOO_MANY_EPISODES: (503, "unavailable"),
}
"""Error id → (HTTP status, `error.code` of the StreamError body): the table of spec/stream.md § 10."""

FORMATS_HEADER = "Seq-Accept-Formats"
"""The response header naming the stream formats a worker accepts (STR-HTTP); its value lists observe_format."""

FRAMES, BYTES, WORKER_BYTES = "MAX_STREAM_FRAMES", "MAX_STREAM_BYTES", "MAX_WORKER_STREAM_BYTES"
EPISODES = "MAX_EPISODES"

MAX_EPISODES = 1024
"""This keeper's MAX_EPISODES (spec/stream.md STR-LIMIT-EPISODES: an implementation limit of at least 1,024)."""
MAX_EPISODE_ID = 256
"""The longest episode id an act on the stream may name, in code points, as a post's (STR-ACT-EPISODE)."""
FRAMES_CEILING = 1_000_000
"""The largest MAX_STREAM_FRAMES a keeper takes (STR-SETUP): the least result bound of a schedule implementation
(spec/schedule.md SCH-RESULT-BOUND), so that STR-ACT-BOUND refuses an act before `picks` could."""

_OBSERVE_MEMBERS = frozenset({"episode_id", "frames", "skipped"})
_FRAME_INPUTS_DEPTH = 3
"""A frame's inputs are enclosed by the ObserveRequest object, the frames array and the frame (STR-DEPTH)."""
_ACT_MEMBERS = frozenset({"inputs", "seed", "episode_id", "params", "embodiment", "plan", "seq"})


def reason_of(rule: str) -> str:
    """The `details.reason` of an error id: `stream.frames-missing` → `frames_missing` (STR-HTTP)."""
    return rule.removeprefix("stream.").replace("-", "_")


class StreamError(Exception):
    """A refusal or a failure of spec/stream.md: `rule` is its error id, `details` the members its body carries
    besides `reason` (`missing`, `limit`, `last_act`, `issues`)."""

    def __init__(self, rule: str, message: str, **details: Any) -> None:
        super().__init__(f"{message} [{rule}]")
        self.rule = rule
        self.message = message
        self.details = details

    @property
    def status(self) -> int:
        return ERRORS[self.rule][0]

    def body(self) -> dict[str, Any]:
        """The JSON body of the refusal (spec/schemas/StreamError.json)."""
        details = {"reason": reason_of(self.rule), **self.details}
        return {"error": {"code": ERRORS[self.rule][1], "message": self.message, "details": details}}


@dataclass(frozen=True)
class Limits:
    """The limits of spec/stream.md § 6: the three size limits, and the keeper's own MAX_EPISODES."""

    frames: int
    bytes: int
    worker_bytes: int
    episodes: int = MAX_EPISODES

    @staticmethod
    def of_contract() -> Limits:
        limits = load_spec().limits
        return Limits(int(limits[FRAMES]), int(limits[BYTES]), int(limits[WORKER_BYTES]))

    def check(self) -> None:
        """ValueError unless every limit is in the range a keeper takes (STR-SETUP)."""
        for name, value, most in (
            (FRAMES, self.frames, FRAMES_CEILING),
            (BYTES, self.bytes, MAX_STEP),
            (WORKER_BYTES, self.worker_bytes, MAX_STEP),
            (EPISODES, self.episodes, MAX_STEP),
        ):
            if type(value) is not int or not 1 <= value <= most:
                raise ValueError(f"{name} must be an integer from 1 to {most:,}; got {value!r}.")

    @staticmethod
    def scaled(given: object) -> Limits:
        """The contract's limits and this keeper's MAX_EPISODES, with those `given` names (a JSON object: a scenario's
        or a test keeper's `limits`) replaced, numbers read by value (2.0 is 2); ValueError when it names another
        limit or a value outside its range (STR-SETUP, STR-SCENARIO)."""
        if given is None:
            given = {}
        if not isinstance(given, dict) or given.keys() - LIMIT_FIELDS.keys():
            raise ValueError(f"Limits may name only {', '.join(LIMIT_FIELDS)} (STR-SETUP); got {given!r}.")
        values: dict[str, Any] = {LIMIT_FIELDS[name]: _by_value(value) for name, value in given.items()}
        limits = replace(Limits.of_contract(), **values)  # check() below refuses a value that is not an int
        limits.check()
        return limits


LIMIT_FIELDS = {FRAMES: "frames", BYTES: "bytes", WORKER_BYTES: "worker_bytes", EPISODES: "episodes"}
"""The limits a test may set (spec/stream.md STR-SETUP) → the field of `Limits` that holds each."""


def _by_value(value: object) -> object:
    """A JSON number whose value is an integer, as that int (10.0 is 10, spec/validation.md); anything else as is."""
    whole = _whole(value)
    return value if whole is None else whole


def check_episode_idle(episode_idle: object) -> None:
    """ValueError unless `episode_idle` is a Timeouts.episode_idle: None or an integer 10..86400."""
    if episode_idle is not None and not (type(episode_idle) is int and 10 <= episode_idle <= 86400):
        raise ValueError(
            f"The idle timeout episode_idle must be null or an integer from 10 to 86400 (Timeouts.episode_idle); "
            f"got {episode_idle!r}."
        )


def episode_idle_of(given: object) -> int | None:
    """A scenario's or a test keeper's `episode_idle` read by value (10.0 is 10); ValueError outside its range."""
    value = _by_value(given)
    check_episode_idle(value)
    return value if type(value) is int else None


def stream_wait_s() -> float:
    """STREAM_WAIT_S of spec/contract.json: how long an act waits for its missing frames."""
    return float(load_spec().limits["STREAM_WAIT_S"])


@dataclass(frozen=True)
class Acted:
    """What an act call gives at once: the value handed to the policy, or `waiting` (its answer comes later, as an
    `Answer` event)."""

    waiting: bool
    handed: Any = None


@dataclass(frozen=True)
class Answer:
    """The answer of an act that waited, decided during a later call: handed over, or failed (`error`)."""

    episode_id: str
    handed: Any = None
    error: StreamError | None = None


@dataclass
class Events:
    """What the calls since the last `take_events` decided besides their own answers."""

    answers: list[Answer] = field(default_factory=list)
    ended: list[str] = field(default_factory=list)


@dataclass(frozen=True)
class CheckedPost:
    """An ObserveRequest that passed STR-POST-BODY: its frames as (seq, inputs as the keeper holds them, canonical
    size), in the body's order, and its skipped numbers, all integers."""

    episode_id: str
    frames: list[tuple[int, Any, int]]
    skipped: list[int]


@dataclass(frozen=True)
class CheckedAct:
    """An ActRequest that passed STR-ACT-BODY: seq and episode id (None when absent), the inputs as the keeper holds
    them, and their canonical size (STR-SIZE)."""

    seq: int | None
    episode_id: str | None
    inputs: Any
    size: int


def _stored(store: Callable[[Any], Any] | None, inputs: Any) -> Any:
    return inputs if store is None else store(inputs)


def check_observe(body: object, store: Callable[[Any], Any] | None = None) -> CheckedPost:
    """The stateless half of a post: the body checked (STR-POST-BODY; StreamError when refused) and each frame's
    inputs put in the form `store` holds them in. It needs no keeper, so a worker runs it away from its keeper."""
    episode_id, frames, skipped = _observe_request(body)
    for number in skipped:
        if number < 0:
            raise StreamError(
                INVALID_SKIPPED,
                f"The post's skipped lists {number}, but a skipped number is a frame number: 0 or more.",
            )
    held = [(number, _stored(store, inputs), frame_size) for number, inputs, frame_size in frames]
    return CheckedPost(episode_id, held, skipped)


def check_act(body: object, store: Callable[[Any], Any] | None = None) -> CheckedAct:
    """The stateless half of an act: the body checked (STR-ACT-BODY; StreamError when refused), its inputs measured
    and put in the form `store` holds them in (an act's own frame may be held, STR-ACT-OWN)."""
    t, episode_id, inputs, own_size = _act_request(body)
    measured = size(inputs) if own_size is None else own_size
    return CheckedAct(t, episode_id, _stored(store, inputs), measured)


class _Waiting:
    __slots__ = ("deadline", "inputs", "missing", "size", "t")

    def __init__(self, t: int, inputs: Any, size: int, deadline: float, missing: set[int]) -> None:
        self.t, self.inputs, self.size, self.deadline, self.missing = t, inputs, size, deadline, missing


class _Episode:
    """One episode's state (spec/stream.md § 2) in bounded form: `acc` is `through` + `held` + `marks`."""

    __slots__ = ("bytes", "heap", "held", "last_act", "line", "marks", "seen", "sizes", "through", "waiting")

    def __init__(self, seen: float) -> None:
        self.through = -1
        self.held: dict[int, Any] = {}
        self.sizes: dict[int, int] = {}
        self.heap: list[int] = []  # the held numbers, for releasing the lowest first
        self.marks: set[int] = set()  # accounted numbers above `through` that are not held
        self.line = 0
        self.last_act = -1
        self.waiting: _Waiting | None = None
        self.seen = seen
        self.bytes = 0

    def accounted(self, number: int) -> bool:
        return number <= self.through or number in self.held or number in self.marks

    def remembered(self) -> int:
        return len(self.held) + len(self.marks)

    def hold(self, number: int, inputs: Any, frame_size: int) -> None:
        self.held[number] = inputs
        self.sizes[number] = frame_size
        self.bytes += frame_size
        heapq.heappush(self.heap, number)

    def hold_all(self, frames: dict[int, Any], sizes: dict[int, int], added: int) -> None:
        self.held.update(frames)
        self.sizes.update(sizes)
        self.bytes += added
        heap, push = self.heap, heapq.heappush
        for number in frames:
            push(heap, number)

    def release_below(self, line: int) -> int:
        """Drop the held frames below `line`; their numbers stay accounted. Returns the bytes freed."""
        freed = 0
        heap = self.heap
        while heap and heap[0] < line:
            number = heapq.heappop(heap)
            del self.held[number]
            freed += self.sizes.pop(number)
            if number > self.through:
                self.marks.add(number)
        self.bytes -= freed
        return freed

    def marks_in_run_above(self, number: int) -> int:
        """How many accounted numbers not held lie in the run of accounted numbers right above `number`."""
        count = 0
        number += 1
        held, marks = self.held, self.marks
        while number in held or number in marks:
            count += number in marks
            number += 1
        return count

    def move_through(self) -> None:
        number = self.through + 1
        held, marks = self.held, self.marks
        while number in held or number in marks:
            marks.discard(number)
            number += 1
        self.through = number - 1


class Keeper:
    """The keeper of one worker: every episode's stream, for one declaration (spec/stream.md)."""

    def __init__(
        self,
        schedule: Schedule | None,
        *,
        limits: Limits | None = None,
        episode_idle: int | None = None,
        store: Callable[[Any], Any] | None = None,
    ) -> None:
        check_episode_idle(episode_idle)
        self.store = store  # what a frame's inputs are held as (a worker's compact text, seq_io.reference.held)
        self.limits = limits or Limits.of_contract()
        self.limits.check()
        self.schedule = schedule
        self.idle = episode_idle
        self.wait_s = stream_wait_s()
        self._clock = float("-inf")
        self._episodes: dict[str, _Episode] = {}
        self._by_seen: OrderedDict[str, None] = OrderedDict()  # least recently active first
        self._waiting: OrderedDict[str, None] = OrderedDict()  # earliest deadline first
        self._ended: OrderedDict[str, float] = OrderedDict()  # id → end time, earliest first
        self._bytes = 0
        self._events = Events()

    @classmethod
    def of(
        cls,
        declaration: object,
        rate: object = None,
        *,
        limits: Limits | None = None,
        episode_idle: int | None = None,
        store: Callable[[Any], Any] | None = None,
    ) -> Keeper:
        """A keeper for a declaration and a rate (STR-SETUP); `of` refuses with its ScheduleError."""
        schedule = sch.of(declaration, rate)  # type: ignore[arg-type]
        return cls(schedule, limits=limits, episode_idle=episode_idle, store=store)

    @property
    def held_bytes(self) -> int:
        """The sizes of every frame held by every episode (MAX_WORKER_STREAM_BYTES bounds it)."""
        return self._bytes

    def take_events(self) -> Events:
        events, self._events = self._events, Events()
        return events

    # -- time ------------------------------------------------------------------------------------------------

    def tick(self, now: float) -> None:
        """The clock moved to `now` with no request: apply what it passed (STR-EXPIRY)."""
        if not now >= self._clock or math.isinf(now):
            raise ValueError(
                f"The clock went back from {self._clock} to {now} or is not finite; a keeper's clock readings "
                "are finite and never decrease (STR-CLOCK)."
            )
        self._clock = now
        while self._waiting:
            episode_id = next(iter(self._waiting))
            episode = self._episodes[episode_id]
            assert episode.waiting is not None
            if not episode.waiting.deadline < now:
                break
            self._fail(episode_id, episode, episode.waiting)
        if self.idle is not None:
            self._end_idle(now, self.idle)

    def _fail(self, episode_id: str, episode: _Episode, waiting: _Waiting) -> None:
        missing = sorted(waiting.missing)
        episode.waiting = None
        del self._waiting[episode_id]
        # The keeper's clock may run faster than real time (a test worker's, STR-SETUP), so the message names the
        # wait by its name, not by seconds a person would read as real ones.
        error = StreamError(
            FRAMES_MISSING,
            f"The act at step {waiting.t} waited STREAM_WAIT_S for frames {_numbers(missing)}, which were "
            "neither posted nor declared skipped by its deadline.",
            missing=missing,
        )
        self._events.answers.append(Answer(episode_id, error=error))

    def _end_idle(self, now: float, idle: int) -> None:
        ended: list[str] = []
        while self._by_seen:
            episode_id = next(iter(self._by_seen))
            episode = self._episodes[episode_id]
            end = episode.seen + idle
            if not end < now:
                break
            assert episode.waiting is None  # its deadline came first (STR-IDLE)
            del self._by_seen[episode_id], self._episodes[episode_id]
            self._bytes -= episode.bytes
            self._ended[episode_id] = end
            ended.append(episode_id)
        while self._ended:
            episode_id, end = next(iter(self._ended.items()))
            if not end + idle < now:
                break
            del self._ended[episode_id]
        self._events.ended.extend(sorted(ended))

    def _episode(self, episode_id: str, now: float) -> _Episode:
        """The episode a request names, or a new one (STR-EPISODE); refused when it ended (STR-ENDED) or would be
        one too many (STR-LIMIT-EPISODES)."""
        if episode_id in self._ended:
            raise StreamError(
                EPISODE_ENDED,
                f"The episode {episode_id!r} ended: no post or act came for its idle timeout (episode_idle); "
                "start a new episode under a new id.",
            )
        episode = self._episodes.get(episode_id)
        if episode is not None:
            return episode
        if len(self._episodes) >= self.limits.episodes:
            raise StreamError(
                TOO_MANY_EPISODES,
                f"This worker already holds as many episodes as it may (MAX_EPISODES = {self.limits.episodes}); "
                "a new episode can start when another one ends.",
            )
        return _Episode(now)

    def _touch(self, episode_id: str, episode: _Episode, now: float) -> None:
        episode.seen = now
        self._episodes[episode_id] = episode
        self._by_seen[episode_id] = None
        self._by_seen.move_to_end(episode_id)

    # -- POST /observe ---------------------------------------------------------------------------------------

    def post(self, body: object, now: float) -> int:
        """One ObserveRequest at `now` → `through` after it (STR-POST-ANSWER); StreamError when refused."""
        self.tick(now)  # before the body's check, so that a refused body still applies the time it passed
        return self._post(check_observe(body, self.store), now)

    def post_checked(self, checked: CheckedPost, now: float) -> int:
        """`post` of a body `check_observe` has checked (with this keeper's store): the stateful half."""
        self.tick(now)
        return self._post(checked, now)

    def _post(self, checked: CheckedPost, now: float) -> int:
        episode_id, frames, skipped = checked.episode_id, checked.frames, checked.skipped
        episode = self._episode(episode_id, now)
        top, line, held, marks = episode.through, episode.line, episode.held, episode.marks
        new_held: dict[int, Any] = {}
        sizes: dict[int, int] = {}
        new_marks: set[int] = set()
        for number, inputs, frame_size in frames:  # the hot loop: `accounted` written out
            if number <= top or number in held or number in marks or number in new_held or number in new_marks:
                continue  # STR-FIRST-WINS
            if number >= line:
                new_held[number] = inputs
                sizes[number] = frame_size
            else:
                new_marks.add(number)  # STR-POST-LINE: above `through`, since not accounted
        for number in skipped:
            if not (number <= top or number in held or number in marks or number in new_held or number in new_marks):
                new_marks.add(number)
        if new_held or new_marks:
            added = sum(sizes.values())
            self._check_limits(episode, new_held, new_marks, added)
            episode.hold_all(new_held, sizes, added)
            self._bytes += added
            marks |= new_marks
            episode.move_through()
        self._touch(episode_id, episode, now)
        through = episode.through
        waiting = episode.waiting
        if waiting is not None and (new_held or new_marks):
            newly = new_held.keys() | new_marks
            waiting.missing -= newly
            if not waiting.missing:
                del self._waiting[episode_id]
                handed = self._hand_over(episode, waiting.t, waiting.inputs, waiting.size)
                self._events.answers.append(Answer(episode_id, handed=handed))
        return through

    def _check_limits(self, episode: _Episode, new_held: dict[int, Any], new_marks: set[int], added: int) -> None:
        """STR-LIMIT-CHECK on the staged post: remembered numbers, episode bytes, worker bytes."""
        number = episode.through + 1
        absorbed = 0
        held, marks = episode.held, episode.marks
        while True:
            if number in marks or number in new_marks:
                absorbed += 1
            elif number not in held and number not in new_held:
                break
            number += 1
        before = episode.remembered()
        after = before + len(new_held) + len(new_marks) - absorbed
        for name, was, now, limit in (
            (FRAMES, before, after, self.limits.frames),
            (BYTES, episode.bytes, episode.bytes + added, self.limits.bytes),
            (WORKER_BYTES, self._bytes, self._bytes + added, self.limits.worker_bytes),
        ):
            if now > limit and now > was:
                holder = "worker" if name == WORKER_BYTES else "episode"
                what = "remember {} frame numbers" if name == FRAMES else "hold {} bytes of frames"
                raise StreamError(
                    FRAMES_OVER_LIMIT,
                    f"After this post the {holder} would {what.format(now)}, more than {name} = {limit}; "
                    "nothing of the post was kept.",
                    limit=name,
                )

    # -- POST /act -------------------------------------------------------------------------------------------

    def act(self, body: object, now: float) -> Acted:
        """One ActRequest at `now` → handed over at once, or waiting; StreamError when refused (STR-ACT-CHECKS)."""
        self.tick(now)  # before the body's check, as `post`
        return self._act(check_act(body, self.store), now)

    def act_checked(self, checked: CheckedAct, now: float) -> Acted:
        """`act` of a body `check_act` has checked (with this keeper's store): the stateful half."""
        self.tick(now)
        return self._act(checked, now)

    def _act(self, checked: CheckedAct, now: float) -> Acted:
        t, episode_id, inputs, own_size = checked.seq, checked.episode_id, checked.inputs, checked.size
        if t is None:
            if self.schedule is None:
                return Acted(False, inputs)  # STR-ACT-UNDECLARED: not on the stream
            raise StreamError(
                SEQ_REQUIRED,
                "The policy declares Observations, so an act must carry seq, the number (step) of the "
                "observation it carries.",
            )
        if episode_id is None or not 1 <= len(episode_id) <= MAX_EPISODE_ID:
            raise StreamError(
                EPISODE_REQUIRED,
                "An act that carries seq must carry episode_id, a string of 1 to 256 characters like a post's: seq "
                "numbers an observation within its episode.",
            )
        episode = self._episode(episode_id, now)
        if episode.waiting is not None:
            raise StreamError(
                ACT_WAITING,
                f"This episode's act at step {episode.waiting.t} is still waiting for frames; an episode's acts "
                "come one at a time, so send the next one once that act is answered.",
            )
        if t <= episode.last_act:
            raise StreamError(
                ACT_NOT_AFTER_PREVIOUS,
                f"The act at step {t} is not after the episode's previous act, at step {episode.last_act}: an "
                "episode's acts go forward.",
                last_act=episode.last_act,
            )
        need = self._need(t, episode.last_act)
        self._touch(episode_id, episode, now)
        missing = {number for number in need if not episode.accounted(number)}
        if not missing:
            return Acted(False, self._hand_over(episode, t, inputs, own_size))
        episode.waiting = _Waiting(t, inputs, own_size, now + self.wait_s, missing)
        self._waiting[episode_id] = None
        return Acted(True)

    def waiting_size(self, episode_id: str) -> int:
        """The size (STR-SIZE) of the inputs of the episode's waiting act, measured once (a host bounds the inputs
        that waiting acts hold together)."""
        waiting = self._episodes[episode_id].waiting
        assert waiting is not None  # only an episode whose act waits has a waiting size
        return waiting.size

    def withdraw(self, episode_id: str) -> None:
        """Forget the episode's waiting act as if it had never come (a host refused it for its own bound); the
        episode stays, as an accepted empty post would leave it."""
        episode = self._episodes[episode_id]
        episode.waiting = None
        del self._waiting[episode_id]

    def _need(self, t: int, last_act: int) -> list[int]:
        """needed(s, t, last_act), refused beyond MAX_STREAM_FRAMES numbers without listing them (STR-ACT-BOUND)."""
        schedule = self.schedule
        if schedule is None:
            return []
        limit = self.limits.frames
        periods = [*schedule.fed.values(), *([schedule.every] if schedule.whole and schedule.every else [])]
        if periods and (t - last_act - 1) // min(periods) > limit:
            count = f"at least {(t - last_act - 1) // min(periods)}"
        else:
            need = sch.needed(schedule, t, last_act)
            if len(need) <= limit:
                return need
            count = str(len(need))
        raise StreamError(
            ACT_OVER_LIMIT,
            f"The act at step {t} ({_previous(last_act)}) reads {count} earlier frames, more than an episode "
            f"may hold (MAX_STREAM_FRAMES = {limit}).",
            limit=FRAMES,
        )

    def _hand_over(self, episode: _Episode, t: int, own: Any, own_size: int) -> Any:
        """STR-ACT-HANDOVER, then the act is the previous act, retention, and the act's own frame (STR-ACT-OWN)."""
        schedule = self.schedule
        if schedule is None:
            handed = own
        else:
            held = episode.held
            entries = [
                (step, keys) for step, keys in sch.picks(schedule, t, episode.last_act) if step == t or step in held
            ]  # a needed step not held was declared skipped
            handed = envelope(entries, held, own, t)
        episode.waiting = None
        episode.last_act = t
        line = sch.keeps_from(schedule, t)
        episode.line = line
        self._bytes -= episode.release_below(line)
        if not episode.accounted(t):
            self._own_frame(episode, t, own, own_size)
        return handed

    def _own_frame(self, episode: _Episode, t: int, own: Any, own_size: int) -> None:
        """STR-ACT-OWN for an act's number t not yet accounted: the first of (hold the frame, account t alone,
        nothing) that takes no quantity above its limit (STR-LIMIT-CHECK)."""
        joins = t == episode.through + 1  # then `through` moves over t and the accounted run above it
        remembered = episode.remembered() - (episode.marks_in_run_above(t) if joins else 0)
        limits = self.limits
        if (
            t >= episode.line
            and remembered + 1 <= limits.frames
            and episode.bytes + own_size <= limits.bytes
            and self._bytes + own_size <= limits.worker_bytes
        ):
            episode.hold(t, own, own_size)
            self._bytes += own_size
            episode.move_through()
            return
        if remembered + (0 if joins else 1) <= limits.frames:
            episode.marks.add(t)
            episode.move_through()


def _previous(last_act: int) -> str:
    """The episode's previous act in words: -1 stands for none (spec/stream.md § 2)."""
    return "no previous act" if last_act < 0 else f"previous act at step {last_act}"


def _numbers(numbers: list[int]) -> str:
    shown = ", ".join(map(str, numbers[:20]))
    return shown + (f" and {len(numbers) - 20} more" if len(numbers) > 20 else "")


def _whole(value: object) -> int | None:
    """A JSON number that is an integer by value (3.0 is 3), else None."""
    if type(value) is int:
        return value
    if type(value) is float and value.is_integer():
        return int(value)
    return None


def _validated_whole(value: object) -> int:
    """A number the schema has already checked to be an integer by value."""
    number = _whole(value)
    assert number is not None, f"{value!r} passed the schema as an integer"
    return number


def _issues(issues: list[Any]) -> str:
    """The first 5 issues of a refused body for a person; details.issues lists every one of them."""
    shown = "; ".join(map(str, issues[:5]))
    return shown + (f"; and {len(issues) - 5} more in details.issues" if len(issues) > 5 else "")


def _refused(type_name: str, body: object) -> StreamError:
    issues = checking_contract().validate_value(type_name, body).issues
    assert issues, f"the quick check refused a valid {type_name}"
    return StreamError(
        INVALID_BODY,
        f"The body is not a valid {type_name}: {_issues(issues)}.",
        issues=[{"path": issue.path, "rule": issue.rule} for issue in issues],
    )


def _validated(type_name: str, body: object, quick: Callable[[Any], bool]) -> dict[str, Any]:
    """The body when it is a valid `type_name` (the quick check, else the validator of record), else a refusal."""
    if not quick(body) and not checking_contract().validate_value(type_name, body).valid:
        raise _refused(type_name, body)
    assert isinstance(body, dict)
    return body


def _is_episode_id(value: object) -> bool:
    return type(value) is str and value.isascii() and 1 <= len(value) <= 256


def _is_step(value: object) -> bool:
    return type(value) is int and 0 <= value <= MAX_STEP


def _quick_observe(body: Any) -> bool:
    """True only for an ObserveRequest the schema accepts; False when unsure (the validator then decides)."""
    if type(body) is not dict or not body.keys() <= _OBSERVE_MEMBERS or not _is_episode_id(body.get("episode_id")):
        return False
    frames = body.get("frames", [])
    skipped = body.get("skipped", [])
    if type(frames) is not list or type(skipped) is not list:
        return False
    for frame in frames:
        if not (type(frame) is dict and len(frame) == 2 and "inputs" in frame and _is_step(frame.get("seq"))):
            return False
    return all(type(number) is int and -MAX_STEP <= number <= MAX_STEP for number in skipped)


def _observe_request(body: object) -> tuple[str, list[tuple[int, Any, int]], list[int]]:
    """STR-POST-BODY: (episode id, [(seq, inputs, size)], skipped), numbers as integers (2.0 is 2)."""
    if _quick_observe(body):  # numbers already ints
        assert isinstance(body, dict)
        frames: list[tuple[int, Any, int]] = []
        for frame in body.get("frames", ()):
            frame_size = checked_size(frame["inputs"], _FRAME_INPUTS_DEPTH)
            if frame_size is None:
                break  # a wire rule may be broken: the validator decides
            frames.append((frame["seq"], frame["inputs"], frame_size))
        else:
            return body["episode_id"], frames, body.get("skipped", [])
    request = _validated("ObserveRequest", body, lambda _: False)
    frames = [
        (_validated_whole(frame["seq"]), frame["inputs"], size(frame["inputs"])) for frame in request.get("frames", [])
    ]
    skipped = [_validated_whole(number) for number in request.get("skipped", [])]
    return request["episode_id"], frames, skipped


def _quick_act(body: Any) -> bool:
    """True only for an ActRequest the schema accepts; False when unsure."""
    if type(body) is not dict or "inputs" not in body or not body.keys() <= _ACT_MEMBERS:
        return False
    seq, seed, episode_id = body.get("seq"), body.get("seed"), body.get("episode_id")
    return (
        (seq is None or _is_step(seq))
        and (seed is None or (type(seed) is int and -MAX_STEP <= seed <= MAX_STEP))
        and (episode_id is None or (type(episode_id) is str and episode_id.isascii()))
        and all(body.get(name) is None or type(body[name]) is dict for name in ("params", "plan"))
        and (body.get("embodiment") is None or (type(body["embodiment"]) is str and body["embodiment"].isascii()))
        and all(body.get(name) is None or plainly_json(body[name], 1) for name in ("params", "plan"))
    )


def _act_request(body: object) -> tuple[int | None, str | None, Any, int | None]:
    """STR-ACT-BODY: (seq or None, episode id or None, inputs, the size of the inputs or None: not counted yet)."""
    own_size = checked_size(body["inputs"], 1) if _quick_act(body) else None  # type: ignore[index]
    request = _validated("ActRequest", body, lambda _: own_size is not None)
    seq = request.get("seq")
    return (None if seq is None else _whole(seq)), request.get("episode_id"), request["inputs"], own_size
