"""Real worker processes for tests: a command line → a subprocess on a free loopback port → its URL (read from the
JSON line it prints on start) → stopped by signal, killed if it does not stop, always reaped.

WHY it is shaped this way: the worker and the probe are tested as users run them, as processes talking HTTP over
loopback. Every wait is bounded (start, stop, the probe's run), stderr goes to a file so that request logs can never
fill a pipe and block the worker, and `children()` lets a fixture prove that no test leaves a process behind.
"""

from __future__ import annotations

import json
import os
import queue
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import IO, Any

REPO = Path(__file__).resolve().parents[1]
BIN = Path(sys.executable).parent
IOSPEC = [str(BIN / "iospec")]
BROKEN = [sys.executable, str(REPO / "tests" / "broken_worker.py")]
START_TIMEOUT = 30.0
STOP_TIMEOUT = 15.0


class Running:
    """A started worker: its process, URL, start-up JSON line and stderr file."""

    def __init__(self, process: subprocess.Popen[str], stderr: IO[str]) -> None:
        self.process, self._stderr = process, stderr
        self.info: dict[str, Any] = self._read_start()
        self.url: str = self.info["listening"]

    def _read_start(self) -> dict[str, Any]:
        """The JSON line the worker prints once it listens (a reader thread, so a silent worker cannot block us)."""
        assert self.process.stdout is not None
        stdout = self.process.stdout
        lines: queue.Queue[str] = queue.Queue()

        def pump() -> None:
            for line in iter(stdout.readline, ""):
                lines.put(line)

        threading.Thread(target=pump, daemon=True).start()
        give_up = time.monotonic() + START_TIMEOUT
        seen: list[str] = []
        while time.monotonic() < give_up:
            try:
                line = lines.get(timeout=max(0.01, give_up - time.monotonic()))
            except queue.Empty:
                break
            seen.append(line)
            if line.startswith("{"):
                return dict(json.loads(line))
        raise AssertionError(f"the worker did not start: stdout {seen!r}, stderr {self.stderr()[-2000:]!r}")

    def stderr(self) -> str:
        self._stderr.flush()
        return Path(self._stderr.name).read_text(encoding="utf-8", errors="replace")

    def log_lines(self) -> list[dict[str, Any]]:
        return [json.loads(line) for line in self.stderr().splitlines() if line.startswith("{")]

    def stop(self, sig: int = signal.SIGTERM, timeout: float = STOP_TIMEOUT) -> int:
        """Signal the worker and wait for it; kill it if it does not end in time (and fail the test then)."""
        if self.process.poll() is None:
            self.process.send_signal(sig)
        try:
            return self.process.wait(timeout)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait(5)
            raise AssertionError(f"the worker did not stop within {timeout} s of signal {sig}") from None


@contextmanager
def running(argv: list[str], *, cwd: Path = REPO) -> Iterator[Running]:
    """A worker process for the length of the block; killed and reaped whatever happens."""
    with tempfile.NamedTemporaryFile("w+", encoding="utf-8", suffix=".stderr", delete=False) as stderr:
        process = subprocess.Popen(
            argv, stdout=subprocess.PIPE, stderr=stderr, text=True, cwd=cwd, env={**os.environ, "PYTHONUNBUFFERED": "1"}
        )
        try:
            yield Running(process, stderr)
        finally:
            if process.poll() is None:
                process.kill()
            process.wait(10)
            if process.stdout is not None:
                process.stdout.close()
            os.unlink(stderr.name)


def worker(*flags: str) -> list[str]:
    return [*IOSPEC, "worker", *flags]


def children(pid: int | None = None) -> list[str]:
    """The live child processes of `pid` (this process by default), as `pid command` lines, from /proc."""
    parent = os.getpid() if pid is None else pid
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
            command = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace").strip()
        except OSError:
            continue
        fields = stat[stat.rindex(")") + 2 :].split()
        if int(fields[1]) == parent and fields[0] != "Z":
            found.append(f"{entry.name} {command}")
    return found


PROBE_BOUND_S = 900.0
"""A probe of every stream scenario takes 30 s on a quiet machine and several minutes beside busy loops: the bound
is for a hang, not a measure of speed."""


def probe(url: str, *flags: str, timeout: float = PROBE_BOUND_S) -> subprocess.CompletedProcess[str]:
    """`iospec probe --worker URL` as a process, bounded in time."""
    return subprocess.run(
        [*IOSPEC, "probe", "--worker", url, *flags],
        capture_output=True,
        text=True,
        cwd=REPO,
        timeout=timeout,
        check=False,
    )


def probe_started(command: str, *flags: str, timeout: float = PROBE_BOUND_S) -> subprocess.CompletedProcess[str]:
    """`iospec probe --start COMMAND`: the probe starts, probes and stops the worker itself."""
    return subprocess.run(
        [*IOSPEC, "probe", "--start", command, *flags],
        capture_output=True,
        text=True,
        cwd=REPO,
        timeout=timeout,
        check=False,
    )
