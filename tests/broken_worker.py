"""A deliberately broken worker for the probe's tests: `python tests/broken_worker.py FAULT [iospec worker flags]`
→ the reference worker with one fault injected → served like `iospec worker`.

WHY it is shaped this way: each fault is one small change to the reference (a method wrapped, a constant
replaced; the host's `observe_checked` and `act_checked`, which every request reaches, whether its body was checked
inline or in a parse child), so a probe failure can only come from that fault, and the test can say which cases it
must break.
The `reset` fault is not HTTP at all: a socket server that closes every connection without answering.

Faults:
  forget-skipped   POST /observe ignores `skipped` (STR-POST-SKIPPED, STR-THROUGH)
  resend-replaces  a frame sent again replaces the first copy an act is handed (breaks STR-FIRST-WINS)
  limit-500        a post over a limit is answered 500 with a text body instead of 413 (STR-HTTP)
  lazy-deadline    no timer at an act's deadline: it fails at the next request or idle sweep (STR-ACT-MISSING)
  no-header        answers lack Seq-Accept-Formats (STR-HTTP)
  hang-act         POST /act never answers
  reset            every connection is closed at once, without an answer
"""

from __future__ import annotations

import asyncio
import dataclasses
import json
import socket
import sys
import weakref
from typing import Any

from seq_io.reference.keeper import CheckedAct, CheckedPost
from seq_io.worker import server as worker_server
from seq_io.worker.cli import main as worker_main
from seq_io.worker.host import Checked, KeeperHost, Reply

FAULTS = ("forget-skipped", "resend-replaces", "limit-500", "lazy-deadline", "no-header", "hang-act", "reset")


def _forget_skipped() -> None:
    observe = KeeperHost.observe_checked

    def without_skipped(self: KeeperHost, post: Checked) -> Reply:
        if isinstance(post, CheckedPost):
            post = dataclasses.replace(post, skipped=[])
        return observe(self, post)

    KeeperHost.observe_checked = without_skipped  # type: ignore[method-assign]


def _resend_replaces() -> None:
    observe, act = KeeperHost.observe_checked, KeeperHost.act_checked
    # keeper → episode → number → every copy posted. Weakly keyed by the host itself, not by id(): a host that is
    # gone can leave its id to the next case's, whose episode "e" then met the old copies (a flake under load).
    copies: weakref.WeakKeyDictionary[KeeperHost, dict[str, dict[int, list[Any]]]] = weakref.WeakKeyDictionary()

    def remembering(self: KeeperHost, post: Checked) -> Reply:
        reply = observe(self, post)
        if reply.status == 200 and isinstance(post, CheckedPost):
            posted = copies.setdefault(self, {}).setdefault(post.episode_id, {})
            for number, inputs, _ in post.frames:
                posted.setdefault(number, []).append(inputs)
        return reply

    async def replacing(self: KeeperHost, checked: Checked) -> Reply:
        """Hand the last copy of every number that was sent more than once, as a keeper would that stored each."""
        reply = await act(self, checked)
        outputs = reply.body.get("outputs") if reply.status == 200 and isinstance(reply.body, dict) else None
        if isinstance(outputs, dict) and isinstance(outputs.get("steps"), list) and isinstance(checked, CheckedAct):
            posted = copies.get(self, {}).get(checked.episode_id or "", {})
            observations = list(outputs["observations"])
            for index, step in enumerate(outputs["steps"][:-1]):
                if len(posted.get(step, [])) > 1:
                    last, handed = posted[step][-1], observations[index]
                    both_objects = isinstance(last, dict) and isinstance(handed, dict)
                    observations[index] = {key: last.get(key) for key in handed} if both_objects else last
            reply = Reply(200, {"outputs": {**outputs, "observations": observations}})
        return reply

    KeeperHost.observe_checked = remembering  # type: ignore[method-assign]
    KeeperHost.act_checked = replacing  # type: ignore[method-assign,assignment]


def _limit_500() -> None:
    observe = KeeperHost.observe_checked

    def crashing(self: KeeperHost, post: Checked) -> Reply:
        reply = observe(self, post)
        if reply.status == 413:
            return Reply(500, "limit reached")
        return reply

    KeeperHost.observe_checked = crashing  # type: ignore[method-assign]


def _lazy_deadline() -> None:
    KeeperHost._arm = lambda self: None  # type: ignore[method-assign]


def _no_header() -> None:
    worker_server.FORMATS_HEADER = "X-Not-The-Header"  # type: ignore[attr-defined]  # the name the server writes


def _hang_act() -> None:
    async def never(self: KeeperHost, checked: Checked) -> Reply:
        await asyncio.Event().wait()
        raise AssertionError("unreachable")

    KeeperHost.act_checked = never  # type: ignore[method-assign,assignment]


def _reset(args: list[str]) -> int:
    """Listen, print the address as `iospec worker` does, and close every connection at once."""
    server = socket.create_server(("127.0.0.1", 0))
    port = server.getsockname()[1]
    print(f"listening on http://127.0.0.1:{port}", flush=True)
    print(json.dumps({"listening": f"http://127.0.0.1:{port}", "port": port}), flush=True)
    server.settimeout(60)
    while True:
        try:
            connection, _ = server.accept()
        except (TimeoutError, OSError):
            return 0
        connection.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, b"\x01\x00\x00\x00\x00\x00\x00\x00")
        connection.close()


def main(argv: list[str]) -> int:
    fault, rest = argv[0], argv[1:]
    if fault == "reset":
        return _reset(rest)
    {
        "forget-skipped": _forget_skipped,
        "resend-replaces": _resend_replaces,
        "limit-500": _limit_500,
        "lazy-deadline": _lazy_deadline,
        "no-header": _no_header,
        "hang-act": _hang_act,
    }[fault]()
    return worker_main(rest)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
