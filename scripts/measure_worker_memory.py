"""A real `iospec worker` on a loopback port → posts of frames, empty posts under new ids, idle connections → the
worker's resident memory (VmRSS of /proc) after each, against the bytes the keeper counts → a table on stdout
(per frame, per episode, per connection) and, with --json, the numbers.

WHY: conformance/worker.md "Memory" states what the worker's memory is bounded by; this script is how those numbers
are measured, in one run, against the counted sizes (STR-SIZE) of what the worker holds, so that a change to how
frames are held shows as a ratio, not a feeling. A maintainer script: it never ships and no test times it.
"""

from __future__ import annotations

import argparse
import json
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import httpx

from seq_io.reference.frame_size import size

REPO = Path(__file__).resolve().parents[1]
POLICY = REPO / "tests" / "policies" / "every-one.json"
JSON = {"content-type": "application/json"}


def rss(pid: int) -> int:
    """Resident bytes of a process."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) * 1024
    raise RuntimeError(f"no VmRSS for {pid}")


def start(frames: int) -> tuple[subprocess.Popen[str], str]:
    command = [sys.executable, "-m", "seq_io.cli", "worker", "--policy", str(POLICY), "--quiet", "--no-episode-idle"]
    command += ["--max-stream-frames", str(frames), "--max-episodes", "100000"]
    process = subprocess.Popen(command, stdout=subprocess.PIPE, text=True)
    assert process.stdout is not None
    line = process.stdout.readline()
    if not line.startswith("listening on "):
        process.kill()
        raise RuntimeError(f"the worker did not start: {line!r}")
    return process, line.removeprefix("listening on ").strip()


def settle(pid: int) -> int:
    time.sleep(0.3)
    return rss(pid)


def per_frame(client: httpx.Client, url: str, pid: int, inputs: Any, count: int, counted: int) -> dict[str, Any]:
    before = settle(pid)
    batch = 1000
    for first in range(0, count, batch):
        frames = [{"seq": n, "inputs": inputs} for n in range(first, min(count, first + batch))]
        client.post(f"{url}/observe", json={"episode_id": f"f{json.dumps(inputs)[:12]}", "frames": frames})
    grown = settle(pid) - before
    return {"frames": count, "counted": count * counted, "rss_grown": grown, "per_frame": grown / count}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    parser.add_argument("--frames", type=int, default=100_000)
    parser.add_argument("--episodes", type=int, default=5_000)
    parser.add_argument("--connections", type=int, default=200)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    process, url = start(args.frames)
    try:
        results: dict[str, Any] = {"baseline_rss": settle(process.pid)}
        with httpx.Client(timeout=60) as client:
            results["empty_arrays"] = per_frame(client, url, process.pid, [], args.frames, 2)
            results["kib_strings"] = per_frame(client, url, process.pid, "x" * 1022, args.frames // 10, 1024)
            joints = {"joints": [round(0.001 * n - 0.03, 6) for n in range(64)]}
            results["float_objects"] = per_frame(client, url, process.pid, joints, args.frames // 10, size(joints))
            before = settle(process.pid)
            for number in range(args.episodes):
                client.post(f"{url}/observe", json={"episode_id": f"episode-{number:08d}"})
            grown = settle(process.pid) - before
            results["episodes"] = {"episodes": args.episodes, "rss_grown": grown, "per_episode": grown / args.episodes}
        host, port = url.removeprefix("http://").rsplit(":", 1)
        before = settle(process.pid)
        sockets = [socket.create_connection((host, int(port))) for _ in range(args.connections)]
        grown = settle(process.pid) - before
        for sock in sockets:
            sock.close()
        results["connections"] = {
            "connections": args.connections,
            "rss_grown": grown,
            "per_connection": grown / len(sockets),
        }
        results["peak_rss"] = rss(process.pid)
    finally:
        process.terminate()
        process.wait(timeout=30)
    if args.json:
        print(json.dumps(results, indent=2))
    else:
        print(f"baseline RSS {results['baseline_rss'] / 2**20:.1f} MiB, end {results['peak_rss'] / 2**20:.1f} MiB")
        for name in ("empty_arrays", "kib_strings", "float_objects"):
            row = results[name]
            print(
                f"{name}: {row['frames']} frames, counted {row['counted']:,} B, RSS +{row['rss_grown'] / 2**20:.1f} MiB"
                f" = {row['per_frame']:.0f} B/frame ({row['rss_grown'] / row['counted']:.1f}x counted)"
            )
        print(f"episodes: {results['episodes']['per_episode']:.0f} B per empty episode")
        print(f"connections: {results['connections']['per_connection']:.0f} B per idle connection")
    return 0


if __name__ == "__main__":
    sys.exit(main())
