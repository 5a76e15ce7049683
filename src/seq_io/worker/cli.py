"""`iospec worker`: argv (a DeploymentPolicy file, the rate, the idle timeout, the wait, scaled-down limits, the
HTTP layer's bounds, where to listen) → one keeper host → the worker's HTTP server (`server.py`) on a socket bound
here → the address printed on stdout → serve until SIGINT/SIGTERM → drain → exit 0.

WHY it is shaped this way: the command binds the socket itself (port 0 picks a free one) so that it can print the
real address before serving, as one plain line and one JSON line that tests and SDKs read. Every flag is checked
by argparse (a usage line and exit 2, never a traceback). The HTTP library (h11) is an extra
(`sequences-io-spec[http]`), imported only when the command runs, so a missing extra is one line.
"""

from __future__ import annotations

import argparse
import json
import os
import socket
import sys
from pathlib import Path
from typing import Any

from seq_io.reference.keeper import BYTES, EPISODES, FRAMES, MAX_EPISODES, WORKER_BYTES, Limits, stream_wait_s
from seq_io.reference.schedule import ScheduleError
from seq_io.reference.validation import contract
from seq_io.reference.wire import MAX_DOCUMENT_BYTES
from seq_io.worker.bodies import (
    DEFAULT_PARSE_MEMORY,
    DEFAULT_PARSE_QUEUE,
    DEFAULT_PARSE_TIMEOUT_S,
    DEFAULT_PARSE_WORKERS,
    BodyParser,
    ParseSettings,
    start_forkserver,
)
from seq_io.worker.host import DEFAULT_MAX_WAITING_BYTES

EXTRA_HINT = "pip install 'sequences-io-spec[http]'"
DEFAULT_SHUTDOWN_S = 30.0
DEFAULT_HEADER_TIMEOUT_S = 10.0
DEFAULT_KEEP_ALIVE_S = 5.0
DEFAULT_MAX_CONNECTIONS = 1024
"""The HTTP layer's defaults (conformance/worker.md); here so that `--help` needs no HTTP extra."""


class UsageError(Exception):
    """A mistake in the command line or the policy file: one line, exit 2."""


def _seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of seconds") from None
    if not 0.001 <= value <= 3600:
        raise argparse.ArgumentTypeError("a wait is from 0.001 to 3600 seconds")
    return value


def _positive_int(text: str) -> int:
    if not text.isdigit() or int(text) < 1:
        raise argparse.ArgumentTypeError(f"{text!r} is not a positive integer")
    return int(text)


def _port(text: str) -> int:
    if not text.isdigit() or int(text) > 65535:
        raise argparse.ArgumentTypeError(f"{text!r} is not a port (0 to 65535; 0 picks a free one)")
    return int(text)


def _idle(text: str) -> int:
    if not text.isdigit() or not 10 <= int(text) <= 86400:
        raise argparse.ArgumentTypeError(
            "episode_idle is an integer number of seconds from 10 to 86400 (Timeouts.episode_idle)"
        )
    return int(text)


def _rate(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a rate in Hz") from None
    return value


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--policy",
        type=Path,
        metavar="FILE",
        help="a DeploymentPolicy JSON file: its `observations` decide the schedule and its "
        "`actions.hz` the rate (default: nothing declared, acts are handed their inputs)",
    )
    parser.add_argument("--rate", type=_rate, metavar="HZ", help="the control rate (default: the policy's actions.hz)")
    parser.add_argument(
        "--episode-idle",
        type=_idle,
        metavar="S",
        help=f"Timeouts.episode_idle in stream seconds (10 to 86400; default {DEFAULT_EPISODE_IDLE}, so that "
        "episodes nobody uses make room: STR-LIMIT-EPISODES)",
    )
    parser.add_argument(
        "--wait-s",
        type=_seconds,
        metavar="S",
        help="real seconds an act waits for missing frames (default STREAM_WAIT_S of "
        "spec/contract.json, 10); every stream duration, the idle timeout too, scales alike",
    )
    parser.add_argument(
        "--max-stream-frames",
        type=_positive_int,
        metavar="N",
        help="MAX_STREAM_FRAMES (default: the contract's; smaller values are for tests)",
    )
    parser.add_argument(
        "--max-stream-bytes", type=_positive_int, metavar="N", help="MAX_STREAM_BYTES (default: the contract's)"
    )
    parser.add_argument(
        "--max-worker-stream-bytes",
        type=_positive_int,
        metavar="N",
        help="MAX_WORKER_STREAM_BYTES (default: the contract's)",
    )
    parser.add_argument(
        "--max-episodes",
        type=_positive_int,
        metavar="N",
        help=f"MAX_EPISODES, the episodes held at once (default {MAX_EPISODES:,}, the reference "
        "keeper's; STR-LIMIT-EPISODES)",
    )
    parser.add_argument(
        "--max-body-bytes",
        type=_positive_int,
        default=None,
        metavar="N",
        help=f"the largest request body read, in bytes (default {MAX_DOCUMENT_BYTES // 2**20} MiB, the readers' limit)",
    )
    parser.add_argument(
        "--body-timeout",
        type=_seconds,
        default=None,
        metavar="S",
        help="seconds a request body may take to arrive (default 60)",
    )
    add_bounds_arguments(parser)
    parser.add_argument("--host", default="127.0.0.1", help="the address to listen on (default 127.0.0.1)")
    parser.add_argument(
        "--port", type=_port, default=0, help="the port, 0 to 65535 (default 0: a free one, printed on start)"
    )
    parser.add_argument(
        "--header-timeout",
        type=_seconds,
        default=DEFAULT_HEADER_TIMEOUT_S,
        metavar="S",
        help=f"seconds from a connection's accept (or a request's first byte) to the end of its headers "
        f"(default {DEFAULT_HEADER_TIMEOUT_S:g})",
    )
    parser.add_argument(
        "--keep-alive",
        type=_seconds,
        default=DEFAULT_KEEP_ALIVE_S,
        metavar="S",
        help=f"seconds an idle connection is kept open between requests (default {DEFAULT_KEEP_ALIVE_S:g})",
    )
    parser.add_argument(
        "--max-connections",
        type=_positive_int,
        default=DEFAULT_MAX_CONNECTIONS,
        metavar="N",
        help=f"connections held at once (default {DEFAULT_MAX_CONNECTIONS}, at most the open-file limit - 128); "
        "when full, the oldest one without a whole request is closed for a new one",
    )
    parser.add_argument(
        "--testing",
        action="store_true",
        help="also serve the test keepers a probe uses (conformance/worker.md); never in production",
    )
    parser.add_argument("--quiet", action="store_true", help="nothing on stderr: no request log lines, no other text")
    parser.add_argument(
        "--shutdown-timeout",
        type=_seconds,
        default=DEFAULT_SHUTDOWN_S,
        metavar="S",
        help=f"how long in-flight requests may take after a signal (default {DEFAULT_SHUTDOWN_S:g})",
    )


# -- bodies off the event loop, bounded memory (conformance/worker.md, "Bodies" and "Memory") ----------------------

DEFAULT_EPISODE_IDLE = 3600
"""The worker's idle timeout unless told otherwise: a keeper with an episode limit needs one (STR-LIMIT-EPISODES)."""


def _bytes(text: str) -> int:
    """A byte count: digits, optionally with a KiB/MiB/GiB suffix."""
    units = {"kib": 2**10, "mib": 2**20, "gib": 2**30}
    lowered = text.strip().lower()
    factor = next((value for unit, value in units.items() if lowered.endswith(unit)), 1)
    digits = lowered[:-3].strip() if factor > 1 else lowered
    if not digits.isdigit() or int(digits) < 1:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of bytes (like 1048576 or 256MiB)")
    return int(digits) * factor


def add_bounds_arguments(parser: argparse.ArgumentParser) -> None:
    """The flags that bound what one request can cost the worker: body parsing, waiting acts, idle episodes."""
    parser.add_argument(
        "--no-episode-idle",
        action="store_true",
        help="episodes never end by time (then MAX_EPISODES new ids fill the worker until it restarts)",
    )
    parser.add_argument(
        "--parse-workers",
        type=_positive_int,
        default=DEFAULT_PARSE_WORKERS,
        metavar="N",
        help=f"child processes reading large bodies at once (default {DEFAULT_PARSE_WORKERS})",
    )
    parser.add_argument(
        "--parse-queue",
        type=int,
        default=DEFAULT_PARSE_QUEUE,
        metavar="N",
        help=f"large bodies waiting for a child; beyond, 503 busy (default {DEFAULT_PARSE_QUEUE})",
    )
    parser.add_argument(
        "--parse-timeout",
        type=_seconds,
        default=DEFAULT_PARSE_TIMEOUT_S,
        metavar="S",
        help=f"seconds a child may read one body (default {DEFAULT_PARSE_TIMEOUT_S:g})",
    )
    parser.add_argument(
        "--parse-memory",
        type=_bytes,
        default=DEFAULT_PARSE_MEMORY,
        metavar="BYTES",
        help=f"address space of a child reading a body (default {DEFAULT_PARSE_MEMORY // 2**30} GiB)",
    )
    parser.add_argument(
        "--max-waiting-bytes",
        type=_bytes,
        default=DEFAULT_MAX_WAITING_BYTES,
        metavar="BYTES",
        help=f"the inputs of all waiting acts together; beyond, 503 waiting_full "
        f"(default {DEFAULT_MAX_WAITING_BYTES // 2**20} MiB)",
    )


def parse_settings(args: argparse.Namespace) -> ParseSettings:
    if args.parse_queue < 0:
        raise UsageError("--parse-queue is 0 or more")
    return ParseSettings(args.parse_workers, args.parse_queue, args.parse_timeout, args.parse_memory)


def episode_idle(args: argparse.Namespace) -> int | None:
    if args.no_episode_idle and args.episode_idle is not None:
        raise UsageError("--episode-idle and --no-episode-idle contradict each other; give one")
    if args.no_episode_idle:
        return None
    return DEFAULT_EPISODE_IDLE if args.episode_idle is None else int(args.episode_idle)


def read_policy(path: Path) -> tuple[Any, Any]:
    """(observations, actions.hz) of a DeploymentPolicy file, validated; UsageError with every issue otherwise."""
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        raise UsageError(f"cannot read the policy {path}: {error}") from None
    outcome = contract().validate_text("DeploymentPolicy", text)
    if not outcome.valid:
        lines = "\n".join(f"{path}: {issue}" for issue in outcome.issues)
        raise UsageError(f"{path} is not a valid DeploymentPolicy:\n{lines}")
    policy = outcome.normalized
    actions = policy.get("actions") or {}
    return policy.get("observations"), actions.get("hz")


def stream_config(args: argparse.Namespace) -> Any:
    from seq_io.worker.host import StreamConfig

    declaration, hz = read_policy(args.policy) if args.policy is not None else (None, None)
    rate = args.rate if args.rate is not None else hz
    flags = {
        FRAMES: args.max_stream_frames,
        BYTES: args.max_stream_bytes,
        WORKER_BYTES: args.max_worker_stream_bytes,
        EPISODES: args.max_episodes,
    }
    try:
        limits = Limits.scaled({name: value for name, value in flags.items() if value is not None})
    except ValueError as error:
        raise UsageError(str(error)) from None
    return StreamConfig(
        declaration, rate, episode_idle(args), limits, args.wait_s or stream_wait_s(), args.max_waiting_bytes
    )


def _listen(host: str, port: int) -> socket.socket:
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    # proto IPPROTO_TCP: asyncio then sets TCP_NODELAY on every accepted connection (with proto 0 it does not, and
    # Nagle + delayed ACK add 40 ms to every answer written in two parts)
    sock = socket.socket(family, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind((host, port))
    except OSError as error:
        sock.close()
        raise UsageError(f"cannot listen on {host}:{port}: {error.strerror or error}") from None
    return sock


def _url(sock: socket.socket) -> str:
    host, port = sock.getsockname()[:2]
    return f"http://[{host}]:{port}" if ":" in host else f"http://{host}:{port}"


def _run(args: argparse.Namespace) -> int:
    try:
        from seq_io.worker.app import DEFAULT_BODY_TIMEOUT_S, DEFAULT_MAX_BODY_BYTES, Worker, WorkerSettings
        from seq_io.worker.server import ServerSettings, serve
    except ImportError as error:
        print(f"iospec worker: needs the HTTP extra ({error.name} is missing): {EXTRA_HINT}", file=sys.stderr)
        return 2
    from seq_io.reference.testee import version

    try:
        config = stream_config(args)
        worker = Worker(
            config,
            WorkerSettings(
                max_body_bytes=args.max_body_bytes or DEFAULT_MAX_BODY_BYTES,
                body_timeout_s=args.body_timeout or DEFAULT_BODY_TIMEOUT_S,
                testing=args.testing,
                parser=BodyParser(parse_settings(args)),
                log=None if args.quiet else sys.stderr,
                implementation=("seq-io-ref-worker", version()),
            ),
        )
        sock = _listen(args.host, args.port)
    except UsageError as error:
        print(f"iospec worker: {error}", file=sys.stderr)
        return 2
    except ScheduleError as error:
        where = args.policy or "the declaration"
        print(
            f"iospec worker: {where}: the policy cannot be scheduled: {error.message} [{error.rule}]", file=sys.stderr
        )
        return 2
    except ValueError as error:
        print(f"iospec worker: {error}", file=sys.stderr)
        return 2
    url = _url(sock)
    start_forkserver()

    def started() -> None:
        print(f"listening on {url}", flush=True)
        print(
            json.dumps(
                {
                    "listening": url,
                    "port": sock.getsockname()[1],
                    "pid": os.getpid(),
                    "wait_s": config.wait_s,
                    "testing": args.testing,
                }
            ),
            flush=True,
        )

    settings = ServerSettings(
        header_timeout_s=args.header_timeout,
        keep_alive_s=args.keep_alive,
        max_connections=args.max_connections,
        shutdown_timeout_s=args.shutdown_timeout,
    )
    serve(worker, sock, started, settings, worker.settings.log)
    print("stopped", flush=True)
    return 0


def register(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = commands.add_parser(
        "worker",
        help="serve POST /observe and POST /act over HTTP with the reference "
        "keeper and an echo policy (conformance/worker.md)",
    )
    add_arguments(parser)
    parser.set_defaults(func=_run)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="iospec worker", description=(__doc__ or "").split("\n")[0])
    add_arguments(parser)
    return _run(parser.parse_args(argv))
