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
import sys
import time
from pathlib import Path
from typing import Any

FOREVER = 30.0
"""How long "forever" is: long past any timeout the tests use, short enough that a runner which failed to
bound a wait makes its test fail after half a minute instead of hanging."""
HELLO = {"type": "hello", "protocol": 1, "implementation": {"name": "fake", "version": "0"},
         "kinds": ["rows_of", "schedule"]}


def _write(message: dict[str, Any] | bytes) -> None:
    data = message if isinstance(message, bytes) else json.dumps(message).encode() + b"\n"
    sys.stdout.buffer.write(data)
    sys.stdout.buffer.flush()


def _echo(request: dict[str, Any]) -> dict[str, Any]:
    given = request["input"]
    if request["kind"] == "schedule":
        t = given["t"]
        result = {"picks": [[t, None]], "needed": [], "wanted": [], "keeps_from": t + 1,
                  "reads_past": {"declaration": False, "schedule": False}}
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
    changed = {"protocol": {"protocol": 2}, "version": {"contract_version": "0.0.1"},
               "no-kinds": {"kinds": "rows_of"}, "type": {"type": "result"}}[how]
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
        if request["id"] in options.on:
            _misbehave(mode, request, options)
        else:
            _write(_answer(request, options))
    if options.linger:
        time.sleep(FOREVER)
    sys.exit(options.exit_status)
