"""Hostile clients against `iospec worker` and `iospec probe` (`make bench-hostile-worker`): each attack (a huge or
broken body, thousands of silent or dripping connections, acts and episode ids that hold memory, a signal while
bodies arrive, a misbehaving server for the probe, malformed HTTP, an episode table filled up) → run against a
freshly started worker (started as the README says, `iospec worker --policy examples/policy.json`, plus the flags the
attack needs) while a well-behaved robot posts and acts beside it → one row: were the others served, the worker's peak
RSS against the bytes the attack made it count, the peak of its body-parsing processes, the robot's worst stall (its
worst latency during the attack minus its worst latency alone, on the same worker, in the same run), answers outside
the StreamError shape, tracebacks on stderr, the exit time on SIGTERM → PASS/FAIL against the targets below.

Targets (one place, `Targets`): the robot alongside fails nothing and waits at most 100 ms longer; peak RSS below
2x the counted bytes + RSS_CONSTANT_MIB, and its parse processes below PARSE_LIMIT_MIB (their --parse-memory bound);
no traceback; every answer shaped as a StreamError (or a 200 of the contract); exit on SIGTERM within 2 s + the act
wait; the probe ends within its budget.

WHY this shape: a worker's failures under hostile clients are about time and memory on a real machine, so the
instrument is real processes on loopback, each attack against a fresh worker so that one attack's damage does not
bleed into the next row. The stall is a difference measured in the same run, never an absolute time: on a shared
2-core machine only that means something. Flags the worker does not have yet are passed only when its `--help` lists
them, so the same script measures the worker before and after a fix. Every process is started in its own process
group and killed in `finally`; every wait has a timeout; the loops are bounded. The attack functions are plain
functions returning a `Row`, so tests/test_hostile_worker.py asserts the same targets on the fast ones. With
`--write-docs`, the table goes into section `bench_hostile_worker` of docs/performance.md (seq_io_maint/perf_doc.py).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import math
import os
import re
import resource
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from seq_io.worker.bodies import DEFAULT_PARSE_MEMORY
from seq_io_maint import perf_doc

REPO = Path(__file__).resolve().parents[1]
BIN = Path(sys.executable).parent
POLICY = REPO / "examples" / "policy.json"
MIB = 1024 * 1024

RSS_CONSTANT_MIB = 120.0
"""The memory a worker may take beyond 2x the bytes an attack makes it count: the interpreter, the HTTP server, the
keeper and the validator loaded and warm (about 55 MiB), the forkserver and resource tracker of its body parsing
(about 20 MiB of their own as PSS; about 75 MiB for the whole group idle), plus room for the connections and
buffers of the attack itself (conformance/worker.md, "Memory"). The one place this constant is set."""

PARSE_LIMIT_MIB = DEFAULT_PARSE_MEMORY / MIB + RSS_CONSTANT_MIB
"""The bound on the worker's body-parsing processes together (its one parse child at the default --parse-workers 1,
under the --parse-memory address-space limit, and the forkserver it is forked from): what a large body costs while
it is read, apart from what the worker keeps (conformance/worker.md, "Bodies")."""

STALL_MS = 100.0
"""How much longer the well-behaved robot may wait, at worst, while an attack runs."""

SIGTERM_GRACE_S = 2.0
"""How long after SIGTERM the worker may take to exit, beyond its act wait."""

TRACEBACK = "Traceback (most recent call last)"


@dataclass
class Row:
    """One attack's measurements and verdict; None where a measure does not apply to the attack."""

    name: str
    what: str
    served: bool | None = None
    peak_rss_mib: float | None = None
    counted_mib: float | None = None
    parse_mib: float | None = None
    stall_ms: float | None = None
    unshaped: int | None = None
    tracebacks: int | None = None
    exit_s: float | None = None
    exit_budget_s: float | None = None
    probe_s: float | None = None
    probe_budget_s: float | None = None
    notes: list[str] = field(default_factory=list)
    failures: list[str] = field(default_factory=list)

    def judge(self) -> Row:
        """Fill `failures` from the targets; returns self."""
        bad = self.failures
        if self.served is False:
            bad.append("others were not served")
        if self.stall_ms is not None and self.stall_ms > STALL_MS:
            bad.append(f"the robot alongside stalled {self.stall_ms:.0f} ms > {STALL_MS:.0f} ms")
        if self.peak_rss_mib is not None and self.counted_mib is not None:
            limit = 2 * self.counted_mib + RSS_CONSTANT_MIB
            if self.peak_rss_mib >= limit:
                bad.append(f"peak RSS {self.peak_rss_mib:.0f} MiB >= {limit:.0f} MiB")
        if self.parse_mib is not None and self.parse_mib >= PARSE_LIMIT_MIB:
            bad.append(f"the parse processes peaked at {self.parse_mib:.0f} MiB >= {PARSE_LIMIT_MIB:.0f} MiB")
        if self.unshaped:
            bad.append(f"{self.unshaped} answer(s) outside the StreamError shape")
        if self.tracebacks:
            bad.append(f"{self.tracebacks} traceback(s) on stderr")
        if self.exit_s is not None and self.exit_budget_s is not None and not self.exit_s <= self.exit_budget_s:
            bad.append(f"exit on SIGTERM took {self.exit_s:.1f} s > {self.exit_budget_s:.1f} s")
        if self.probe_s is not None and self.probe_budget_s is not None and not self.probe_s <= self.probe_budget_s:
            bad.append(f"the probe took {self.probe_s:.1f} s > its budget {self.probe_budget_s:.1f} s")
        return self

    @property
    def passed(self) -> bool:
        return not self.failures


# ---------------------------------------------------------------------------------------------------------- processes


def worker_flags() -> set[str]:
    """The long options `iospec worker --help` lists (so that flags added later are passed only when present)."""
    done = subprocess.run(
        [str(BIN / "iospec"), "worker", "--help"], capture_output=True, text=True, timeout=30, check=False
    )
    return set(re.findall(r"--[a-z][a-z0-9-]+", done.stdout))


_FLAGS: set[str] | None = None


def has_flag(flag: str) -> bool:
    global _FLAGS
    if _FLAGS is None:
        _FLAGS = worker_flags()
    return flag in _FLAGS


def group_rss_kib(group: int, but: int | None = None) -> int:
    """The memory (KiB) of the live processes of process group `group` (all `but` one), from /proc: their summed PSS
    (each shared page split among the processes that share it), so that a parse child forked from the forkserver is
    not charged a second time for the interpreter pages it shares with it; VmRSS where smaps_rollup cannot be read."""
    total = 0
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit() or int(entry.name) == but:
            continue
        try:
            stat = (entry / "stat").read_text()
            if int(stat[stat.rindex(")") + 2 :].split()[2]) != group:
                continue
            total += _memory_kib(entry)
        except (OSError, ValueError, IndexError):
            continue
    return total


def _memory_kib(process: Path) -> int:
    for source, key in (("smaps_rollup", "Pss:"), ("status", "VmRSS:")):
        with contextlib.suppress(OSError):
            for line in (process / source).read_text().splitlines():
                if line.startswith(key):
                    return int(line.split()[1])
    return 0


def known_flags(flags: Sequence[str]) -> list[str]:
    """`flags` without those the worker's `--help` does not list (each with its value): an attack may ask for a flag
    a later worker adds (say `--header-timeout`) and still run, unchanged, against today's."""
    kept: list[str] = []
    dropping = False
    for flag in flags:
        if flag.startswith("--"):
            dropping = not has_flag(flag.split("=", 1)[0])
        if not dropping:
            kept.append(flag)
    return kept


def _limit_files(count: int) -> Callable[[], None]:
    def preexec() -> None:
        resource.setrlimit(resource.RLIMIT_NOFILE, (count, count))

    return preexec


def raise_own_file_limit() -> None:
    """This process opens thousands of sockets: its soft limit up to its hard one."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft != hard:
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))


class Worker:
    """`iospec worker --policy examples/policy.json` plus `flags` in its own process group, stdout read for its
    address, stderr into a file (for tracebacks and log lines). Use as a context manager: the group is killed on
    exit whatever happened."""

    def __init__(self, flags: Sequence[str] = (), *, files: int | None = None, quiet: bool = True) -> None:
        argv = [str(BIN / "iospec"), "worker", "--policy", str(POLICY), *known_flags(flags)]
        if quiet:
            argv.append("--quiet")
        self.stderr = tempfile.TemporaryFile()  # noqa: SIM115 - read after the process ends, closed by close()
        self.process = subprocess.Popen(
            argv,
            stdout=subprocess.PIPE,
            stderr=self.stderr,
            cwd=REPO,
            start_new_session=True,
            preexec_fn=_limit_files(files) if files else None,
        )
        self.sampled_mib = 0.0
        self.sampling = threading.Event()
        self.sampler = threading.Thread(target=self._sample, daemon=True)
        self.sampler.start()
        try:
            self.url = self._address(30.0)
        except BaseException:
            self.close()
            raise
        self.host, port = self.url.removeprefix("http://").split(":")
        self.port = int(port)

    def _address(self, timeout: float) -> str:
        assert self.process.stdout is not None
        deadline = time.monotonic() + timeout
        fd = self.process.stdout.fileno()
        buffer = b""
        while time.monotonic() < deadline:
            import select

            ready, _, _ = select.select([fd], [], [], 0.2)
            if ready:
                chunk = os.read(fd, 4096)
                if not chunk:
                    break
                buffer += chunk
                for line in buffer.split(b"\n"):
                    if line.startswith(b"{"):
                        with contextlib.suppress(ValueError):
                            return str(json.loads(line)["listening"])
        raise RuntimeError(f"the worker did not start within {timeout:g} s: {buffer[-300:]!r} {self.stderr_text()}")

    def __enter__(self) -> Worker:
        return self

    def __exit__(self, *_: object) -> None:
        self.close()

    def _sample(self) -> None:
        """Every 50 ms, the memory of the worker's other processes (the body parsing's forkserver and children, by
        their PSS); the largest sum is kept."""
        pid = self.process.pid
        while not self.sampling.wait(0.05):
            self.sampled_mib = max(self.sampled_mib, group_rss_kib(pid, but=pid) / 1024)

    def peak_rss_mib(self) -> float:
        """The worker process's own peak RSS (VmHWM): what it holds, apart from its parse processes."""
        own = float("nan")
        with contextlib.suppress(OSError, ValueError):
            for line in Path(f"/proc/{self.process.pid}/status").read_text().splitlines():
                if line.startswith("VmHWM:"):
                    own = int(line.split()[1]) / 1024
        return own

    def parse_mib(self) -> float:
        """The largest summed PSS of the worker's other processes (its body parsing) sampled so far."""
        return self.sampled_mib

    def stderr_text(self) -> str:
        self.stderr.seek(0)
        return self.stderr.read().decode("utf-8", "replace")

    def tracebacks(self) -> int:
        return self.stderr_text().count(TRACEBACK)

    def terminate(self, timeout: float = 30.0) -> float:
        """SIGTERM, then the seconds until the process exited (inf when it had not within `timeout`)."""
        begun = time.monotonic()
        with contextlib.suppress(ProcessLookupError):
            self.process.send_signal(signal.SIGTERM)
        try:
            self.process.wait(timeout)
        except subprocess.TimeoutExpired:
            return float("inf")
        return time.monotonic() - begun

    def kill(self) -> None:
        self.sampling.set()
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(self.process.pid, signal.SIGKILL)
        with contextlib.suppress(subprocess.TimeoutExpired):
            self.process.wait(10)
        if self.process.stdout is not None:
            self.process.stdout.close()

    def close(self) -> None:
        """Kill the group (if still running) and drop the captured stderr."""
        self.kill()
        self.stderr.close()


# --------------------------------------------------------------------------------------------------------------- HTTP


@dataclass
class Answer:
    status: int
    headers: dict[str, str]
    body: bytes


async def _read_answer(reader: asyncio.StreamReader) -> Answer:
    head = await reader.readuntil(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    status = int(lines[0].split()[1])
    headers = {k.strip().lower(): v.strip() for k, _, v in (line.partition(":") for line in lines[1:] if line)}
    if "content-length" in headers:
        body = await reader.readexactly(int(headers["content-length"]))
    elif headers.get("transfer-encoding", "").lower() == "chunked":
        body = b""
        while True:
            size = int((await reader.readline()).split(b";")[0], 16)
            chunk = await reader.readexactly(size + 2)
            if size == 0:
                break
            body += chunk[:-2]
    else:
        body = await reader.read(MIB)
    return Answer(status, headers, body)


def head_of(method: str, path: str, length: int, extra: str = "") -> bytes:
    return (
        f"{method} {path} HTTP/1.1\r\nHost: bench\r\nContent-Type: application/json\r\n"
        f"Content-Length: {length}\r\n{extra}\r\n"
    ).encode()


async def send(host: str, port: int, raw: bytes, timeout: float) -> Answer | str:
    """Send `raw` on a new connection and read one answer: the Answer, or in words what happened instead."""
    writer: asyncio.StreamWriter | None = None
    try:
        async with asyncio.timeout(timeout):
            reader, writer = await asyncio.open_connection(host, port, limit=16 * MIB)
            writer.write(raw)
            await writer.drain()
            return await _read_answer(reader)
    except TimeoutError:
        return f"no answer within {timeout:g} s"
    except (OSError, asyncio.IncompleteReadError, asyncio.LimitOverrunError, ValueError, IndexError) as error:
        return f"connection failed: {type(error).__name__}"
    finally:
        if writer is not None:
            writer.close()


async def post(host: str, port: int, path: str, body: bytes, timeout: float = 60.0) -> Answer | str:
    return await send(host, port, head_of("POST", path, len(body)) + body, timeout)


def shaped(answer: Answer) -> bool:
    """A 200 with a JSON object, or an error status whose body has the StreamError shape: `{"error": {"code",
    "message", "details": {"reason"}}}`; anything else (a redirect, plain text, an empty body) is not."""
    try:
        value = json.loads(answer.body)
    except ValueError:
        return False
    if answer.status == 200:
        return isinstance(value, dict)
    if answer.status < 400 or not isinstance(value, dict):
        return False
    error = value.get("error")
    return (
        isinstance(error, dict)
        and isinstance(error.get("code"), str)
        and isinstance(error.get("message"), str)
        and isinstance(error.get("details"), dict)
        and isinstance(error["details"].get("reason"), str)
    )


def reason(answer: Answer | str) -> str:
    if isinstance(answer, str):
        return answer
    try:
        return f"{answer.status} {json.loads(answer.body)['error']['details']['reason']}"
    except (ValueError, KeyError, TypeError):
        return f"{answer.status} {answer.body[:60]!r}"


def inputs(n: int) -> dict[str, Any]:
    return {"cam": [n], "imu": [n], "goal": [n]}


def observe_body(episode: str, numbers: Sequence[int]) -> bytes:
    frames = [{"seq": n, "inputs": inputs(n)} for n in numbers]
    return json.dumps({"episode_id": episode, "frames": frames}).encode()


def act_body(episode: str, number: int, given: Any = None) -> bytes:
    return json.dumps(
        {"episode_id": episode, "seq": number, "inputs": inputs(number) if given is None else given}
    ).encode()


# -------------------------------------------------------------------------------------------------------------- robot


@dataclass
class Robot:
    """A well-behaved robot: posts a frame, then acts at the next step (which needs nothing missing), again and
    again on one episode, 20 ms apart; its worst latency and every request that did not get its 200."""

    worker: Worker
    episode: str
    worst_ms: float = 0.0
    requests: int = 0
    unshaped: int = 0
    failures: list[str] = field(default_factory=list)
    number: int = 0

    async def run_until(self, stop: threading.Event, at_most_s: float) -> None:
        deadline = time.monotonic() + at_most_s
        while not stop.is_set() and time.monotonic() < deadline:
            for path, body in (
                ("/observe", observe_body(self.episode, [self.number])),
                ("/act", act_body(self.episode, self.number + 1)),
            ):
                begun = time.perf_counter()
                answer = await post(self.worker.host, self.worker.port, path, body, timeout=15.0)
                self.worst_ms = max(self.worst_ms, (time.perf_counter() - begun) * 1000)
                self.requests += 1
                if isinstance(answer, str) or answer.status != 200:
                    self.failures.append(f"{path}: {reason(answer)}")
                if isinstance(answer, Answer) and not shaped(answer):
                    self.unshaped += 1
            self.number += 2
            await asyncio.sleep(0.02)


def drive(robot: Robot, stop: threading.Event, at_most_s: float) -> None:
    """Run `robot` on the calling thread's own event loop until `stop` or `at_most_s`."""
    asyncio.run(robot.run_until(stop, at_most_s))


async def alongside(worker: Worker, attack: Awaitable[None], *, alone_s: float = 1.0, max_s: float = 120.0) -> Robot:
    """The robot alone for `alone_s` (its baseline worst), then beside `attack` until the attack ends; the robot
    returned carries the stall (worst during minus worst alone) in `worst_ms` and its failures. The robot runs on a
    thread with an event loop of its own, alone and alongside alike: an attacker's thousands of tasks on this loop
    would otherwise delay the robot's own writes, and the stall measured would be the client's, not the worker's."""
    solo = Robot(worker, "robot-alone")
    await asyncio.to_thread(drive, solo, threading.Event(), alone_s)
    robot = Robot(worker, "robot")
    stop = threading.Event()
    thread = threading.Thread(target=drive, args=(robot, stop, max_s), name="robot", daemon=True)
    thread.start()
    try:
        await asyncio.wait_for(attack, max_s)
    finally:
        stop.set()
        await asyncio.to_thread(thread.join, 20.0)
    robot.failures = solo.failures + robot.failures
    robot.unshaped += solo.unshaped
    robot.worst_ms -= solo.worst_ms
    return robot


def robot_row(row: Row, robot: Robot) -> None:
    row.served = not robot.failures and robot.requests > 0
    row.stall_ms = max(0.0, robot.worst_ms)  # below 0: the robot's worst alone was the worse, noise
    row.unshaped = robot.unshaped
    if robot.failures:
        row.notes.append(f"robot: {len(robot.failures)} failed, first {robot.failures[0]}")


def finish(
    row: Row, worker: Worker, answers: Sequence[Answer | str] = (), *, exit_budget_s: float | None = None
) -> Row:
    """Count the unshaped answers, the peak RSS, the exit time on SIGTERM and the tracebacks; judge the row."""
    row.unshaped = (row.unshaped or 0) + sum(1 for a in answers if isinstance(a, Answer) and not shaped(a))
    kinds: dict[str, int] = {}
    for answer in answers:
        kinds[reason(answer)[:50]] = kinds.get(reason(answer)[:50], 0) + 1
    if kinds:
        row.notes.append(
            "answers: " + ", ".join(f"{k} x{v}" for k, v in sorted(kinds.items(), key=lambda kv: -kv[1])[:4])
        )
    row.peak_rss_mib = worker.peak_rss_mib()
    row.parse_mib = worker.parse_mib()
    row.exit_budget_s = SIGTERM_GRACE_S + (10.0 if exit_budget_s is None else exit_budget_s)
    row.exit_s = worker.terminate(row.exit_budget_s + 10)
    row.tracebacks = worker.tracebacks()
    return row.judge()


def run(coroutine: Awaitable[Row]) -> Row:
    async def main() -> Row:
        return await coroutine

    return asyncio.run(main())


# ------------------------------------------------------------------------------------------------------------ attacks


def frames_body(episode: str, size: int, *, numbers: bool = True, broken: bool = False) -> bytes:
    """A post of about `size` bytes: frames of a 32-float `imu` and a `cam` string (valid), its last byte a syntax
    error when `broken`."""
    cam = "x" * 16_000
    imu = [0.25] * 32 if numbers else []
    one = len(json.dumps({"seq": 0, "inputs": {"cam": cam, "imu": imu}})) + 2
    count = max(1, size // one)
    frames = [{"seq": n, "inputs": {"cam": cam, "imu": imu}} for n in range(min(count, 1024))]
    body = json.dumps({"episode_id": episode, "frames": frames}).encode()
    if count > 1024:  # beyond MAX_STREAM_FRAMES: fewer, larger frames
        cam = "x" * (size // 1024 - 400)
        frames = [{"seq": n, "inputs": {"cam": cam, "imu": imu}} for n in range(1024)]
        body = json.dumps({"episode_id": episode, "frames": frames}).encode()
    return body[:-1] + b"x" if broken else body


def empty_arrays_body(episode: str, number: int, size: int) -> bytes:
    """One frame whose inputs are `size` bytes of empty arrays: the text that costs a parser most per byte."""
    count = max(1, (size - 60) // 3)
    return (
        b'{"episode_id": "'
        + episode.encode()
        + b'", "frames": [{"seq": '
        + str(number).encode()
        + b', "inputs": ['
        + b"[]," * (count - 1)
        + b"[]]}]}"
    )


async def _bodies_at_once(worker: Worker, bodies: Sequence[bytes], path: str = "/observe") -> list[Answer | str]:
    return list(await asyncio.gather(*(post(worker.host, worker.port, path, b, 120.0) for b in bodies)))


def attack_syntax_4mib(copies: int = 1) -> Row:
    """A 4 MiB post with a syntax error at its very end (`copies` of them at once)."""

    async def go() -> Row:
        row = Row(f"syntax-4mib-x{copies}", f"{copies} x 4 MiB body, syntax error at its end", counted_mib=4.0 * copies)
        body = frames_body("bad", 4 * MIB, broken=True)
        with Worker() as worker:
            answers: list[Answer | str] = []

            async def attack() -> None:
                answers.extend(await _bodies_at_once(worker, [body] * copies))

            robot_row(row, await alongside(worker, attack()))
            if any(reason(a) != "400 invalid_body" for a in answers):
                row.failures.append("not every broken body was answered 400 invalid_body")
            return finish(row, worker, answers)

    return run(go())


def attack_large_post(mib: int) -> Row:
    """A valid post of `mib` MiB (under the default 128 MiB body limit)."""

    async def go() -> Row:
        row = Row(f"post-{mib}mib", f"a valid {mib} MiB post", counted_mib=float(mib))
        body = frames_body("big", mib * MIB)
        with Worker() as worker:
            answers: list[Answer | str] = []

            async def attack() -> None:
                answers.extend(await _bodies_at_once(worker, [body]))

            robot_row(row, await alongside(worker, attack()))
            return finish(row, worker, answers)

    return run(go())


def attack_frames_during_parse(wait_s: float = 2.5, posted_at_s: float = 2.0) -> Row:
    """A robot's act waits for a missing frame; 0.8 s before the robot posts it (2 s into the wait) another client
    posts a 4 MiB body of empty arrays, which parses for seconds on a single-threaded worker. The act must be
    answered 200 with the frame, not 409 frames_missing."""

    async def go() -> Row:
        row = Row(
            "frames-during-parse", f"missing frame posted {posted_at_s:g} s into a {wait_s:g} s wait, 4 MiB parsing"
        )
        with Worker(["--wait-s", str(wait_s)]) as worker:
            h, p = worker.host, worker.port
            first = await post(h, p, "/observe", observe_body("r", [0]))
            act = asyncio.create_task(post(h, p, "/act", act_body("r", 2), timeout=wait_s + 30))
            await asyncio.sleep(posted_at_s - 0.8)
            heavy = asyncio.create_task(post(h, p, "/observe", empty_arrays_body("other", 0, 4 * MIB), 120.0))
            await asyncio.sleep(0.8)
            missing = await post(h, p, "/observe", observe_body("r", [1]), timeout=wait_s + 30)
            answers = [first, missing, await act, await heavy]
            acted = answers[2]
            row.served = isinstance(acted, Answer) and acted.status == 200
            row.notes.append(
                f"the act: {reason(acted) if not (isinstance(acted, Answer) and acted.status == 200) else '200'}"
            )
            if not row.served:
                row.failures.append("the waiting act was not answered with its frames")
            return finish(row, worker, answers, exit_budget_s=wait_s)

    return run(go())


async def _ended(reader: asyncio.StreamReader) -> bool:
    """Whether the worker ended this connection (closed or reset it, or answered it) within 0.2 s."""
    try:
        await asyncio.wait_for(reader.read(1), 0.2)
    except TimeoutError:
        return False
    except OSError:
        return True
    return True


async def _hold(worker: Worker, count: int, seconds: float, drip: bool) -> tuple[int, int]:
    """`count` connections that send nothing (or one byte of a request head per second) for `seconds`: how many
    could be opened, and how many the worker closed meanwhile."""
    writers: list[asyncio.StreamWriter] = []
    readers: list[asyncio.StreamReader] = []
    for _ in range(count):
        try:
            reader, writer = await asyncio.wait_for(asyncio.open_connection(worker.host, worker.port), 5.0)
        except (OSError, TimeoutError):
            break
        readers.append(reader)
        writers.append(writer)
    text = b"POST /observe HTTP/1.1\r\nHost: bench\r\n" + b"X-Slow: " + b"a" * 100
    try:
        for tick in range(int(seconds)):
            if drip:
                for writer in writers:
                    if not writer.is_closing():
                        with contextlib.suppress(OSError):
                            writer.write(text[tick % len(text) : tick % len(text) + 1])
            await asyncio.sleep(1.0)
        closed = sum(await asyncio.gather(*(_ended(reader) for reader in readers)))
    finally:
        for writer in writers:
            writer.close()
    return len(writers), closed


def _holding(row: Row, worker: Worker, count: int, seconds: float, drip: bool) -> Row:
    """The row of `count` connections held for `seconds` (dripping a byte a second when `drip`) beside the robot."""

    async def go() -> Row:
        held: list[tuple[int, int]] = []

        async def attack() -> None:
            held.append(await _hold(worker, count, seconds, drip))

        robot_row(row, await alongside(worker, attack()))
        if held:
            row.notes.append(f"{held[0][0]:,} opened, {held[0][1]:,} closed by the worker")
        return finish(row, worker)

    return run(go())


def attack_connections(count: int, drip: bool, seconds: float = 6.0) -> Row:
    """`count` silent (or one-byte-per-second) connections held for `seconds` while the robot works."""
    kind = "one-byte-per-second" if drip else "silent"
    with Worker() as worker:
        return _holding(
            Row(f"{kind}-{count}", f"{count:,} {kind} connections, {seconds:g} s"), worker, count, seconds, drip
        )


def attack_many_acts(count: int = 3000, wait_s: float = 1.0) -> Row:
    """`count` acts at once, each on its own connection and episode, each waiting for a missing frame."""

    async def go() -> Row:
        row = Row(f"acts-{count}", f"{count:,} simultaneous waiting acts (wait {wait_s:g} s)")
        with Worker(["--wait-s", str(wait_s)]) as worker:
            answers: list[Answer | str] = []

            async def attack() -> None:
                answers.extend(
                    await asyncio.gather(
                        *(post(worker.host, worker.port, "/act", act_body(f"a{n}", 1), 60.0) for n in range(count))
                    )
                )

            robot_row(row, await alongside(worker, attack()))
            return finish(row, worker, answers, exit_budget_s=wait_s)

    return run(go())


def attack_idle_under_ulimit(count: int = 1100, files: int = 1024, seconds: float = 2.0) -> Row:
    """`count` idle connections to a worker whose open files are limited to `files` (`ulimit -n`)."""
    row = Row(f"idle-{count}-ulimit-{files}", f"{count:,} idle connections under ulimit -n {files}")
    with Worker(files=files) as worker:
        return _holding(row, worker, count, seconds, False)


def attack_empty_arrays(total_mib: int = 64, each_mib: int = 4) -> Row:
    """Posts of frames whose inputs are empty arrays, until the keeper counts `total_mib` MiB."""

    async def go() -> Row:
        row = Row(
            f"empty-arrays-{total_mib}mib", f"frames of empty arrays, {total_mib} MiB counted ({each_mib} MiB posts)"
        )
        with Worker() as worker:
            answers: list[Answer | str] = []
            counted = 0

            async def attack() -> None:
                nonlocal counted
                for n in range(total_mib // each_mib):
                    body = empty_arrays_body("arrays", n, each_mib * MIB)
                    answer = await post(worker.host, worker.port, "/observe", body, 120.0)
                    answers.append(answer)
                    if isinstance(answer, Answer) and answer.status == 200:
                        counted += len(body)

            robot_row(row, await alongside(worker, attack(), max_s=400.0))
            row.counted_mib = counted / MIB
            return finish(row, worker, answers)

    return run(go())


def attack_long_ids(count: int = 20, mib: int = 20) -> Row:
    """`count` acts at once whose episode id is `mib` MiB long, without a `seq`."""

    async def go() -> Row:
        row = Row(
            f"long-ids-{count}x{mib}mib",
            f"{count} acts with {mib} MiB episode ids, no seq",
            counted_mib=float(count * mib),
        )
        body = b'{"episode_id": "' + b"e" * (mib * MIB) + b'", "inputs": {}}'
        with Worker() as worker:
            answers: list[Answer | str] = []

            async def attack() -> None:
                answers.extend(await _bodies_at_once(worker, [body] * count, "/act"))

            robot_row(row, await alongside(worker, attack()))
            row.notes.append("counted: the bodies in flight (each act is invalid: nothing of it should be kept)")
            return finish(row, worker, answers)

    return run(go())


def attack_waiting_inputs(count: int = 40, mib: int = 10, wait_s: float = 3.0) -> Row:
    """`count` acts at once, each waiting for a missing frame, each with `mib` MiB of inputs."""

    async def go() -> Row:
        row = Row(
            f"waiting-{count}x{mib}mib",
            f"{count} waiting acts with {mib} MiB inputs each",
            counted_mib=float(count * mib),
        )
        bodies = [act_body(f"w{n}", 1, {"cam": "x" * (mib * MIB)}) for n in range(count)]
        with Worker(["--wait-s", str(wait_s)]) as worker:
            answers: list[Answer | str] = []

            async def attack() -> None:
                answers.extend(await _bodies_at_once(worker, bodies, "/act"))

            robot_row(row, await alongside(worker, attack()))
            return finish(row, worker, answers, exit_budget_s=wait_s)

    return run(go())


def attack_sigterm(arriving: int = 20, burst: int = 200, wait_s: float = 2.0) -> Row:
    """SIGTERM while `arriving` bodies are still arriving and an act waits (`--wait-s`), with a burst of `burst` new
    requests around the signal: exit time (a worker still running 2 s past its budget is killed), and every answer
    503 shutting_down shaped (or a refused connection)."""

    async def go() -> Row:
        row = Row("sigterm-arriving", f"SIGTERM, {arriving} bodies arriving, a waiting act, {burst} new requests")
        budget = SIGTERM_GRACE_S + wait_s
        worker = Worker(["--wait-s", str(wait_s)])
        try:
            h, p = worker.host, worker.port
            body = frames_body("slow", 256 * 1024)
            connections: list[tuple[asyncio.StreamReader, asyncio.StreamWriter]] = []
            for _ in range(arriving):
                reader, writer = await asyncio.open_connection(h, p)
                writer.write(head_of("POST", "/observe", len(body)) + body[: len(body) // 2])
                connections.append((reader, writer))
            act = asyncio.create_task(post(h, p, "/act", act_body("s", 5), timeout=60.0))
            await asyncio.sleep(0.3)
            early = [
                asyncio.create_task(post(h, p, "/observe", observe_body(f"b{n}", [0]), 30.0)) for n in range(burst // 2)
            ]
            begun = time.monotonic()
            os.kill(worker.process.pid, signal.SIGTERM)
            late = [
                asyncio.create_task(post(h, p, "/observe", observe_body(f"c{n}", [0]), 30.0)) for n in range(burst // 2)
            ]

            async def reap() -> float:
                while worker.process.poll() is None and time.monotonic() - begun < budget + 2.0:
                    await asyncio.sleep(0.01)
                return time.monotonic() - begun if worker.process.poll() is not None else float("inf")

            exit_s = await reap()
            worker.kill()  # still running past its budget: its answers are what it sent until now

            async def answer_of(reader: asyncio.StreamReader) -> Answer | str:
                try:
                    return await asyncio.wait_for(_read_answer(reader), 2.0)
                except (TimeoutError, OSError, asyncio.IncompleteReadError, ValueError, IndexError):
                    return "connection closed without an answer"

            arrived: list[Answer | str] = list(await asyncio.gather(*(answer_of(r) for r, _ in connections)))
            for _, writer in connections:
                writer.close()
            answers = [await act, *arrived, *[await t for t in early + late]]
            row.exit_s, row.exit_budget_s = exit_s, budget
            row.unshaped = sum(1 for a in answers if isinstance(a, Answer) and not shaped(a))
            not_503 = [reason(a) for a in [answers[0], *arrived] if reason(a) != "503 shutting_down"]
            if not_503:
                row.failures.append(f"{len(not_503)} in-flight request(s) not answered 503 shutting_down: {not_503[0]}")
            row.notes.append(f"act: {reason(answers[0])}; bodies arriving: {reason(arrived[0]) if arrived else '-'}")
            row.tracebacks = worker.tracebacks()
            return row.judge()
        finally:
            worker.close()

    return run(go())


class MisbehavingServer:
    """A server on loopback, in a thread, that answers every request with `respond(writer)`."""

    def __init__(self, respond: Callable[[asyncio.StreamWriter], Awaitable[None]]) -> None:
        self.respond = respond
        self.loop = asyncio.new_event_loop()
        self.ready = threading.Event()
        self.port = 0
        self.thread = threading.Thread(target=self._run, daemon=True)

    def _run(self) -> None:
        asyncio.set_event_loop(self.loop)

        async def handle(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
            with contextlib.suppress(Exception, asyncio.CancelledError):  # cancelled: the server is stopping
                await reader.readuntil(b"\r\n\r\n")
                await self.respond(writer)
            writer.close()

        server = self.loop.run_until_complete(asyncio.start_server(handle, "127.0.0.1", 0))
        self.port = server.sockets[0].getsockname()[1]
        self.ready.set()
        self.loop.run_forever()
        server.close()
        pending = asyncio.all_tasks(self.loop)
        for task in pending:
            task.cancel()
        self.loop.run_until_complete(asyncio.gather(*pending, return_exceptions=True))
        self.loop.close()

    def __enter__(self) -> MisbehavingServer:
        self.thread.start()
        self.ready.wait(10)
        return self

    def __exit__(self, *_: object) -> None:
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(10)


async def _drip(writer: asyncio.StreamWriter) -> None:
    text = b'HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"testing": false}'
    for byte in range(min(len(text), 40)):
        writer.write(text[byte : byte + 1])
        await writer.drain()
        await asyncio.sleep(3.0)


async def _endless(writer: asyncio.StreamWriter) -> None:
    writer.write(b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n")
    chunk = b'{"formats": ["' + b"x" * (64 * 1024) + b'"], '
    piece = f"{len(chunk):x}\r\n".encode() + chunk + b"\r\n"
    for _ in range(16 * 1024):  # at most 1 GiB, ended by the probe hanging up
        writer.write(piece)
        await writer.drain()


def probe_against(
    respond: Callable[[asyncio.StreamWriter], Awaitable[None]], timeout_s: float, budget_s: float
) -> tuple[float, float, int]:
    """`iospec probe --worker URL --timeout T` against a misbehaving server: its run time, its peak RSS (MiB) and
    its exit code (-9: killed 1 s past its budget)."""
    with MisbehavingServer(respond) as server:
        process = subprocess.Popen(
            [str(BIN / "iospec"), "probe", "--worker", f"http://127.0.0.1:{server.port}", "--timeout", str(timeout_s)],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,
        )
        begun = time.monotonic()
        peak = 0.0  # VmHWM sampled every 50 ms: wait4's ru_maxrss would carry this process's RSS at the fork
        try:
            while True:
                with contextlib.suppress(OSError, ValueError):
                    for line in Path(f"/proc/{process.pid}/status").read_text().splitlines():
                        if line.startswith("VmHWM:"):
                            peak = max(peak, int(line.split()[1]) / 1024)
                if process.poll() is not None:
                    return time.monotonic() - begun, peak, process.returncode
                if time.monotonic() - begun > budget_s + 1.0:
                    os.killpg(process.pid, signal.SIGKILL)
                    process.wait(10)
                    return time.monotonic() - begun, peak, -9
                time.sleep(0.05)
        finally:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(process.pid, signal.SIGKILL)


PROBE_TIMEOUT_S = 5.0
PROBE_BUDGET_S = PROBE_TIMEOUT_S + 7.0
"""The probe's budget against a server that never answers its /stream/info whole: its `--timeout` (the default, 5 s)
plus 7 s to start Python and give up in words. A probe still running 1 s past its budget is killed."""
PROBE_CAP_MIB = 8.0


def attack_probe(kind: str) -> Row:
    """`iospec probe` against a server that drips its /stream/info (1 byte every 3 s) or sends one without end."""
    respond = _drip if kind == "drip" else _endless
    what = "drips /stream/info 1 byte / 3 s" if kind == "drip" else "sends an endless /stream/info body"
    row = Row(f"probe-{kind}", f"iospec probe vs a server that {what}")
    took, rss, code = probe_against(respond, PROBE_TIMEOUT_S, PROBE_BUDGET_S)
    row.probe_s, row.probe_budget_s = took, PROBE_BUDGET_S
    row.peak_rss_mib, row.counted_mib = rss, PROBE_CAP_MIB
    row.notes.append(f"probe exit code {code}, its answer cap {PROBE_CAP_MIB:g} MiB")
    return row.judge()


MALFORMED: list[tuple[str, bytes]] = [
    ("garbage request line", b"HELLO THERE\r\n\r\n"),
    ("no HTTP version", b"POST /observe\r\n\r\n"),
    ("HTTP/9.9", b"POST /observe HTTP/9.9\r\nHost: b\r\n\r\n"),
    ("header without a colon", b"POST /observe HTTP/1.1\r\nHost b\r\n\r\n"),
    ("negative Content-Length", b"POST /observe HTTP/1.1\r\nHost: b\r\nContent-Length: -5\r\n\r\n"),
    ("two Content-Lengths", b"POST /observe HTTP/1.1\r\nHost: b\r\nContent-Length: 2\r\nContent-Length: 3\r\n\r\n{}"),
    (
        "Content-Length and chunked",
        b"POST /observe HTTP/1.1\r\nHost: b\r\nContent-Type: application/json\r\nContent-Length: 2\r\n"
        b"Transfer-Encoding: chunked\r\n\r\n{}",
    ),
    (
        "bad chunk size",
        b"POST /observe HTTP/1.1\r\nHost: b\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n"
        b"zz\r\n{}\r\n0\r\n\r\n",
    ),
    ("NUL in a header", b"POST /observe HTTP/1.1\r\nHost: b\r\nX-A: a\x00b\r\n\r\n"),
    ("100 KiB header line", b"POST /observe HTTP/1.1\r\nHost: b\r\nX-A: " + b"a" * 100_000 + b"\r\n\r\n"),
    ("method P@ST", b"P@ST /observe HTTP/1.1\r\nHost: b\r\n\r\n"),
]


def attack_malformed_http() -> Row:
    """The 11 malformed requests of MALFORMED, each on its own connection, and `POST /observe/`: every answer must
    be shaped (a closed connection is no answer and counts as none)."""

    async def go() -> Row:
        row = Row("malformed-http", f"{len(MALFORMED)} kinds of malformed HTTP, and POST /observe/")
        with Worker() as worker:
            answers: list[Answer | str] = []

            async def attack() -> None:
                for label, raw in MALFORMED:
                    answer = await send(worker.host, worker.port, raw, 3.0)
                    answers.append(answer)
                    if isinstance(answer, Answer) and not shaped(answer):
                        row.notes.append(f"{label}: {answer.status} {answer.body[:40]!r}")
                slash = await post(worker.host, worker.port, "/observe/", observe_body("slash", [0]), 3.0)
                answers.append(slash)
                if isinstance(slash, Answer) and not shaped(slash):
                    row.notes.append(f"/observe/: {slash.status} {slash.headers.get('location', '')}")

            robot_row(row, await alongside(worker, attack()))
            return finish(row, worker, answers)

    return run(go())


def attack_log_lines() -> Row:
    """Log lines: an episode id with U+2028 must not split a JSON log line; a client that hangs up before its
    answer must not be logged with status 0; `--quiet` must leave stderr free of log lines (plain or JSON)."""

    async def go() -> Row:
        row = Row("log-lines", "U+2028 in an episode id, a hang-up, --quiet")
        problems: list[str] = []
        with Worker(quiet=False) as worker:
            h, p = worker.host, worker.port
            answers: list[Answer | str] = [
                await post(
                    h, p, "/observe", json.dumps({"episode_id": "a\u2028b", "frames": []}, ensure_ascii=False).encode()
                )
            ]
            _, writer = await asyncio.open_connection(h, p)
            writer.write(head_of("POST", "/act", len(act_body("hang", 3))) + act_body("hang", 3))
            await writer.drain()
            await asyncio.sleep(0.1)
            writer.close()
            await asyncio.sleep(0.3)
            text = worker.stderr_text()
            for line in text.split("\n"):
                if not line.strip():
                    continue
                if len(line.splitlines()) != 1:
                    problems.append("a log line that str.splitlines splits (U+2028 written raw)")
                try:
                    entry = json.loads(line)
                except ValueError:
                    problems.append(f"a log line that is not JSON: {line[:60]!r}")
                    continue
                if isinstance(entry, dict) and entry.get("status") == 0:
                    problems.append("a log line with status 0")
            row.unshaped = sum(1 for a in answers if isinstance(a, Answer) and not shaped(a))
            row.tracebacks = worker.tracebacks()
            row.exit_budget_s = SIGTERM_GRACE_S + 10.0
            row.exit_s = worker.terminate(30.0)
        with Worker(quiet=True) as quiet:
            await post(quiet.host, quiet.port, "/observe", observe_body("q", [0]))
            quiet.terminate(30.0)
            lines = [line for line in quiet.stderr_text().splitlines() if line.strip()]
            if lines:
                problems.append(f"--quiet still writes {len(lines)} line(s) on stderr: {lines[0][:60]!r}")
        row.failures.extend(sorted(set(problems)))
        return row.judge()

    return run(go())


def attack_bad_port() -> Row:
    """`iospec worker --port 99999`: a sentence and exit 2, not a traceback."""
    row = Row("port-99999", "iospec worker --port 99999")
    done = subprocess.run(
        [str(BIN / "iospec"), "worker", "--policy", str(POLICY), "--port", "99999"],
        capture_output=True,
        text=True,
        timeout=30,
        check=False,
        cwd=REPO,
    )
    row.tracebacks = done.stderr.count(TRACEBACK)
    row.notes.append(f"exit {done.returncode}: {(done.stderr.strip().splitlines() or [''])[-1][:80]}")
    if done.returncode != 2:
        row.failures.append(f"exit code {done.returncode}, not 2")
    return row.judge()


def attack_idle_lockout(episodes: int = 1024, wait_s: float = 0.005, patience_s: float = 6.0) -> Row:
    """Without --episode-idle: `episodes` empty posts under new ids fill the episode table; a new episode must be
    accepted once the default idle timeout has passed (on a clock `10 / wait_s` times faster), not locked out."""

    async def go() -> Row:
        row = Row("idle-lockout", f"{episodes:,} empty posts under new ids, then a new episode (--wait-s {wait_s:g})")
        with Worker(["--wait-s", str(wait_s)]) as worker:
            answers: list[Answer | str] = []
            for start in range(0, episodes, 64):
                batch = range(start, min(episodes, start + 64))
                answers += await asyncio.gather(
                    *(post(worker.host, worker.port, "/observe", observe_body(f"fill{n}", []), 30.0) for n in batch)
                )
            begun = time.monotonic()
            late: Answer | str = "not tried"
            while time.monotonic() - begun < patience_s:
                late = await post(worker.host, worker.port, "/observe", observe_body("newcomer", [0]), 10.0)
                answers.append(late)
                if isinstance(late, Answer) and late.status == 200:
                    break
                await asyncio.sleep(0.5)
            row.served = isinstance(late, Answer) and late.status == 200
            row.notes.append(f"the new episode: {reason(late)} after {time.monotonic() - begun:.1f} s (locked out?)")
            return finish(row, worker, answers, exit_budget_s=wait_s)

    return run(go())


# -------------------------------------------------------------------------------------------------------------- table


@dataclass(frozen=True)
class Attack:
    name: str
    quick: bool
    run: Callable[[], Row]


ATTACKS: list[Attack] = [
    Attack("syntax-4mib-x1", True, lambda: attack_syntax_4mib(1)),
    Attack("syntax-4mib-x4", True, lambda: attack_syntax_4mib(4)),
    Attack("post-16mib", True, lambda: attack_large_post(16)),
    Attack("post-64mib", False, lambda: attack_large_post(64)),
    Attack("frames-during-parse", True, attack_frames_during_parse),
    Attack("silent-2100", False, lambda: attack_connections(2100, drip=False)),
    Attack("one-byte-per-second-2100", False, lambda: attack_connections(2100, drip=True)),
    Attack("acts-3000", False, attack_many_acts),
    Attack("idle-1100-ulimit-1024", True, attack_idle_under_ulimit),
    Attack("empty-arrays-64mib", False, attack_empty_arrays),
    Attack("long-ids-20x20mib", False, attack_long_ids),
    Attack("waiting-40x10mib", False, attack_waiting_inputs),
    Attack("sigterm-arriving", True, attack_sigterm),
    Attack("probe-drip", True, lambda: attack_probe("drip")),
    Attack("probe-endless", True, lambda: attack_probe("endless")),
    Attack("malformed-http", True, attack_malformed_http),
    Attack("log-lines", True, attack_log_lines),
    Attack("port-99999", True, attack_bad_port),
    Attack("idle-lockout", True, attack_idle_lockout),
]


NONE = "\N{EN DASH}"
"""What a cell shows where its measure does not apply to the attack."""


def _cell(value: float | None, digits: int = 0) -> str:
    if value is None:
        return NONE
    if value == float("inf"):
        return "∞"
    return f"{value:,.{digits}f}"


HEADER = [
    "attack",
    "others served",
    "peak RSS / counted MiB",
    "parse MiB",
    "stall ms",
    "unshaped",
    "tracebacks",
    "exit on SIGTERM s",
    "verdict",
]


def cells(row: Row) -> list[str]:
    rss = NONE if row.peak_rss_mib is None else f"{_cell(row.peak_rss_mib)} / {_cell(row.counted_mib)}"
    exit_s = NONE if row.exit_s is None else f"{_cell(row.exit_s, 1)} (≤ {_cell(row.exit_budget_s, 0)})"
    if row.probe_s is not None:
        exit_s = f"probe {_cell(row.probe_s, 1)} (≤ {_cell(row.probe_budget_s, 0)})"
    served = NONE if row.served is None else ("yes" if row.served else "no")
    verdict = "PASS" if row.passed else "FAIL: " + "; ".join(row.failures)
    return [
        f"{row.name}: {row.what}",
        served,
        rss,
        _cell(row.parse_mib),
        _cell(row.stall_ms),
        _cell(row.unshaped),
        _cell(row.tracebacks),
        exit_s,
        verdict,
    ]


def guarded(attack: Attack) -> Row:
    """Run one attack; a crash of the bench itself is reported as that row's failure, not the end of the run."""
    try:
        row = attack.run()
        row.name = attack.name  # the name `--only` takes, whatever the attack's parameters made of it
        return row
    except Exception as error:  # one attack's crash must not lose the others' rows
        return Row(attack.name, "the attack itself failed", failures=[f"{type(error).__name__}: {error}"[:200]])


def as_json(row: Row) -> dict[str, Any]:
    """The row as strict JSON: a time never reached (a process killed past its budget, inf) is null; its failure
    says so in words."""
    data = asdict(row) | {"passed": row.passed}
    return {k: None if isinstance(v, float) and not math.isfinite(v) else v for k, v in data.items()}


def _exit_on_sigterm(signum: int, _frame: object) -> None:
    raise SystemExit(128 + signum)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    parser.add_argument("--only", action="append", metavar="NAME", help="run only this attack (repeatable)")
    parser.add_argument("--quick", action="store_true", help="only the fast subset")
    parser.add_argument("--json", action="store_true", help="print the rows as JSON instead of a table")
    parser.add_argument("--label", default="", help="a label for the run in --write-docs (e.g. 'before')")
    parser.add_argument("--list", action="store_true", help="list the attacks and exit")
    perf_doc.add_option(parser)
    args = parser.parse_args(argv)
    if args.list:
        for attack in ATTACKS:
            print(f"{attack.name}{' (quick)' if attack.quick else ''}")
        return 0
    names = {a.name for a in ATTACKS}
    unknown = sorted(set(args.only or []) - names)
    if unknown:
        print(f"unknown attack(s) {', '.join(unknown)}; known: {', '.join(sorted(names))}", file=sys.stderr)
        return 2
    doc_run = perf_doc.begin("bench_hostile_worker", argv, args.write_docs)
    raise_own_file_limit()
    chosen = [a for a in ATTACKS if (not args.only or a.name in args.only) and (a.quick or not args.quick)]
    rows: list[Row] = []
    for attack in chosen:
        begun = time.monotonic()
        row = guarded(attack)
        rows.append(row)
        if not args.json:
            print(
                f"{attack.name}: {'PASS' if row.passed else 'FAIL'} in {time.monotonic() - begun:.1f} s; "
                + "; ".join(row.failures + row.notes),
                flush=True,
            )
    if args.json:
        print(json.dumps([as_json(row) for row in rows], indent=1))
    else:
        print("| " + " | ".join(HEADER) + " |")
        print("|" + "---|" * len(HEADER))
        for row in rows:
            print("| " + " | ".join(cells(row)) + " |")
    passed = sum(row.passed for row in rows)
    summary = f"{passed} of {len(rows)} attacks within their targets"
    print(summary)
    label = f" ({args.label})" if args.label else ""
    table = perf_doc.Table(
        f"`iospec worker --policy examples/policy.json` and `iospec probe` against hostile clients{label}: "
        f"targets: the robot alongside served and stalled ≤ {STALL_MS:g} ms; "
        f"peak RSS < 2 \N{MULTIPLICATION SIGN} counted + "
        f"{RSS_CONSTANT_MIB:g} MiB; the parse processes < {PARSE_LIMIT_MIB:g} MiB; no traceback; every answer "
        f"shaped; exit on SIGTERM ≤ {SIGTERM_GRACE_S:g} s + the act wait; the probe within its budget.",
        HEADER,
        [cells(row) for row in rows],
    )
    notes = [f"{summary}{label}."] + [f"- {row.name}: " + "; ".join(row.notes) for row in rows if row.notes]
    doc_run.write([table], ["\n".join(notes)])
    return 0 if passed == len(rows) else 1


if __name__ == "__main__":
    signal.signal(signal.SIGTERM, _exit_on_sigterm)  # so that `finally` kills the worker being attacked
    sys.exit(main())
