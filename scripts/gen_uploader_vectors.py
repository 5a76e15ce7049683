"""Seeds → long uploader scenarios (a robot and a worker playing hundreds of events: plans, observations, drops,
acts, answers good and bad, failures, clock advances) → the requests the brute-force model expects during each
event → conformance/vectors/uploader/long-*.yaml.

WHY it exists: the hand-written scenarios pin each rule of spec/uploader.md in a few events; these pin what only
volume shows (pending items piling up behind slow posts under a backlog, retries and give-ups between acts, 413s
and 400s in the middle of an episode, the stream going off or the episode ending late in a long run). The robot
and the worker are played here, but every expectation comes from scripts/seq_io_maint/uploader_model.py, written
from the prose, never from the reference uploader the vectors then check; the driver asks the model what is in
flight so that each scenario follows UPL-EVENTS and answers only requests in flight, and it moves the clock past a
retry's whole window whenever a post backs off, so no event falls inside one (conformance/README.md, kind
`uploader`). The output is deterministic (seeded), so `--check` (run by `make lint` and
tests/test_uploader_model.py) regenerates it and fails on any byte of drift. A scenario's id is fixed by its seed:
add scenarios with new seeds, never change what an existing seed generates (an id never changes meaning).

Run: `python scripts/gen_uploader_vectors.py` (write) or `python scripts/gen_uploader_vectors.py --check`.
"""

from __future__ import annotations

import json
import math
import random
import sys
from dataclasses import dataclass, field
from typing import Any

from seq_io_maint.generated_vectors import write_or_check
from seq_io_maint.uploader_model import ATTEMPTS, History, Sent, lost, start

PREFIX = "upl-long"
FILES = {"long-a.yaml": range(1, 4), "long-b.yaml": range(4, 7)}
"""Output file → the seeds (and case numbers) it holds."""


@dataclass(frozen=True)
class Setup:
    """One seed's uploader and the faults its worker makes."""

    declaration: Any
    rate: float | None = None
    backlog: int | None = None
    steps: int = 160
    ending: str = "quiet"
    """"quiet", "ended-post" (a 410 to a post, then ignored events), "ended-act", or "header-loss" midway."""
    slow: float = 0.15
    """The chance that a turn of the worker leaves the post in flight a while (pending items pile up)."""


SETUPS: dict[int, Setup] = {
    1: Setup({"every": 1}, ending="ended-post"),
    2: Setup({"streams": {"cam": {"at": [-3, 0]}, "imu": {"every": 2}}, "when_behind": "drop_oldest"}, backlog=3),
    3: Setup({"every": 2}, ending="header-loss"),
    4: Setup(
        {"unit": "seconds", "streams": {"cam": {"at": [-0.3, 0]}, "imu": {"every": 0.2}}, "when_behind": "drop_oldest"},
        rate=10,
        backlog=2,
        slow=0.3,
    ),
    5: Setup({"streams": {"cam": {"at": [-5, -2, 0]}, "st": {}}, "pad": "drop"}),
    6: Setup({"every": 2, "when_behind": "drop_oldest"}, backlog=1, ending="ended-act", slow=0.7),
}

POST_ANSWERS = [(200, 0.8), (503, 0.05), ("timeout", 0.04), ("connection", 0.02), (413, 0.04), (400, 0.03), (502, 0.02)]
ACT_ANSWERS = [(200, 0.85), (409, 0.09), ("timeout", 0.03), (503, 0.03)]
SMALL_ADVANCES = [0.01, 0.02, 0.05, 0.1]


def _pick(rng: random.Random, table: list[tuple[Any, float]]) -> Any:
    return rng.choices([value for value, _ in table], weights=[weight for _, weight in table])[0]


@dataclass
class Driver:
    """Plays the robot and the worker for one seed, asking the model after each event what it sent."""

    setup: Setup
    rng: random.Random
    history: History
    events: list[dict[str, Any]] = field(default_factory=list)
    expects: list[list[Sent]] = field(default_factory=list)
    clock: float = 0.0
    outage: int = 0
    """Post answers still to fail in a row (an outage long enough to make the uploader give up)."""
    header_lost: bool = False

    def emit(self, event: dict[str, Any]) -> None:
        self.events.append(event)
        self.expects.append(self.history.play(event))
        if "advance" in event:
            self.clock += float(event["advance"])

    @property
    def index(self) -> int:
        return len(self.events) - 1

    def in_flight(self, kind: str) -> bool:
        requests = [request for request in self.history.sent if request.kind == kind]
        return bool(requests) and self.history.answer_to(requests[-1], self.index) is None

    def window_end(self) -> float | None:
        waiting = self.history.backing_off(self.index)
        return None if waiting is None else waiting[1][1]

    def advance(self) -> None:
        """Move the clock: past the whole retry window when a post backs off, else by a small step."""
        end = self.window_end()
        if end is None:
            self.emit({"advance": self.rng.choice(SMALL_ADVANCES)})
            return
        seconds = math.ceil((end - self.clock) * 100) / 100 + self.rng.choice([0.0, 0.01, 0.05])
        while self.clock + seconds < end:
            seconds = round(seconds + 0.01, 2)
        self.emit({"advance": seconds})

    def answer_post(self) -> None:
        if self.outage:
            self.outage -= 1
            outcome: Any = self.rng.choice(["timeout", 503])
        elif self.setup.ending == "header-loss" and not self.header_lost and self.index > 300:
            self.header_lost = True
            self.emit({"answer": {"to": "post", "status": 200, "headers": {}}})
            return
        else:
            outcome = _pick(self.rng, POST_ANSWERS)
            if self.rng.random() < 0.01:
                self.outage = ATTEMPTS  # the next answers fail until the uploader gives up on this post
        if isinstance(outcome, str):
            self.emit({"fail": {"to": "post", "reason": outcome}})
        else:
            self.emit({"answer": {"to": "post", "status": outcome}})

    def worker_turn(self) -> None:
        """Maybe move the clock, maybe answer the post in flight (a slow link leaves it there a while)."""
        backing_off = self.window_end() is not None
        if self.rng.random() < (0.6 if backing_off else 0.25):
            self.advance()
        if self.in_flight("post") and self.rng.random() > self.setup.slow:
            self.answer_post()

    def act(self, t: int) -> bool:
        """The robot acts at t until the act is handed over; False when the episode ended on the way."""
        while True:
            self.emit({"act": {"t": t, "inputs": self.inputs(t)}})
            if not self.in_flight("act"):
                return False  # the episode ended: nothing more is sent, so nothing is answered
            while self.rng.random() < 0.4:
                self.worker_turn()
            if self.setup.ending == "ended-act" and t >= self.setup.steps:
                self.emit({"answer": {"to": "act", "status": 410}})
                return False
            outcome = _pick(self.rng, ACT_ANSWERS)
            if outcome == "timeout":
                self.emit({"fail": {"to": "act", "reason": "timeout"}})
            else:
                self.emit({"answer": {"to": "act", "status": outcome}})
            if outcome == 200:
                return True

    def inputs(self, n: int) -> Any:
        declaration = self.setup.declaration
        if isinstance(declaration, dict) and "streams" in declaration:
            return {"cam": f"c{n}", "imu": n, "st": n % 5}
        return [n, f"o{n}"] if n % 7 == 3 else {"v": n, "w": n % 3}

    def ends_now(self, t_prev: int) -> bool:
        """Whether the worker answers the post in flight 410 now (the "ended-post" ending, late in the run)."""
        late = self.setup.ending == "ended-post" and t_prev >= self.setup.steps - 20
        return late and not self.history.ended(self.index) and self.in_flight("post")

    def play(self) -> None:
        t_prev = -1
        while t_prev < self.setup.steps:
            t = t_prev + self.rng.choice([1, 2, 3, 3, 4, 5, 6])
            self.emit({"plan": t})
            for n in range(t_prev + 1, t):
                if self.ends_now(t_prev):  # the worker ends the episode; the robot, unaware, goes on to its act
                    self.emit({"answer": {"to": "post", "status": 410}})
                if self.rng.random() < 0.05:
                    self.emit({"drop": n})
                else:
                    self.emit({"observe": {"n": n, "inputs": self.inputs(n)}})
                self.worker_turn()
            if not self.act(t):
                return
            t_prev = t
        while self.in_flight("post") or self.window_end() is not None:  # the last posts, answered 200
            if self.in_flight("post"):
                self.emit({"answer": {"to": "post", "status": 200}})
            else:
                self.advance()


def scenario(seed: int) -> tuple[dict[str, Any], list[list[Sent]], History]:
    """The setup and events of one seed, with the requests the model expects during each event."""
    setup = SETUPS[seed]
    data: dict[str, Any] = {"declaration": setup.declaration, "episode_id": f"robot-{seed}"}
    if setup.rate is not None:
        data["rate"] = setup.rate
    if setup.backlog is not None:
        data["backlog"] = setup.backlog
    history = start(data)
    assert isinstance(history, History), "every generated setup makes an uploader"
    driver = Driver(setup, random.Random(seed), history)
    driver.play()
    return data | {"events": driver.events}, driver.expects, history


def rules_of(events: list[dict[str, Any]], history: History) -> list[str]:
    rules = {
        "UPL-EVENTS",
        "UPL-WANTED",
        "UPL-CUT",
        "UPL-SKIP-UNWANTED",
        "UPL-POST-PROMPT",
        "UPL-POST-ONE",
        "UPL-POST-BATCH",
        "UPL-POST-BODY",
        "UPL-ONCE",
        "UPL-ACT-BODY",
        "UPL-CLOCK",
    }
    if any("drop" in event for event in events):
        rules.add("UPL-DROPPED")
    if history.drop_oldest:
        rules.add("UPL-BEHIND")
    for request, answer in history.answered(len(events) - 1):
        if answer.retried and request.kind == "post":
            rules |= {"UPL-RETRY", "UPL-RETRY-BACKOFF"} | ({"UPL-GIVE-UP"} if request.attempt == ATTEMPTS else set())
        named = {400: "UPL-REFUSED", 413: "UPL-OVER-LIMIT", 410: "UPL-ENDED"}
        if request.kind == "post" and answer.status in named:
            rules.add(named[answer.status])
        streaming = not history.stream_off(answer.event - 1)
        if lost(request, answer) and streaming and (answer.retried or answer.lists_format()):
            rules.add("UPL-LOST")
        if request.kind == "act" and answer.status != 200:
            rules.add("UPL-ACT-ONCE" if answer.status != 410 else "UPL-ENDED")
        if answer.status is not None and answer.status < 500 and not answer.lists_format():
            rules.add("UPL-FORMATS")
    return sorted(rules)


def _flow(value: Any) -> str:
    """A JSON value as a YAML flow node (JSON is YAML; keys and strings quoted, so nothing is read as another type)."""
    return json.dumps(value, ensure_ascii=False, separators=(", ", ": "))


def _request(sent: Sent, reading: float) -> dict[str, Any]:
    """A request as the vector writes it: `at` left out when it is the event's own reading."""
    request = sent.expectation()
    if request["at"] == reading:
        del request["at"]
    return request


def render(seed: int) -> str:
    data, expects, history = scenario(seed)
    events = data["events"]
    counts = {name: sum(1 for e in events if name in e) for name in ("observe", "drop", "act", "answer", "fail")}
    posts = sum(1 for sent in history.sent if sent.kind == "post")
    retries = sum(1 for sent in history.sent if sent.kind == "post" and sent.attempt > 1)
    why = (
        f"Generated from seed {seed}: {len(events)} events ({counts['observe']} observations, {counts['drop']} drops, "
        f"{counts['act']} acts, {counts['answer']} answers, {counts['fail']} failures), {posts} posts of which "
        f"{retries} retries. Expectations computed by the brute-force model of scripts/seq_io_maint/uploader_model.py "
        "from spec/uploader.md, not by the reference uploader."
    )
    lines = [
        f"      - id: {PREFIX}-{seed:04d}",
        f"        why: {_flow(why)}",
        f"        rules: {_flow(rules_of(events, history))}",
        f"        declaration: {_flow(data['declaration'])}",
    ]
    lines += [f"        {key}: {_flow(data[key])}" for key in ("rate", "episode_id", "backlog") if key in data]
    lines.append("        events:")
    reading = 0.0
    for event, sent in zip(events, expects, strict=True):
        if "advance" in event:
            reading += float(event["advance"])
        name = next(iter(event))
        expect = f", expect: {_flow([_request(s, reading) for s in sent])}" if sent else ""
        lines.append(f"          - {{{name}: {_flow(event[name])}{expect}}}")
    return "\n".join(lines)


def file_text(seeds: range) -> str:
    head = [
        "# GENERATED by scripts/gen_uploader_vectors.py: do not edit (`--check` fails on any drift).",
        "# Expectations come from the brute-force model scripts/seq_io_maint/uploader_model.py, written from",
        "# spec/uploader.md, never from the reference uploader these vectors check.",
        "$schema: ../../schema/vector-file.schema.json",
        "kind: uploader",
        f"id_prefix: {PREFIX}",
        "description: >-",
        "  Long generated scenarios of spec/uploader.md: a robot and a worker playing hundreds of events.",
        "groups:",
        f"  - group: robots-{seeds.start}-{seeds.stop - 1}",
        "    why: >-",
        "      A robot plans, observes, loses observations and acts; its worker answers slowly, refuses, fails and",
        "      comes back; each case states its counts, and which rules its expectations exercise.",
        "    cases:",
    ]
    return "\n".join(head + [render(seed) for seed in seeds]) + "\n"


def main(argv: list[str] | None = None) -> int:
    return write_or_check("scripts/gen_uploader_vectors.py", "uploader", PREFIX, FILES, file_text, argv)


if __name__ == "__main__":
    sys.exit(main())
