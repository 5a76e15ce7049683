"""The selected stream scenarios + a live worker → for each: not applicable over HTTP, not runnable on this worker,
or replayed (a fresh test keeper per scenario, or the worker's own keeper) and judged → `Record`s for the runner's
reports and expected-failure list.

WHY it is shaped this way: the vectors are the contract and the worker is a black box, as in Pact's provider
verification. A scenario names its own declaration, rate, idle timeout and scaled-down limits, while a worker has
one configuration. A worker that offers test keepers (`iospec worker --testing`, conformance/worker.md) gets a
fresh keeper per scenario, configured as the scenario says and with a wait chosen for the scenario's smallest
timing margin, so every applicable scenario runs, many at once. Any other worker is probed on its own keeper:
the scenarios its configuration (`GET /stream/info`, or `--worker-config`) matches run one after the other under
fresh episode ids; the others are reported as skipped with the configuration they need, and fail the run unless
the expected-failure list names them. What no real clock can replay (a request exactly on a deadline) and what
is not on the HTTP surface (a declaration the keeper refuses at setup) is reported as not applicable, every time,
with its reason: never silently left out. A worker's configuration matches a scenario in what the scenario's
declaration reads: the rate only when it counts in seconds (`reads_rate`), so a worker that states a rate beside a
declaration in steps still runs those scenarios.

Budgets (conformance/worker.md, "Time budgets and the answer cap"): every request goes through `probe.call`, each
replay has `replay_budget` (its own waits plus REQUEST_ALLOWANCE_S per request), and a replay over it fails that
case, since the requests of a scenario are what the worker is judged on. The test-keeper endpoints are the probe's
own tools, not the contract: a worker that gives no whole answer to `POST /stream/keepers` or to a keeper's
`DELETE` in time would fail every case the same way, so the run stops there (`Unusable`, exit 2).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import secrets
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import httpx

from seq_io.probe.call import REQUEST_ALLOWANCE_S, Answer, CallFailed, Unusable, call
from seq_io.probe.plan import Plan, Violation, plan_of, violations
from seq_io.probe.replay import Replayed, Settings, Target, replay
from seq_io.reference.json_values import json_equal
from seq_io.reference.keeper import BYTES, EPISODES, FRAMES, WORKER_BYTES, Limits, stream_wait_s
from seq_io.reference.testee import malformed_operations
from seq_io.reference.validation import checking_contract
from seq_io.runner import xfail
from seq_io.runner.kinds import expected_outcome, operation_name
from seq_io.runner.reports import Record
from seq_io.runner.suite import SuiteCase
from seq_io.runner.verdict import Difference, Verdict, differences, differences_text
from seq_io.runner.xfail import ExpectedFailures
from seq_io.worker.host import MIN_TEST_WAIT_S

NOT_APPLICABLE = "not applicable over HTTP"
RETRIES = 2
QUIET_S = 3.0
"""Real seconds a scenario's advances are compressed to when its margins allow (a long silence with no deadline)."""
CONTRACT_LIMITS = (FRAMES, BYTES, WORKER_BYTES)
"""The limits of spec/contract.json; MAX_EPISODES is the keeper's own (STR-LIMIT-EPISODES)."""
HEAVY = 200
"""Scenarios of more requests than this run one at a time: their timing suffers most from a busy worker."""
MAX_EPISODE_ID = 256


@dataclass(frozen=True)
class ProbeSettings:
    latency_s: float = 0.1
    """Real seconds of timing noise every deadline margin must exceed (request latency, timers, a loaded machine)."""
    min_wait_s: float = 0.2
    """The shortest act wait a test keeper is given (real seconds)."""
    max_wait_s: float = 6.0
    """The longest: a scenario needing more is not applicable (its margins are too fine for a real clock)."""
    request_s: float = 0.003
    """Real seconds one request is expected to take, for the margins (`Plan.scale_needed`)."""
    max_scenario_s: float = 12.0
    """Real seconds a scenario's advances may take; a long silence with no deadline near it is compressed to fit
    (down to the scale its margins need), and a scenario that cannot fit is not applicable."""
    jobs: int = 8
    http: Settings = field(default_factory=Settings)


@dataclass(frozen=True)
class WorkerConfig:
    """A worker's configuration as `GET /stream/info` states it (conformance/worker.md)."""

    declaration: Any
    rate: Any
    episode_idle: int | None
    limits: dict[str, int]
    wait_s: float
    testing: bool

    @staticmethod
    def of(info: dict[str, Any]) -> WorkerConfig:
        return WorkerConfig(
            info.get("declaration"),
            info.get("rate"),
            info.get("episode_idle"),
            scenario_limits(info),
            float(info["wait_s"]),
            bool(info.get("testing", False)),
        )


def scenario_limits(data: dict[str, Any]) -> dict[str, int]:
    """The contract limits a keeper has, from a scenario or a worker's /stream/info: the contract's, less those its
    `limits` scale down."""
    contract = Limits.of_contract()
    scaled = data.get("limits") or {}
    return {FRAMES: contract.frames, BYTES: contract.bytes, WORKER_BYTES: contract.worker_bytes} | {
        name: scaled[name] for name in CONTRACT_LIMITS if name in scaled
    }


def keeper_body(data: dict[str, Any]) -> dict[str, Any]:
    """A scenario's setup as `POST /stream/keepers` takes it (conformance/worker.md), numbers as the vector writes
    them: the worker reads them by value (STR-SCENARIO)."""
    return {
        "declaration": data["declaration"],
        **{name: data[name] for name in ("rate", "episode_idle", "limits") if name in data},
    }


def refusal_rule(response: Answer) -> str | None:
    """The rule of a refused test keeper configuration: the one issue of a 400 `invalid_body` StreamError."""
    try:
        body = response.json()
    except ValueError:
        return None
    if response.status_code != 400 or not checking_contract().validate_value("StreamError", body).valid:
        return None
    issues = body["error"]["details"].get("issues") or [{}]
    rule = issues[0].get("rule")
    return rule if isinstance(rule, str) else None


def reads_rate(declaration: Any) -> bool:
    """Whether a keeper for this declaration reads the control rate: only to turn counts in seconds into steps
    (spec/schedule.md; `schedule.of` looks at the rate for nothing else)."""
    return isinstance(declaration, dict) and declaration.get("unit") == "seconds"


def as_json(value: Any) -> str:
    """A configuration value as it is written in /stream/info or a vector: JSON, never a Python repr."""
    return json.dumps(value, ensure_ascii=False, sort_keys=True)


def replay_budget(plan: Plan, requests: int, scale: float, timeout_s: float) -> float:
    """Real seconds one replay may take: its advances and the waits of its acts on the worker's clock, plus
    REQUEST_ALLOWANCE_S per request, plus twice one request's deadline (an act's includes the wait): the replay
    stops at the first request that reaches its deadline, and the second is slack for a loaded machine."""
    wait = stream_wait_s() * scale
    return plan.duration * scale + len(plan.waits) * wait + requests * REQUEST_ALLOWANCE_S + 2 * (timeout_s + wait)


def idle_unreachable(data: dict[str, Any], plan: Plan, config: WorkerConfig, timeout_s: float) -> bool:
    """Whether a scenario without an idle timeout runs the same on a worker whose idle timeout is longer than the
    whole replay can last on the worker's clock (its budget, `replay_budget`): no episode of the scenario can stay
    idle that long. A worker started as the README says (`--episode-idle` 3600 by default) therefore runs the
    scenarios that never let an episode idle."""
    idle, scale = config.episode_idle, config.wait_s / stream_wait_s()
    if data.get("episode_idle") is not None or idle is None or scale <= 0:
        return False
    requests = sum("advance" not in operation for operation in data["operations"])
    return replay_budget(plan, requests, scale, timeout_s) / scale < idle


def needs(data: dict[str, Any], wait_s: float) -> str:
    """The worker configuration a scenario needs, as `iospec worker` flags would state it (values as JSON)."""
    limits = data.get("limits") or {}
    parts = [f"declaration {as_json(data['declaration'])}"]
    if "rate" in data and reads_rate(data["declaration"]):
        parts.append(f"rate {as_json(data['rate'])}")
    if data.get("episode_idle") is not None:
        parts.append(f"episode_idle {as_json(data['episode_idle'])}")
    parts += [f"{name} {as_json(value)}" for name, value in limits.items()]
    parts.append(f"a wait of at least {wait_s:.3g} s")
    return ", ".join(parts)


def judge(case: SuiteCase, replayed: Replayed) -> Verdict:
    """The first operation whose outcome or wire form departs from the vector (advances are not compared: which
    episodes an advance ended is not observable over HTTP; later requests show it)."""
    for index, operation in enumerate(case.case.data["operations"]):
        if "advance" in operation:
            continue
        where = f"operation {index} ({operation_name(operation)})"
        expected, got = expected_outcome(index, operation), replayed.outcomes[index]
        if got is None and replayed.stopped_at is not None:
            if index in replayed.problems:  # the act the replay stopped at: neither answered nor listed as waiting
                return Verdict("fail", f"{where}: " + "; ".join(replayed.problems[index]))
            continue  # an act still undecided when the replay stopped at a departure further on
        if isinstance(got, dict) and "transport" in got:
            difference = Difference(f"$.outcomes[{index}]", expected, got)
            return Verdict("fail", f"{where}: {got['transport']}", (difference,))
        found, more = differences(expected, got, ("outcomes", index))
        if found:
            return Verdict("fail", f"{where}: {differences_text(found, more)}", tuple(found), more=more)
        if index in replayed.problems:
            return Verdict("fail", f"{where}: " + "; ".join(replayed.problems[index]))
    return Verdict("pass")


class Prober:
    """One probe run against one worker."""

    def __init__(self, client: httpx.AsyncClient, url: str, config: WorkerConfig, settings: ProbeSettings) -> None:
        self.client, self.url, self.config, self.settings = client, url.rstrip("/"), config, settings
        self.run_id = secrets.token_hex(4)
        self.needed: dict[str, list[str]] = {}
        """Configuration a skipped scenario needs → the ids of the scenarios that need it."""

    def not_applicable(self, case: SuiteCase, plan: Plan | None) -> str | None:
        data = case.case.data
        if "expect" in data:
            malformed = malformed_operations(data["operations"])
            if malformed is not None:
                return (
                    f"{NOT_APPLICABLE}: the scenario is malformed in its operations ({malformed}; STR-SCENARIO): "
                    "refusing it is a testee's answer to the vector, and an advance is the probe's own wait, "
                    "nothing a worker is asked"
                )
            if not self.config.testing:
                return (
                    f"{NOT_APPLICABLE}: the keeper cannot be made (expects {data['expect'].get('error')}, "
                    "STR-SETUP); a worker refuses such a configuration when it is deployed, not on POST /observe "
                    "or /act, and only a worker with test keepers can be asked (POST /stream/keepers)"
                )
            return None
        assert plan is not None
        if plan.tie is not None:
            tie = plan.tie
            return (
                f"{NOT_APPLICABLE}: operation {tie.op} falls on {tie.what} ({tie.margin:g} virtual s away): "
                "equal clock readings (STR-CLOCK) cannot be reproduced over a real clock"
            )
        scale = plan.scale_needed(self.settings.latency_s, self.settings.request_s)
        if scale * stream_wait_s() > self.settings.max_wait_s:
            return (
                f"{NOT_APPLICABLE}: its deadline margins (the closest {plan.margin:g} virtual s) and the requests "
                f"between them would need a wait of {scale * stream_wait_s():.1f} s (more than --max-wait-s "
                f"{self.settings.max_wait_s:g})"
            )
        if scale * plan.duration > self.settings.max_scenario_s:
            return (
                f"{NOT_APPLICABLE}: its {plan.duration:g} virtual s with margins of {plan.margin:g} s would take "
                f"{scale * plan.duration:.0f} real s (more than --max-scenario-s "
                f"{self.settings.max_scenario_s:g})"
            )
        return None

    def wait_for(self, plan: Plan) -> float:
        """The act wait (real seconds) a test keeper gets for this scenario: enough for its smallest margin, at least
        `min_wait_s` unless that would make its advances take longer than `max_scenario_s`."""
        wait = stream_wait_s()
        needed = plan.scale_needed(self.settings.latency_s, self.settings.request_s) * wait
        roomy = self.settings.min_wait_s
        if plan.duration > 0:
            roomy = min(roomy, QUIET_S / plan.duration * wait)
        return max(needed, roomy, MIN_TEST_WAIT_S)

    def _mismatch(self, case: SuiteCase, plan: Plan) -> str | None:
        """Why the worker's own keeper cannot replay this scenario (None: it can)."""
        data, config = case.case.data, self.config
        wanted = plan.scale_needed(self.settings.latency_s, self.settings.request_s) * stream_wait_s()
        differs = []
        if not json_equal(data["declaration"], config.declaration):
            differs.append("declaration")
        if reads_rate(data["declaration"]) and not json_equal(data.get("rate"), config.rate):
            differs.append("rate")
        if data.get("episode_idle") != config.episode_idle and not idle_unreachable(
            data, plan, config, self.settings.http.timeout_s
        ):
            differs.append("episode_idle")
        if scenario_limits(data) != config.limits:
            differs.append("limits")
        if config.wait_s < wanted:
            differs.append("wait")
        if WORKER_BYTES in (data.get("limits") or {}):
            differs.append("a fresh worker (its worker-wide byte limit counts every episode the worker holds)")
        if EPISODES in (data.get("limits") or {}):
            differs.append("a fresh worker (MAX_EPISODES counts every episode the worker holds)")
        if not differs:
            unmapped = [name for name in _episode_ids(data) if _fresh_id(self.run_id, 0, name) is None]
            if unmapped:
                differs.append(
                    f"a fresh worker (the episode id {unmapped[0][:20]!r}… cannot be made unique "
                    "without changing what it tests)"
                )
        if not differs:
            return None
        need = needs(data, max(wanted, self.settings.min_wait_s))
        self.needed.setdefault(need, []).append(case.id)
        return (
            f"not run: this worker differs in {', '.join(differs)}; the scenario needs {need} (a worker "
            "started with --testing runs every scenario)"
        )

    async def record(self, case: SuiteCase, expected: ExpectedFailures, number: int) -> Record:
        begun = time.monotonic()
        plan = None if "expect" in case.case.data else plan_of(case.case.data)
        reason = self.not_applicable(case, plan)
        entry = expected.entry_for(case)
        if reason is not None:
            # Counted as an expected failure (JUnit <skipped>, TAP TODO): a skip would fail the run, and these cases
            # are not the worker's to pass; the note carries the reason into every report.
            return Record(case, Verdict("skip", reason), "xfail", True, reason, entry, 0.0)
        if plan is None:
            verdict = await self._setup_refused(case)
        elif self.config.testing:
            verdict = await self._on_test_keeper(case, plan)
        else:
            mismatch = self._mismatch(case, plan)
            verdict = Verdict("skip", mismatch) if mismatch else await self._on_worker(case, plan, number)
        outcome, ok, note = xfail.outcome(verdict, entry)
        return Record(case, verdict, outcome, ok, note, entry, time.monotonic() - begun)

    async def _make_keeper(self, body: dict[str, Any]) -> Answer:
        """POST /stream/keepers; a worker that gives no whole answer in time cannot be used (`Unusable`)."""
        try:
            return await call(
                self.client,
                "POST",
                self.url + "/stream/keepers",
                content=json.dumps(body, ensure_ascii=False).encode("utf-8"),
                headers={"content-type": "application/json"},
                deadline_s=self.settings.http.timeout_s,
            )
        except CallFailed as error:
            raise Unusable(f"cannot use the worker at {self.url}: {error}") from None

    async def _delete(self, base: str) -> str | None:
        """DELETE a test keeper: None when the worker answered 200, what it answered otherwise; a worker that gives
        no whole answer in time cannot be used (`Unusable`): it would hold every case the same way."""
        try:
            answer = await call(self.client, "DELETE", base, deadline_s=self.settings.http.timeout_s)
        except CallFailed as error:
            raise Unusable(f"cannot use the worker at {self.url}: {error}") from None
        if answer.status_code != 200:
            return (
                f"the worker answered DELETE {base.removeprefix(self.url)} with status {answer.status_code}; "
                "conformance/worker.md (Test keepers) says 200"
            )
        return None

    async def _setup_refused(self, case: SuiteCase) -> Verdict:
        """A setup that STR-SETUP refuses (a case-level `expect`) must be refused by the test keeper endpoint with
        the vector's error id as the rule of its issue (conformance/worker.md, "Test keepers")."""
        data = case.case.data
        wanted = data["expect"]["error"]
        made = await self._make_keeper(keeper_body(data))
        if made.status_code == 201:
            base = _base_of(made)
            if base is not None:
                await self._delete(self.url + base)
            return Verdict("fail", f"the worker made a keeper for this setup; STR-SETUP refuses it ({wanted})")
        rule = refusal_rule(made)
        if rule == wanted:
            return Verdict("pass")
        got = f"rule {rule}" if rule else f"status {made.status_code}, {made.text[:160]!r}"
        return Verdict(
            "fail",
            f"POST /stream/keepers refused this setup with {got}; the vector expects {wanted} "
            "(a 400 invalid_body StreamError whose issue names that rule)",
        )

    async def _on_test_keeper(self, case: SuiteCase, plan: Plan) -> Verdict:
        data = case.case.data
        wait_s = self.wait_for(plan)
        problems: list[Violation] = []
        for _ in range(RETRIES + 1):
            made = await self._make_keeper(keeper_body(data) | {"wait_s": wait_s})
            made_base = _base_of(made) if made.status_code == 201 else None
            if made_base is None:
                rule = refusal_rule(made)
                said = f"rule {rule}" if rule else repr(made.text[:160])
                return Verdict(
                    "fail",
                    f"the worker did not make this scenario's keeper (POST /stream/keepers "
                    f"answered {made.status_code}, {said}); STR-SETUP says a keeper takes it",
                )
            base = self.url + made_base
            target = Target(base, True, wait_s / stream_wait_s())
            try:
                verdict, problems = await self._replay(case, plan, target)
            finally:
                deleted = await self._delete(base)
            if deleted is not None:
                return Verdict("error", deleted)
            if not problems:
                return verdict
            tried = wait_s
            wait_s = min(
                max(wait_s * 2, max(p.scale for p in problems) * stream_wait_s()), self.settings.max_wait_s * 2
            )
        return Verdict(
            "error",
            "the machine could not keep the timing this scenario needs, even with a wait of "
            f"{tried:.2f} s: {problems[0].text}",
        )

    async def _on_worker(self, case: SuiteCase, plan: Plan, number: int) -> Verdict:
        problems: list[Violation] = []
        for attempt in range(RETRIES + 1):
            prefix = f"{number}.{attempt}"

            def rename(name: str, prefix: str = prefix) -> str:
                fresh = _fresh_id(self.run_id, prefix, name)
                assert fresh is not None  # checked by _mismatch
                return fresh

            target = Target(self.url, False, self.config.wait_s / stream_wait_s(), rename)
            verdict, problems = await self._replay(case, plan, target)
            if not problems:
                return verdict
        return Verdict("error", f"the machine could not keep the timing this scenario needs: {problems[0].text}")

    async def _replay(self, case: SuiteCase, plan: Plan, target: Target) -> tuple[Verdict, list[Violation]]:
        """(the verdict, the timing constraints the real times did not prove: then the verdict means nothing)."""
        http = self.settings.http
        operations = case.case.data["operations"]
        requests = sum("advance" not in operation for operation in operations)
        budget = replay_budget(plan, requests, target.scale, http.timeout_s)
        try:
            replayed = await asyncio.wait_for(replay(self.client, target, operations, plan, http), budget)
        except TimeoutError:
            return Verdict(
                "fail",
                f"the worker did not let the scenario finish within its budget of {budget:.1f} s (its advances and "
                f"act waits on this worker's clock, {REQUEST_ALLOWANCE_S:g} s per request, and one request's "
                "--timeout; conformance/worker.md, Time budgets and the answer cap)",
            ), []
        found = violations(plan, replayed.timings, target.scale, self.settings.latency_s, replayed.stopped_time)
        return judge(case, replayed), found


def _base_of(made: Answer) -> str | None:
    try:
        base = made.json().get("base")
    except (ValueError, AttributeError):
        return None
    return base if isinstance(base, str) and base.startswith("/") else None


def _episode_ids(data: dict[str, Any]) -> set[str]:
    names: set[str] = set()
    for operation in data["operations"]:
        body = operation.get("observe", operation.get("act"))
        if isinstance(body, dict) and isinstance(body.get("episode_id"), str):
            names.add(body["episode_id"])
    return names


def _fresh_id(run_id: str, prefix: object, name: str) -> str | None:
    """A unique episode id for one replay that a worker judges exactly as the original: valid ids (1 to 256 code
    points) stay valid, ids over 256 stay over; None when that cannot be kept (an empty id, or one near 256)."""
    fresh = f"probe-{run_id}-{prefix}-{name}"
    if not name or (len(name) <= MAX_EPISODE_ID < len(fresh)):
        return None
    return fresh


async def probe_cases(
    client: httpx.AsyncClient,
    url: str,
    config: WorkerConfig,
    cases: Sequence[SuiteCase],
    expected: ExpectedFailures,
    settings: ProbeSettings,
) -> tuple[list[Record], Prober]:
    """Every case through the prober: many at once on test keepers, one at a time on a worker's own keeper."""
    prober = Prober(client, url, config, settings)
    gate = asyncio.Semaphore(settings.jobs if config.testing else 1)
    heavy = asyncio.Semaphore(1)

    async def one(number: int, case: SuiteCase) -> Record:
        operations = case.case.data.get("operations", [])
        async with heavy if len(operations) > HEAVY else contextlib.nullcontext(), gate:
            return await prober.record(case, expected, number)

    # The scenarios that sleep longest start first, so that many short ones fill the time they take.
    longest_first = sorted(range(len(cases)), key=lambda n: -_sleeps(cases[n]))
    tasks = {number: asyncio.create_task(one(number, cases[number])) for number in longest_first}
    try:
        records = [await tasks[number] for number in range(len(cases))]
    finally:  # a worker found unusable (or the run's budget) ends every replay still going
        for task in tasks.values():
            task.cancel()
        await asyncio.gather(*tasks.values(), return_exceptions=True)
    return records, prober


def _sleeps(case: SuiteCase) -> float:
    """Virtual seconds a scenario advances (a rough measure of how long it takes to replay)."""
    return (
        sum(float(op["advance"]) for op in case.case.data["operations"] if "advance" in op)
        if "expect" not in case.case.data
        else 0.0
    )
