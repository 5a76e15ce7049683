"""A robot SDK's uploader in miniature, written against a worker: a DeploymentPolicy file and a worker URL → a
simulated robot that plans each act, makes one observation per control step and acts → the reference uploader
(`seq_io.reference.uploader.Uploader`, spec/uploader.md) decides every request, which is sent as it asks and whose
answer is fed back to it → prints what each act uploaded and the envelope `/act` handed back, checked against the
envelope the SDK predicts → exit 0 when every act matched.

Run it against the reference worker (conformance/worker.md):

    iospec worker --policy examples/policy.json            # prints "listening on http://127.0.0.1:PORT"
    python examples/uploader.py --worker http://127.0.0.1:PORT --policy examples/policy.json

The uploader is a state machine with no clock or I/O of its own; this loop is the SDK around it, kept synchronous
and short. An SDK in another language does the same with its own uploader; `iospec uploader-check` checks one
(conformance/uploader-http.md), and `python -m seq_io.reference.uploader_driver` is the reference's.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
import uuid
from pathlib import Path
from typing import Any

import httpx

from seq_io.reference import schedule
from seq_io.reference.envelope import envelope
from seq_io.reference.uploader import Uploader

PATHS = {"observe": "/observe", "act": "/act"}
SORTS = {"observe": "post", "act": "act"}


def observation(step: int) -> dict[str, Any]:
    """What the robot's sensors give at a step (made up, but different at every step)."""
    return {"cam": f"frame-{step}", "imu": [step, step * 0.5], "goal": "shelf-3"}


class Sdk:
    """The uploader, its worker and its clock; `send` runs what an event asks for to the end."""

    def __init__(self, worker: str, policy: dict[str, Any], timeout: float) -> None:
        self.rate = (policy.get("actions") or {}).get("hz")
        self.uploader = Uploader(policy.get("observations"), self.rate, f"uploader-{uuid.uuid4().hex[:8]}")
        self.client = httpx.Client(base_url=worker, timeout=timeout, trust_env=False)
        self.origin = time.monotonic()
        self.posted: list[dict[str, Any]] = []
        self.through: Any = None

    def now(self) -> float:
        return time.monotonic() - self.origin

    def send(self, event: dict[str, Any]) -> Any:
        """Hand the uploader one event, send each request it asks for and feed its answer back (and any retry
        when it falls due), until nothing is left; the body of the act's answer, if one was sent."""
        queue, handed = self.uploader.event(event, self.now()), None
        while queue or self.uploader.next_due() is not None:
            if not queue:
                time.sleep(max(0.0, (self.uploader.next_due() or 0.0) - self.now()))
                queue = self.uploader.event({"advance": 0.0}, self.now())
                continue
            request = queue.pop(0)
            sort = "observe" if "observe" in request else "act"
            try:
                answer = self.client.post(PATHS[sort], json=request[sort])
            except httpx.HTTPError:
                queue += self.uploader.event({"fail": {"to": SORTS[sort], "reason": "connection"}}, self.now())
                continue
            if sort == "observe" and answer.status_code == 200:
                self.posted.append(request[sort])
                self.through = answer.json().get("through")
            if sort == "act":
                handed = answer.json().get("outputs") if answer.status_code == 200 else answer.text
            reply = {"to": SORTS[sort], "status": answer.status_code, "headers": dict(answer.headers)}
            queue += self.uploader.event({"answer": reply}, self.now())
        return handed


def run(worker: str, policy: dict[str, Any], acts: list[int], timeout: float) -> int:
    sdk = Sdk(worker, policy, timeout)
    s = schedule.of(policy.get("observations"), sdk.rate)
    failures, previous = 0, -1
    for t in acts:
        sdk.posted = []
        sdk.send({"plan": t})
        for step in range(previous + 1, t):
            sdk.send({"observe": {"n": step, "inputs": observation(step)}})
        handed = sdk.send({"act": {"t": t, "inputs": observation(t)}})
        picked = schedule.picks(s, t, previous)
        expected: Any = (
            observation(t) if s is None else envelope(picked, {n: observation(n) for n in range(t)}, observation(t), t)
        )
        verdict = "ok" if handed == expected else f"MISMATCH, expected {json.dumps(expected)}"
        failures += handed != expected
        frames = sum(len(body.get("frames", [])) for body in sdk.posted)
        skipped = sum(len(body.get("skipped", [])) for body in sdk.posted)
        print(
            f"act {t}: uploaded {frames} frame(s), skipped {skipped}, through {sdk.through}; "
            f"handed {json.dumps(handed)} {verdict}"
        )
        previous = t
    print(f"{len(acts) - failures} acts matched, {failures} did not")
    return 1 if failures else 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    parser.add_argument("--worker", required=True, help="the worker's URL, e.g. http://127.0.0.1:8080")
    parser.add_argument("--policy", type=Path, required=True, help="the DeploymentPolicy the worker was started with")
    parser.add_argument("--acts", default="3,6,9,10,15", help="the steps at which the robot acts (ascending)")
    parser.add_argument("--timeout", type=float, default=15.0, help="seconds per request (the act may wait)")
    args = parser.parse_args(argv)
    policy = json.loads(args.policy.read_text(encoding="utf-8"))
    acts = [int(step) for step in args.acts.split(",")]
    return run(args.worker, policy, acts, args.timeout)


if __name__ == "__main__":
    sys.exit(main())
