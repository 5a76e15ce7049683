"""Load and fault benchmark of `iospec worker` (`make bench-worker`): N concurrent episodes (1, 16, 256), each posting
frames in batches and acting after each batch over loopback for a bounded time → frames/s, p50/p99 latency of
/observe and /act, the worker's peak RSS, and the throughput as a ratio to the same server (the worker's own
HTTP server, its body reading and parse) answering a no-op handler, measured in the same run → then every episode's
answers (each `through`, each act's envelope) checked against the reference keeper's replay of the same traffic:
nothing lost, nothing doubled.

`--faults` adds, beside the regular episodes, clients that disconnect in the middle of a post, resend a post after
giving up on its answer, and post past the limits (MAX_STREAM_FRAMES, the body size); the regular episodes must
still check out, and the faulty ones too.

WHY a script and not a test: speed on a shared 2-core machine is noise; only ratios within one run mean something,
and the checks of correctness under load are the part that must never fail (exit 1 when one does). With
`--write-docs`, the table and the count of checked answers also go, as Markdown with the date and the load average,
into section `bench_worker` of docs/performance.md (seq_io_maint/perf_doc.py); a run whose answers do not check out
is not written, since its figures measure a broken worker.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import socket
import statistics
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from seq_io_maint import perf_doc

REPO = Path(__file__).resolve().parents[1]
BIN = Path(sys.executable).parent
DECLARATION = {"every": 1}
BATCH = 16
MAX_BODY = 8 * 1024 * 1024
JSON = {"content-type": "application/json"}


@dataclass
class Episode:
    """One client's traffic: what it sent and what the worker answered, in order (a post whose answer was lost is
    not listed: its identical resend follows)."""

    name: str
    traffic: list[tuple[str, Any, int, Any]] = field(default_factory=list)


@dataclass
class Totals:
    frames: int = 0
    requests: int = 0
    observe_ms: list[float] = field(default_factory=list)
    act_ms: list[float] = field(default_factory=list)


class Connection:
    """One keep-alive HTTP/1.1 connection, written by hand: the load generator must cost far less than the server
    it measures (a general client such as httpx costs about as much per request as the worker itself, and both share
    the machine's two cores). A request that times out closes the connection: the next one opens a new one."""

    def __init__(self, url: str) -> None:
        host, port = url.removeprefix("http://").split(":")
        self.host, self.port = host, int(port)
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None

    async def post(self, path: str, body: bytes, timeout: float = 30.0) -> tuple[int, Any]:
        try:
            return await asyncio.wait_for(self._post(path, body), timeout)
        except TimeoutError:
            self.close()
            raise

    async def _post(self, path: str, body: bytes) -> tuple[int, Any]:
        if self.writer is None:
            self.reader, self.writer = await asyncio.open_connection(self.host, self.port)
        assert self.reader is not None
        self.writer.write(
            b"POST " + path.encode() + b" HTTP/1.1\r\nHost: bench\r\nContent-Type: application/json\r\n"
            b"Content-Length: " + str(len(body)).encode() + b"\r\n\r\n" + body
        )
        head = await self.reader.readuntil(b"\r\n\r\n")
        lines = head.decode("latin-1").split("\r\n")
        status = int(lines[0].split()[1])
        length = next(int(line.split(":", 1)[1]) for line in lines if line.lower().startswith("content-length:"))
        payload = await self.reader.readexactly(length)
        if any(line.lower() == "connection: close" for line in lines):
            self.close()
        try:
            return status, json.loads(payload)
        except ValueError:
            raise AssertionError(f"not JSON: {head!r} {payload[:200]!r}") from None

    def close(self) -> None:
        if self.writer is not None:
            self.writer.close()
        self.reader = self.writer = None


def frame(episode: str, number: int) -> dict[str, Any]:
    return {"seq": number, "inputs": {"episode": episode, "n": number, "pad": "x" * 48}}


async def _timed(connection: Connection, path: str, body: Any, sink: list[float]) -> tuple[int, Any]:
    begun = time.perf_counter()
    answer = await connection.post(path, json.dumps(body).encode())
    sink.append((time.perf_counter() - begun) * 1000)
    return answer


def _batch(episode: Episode, number: int) -> dict[str, Any]:
    """The post of frames number .. number + BATCH - 1."""
    return {"episode_id": episode.name, "frames": [frame(episode.name, n) for n in range(number, number + BATCH)]}


async def _act_after_batch(connection: Connection, episode: Episode, number: int, totals: Totals) -> int:
    """The act at the number after the batch that started at `number`, recorded and counted; the next batch's
    first number."""
    number += BATCH
    act = {"episode_id": episode.name, "seq": number, "inputs": {"own": number}}
    status, answer = await _timed(connection, "/act", act, totals.act_ms)
    episode.traffic.append(("act", act, status, answer))
    totals.frames += BATCH + 1
    totals.requests += 2
    return number + 1


async def regular(url: str, episode: Episode, stop_at: float, totals: Totals) -> None:
    """Batches of frames, each followed by an act at the next number, until the time is up."""
    connection = Connection(url)
    number = 0
    while time.monotonic() < stop_at:
        body = _batch(episode, number)
        status, answer = await _timed(connection, "/observe", body, totals.observe_ms)
        episode.traffic.append(("observe", body, status, answer))
        number = await _act_after_batch(connection, episode, number, totals)
    connection.close()


async def _half_post(url: str, body: bytes) -> None:
    """Send the headers and half of a post's body, then hang up."""
    host, port = url.removeprefix("http://").split(":")
    _, writer = await asyncio.open_connection(host, int(port))
    writer.write(
        b"POST /observe HTTP/1.1\r\nHost: bench\r\nContent-Type: application/json\r\nContent-Length: "
        + str(len(body)).encode()
        + b"\r\n\r\n"
        + body[: len(body) // 2]
    )
    await writer.drain()
    writer.close()
    await writer.wait_closed()


async def faulty(url: str, episode: Episode, stop_at: float, totals: Totals, limit_frames: int) -> None:
    """Regular batches, but every post is first cut off half-way, then sent with a timeout too short to wait for
    its answer, then resent until answered; and every fourth round posts past MAX_STREAM_FRAMES and past the body
    size limit (both refused, changing nothing)."""
    connection = Connection(url)
    number, rounds = 0, 0
    while time.monotonic() < stop_at:
        rounds += 1
        body = _batch(episode, number)
        text = json.dumps(body).encode()
        await _half_post(url, text)
        with contextlib.suppress(TimeoutError):  # given up on: it may or may not have been applied,
            await connection.post("/observe", text, timeout=0.0005)  # and the resend below is idempotent
        status, answer = await _timed(connection, "/observe", body, totals.observe_ms)
        episode.traffic.append(("observe", body, status, answer))
        if rounds % 4 == 0:
            far = {
                "episode_id": episode.name,
                "frames": [frame(episode.name, number + 10_000 + n) for n in range(limit_frames + 1)],
            }
            status, answer = await connection.post("/observe", json.dumps(far).encode())
            episode.traffic.append(("observe", far, status, answer))
            huge = b'{"episode_id": "' + episode.name.encode() + b'", "frames": [' + b" " * (9 * 1024 * 1024) + b"]}"
            status, answer = await connection.post("/observe", huge)
            assert status == 400 and answer["error"]["details"]["issues"][0]["rule"] == "http.body-too-large", answer
        number = await _act_after_batch(connection, episode, number, totals)
    connection.close()


def replay_mismatches(episodes: list[Episode], limit_frames: int) -> list[str]:
    """Each episode's traffic through a fresh reference keeper: every answer must be the keeper's."""
    from seq_io.reference.keeper import Keeper, Limits, StreamError

    contract = Limits.of_contract()
    keeper = Keeper.of(DECLARATION, limits=Limits(limit_frames, contract.bytes, contract.worker_bytes))
    found: list[str] = []
    for episode in episodes:
        for index, (kind, body, status, answer) in enumerate(episode.traffic):
            try:
                if kind == "observe":
                    expected: tuple[int, Any] = (200, {"through": keeper.post(body, 0.0)})
                else:
                    acted = keeper.act(body, 0.0)
                    expected = (200, {"outputs": acted.handed}) if not acted.waiting else (0, "waiting")
            except StreamError as error:
                expected = (error.status, error.body()["error"]["details"])
                answer = answer.get("error", {}).get("details")
            if (status, answer) != expected:
                found.append(
                    f"{episode.name} request {index} ({kind}): the worker answered {status} "
                    f"{json.dumps(answer)[:200]}, the keeper's replay {expected[0]} "
                    f"{json.dumps(expected[1])[:200]}"
                )
                break
    return found


def start(argv: list[str]) -> tuple[subprocess.Popen[str], str]:
    process = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, cwd=REPO)
    assert process.stdout is not None
    for _ in range(2):
        line = process.stdout.readline()
        if line.startswith("{"):
            return process, json.loads(line)["listening"]
    process.kill()
    raise SystemExit(f"the server did not start: {line!r}")


def stop(process: subprocess.Popen[str]) -> None:
    process.terminate()
    try:
        process.wait(30)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait(5)


def peak_rss_mib(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
    return float("nan")


async def load(
    url: str, count: int, seconds: float, *, faults: int = 0, limit_frames: int = 1024, tag: str = ""
) -> tuple[Totals, list[Episode], float]:
    totals = Totals()
    episodes = [Episode(f"{tag}e{n}") for n in range(count)]
    bad = [Episode(f"{tag}fault{n}") for n in range(faults)]
    begun = time.monotonic()
    stop_at = begun + seconds
    await asyncio.gather(
        *(regular(url, e, stop_at, totals) for e in episodes),
        *(faulty(url, e, stop_at, totals, limit_frames) for e in bad),
    )
    return totals, [*episodes, *bad], time.monotonic() - begun


def percentile(values: list[float], share: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def serve_noop() -> None:
    """The baseline server: the worker's stack (its HTTP server, body reading and parse) with a route that answers
    a constant instead of calling the keeper."""
    from collections.abc import Mapping

    from seq_io.reference.keeper import Limits
    from seq_io.worker.app import Route, Worker, WorkerSettings
    from seq_io.worker.host import Reply, StreamConfig
    from seq_io.worker.server import ServerSettings, serve

    async def constant(value: Any) -> Reply:
        return Reply(200, {"through": -1})

    class Noop(Worker):
        def route(self, method: str, path: str, headers: Mapping[str, str]) -> Route:
            if method == "POST" and path in ("/observe", "/act"):
                return Route(None, work=constant)
            return super().route(method, path, headers)

    worker = Noop(StreamConfig(None, None, None, Limits.of_contract(), 10.0), WorkerSettings(max_body_bytes=MAX_BODY))
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    sock.bind(("127.0.0.1", 0))
    url = f"http://127.0.0.1:{sock.getsockname()[1]}"

    def started() -> None:
        print(f"listening on {url}", flush=True)
        print(json.dumps({"listening": url}), flush=True)

    serve(worker, sock, started, ServerSettings(shutdown_timeout_s=5), None)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    parser.add_argument("--episodes", default="1,16,256", help="concurrent episodes per row (default 1,16,256)")
    parser.add_argument("--seconds", type=float, default=5.0, help="seconds of load per row (default 5)")
    parser.add_argument("--faults", type=int, default=8, help="faulty clients in the fault row (default 8; 0: none)")
    parser.add_argument("--serve-noop", action="store_true", help=argparse.SUPPRESS)
    perf_doc.add_option(parser)
    args = parser.parse_args(argv)
    doc_run = perf_doc.begin("bench_worker", argv, args.write_docs)
    if args.serve_noop:
        serve_noop()
        return 0
    limit_frames = 256
    worker_argv = [
        str(BIN / "iospec"),
        "worker",
        "--max-stream-frames",
        str(limit_frames),
        "--max-body-bytes",
        str(MAX_BODY),
    ]
    policy = REPO / "build" / "bench-worker-policy.json"
    policy.parent.mkdir(exist_ok=True)
    policy.write_text(json.dumps({"handler_ref": "bench", "observations": DECLARATION}))
    worker_argv += ["--policy", str(policy)]
    rows: list[list[str]] = []
    failures: list[str] = []
    checked = 0
    plan = [(int(n), 0) for n in args.episodes.split(",")] + ([(16, args.faults)] if args.faults else [])
    for count, faults in plan:
        best: dict[str, tuple[float, Totals, float]] = {}
        for _ in range(2):  # noop, worker, noop, worker: the better of two runs each, on a noisy shared machine
            noop, noop_url = start([sys.executable, __file__, "--serve-noop"])
            try:
                base, _, base_s = asyncio.run(
                    load(noop_url, count, args.seconds, faults=faults, limit_frames=limit_frames, tag="noop")
                )
            finally:
                stop(noop)
            worker, url = start(worker_argv)
            try:
                totals, episodes, elapsed = asyncio.run(
                    load(url, count, args.seconds, faults=faults, limit_frames=limit_frames)
                )
                rss = peak_rss_mib(worker.pid)
            finally:
                stop(worker)
            mismatches = replay_mismatches(episodes, limit_frames)
            failures += mismatches
            checked += sum(len(e.traffic) for e in episodes)
            for name, run in (
                ("noop", (base.requests / base_s, base, rss)),
                ("worker", (totals.requests / elapsed, totals, rss)),
            ):
                if name not in best or run[0] > best[name][0]:
                    best[name] = run
        rate, totals, rss = best["worker"]
        base_rate = best["noop"][0]
        rows.append(
            [
                f"{count}" + (f" + {faults} faulty" if faults else ""),
                f"{rate * 17 / 2:,.0f}",
                f"{rate:,.0f}",
                f"{base_rate:,.0f}",
                f"{rate / base_rate:.2f}",
                f"{statistics.median(totals.observe_ms):.1f} / {percentile(totals.observe_ms, 0.99):.1f}",
                f"{statistics.median(totals.act_ms):.1f} / {percentile(totals.act_ms, 0.99):.1f}",
                f"{rss:.0f}",
            ]
        )
    header = [
        "episodes",
        "frames/s",
        "requests/s",
        "no-op req/s",
        "ratio",
        "observe p50/p99 ms",
        "act p50/p99 ms",
        "peak RSS MiB",
    ]
    print(
        f"iospec worker under load ({args.seconds:g} s per row, batches of {BATCH} frames then an act, "
        f"declaration {json.dumps(DECLARATION)}, {os.cpu_count()} cores)"
    )
    print("| " + " | ".join(header) + " |")
    print("|" + "---|" * len(header))
    for row in rows:
        print("| " + " | ".join(row) + " |")
    for failure in failures[:20]:
        print("MISMATCH", failure)
    checked_line = (
        f"{checked} answers of the worker checked against the reference keeper's replay of the same traffic: "
        f"{len(failures)} episode(s) differ (lost or doubled frames)"
    )
    print(checked_line)
    if args.write_docs and failures:
        print("--write-docs: not written, since answers of the worker did not check out", file=sys.stderr)
    elif args.write_docs:
        table = perf_doc.Table(
            f"`iospec worker` under load over loopback: N episodes at once, {args.seconds:g} s per row, batches of "
            f"{BATCH} frames then an act, declaration `{json.dumps(DECLARATION)}`; ratio: the worker's requests/s "
            f"over the same stack answering a no-op handler, same clients, same run; the better of two runs each.",
            header,
            rows,
        )
        doc_run.write([table], [f"{checked_line}."])
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
