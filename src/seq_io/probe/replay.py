"""One stream scenario + a live worker (a base URL) + a time scale → its operations sent as real HTTP requests,
`advance`s slept, each act's answer attributed to the operation during which it came → the outcomes in the shape
the runner's stream kind compares, the problems of each answer on the wire (status, body, header), and when the
probe sent and knew each request.

WHY it is shaped this way:

- An act that waits has no answer yet, so it is sent as a task and the scenario goes on; before the next
  operation the probe makes sure the worker already holds the act as waiting (a test keeper lists its waiting
  episodes at `/stream/waiting`; any other worker gets a short settle delay), because a post overtaking the act
  would be a different scenario.
- An act's answer belongs to the operation after which it arrived. After an operation the probe waits (bounded) only
  for the answers the vector expects then, and merely looks whether others came: an answer that comes early or
  late is attributed where it came and fails the comparison there.
- Everything is bounded: each request goes through `probe.call` (a deadline over the whole exchange, an act's
  adding the worker's wait, and a cap on the answer), an act the vector expects decided that does not come within
  `--timeout` ends the replay, and the caller bounds the whole scenario (`run.replay_budget`). A connection reset, a
  hang, an answer too large or a body that is not JSON becomes that operation's outcome (`transport`), never an
  exception out of here.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import httpx

from seq_io.probe.call import Answer, CallFailed, call
from seq_io.probe.plan import Plan, Timing
from seq_io.reference.keeper import ERRORS, FORMATS_HEADER
from seq_io.reference.spec_data import load_spec
from seq_io.reference.validation import checking_contract
from seq_io.reference.wire import parse_json_text
from seq_io.runner.kinds import expected_outcome
from seq_io.runner.verdict import differences

WAITING_POLL_S = 0.002


@dataclass(frozen=True)
class Target:
    """Where a scenario is replayed: the base URL of a keeper, whether it lists its waiting episodes, how the
    scenario's episode ids are written there, and the worker's real seconds per virtual second."""

    base: str
    lists_waiting: bool
    scale: float
    episode_id: Callable[[str], str] = lambda name: name


@dataclass(frozen=True)
class Settings:
    timeout_s: float = 5.0
    """The longest wait for one answer (an act's adds the worker's wait)."""
    settle_s: float = 0.05
    """Without a waiting list: how long an act that waits is given to reach the worker."""


@dataclass
class Replayed:
    outcomes: list[Any]
    stopped_at: int | None = None
    """The operation after which the replay stopped because an outcome already departed from the vector (the
    verdict is decided; a broken worker must not hold the probe for the rest of a long scenario)."""
    problems: dict[int, list[str]] = field(default_factory=dict)
    """Operation → what its answer broke on the wire (STR-HTTP), besides its outcome."""
    timings: dict[int, Timing] = field(default_factory=dict)
    stopped_time: float | None = None
    """When the replay stopped early (loop seconds): every operation not sent would have been sent later still, so
    a deadline that passed before then may be the machine's lag, not the worker's fault (`plan.violations`)."""


def _with_ids(body: Any, target: Target) -> Any:
    if isinstance(body, dict) and isinstance(body.get("episode_id"), str):
        return {**body, "episode_id": target.episode_id(body["episode_id"])}
    return body


def _encode(body: Any) -> bytes:
    return json.dumps(body, ensure_ascii=False, allow_nan=False).encode("utf-8")


def judge_answer(kind: str, response: Answer) -> tuple[dict[str, Any], list[str]]:
    """An HTTP answer → (the outcome as the stream kind states it, the wire problems of the answer)."""
    problems: list[str] = []
    header = response.headers.get(FORMATS_HEADER)
    observe_format = str(load_spec().contract["observe_format"])
    if header is None:
        problems.append(
            f"the answer lacks the Seq-Accept-Formats header (STR-HTTP: every answer lists {observe_format})"
        )
    elif observe_format not in [part.strip() for part in header.split(",")]:
        problems.append(f"Seq-Accept-Formats is {header!r}, which does not list {observe_format} (STR-HTTP)")
    try:
        text = response.content.decode("utf-8")
    except UnicodeDecodeError:
        return {"transport": f"status {response.status_code}, a body that is not UTF-8"}, problems
    body, issues = parse_json_text(text)
    if issues:
        return {"transport": f"status {response.status_code}, a body that is not JSON: {text[:120]!r}"}, problems
    status = response.status_code
    checker = checking_contract()
    if status == 200:
        type_name = "ObserveResponse" if kind == "observe" else "ActResponse"
        outcome = checker.validate_value(type_name, body)
        if not outcome.valid:
            return {
                "transport": f"status 200 with a body that is not a valid {type_name}: {outcome.issues[0]}",
                "body": body,
            }, problems
        return ({"through": body["through"]} if kind == "observe" else {"handed": body["outputs"]}), problems
    outcome = checker.validate_value("StreamError", body)
    if not outcome.valid:
        return {
            "transport": f"status {status} with a body that is not a valid StreamError: {outcome.issues[0]}",
            "body": body,
        }, problems
    details = body["error"]["details"]
    rule = "stream." + details["reason"].replace("_", "-")
    expected_status = ERRORS[rule][0]
    if status != expected_status:
        problems.append(f"status {status} for {rule}, whose status is {expected_status} (STR-HTTP)")
    result: dict[str, Any] = {"error": rule, "status": status}
    result |= {name: details[name] for name in ("missing", "limit", "last_act") if name in details}
    return result, problems


class _Scenario:
    def __init__(
        self,
        client: httpx.AsyncClient,
        target: Target,
        operations: list[dict[str, Any]],
        plan: Plan,
        settings: Settings,
    ) -> None:
        self.client, self.target, self.operations, self.plan = client, target, operations, plan
        self.settings = settings
        self.replayed = Replayed([None] * len(operations))
        self.pending: dict[int, asyncio.Task[Answer]] = {}
        self.loop = asyncio.get_running_loop()
        self.wait_real = 10.0 * target.scale
        self.departed = False

    async def post(self, path: str, body: Any, timeout: float, budget: str = "--timeout") -> Answer:
        return await call(
            self.client,
            "POST",
            self.target.base + path,
            content=_encode(_with_ids(body, self.target)),
            headers={"content-type": "application/json"},
            deadline_s=timeout,
            budget=budget,
        )

    def settle(self, index: int, response: Answer | BaseException, kind: str, at: int) -> None:
        """Record an operation's outcome; an act's carries `at`, the operation during which its answer came."""
        if isinstance(response, BaseException):
            outcome: dict[str, Any] = {"transport": _transport_text(response, kind)}
            problems: list[str] = []
        else:
            outcome, problems = judge_answer(kind, response)
        if kind == "act":
            outcome = {**outcome, "at": at}
        self.replayed.outcomes[index] = outcome
        if problems:
            self.replayed.problems[index] = problems
        expected = expected_outcome(index, self.operations[index])
        if problems or "transport" in outcome or differences(expected, outcome)[0]:
            self.departed = True

    def collect(self, index: int) -> None:
        """Attribute every act answer that has arrived to operation `index`."""
        for act, task in list(self.pending.items()):
            if task.done():
                del self.pending[act]
                self.settle(act, task.exception() or task.result(), "act", index)

    async def expect_decisions(self, index: int) -> None:
        """Wait (bounded) for the acts the vector says are decided during operation `index`."""
        due = {act: task for act, task in self.pending.items() if self.plan.decided.get(act) == index}
        if due:
            await asyncio.wait(due.values(), timeout=self.settings.timeout_s)
        self.collect(index)
        for act, task in due.items():
            if not task.done():  # it would be attributed to a later operation, or never: a departure either way
                task.cancel()
                del self.pending[act]
                late = CallFailed(
                    f"no answer to POST /act by operation {index}, where the vector expects it, nor within "
                    f"{self.settings.timeout_s:g} s after it"
                )
                self.settle(act, late, "act", index)

    async def run(self) -> Replayed:
        start = self.loop.time()
        scale = self.target.scale
        for index, operation in enumerate(self.operations):
            if self.departed:
                self.replayed.stopped_at = index - 1
                self.replayed.stopped_time = self.loop.time()
                break
            due = start + self.plan.times[index] * scale
            delay = due - self.loop.time()
            if delay > 0:
                await asyncio.sleep(delay)
            if "advance" in operation:
                now = self.loop.time()
                self.replayed.timings[index] = Timing(now, now)
                self.replayed.outcomes[index] = {"ended": "not observable over HTTP"}
            elif "observe" in operation:
                sent = self.loop.time()
                try:
                    response: Answer | BaseException = await self.post(
                        "/observe", operation["observe"], self.settings.timeout_s
                    )
                except CallFailed as error:
                    response = error
                self.replayed.timings[index] = Timing(sent, self.loop.time())
                self.settle(index, response, "observe", index)
            else:
                await self.act(index, operation["act"])
            await self.expect_decisions(index)
        if self.replayed.stopped_at is None:
            self.collect(len(self.operations) - 1)
        for act, task in self.pending.items():
            if self.replayed.stopped_at is None:
                self.replayed.outcomes[act] = {"waiting": True}
            task.cancel()
        await asyncio.gather(*self.pending.values(), return_exceptions=True)
        return self.replayed

    async def act(self, index: int, body: Any) -> None:
        sent = self.loop.time()
        task = asyncio.create_task(
            self.post("/act", body, self.wait_real + self.settings.timeout_s, "the worker's wait plus --timeout")
        )
        if index not in self.plan.waits:
            try:
                response: Answer | BaseException = await task
            except CallFailed as error:
                response = error
            self.replayed.timings[index] = Timing(sent, self.loop.time())
            self.settle(index, response, "act", index)
            return
        self.pending[index] = task
        known = await self._until_waiting(body, task)
        if known is None:
            self.replayed.problems.setdefault(index, []).append(
                f"the worker neither answered the act nor listed it as waiting (GET /stream/waiting) within "
                f"{self.settings.timeout_s:g} s"
            )
            self.departed = True
        else:
            self.replayed.timings[index] = Timing(sent, known)

    async def _until_waiting(self, body: Any, task: asyncio.Task[Answer]) -> float | None:
        """The time by which the worker surely holds the act as waiting or has answered it (None: neither came)."""
        if not self.target.lists_waiting:
            await asyncio.wait([task], timeout=self.settings.settle_s)
            return self.loop.time()
        episode = _with_ids(body, self.target).get("episode_id") if isinstance(body, dict) else None
        give_up = self.loop.time() + self.settings.timeout_s
        while not task.done():
            if self.loop.time() > give_up:
                return None
            try:
                left = max(give_up - self.loop.time(), 0.001)
                answer = await call(self.client, "GET", self.target.base + "/stream/waiting", deadline_s=left)
                if episode in answer.json().get("waiting", []):
                    break
            except (CallFailed, ValueError, AttributeError):
                return None
            await asyncio.sleep(WAITING_POLL_S)
        return self.loop.time()


def _transport_text(error: BaseException, kind: str) -> str:
    if isinstance(error, CallFailed):
        return str(error)
    if isinstance(error, asyncio.CancelledError):
        return f"POST /{kind} was cancelled"
    return f"POST /{kind} failed: {type(error).__name__}: {error}"


async def replay(
    client: httpx.AsyncClient, target: Target, operations: list[dict[str, Any]], plan: Plan, settings: Settings
) -> Replayed:
    """Send one scenario's operations to `target` on the plan's clock; see the module's docstring."""
    return await _Scenario(client, target, operations, plan, settings).run()
