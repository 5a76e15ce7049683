"""`iospec probe` against workers that misbehave on purpose (tests/hostile_servers.py: dripped, endless, huge and
missing answers, a DELETE that never answers) → the probe ends, exits 2 with one line naming the URL and the
budget, and keeps its memory bounded; and a worker without test keepers that states a rate beside a declaration in
steps runs the scenarios its declaration matches.

WHY it is shaped this way: the budgets exist for workers the probe must not trust, so they are tested against real
processes on loopback, with small budgets (`--timeout 1`, `--max-run-s 2`) so each test takes seconds. Durations
are never asserted beyond a bound for a hang: the probe's memory is sampled from /proc while it runs, and what the
tests pin is the exit code, the one line and the peak. The pieces that need no server (the answer cap and the
deadline of `probe.call`, the replay budget, what configuration matching reads) are tested without one.
"""

from __future__ import annotations

import asyncio
import json
import shutil
import subprocess
import sys
import time
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

import suite_cache
from http_processes import IOSPEC, REPO, children, running, worker
from seq_io.probe.call import MAX_ANSWER_BYTES, REQUEST_ALLOWANCE_S, CallFailed, call
from seq_io.probe.plan import plan_of
from seq_io.probe.run import WorkerConfig, idle_unreachable, needs, reads_rate, replay_budget

HOSTILE = [sys.executable, str(REPO / "tests" / "hostile_servers.py")]
HANG_BOUND_S = 45.0
"""A probe that has not ended by then hangs: well above its budgets (1 s) plus its start-up on a loaded machine."""
PEAK_RSS_BOUND_MIB = 400
"""The probe itself takes about 120 MiB; an answer without a cap took it past 2 GiB within 15 s."""
STREAM = [case for case in suite_cache.cases()[0] if case.kind == "stream"]


@pytest.fixture(autouse=True)
def no_leftovers() -> Iterator[None]:
    yield
    assert children() == [], "a test left a process behind"


@pytest.fixture
def few_vectors(tmp_path: Path) -> str:
    """A vector folder of two small stream files: the probe reads it in a fraction of a second, where the whole
    suite takes seconds of CPU that a loaded machine stretches (the budgets, not the loading, are under test)."""
    folder = tmp_path / "vectors" / "stream"
    folder.mkdir(parents=True)
    for name in ("act.yaml", "resend.yaml"):
        shutil.copy(REPO / "conformance" / "vectors" / "stream" / name, folder / name)
    return str(folder.parent)


def _peak_rss_mib(pid: int) -> float | None:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
    except OSError:
        return None
    return None


def probe_watched(url: str, *flags: str) -> tuple[int, str, str, float]:
    """`iospec probe --worker URL FLAGS` as a process, its peak RSS sampled from /proc while it runs: (exit code,
    stdout, stderr, peak MiB). Killed, and the test failed, when it outlives HANG_BOUND_S."""
    process = subprocess.Popen(
        [*IOSPEC, "probe", "--worker", url, *flags],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=REPO,
    )
    peak, give_up = 0.0, time.monotonic() + HANG_BOUND_S
    while process.poll() is None and time.monotonic() < give_up:
        peak = max(peak, _peak_rss_mib(process.pid) or 0.0)
        time.sleep(0.02)
    if process.poll() is None:
        process.kill()
        process.communicate(timeout=10)
        raise AssertionError(f"the probe did not end within {HANG_BOUND_S} s")
    stdout, stderr = process.communicate(timeout=10)
    return process.returncode, stdout, stderr, peak


def one_line(stderr: str) -> str:
    lines = stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in stderr, stderr
    return lines[0]


@pytest.mark.realclock
@pytest.mark.parametrize(
    ("mode", "said"),
    [
        ("drip-info", "no whole answer to GET /stream/info within 1 s (--timeout)"),
        ("silent-info", "no whole answer to GET /stream/info within 1 s (--timeout)"),
        ("endless-info", "the answer to GET /stream/info is larger than the 8 MiB the probe reads"),
        ("huge-info", "the answer to GET /stream/info announces 10737418240 bytes, more than the 8 MiB"),
    ],
)
def test_a_hostile_stream_info_is_one_line_and_exit_2(mode: str, said: str) -> None:
    with running([*HOSTILE, mode]) as server:
        code, _, stderr, peak = probe_watched(server.url, "--timeout", "1")
        server.stop()
    line = one_line(stderr)
    assert code == 2, stderr
    assert line.startswith(f"iospec probe: cannot use the worker at {server.url}: ") and said in line, line
    assert peak < PEAK_RSS_BOUND_MIB, f"the probe grew to {peak:.0f} MiB"


@pytest.mark.realclock
def test_a_keeper_delete_that_never_answers_is_one_line_and_exit_2(few_vectors: str) -> None:
    with running([*HOSTILE, "slow-delete"]) as server:
        code, _, stderr, _ = probe_watched(server.url, "--timeout", "1", "--jobs", "2", "--vectors", few_vectors)
        server.stop()
    line = one_line(stderr)
    assert code == 2, stderr
    assert line == (
        f"iospec probe: cannot use the worker at {server.url}: no whole answer to DELETE /stream/keepers/k1 "
        "within 1 s (--timeout)"
    )


@pytest.mark.realclock
def test_a_run_over_max_run_s_is_one_line_and_exit_2(few_vectors: str) -> None:
    with running([*HOSTILE, "drip-observe"]) as server:
        code, _, stderr, _ = probe_watched(server.url, "--timeout", "1", "--max-run-s", "2", "--vectors", few_vectors)
        server.stop()
    assert code == 2
    assert one_line(stderr) == (
        f"iospec probe: cannot use the worker at {server.url}: the probe did not finish within --max-run-s 2 s"
    )


def _runs_on_drip_observe(case: Any) -> bool:
    """A scenario the drip-observe server's configuration ({"every": 1}, a wait of 1 s) runs, opening with a post."""
    data = case.case.data
    if "expect" in data or data["declaration"] != {"every": 1} or data.get("limits") or data.get("episode_idle"):
        return False
    plan = plan_of(data)
    return plan.tie is None and plan.scale_needed(0.1, 0.003) * 10 <= 1 and "observe" in data["operations"][0]


@pytest.mark.realclock
def test_a_dripped_answer_fails_its_case_and_the_probe_goes_on(tmp_path: Path, few_vectors: str) -> None:
    few = ("stream/act/", "stream/resend/")  # the groups of `few_vectors`
    chosen = [case.id for case in STREAM if case.group.startswith(few) and _runs_on_drip_observe(case)][:2]
    report = tmp_path / "report.json"
    with running([*HOSTILE, "drip-observe"]) as server:
        flags = ["--timeout", "1", "--json", str(report), "--vectors", few_vectors, *(f"--id={i}" for i in chosen)]
        code, stdout, stderr, _ = probe_watched(server.url, *flags)
        server.stop()
    assert code == 1 and len(chosen) == 2 and "Traceback" not in stderr, stdout + stderr
    cases = json.loads(report.read_text())["cases"]
    assert {case["id"] for case in cases if case["status"] == "fail"} == set(chosen), cases
    for case in cases:
        assert "no whole answer to POST /observe within 1 s (--timeout)" in case["detail"], case


@pytest.mark.realclock
def test_a_worker_stating_a_rate_beside_a_declaration_in_steps_runs_its_scenarios(
    tmp_path: Path, few_vectors: str
) -> None:
    policy = REPO / "tests" / "policies" / "every-one-hz.json"
    report = tmp_path / "report.json"
    with running(worker("--policy", str(policy), "--wait-s", "1", "--quiet")) as process:
        code, stdout, stderr, _ = probe_watched(process.url, "--vectors", few_vectors, "--json", str(report))
        assert process.stop() == 0
    cases = json.loads(report.read_text())["cases"]
    passed = [case["id"] for case in cases if case["status"] == "pass"]
    assert code == 1 and "Traceback" not in stderr, stderr  # the scenarios it cannot run fail the run (skips)
    assert passed, stdout
    assert not [case for case in cases if "rate" in case.get("detail", "").split(";")[0]], stdout
    needed = stdout.split("by the configuration they need:")[1]
    assert "None" not in needed and "{'" not in needed and "declaration null" in needed, needed


# Without a server: the pieces the budgets are made of.


def _client(handler: Any) -> httpx.AsyncClient:
    return httpx.AsyncClient(transport=httpx.MockTransport(handler))


class _Endless(httpx.AsyncByteStream):
    """A body that never ends, or one that stalls after its first byte."""

    def __init__(self, stall: bool) -> None:
        self.stall = stall

    async def __aiter__(self) -> AsyncIterator[bytes]:
        while True:
            yield b"["
            if self.stall:
                await asyncio.sleep(3600)
            yield b"[" * 65536


def test_an_answer_over_the_cap_fails_the_call() -> None:
    async def go() -> str:
        async with _client(lambda request: httpx.Response(200, stream=_Endless(False))) as client:
            with pytest.raises(CallFailed) as failed:
                await call(client, "GET", "http://worker/stream/info", deadline_s=30)
            return str(failed.value)

    assert asyncio.run(go()) == "the answer to GET /stream/info is larger than the 8 MiB the probe reads"


class _Chunks(httpx.AsyncByteStream):
    def __init__(self, size: int) -> None:
        self.size = size

    async def __aiter__(self) -> AsyncIterator[bytes]:
        for start in range(0, self.size, 65536):
            yield b" " * min(65536, self.size - start)


def test_an_answer_at_the_cap_is_read_whole() -> None:
    async def go() -> int:
        async with _client(lambda request: httpx.Response(200, stream=_Chunks(MAX_ANSWER_BYTES))) as client:
            return len((await call(client, "GET", "http://worker/x", deadline_s=30)).content)

    assert asyncio.run(go()) == MAX_ANSWER_BYTES


def test_an_answer_announced_over_the_cap_is_refused_before_its_body() -> None:
    announced = {"content-length": str(MAX_ANSWER_BYTES + 1)}

    async def go() -> str:
        answer = httpx.Response(200, headers=announced, stream=_Endless(True))  # its body would stall
        async with _client(lambda request: answer) as client:
            with pytest.raises(CallFailed) as failed:
                await call(client, "GET", "http://worker/stream/info", deadline_s=30)
            return str(failed.value)

    assert asyncio.run(go()) == (
        f"the answer to GET /stream/info announces {MAX_ANSWER_BYTES + 1} bytes, more than the 8 MiB the probe reads"
    )


@pytest.mark.realclock
def test_the_deadline_covers_the_whole_body() -> None:
    async def go() -> str:
        async with _client(lambda request: httpx.Response(200, stream=_Endless(True))) as client:
            with pytest.raises(CallFailed) as failed:
                await call(client, "DELETE", "http://worker/stream/keepers/k1", deadline_s=0.2, budget="a budget")
            return str(failed.value)

    assert asyncio.run(go()) == "no whole answer to DELETE /stream/keepers/k1 within 0.2 s (a budget)"


def test_only_a_declaration_in_seconds_reads_the_rate() -> None:
    assert not reads_rate(None)
    assert not reads_rate({"every": 1})
    assert not reads_rate({"every": 1, "unit": "steps"})
    assert reads_rate({"every": 0.5, "unit": "seconds"})


def test_a_needed_configuration_is_written_as_json() -> None:
    text = needs({"declaration": {"every": 1}, "rate": 10, "operations": []}, 0.2)
    assert text == 'declaration {"every": 1}, a wait of at least 0.2 s'
    text = needs({"declaration": {"every": 1, "unit": "seconds"}, "rate": 10.5, "operations": []}, 0.2)
    assert text == 'declaration {"every": 1, "unit": "seconds"}, rate 10.5, a wait of at least 0.2 s'
    assert needs({"declaration": None, "operations": []}, 1).startswith("declaration null,")
    text = needs({"declaration": None, "episode_idle": 2.5, "limits": {"MAX_STREAM_FRAMES": 4}, "operations": []}, 1)
    assert text == "declaration null, episode_idle 2.5, MAX_STREAM_FRAMES 4, a wait of at least 1 s"


def test_a_replay_budget_is_its_waits_plus_an_allowance_per_request() -> None:
    data = {"declaration": {"every": 1}, "operations": [{"advance": 4, "expect": {}}]}
    plan = plan_of(data)
    assert plan.waits == set() and plan.duration == 4
    assert replay_budget(plan, 3, 0.02, 1.0) == pytest.approx(4 * 0.02 + 3 * REQUEST_ALLOWANCE_S + 2 * (1.0 + 0.2))


def test_a_worker_idle_timeout_longer_than_the_replay_matches_a_scenario_without_one() -> None:
    """The reference worker ends idle episodes after 3600 stream seconds by default: a scenario that sets no idle
    timeout runs the same there as long as its whole replay, on the worker's clock, is shorter."""
    data: dict[str, Any] = {"declaration": {"every": 1}, "operations": [{"advance": 4, "expect": {}}]}
    plan = plan_of(data)

    def config(idle: int | None, wait_s: float) -> WorkerConfig:
        return WorkerConfig({"every": 1}, None, idle, {}, wait_s, False)

    assert idle_unreachable(data, plan, config(3600, 10.0), 5.0)  # a replay of seconds against an hour
    assert not idle_unreachable(data, plan, config(3600, 0.005), 5.0)  # 2000x faster clock: 1.8 real s of idle
    assert not idle_unreachable(data, plan, config(20, 10.0), 5.0)  # shorter than the replay's budget
    assert not idle_unreachable(data, plan, config(None, 10.0), 5.0)  # nothing to compare: matched elsewhere
    assert not idle_unreachable({**data, "episode_idle": 30}, plan, config(3600, 10.0), 5.0)
