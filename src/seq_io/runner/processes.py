"""A testee's process id and the run's mark → every process the testee started (found in /proc) → killed, so that
a run leaves nothing behind.

WHY it is shaped this way: the testee runs in a session and process group of its own, and killing that group
ends a wrapper (a shell script, `npm run`) together with the children holding its pipes. A descendant that
called `setsid` (a daemon, a server the testee forked) leaves that group, and one whose parent exited is
re-parented to init, so neither the group nor the parent chain finds it afterwards. Without cgroups (which need
privileges the runner does not have), two facts still find it on Linux, both read from /proc:

- the parent chain, walked while the testee is still alive (`/proc/<pid>/stat`: ppid, session, group);
- the environment: the runner starts the testee with `IOSPEC_TESTEE_RUN=<a token of this run>`, which every
  descendant inherits unless it clears its environment on purpose (`/proc/<pid>/environ`).

A process matched by either is killed with SIGKILL, after checking that its pid was not reused (its start time
is the one seen when it was found). Limitations (stated in conformance/protocol.md): a descendant that clears its
environment and is orphaned before the end of the session escapes; on a system without /proc (macOS, BSD) only
the process group is killed.
"""

from __future__ import annotations

import contextlib
import os
import secrets
import signal
import time
from dataclasses import dataclass
from pathlib import Path

MARK = "IOSPEC_TESTEE_RUN"
"""The environment variable the runner sets in the testee's environment; its value is a token of the run."""
PROC = Path("/proc")


@dataclass(frozen=True)
class Process:
    """One process as /proc/<pid>/stat shows it."""

    pid: int
    ppid: int
    group: int
    session: int
    state: str
    """R, S, D, Z (a zombie: dead, waiting for its parent to read its status) …"""
    start: int
    """Start time in clock ticks since boot: tells a process from a later one that reuses its pid."""
    name: str


def new_token() -> str:
    return secrets.token_hex(8)


def environment(token: str) -> dict[str, str]:
    """The testee's environment: the runner's, plus the mark of this run."""
    return os.environ | {MARK: token}


def _stat(pid: int) -> Process | None:
    try:
        text = (PROC / str(pid) / "stat").read_bytes().decode("utf-8", errors="replace")
    except OSError:
        return None
    name_end = text.rfind(")")  # the name may hold spaces and parentheses; the fields after it do not
    fields = text[name_end + 2 :].split()
    try:
        return Process(
            pid,
            int(fields[1]),
            int(fields[2]),
            int(fields[3]),
            fields[0],
            int(fields[19]),
            text[text.find("(") + 1 : name_end],
        )
    except (IndexError, ValueError):
        return None


def _all() -> list[Process]:
    try:
        names = os.listdir(PROC)
    except OSError:
        return []
    found = (_stat(int(name)) for name in names if name.isdigit())
    return [process for process in found if process is not None]


def _marked(pid: int, needle: bytes) -> bool:
    try:
        environ = (PROC / str(pid) / "environ").read_bytes()
    except OSError:  # another user's process, or it is gone
        return False
    return environ.startswith(needle) or b"\0" + needle in environ


def started_by(root: int, token: str) -> list[Process]:
    """The processes that descend from `root` (by parent chain or session) or carry this run's mark; never the
    runner itself or its ancestors."""
    processes = _all()
    own = os.getpid()
    ancestors = {own}
    parents = {p.pid: p.ppid for p in processes}
    walk = parents.get(own, 0)
    while walk > 1 and walk not in ancestors:
        ancestors.add(walk)
        walk = parents.get(walk, 0)
    children: dict[int, list[Process]] = {}
    for process in processes:
        children.setdefault(process.ppid, []).append(process)
    chosen: dict[int, Process] = {}
    stack = [p for p in processes if p.pid == root or p.session == root]
    while stack:
        process = stack.pop()
        if process.pid not in chosen:
            chosen[process.pid] = process
            stack += children.get(process.pid, [])
    needle = f"{MARK}={token}".encode() + b"\0"
    for process in processes:
        if process.pid not in chosen and _marked(process.pid, needle):
            chosen[process.pid] = process
    return [p for p in chosen.values() if p.pid not in ancestors and p.state not in ("Z", "X")]


def kill(processes: list[Process], wait: float = 2.0) -> list[Process]:
    """SIGKILL each process that is still the one found (same start time), then wait (at most `wait` seconds)
    until each is dead; the ones killed."""
    killed = []
    for process in processes:
        if _alive(process):
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.kill(process.pid, signal.SIGKILL)
                killed.append(process)
    deadline = time.monotonic() + wait
    while any(_alive(process) for process in killed) and time.monotonic() < deadline:
        time.sleep(0.01)
    return killed


def _alive(process: Process) -> bool:
    """Whether `process` still runs (not gone, not a zombie, and its pid not taken by another process)."""
    now = _stat(process.pid)
    return now is not None and now.start == process.start and now.state not in ("Z", "X")


def describe(processes: list[Process], shown: int = 5) -> str:
    """`pid 123 (sleep), pid 124 (sh)` with a count of the rest."""
    words = [f"pid {p.pid} ({p.name})" for p in processes[:shown]]
    rest = len(processes) - shown
    return ", ".join(words) + (f" and {rest} more" if rest > 0 else "")
