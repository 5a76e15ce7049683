"""A robot SDK's uploader in miniature, written against a worker: a DeploymentPolicy file and a worker URL → a
simulated robot that makes one observation per control step, uploads between two acts exactly what `wanted` lists
(with the keys it lists) and declares the other steps skipped, then acts → prints each act's `through` and the
envelope `/act` handed back, and checks it against the envelope the SDK predicts → exit 0 when every act matched.

Run it against the reference worker (conformance/worker.md):

    iospec worker --policy examples/policy.json            # prints "listening on http://127.0.0.1:PORT"
    python examples/uploader.py --worker http://127.0.0.1:PORT --policy examples/policy.json

An SDK in another language does the same with its own schedule code; `wanted`, `needed`, `picks` and `envelope` are
defined in spec/schedule.md and the stream in spec/stream.md. This example borrows them from the Python reference.
"""

from __future__ import annotations

import argparse
import json
import sys
import uuid
from pathlib import Path
from typing import Any

import httpx

from seq_io.reference import schedule
from seq_io.reference.envelope import envelope

JSON = {"content-type": "application/json"}


def observation(step: int) -> dict[str, Any]:
    """What the robot's sensors give at a step (made up, but different at every step)."""
    return {"cam": f"frame-{step}", "imu": [step, step * 0.5], "goal": "shelf-3"}


def cut(value: dict[str, Any], keys: tuple[str, ...] | None) -> dict[str, Any]:
    return value if keys is None else {key: value[key] for key in keys if key in value}


def run(worker: str, policy: dict[str, Any], acts: list[int], timeout: float) -> int:
    declaration = policy.get("observations")
    s = schedule.of(declaration, (policy.get("actions") or {}).get("hz"))
    episode = f"uploader-{uuid.uuid4().hex[:8]}"
    failures = 0
    with httpx.Client(base_url=worker, timeout=timeout, trust_env=False) as client:
        previous = -1
        for t in acts:
            wanted = schedule.wanted(s, previous, t)
            frames = [{"seq": step, "inputs": cut(observation(step), keys)} for step, keys in wanted]
            sent = {step for step, _ in wanted}
            skipped = [step for step in range(previous + 1, t) if step not in sent]
            answer = client.post(
                "/observe",
                headers=JSON,
                content=json.dumps({"episode_id": episode, "frames": frames, "skipped": skipped}),
            )
            answer.raise_for_status()
            through = answer.json()["through"]
            acted = client.post(
                "/act", headers=JSON, content=json.dumps({"episode_id": episode, "seq": t, "inputs": observation(t)})
            )
            acted.raise_for_status()
            handed = acted.json()["outputs"]
            expected: Any = (
                observation(t)
                if s is None
                else envelope(
                    schedule.picks(s, t, previous), {step: observation(step) for step in range(t)}, observation(t), t
                )
            )
            verdict = "ok" if handed == expected else f"MISMATCH, expected {json.dumps(expected)}"
            failures += handed != expected
            print(
                f"act {t}: uploaded {len(frames)} frame(s), skipped {len(skipped)}, through {through}; "
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
