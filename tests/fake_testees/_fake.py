"""The engine of the fake testees: protocol v1 on stdin/stdout, answering the runner tests' small suite by
echo, and misbehaving on the cases named with --on in the way its file's name says.

WHY it is shaped this way: the runner's failure handling can only be tested against testees that fail on
purpose, at a chosen case, and otherwise behave; one engine keeps them alike. Standard library only, so each
starts in milliseconds. The suite it serves (built by tests/test_runner.py): rows_of cases declared with
`actions: {}` (the rows are the answer itself) and schedule cases with a null declaration (picks [[t, null]]).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

FOREVER = 30.0
"""How long "forever" is: long past any timeout the tests use, short enough that a runner which failed to
bound a wait makes its test fail after half a minute instead of hanging."""
HELLO = {
    "type": "hello",
    "protocol": 1,
    "implementation": {"name": "fake", "version": "0"},
    "kinds": ["rows_of", "schedule"],
}


def _write(message: dict[str, Any] | bytes) -> None:
    data = message if isinstance(message, bytes) else json.dumps(message).encode() + b"\n"
    sys.stdout.buffer.write(data)
    sys.stdout.buffer.flush()


def _echo(request: dict[str, Any]) -> dict[str, Any]:
    given = request["input"]
    if request["kind"] == "schedule":
        t = given["t"]
        result = {
            "picks": [[t, None]],
            "needed": [],
            "wanted": [],
            "keeps_from": t + 1,
            "reads_past": {"declaration": False, "schedule": False},
        }
    else:
        result = {"rows": given["answer"]}
    return {"type": "result", "id": request["id"], "result": result}


def _options() -> argparse.Namespace:
    parser = argparse.ArgumentParser()
    parser.add_argument("--on", action="append", default=[], help="misbehave on this case id")
    parser.add_argument("--delay", type=float, default=2.0, help="slow: seconds before answering")
    parser.add_argument("--how", default="protocol", help="bad_handshake: what is wrong with the hello")
    parser.add_argument("--wrong", action="append", default=[], help="answer this case with wrong rows")
    parser.add_argument("--refuse", action="append", default=[], help="ID=RULE: answer an error")
    parser.add_argument("--skip", action="append", default=[], help="answer skipped")
    parser.add_argument("--bad-shape", action="append", default=[], help="answer a result of the wrong shape")
    parser.add_argument("--kinds", default="rows_of,schedule")
    parser.add_argument("--exit-status", type=int, default=0, help="status at the end of the session")
    parser.add_argument("--linger", action="store_true", help="do not exit when stdin closes")
    parser.add_argument("--deaf", action="store_true", help="hang: after the hello, never read stdin again")
    parser.add_argument("--pid-file", type=Path, help="append this process's id to the file")
    parser.add_argument("--wait", type=float, default=0.0, help="chatty: seconds between answer and extra line")
    parser.add_argument("--how-chatty", default="log", help="chatty: log (a text line), twice (the answer again)")
    parser.add_argument("--stderr", default="", help="write this (Python escapes allowed) to stderr on --on")
    parser.add_argument("--spawn", default="", help="spawner: setsid, orphan or plain (see spawner.py)")
    parser.add_argument("--spawn-on", default="", help="spawner: spawn when this case comes (default: at start)")
    parser.add_argument("--spawn-stdout", action="store_true", help="spawner: the grandchild keeps our stdout")
    return parser.parse_args()


def _bad_hello(hello: dict[str, Any], how: str) -> None:
    if how == "silent":
        time.sleep(FOREVER)
    if how == "exit":
        print("fake: cannot start, giving up", file=sys.stderr)
        sys.exit(5)
    if how == "garbage":
        _write(b"Welcome to the fake testee!\n")
        return
    changes: dict[str, dict[str, Any]] = {
        "protocol": {"protocol": 2},
        "version": {"contract_version": "0.0.1"},
        "no-kinds": {"kinds": "rows_of"},
        "type": {"type": "result"},
    }
    changed = changes[how]
    _write(hello | changed)


def _misbehave(mode: str, request: dict[str, Any], options: argparse.Namespace) -> None:
    if mode == "crash":
        print(f"fake: about to die on {request['id']}", file=sys.stderr, flush=True)
        os._exit(3)
    if mode == "hang":
        time.sleep(FOREVER)
    if mode == "garbage":
        _write(b"this is not JSON \x00\x1b[31m\xff\n")
    elif mode == "wrong_id":
        _write(_echo(request) | {"id": "fake-9999"})
    elif mode == "slow":
        time.sleep(options.delay)
        _write(_echo(request))
    elif mode == "chatty":
        _write(_answer(request, options))
        time.sleep(options.wait)
        extra = _answer(request, options) if options.how_chatty == "twice" else b"done with the case\n"
        _write(extra)
    elif mode == "quit":
        _write(_answer(request, options))
        sys.exit(0)
    elif mode == "noisy":
        sys.stderr.buffer.write(options.stderr.encode().decode("unicode_escape").encode("utf-8", "replace"))
        sys.stderr.buffer.flush()
        _write(_answer(request, options))


def _spawn(options: argparse.Namespace) -> None:
    """Start a grandchild that sleeps "forever" and writes its pid to --pid-file: `setsid` leaves our session
    and process group; `orphan` does that from a child that exits at once, so the grandchild's parent is gone;
    `plain` stays in our group."""
    out = None if options.spawn_stdout else subprocess.DEVNULL
    known = len(options.pid_file.read_text().split())
    sleeper = [
        sys.executable,
        "-c",
        f"import os, time; open({str(options.pid_file)!r}, 'a').write(f'{{os.getpid()}}\\n'); time.sleep({FOREVER})",
    ]
    if options.spawn == "orphan":
        middle = [
            sys.executable,
            "-c",
            "import subprocess, sys; subprocess.Popen(sys.argv[1:], start_new_session=True, stdin=subprocess.DEVNULL)",
            *sleeper,
        ]
        subprocess.run(middle, stdin=subprocess.DEVNULL, stdout=out, check=True)
    else:
        subprocess.Popen(sleeper, start_new_session=options.spawn == "setsid", stdin=subprocess.DEVNULL, stdout=out)
    deadline = time.monotonic() + 10  # the pid is in the file before the grandchild is counted on
    while time.monotonic() < deadline and len(options.pid_file.read_text().split()) <= known:
        time.sleep(0.01)


def _answer(request: dict[str, Any], options: argparse.Namespace) -> dict[str, Any]:
    case_id = request["id"]
    refusals = dict(item.split("=", 1) for item in options.refuse)
    if case_id in refusals:
        return {"type": "error", "id": case_id, "rule": refusals[case_id], "message": "refused on purpose"}
    if case_id in options.skip:
        return {"type": "skipped", "id": case_id, "reason": "skipped on purpose"}
    if case_id in options.wrong:
        return {"type": "result", "id": case_id, "result": {"rows": [["wrong"]]}}
    if case_id in options.bad_shape:
        return {"type": "result", "id": case_id, "result": {"rows": "not a list"}}
    return _echo(request)


def main(mode: str) -> None:
    options = _options()
    if options.pid_file:
        with options.pid_file.open("a") as handle:
            handle.write(f"{os.getpid()}\n")
    if mode == "spawner" and not options.spawn_on:
        _spawn(options)
    greeting = json.loads(sys.stdin.buffer.readline())
    hello = HELLO | {"contract_version": greeting["contract_version"]}
    if mode == "bad_handshake":
        _bad_hello(hello, options.how)
    else:
        _write(hello | {"kinds": options.kinds.split(",")})
    if options.deaf:
        time.sleep(FOREVER)
    for line in sys.stdin.buffer:
        request = json.loads(line)
        if mode == "spawner" and request["id"] == options.spawn_on:
            _spawn(options)
        if request["id"] in options.on:
            _misbehave(mode, request, options)
        else:
            _write(_answer(request, options))
    if options.linger:
        time.sleep(FOREVER)
    sys.exit(options.exit_status)
