"""Benchmark of the stream keeper: posts of 1, 64 and 1,024 frames, and acts handing over 1 to 1,024 frames, through
src/seq_io/reference/keeper.py → their cost against a baseline measured in the same run (a plain dict insert, or
dict lookups, of the same frames) → tables of ratios, and the cost per post as the episode grows.

Why this shape: absolute times on a shared machine mean little, so the keeper and its baseline are timed side by
side, rounds interleaved, best of several (which discards interference), and compared as a ratio. The baseline is
the least any keeper does: put each frame in a dict by its number (a post), or read the needed frames back out
(an act). The keeper does more per frame, and this shows how much: it checks the body, computes the canonical size
the limits count (spec/stream.md STR-SIZE, a C-level JSON encoding), stages the post, checks three limits and moves
`through`; an act computes needed and picks, builds the envelope and releases frames. The second table checks the
promise of the keeper's design (O(log n) per frame): the cost of a post stays flat as the episode holds more
frames. Limits are raised for the benchmark (STR-SETUP lets a keeper take other values), so that frames pile up.
Run: `.venv/bin/python scripts/bench_stream.py`; with `--write-docs`, the three tables also go, as Markdown with the
date and the load average, into section `bench_stream` of docs/performance.md (seq_io_maint/perf_doc.py).
"""

from __future__ import annotations

import argparse
import json
import time
from typing import Any

from seq_io.reference import schedule as sch
from seq_io.reference.keeper import FRAMES_CEILING, Keeper, Limits
from seq_io_maint import perf_doc

FRAMES_PER_POST = (1, 64, 1024)
EPISODE_SIZES = (0, 10_000, 100_000, 300_000)
ACT_GAPS = (1, 64, 1024)
ROUNDS = 5
ROUND_S = 0.15
"""Each round times about this much work."""

UNBOUNDED = Limits(frames=FRAMES_CEILING, bytes=10**15, worker_bytes=10**15)
"""The largest limits a keeper takes (spec/stream.md STR-SETUP): far above what the benchmark holds."""


def observation(number: int) -> dict[str, Any]:
    """A small robot observation: a camera reference, a state vector, an instruction."""
    return {"cam": f"frame-{number:08d}.jpg", "state": [0.125, -0.5, number * 0.25], "instr": "pick the cube"}


def bodies(start: int, count: int, size: int) -> list[dict[str, Any]]:
    """`count` posts of `size` consecutive frames each, from frame `start`."""
    return [
        {
            "episode_id": "e",
            "frames": [{"seq": n, "inputs": observation(n)} for n in range(start + i * size, start + (i + 1) * size)],
        }
        for i in range(count)
    ]


def prefilled(held: int) -> Keeper:
    keeper = Keeper(None, limits=UNBOUNDED)
    for body in bodies(0, held // 1024, 1024):
        keeper.post(body, 0.0)
    keeper.post(
        {"episode_id": "e", "frames": [{"seq": n, "inputs": observation(n)} for n in range(held // 1024 * 1024, held)]},
        0.0,
    )
    return keeper


def timed_posts(held: int, size: int, count: int) -> tuple[float, float, float]:
    """Seconds per post for the keeper, for the dict baseline, and for parsing the same posts' JSON text (which
    any worker does before its keeper sees a post): the same `count` posts of `size` frames after `held` frames
    (best of ROUNDS, rounds interleaved)."""
    best = [float("inf"), float("inf"), float("inf")]
    for _ in range(ROUNDS):
        work = bodies(held, count, size)
        keeper = prefilled(held)
        start = time.perf_counter()
        for body in work:
            keeper.post(body, 0.0)
        best[0] = min(best[0], (time.perf_counter() - start) / count)
        plain: dict[int, Any] = {n: observation(n) for n in range(held)}
        start = time.perf_counter()
        for body in work:
            for frame in body["frames"]:
                plain[frame["seq"]] = frame["inputs"]
        best[1] = min(best[1], (time.perf_counter() - start) / count)
        texts = [json.dumps(body) for body in work]
        start = time.perf_counter()
        for text in texts:
            json.loads(text)
        best[2] = min(best[2], (time.perf_counter() - start) / count)
    return best[0], best[1], best[2]


def posts_needed(size: int) -> int:
    """How many posts of `size` frames make about ROUND_S of keeper work (sized on a quick trial)."""
    trial = bodies(0, max(1, 2048 // size), size)
    keeper = Keeper(None, limits=UNBOUNDED)
    start = time.perf_counter()
    for body in trial:
        keeper.post(body, 0.0)
    per_post = (time.perf_counter() - start) / len(trial)
    return max(3, int(ROUND_S / per_post))


def timed_act(gap: int, declaration: Any) -> tuple[float, float, int]:
    """Seconds per act that hands over the frames of the `gap` steps since the previous act, and for the baseline
    that reads the same frames out of a dict; and how many observations the act hands over."""
    schedule = sch.of(declaration)
    acts = max(3, int(20_000 // gap))
    frames = bodies(0, acts, gap)
    best = [float("inf"), float("inf")]
    handed = 0
    for _ in range(ROUNDS):
        keeper = Keeper(schedule, limits=UNBOUNDED)
        keeper.post({"episode_id": "e", "frames": [{"seq": 0, "inputs": observation(0)}]}, 0.0)
        keeper.act({"episode_id": "e", "seq": 0, "inputs": observation(0)}, 0.0)
        spent = 0.0
        for index, body in enumerate(frames):
            body = {"episode_id": "e", "frames": [{"seq": f["seq"] + 1, "inputs": f["inputs"]} for f in body["frames"]]}
            keeper.post(body, 0.0)
            t = (index + 1) * gap + 1
            request = {"episode_id": "e", "seq": t, "inputs": observation(t)}
            start = time.perf_counter()
            acted = keeper.act(request, 0.0)
            spent += time.perf_counter() - start
            handed = len(acted.handed["observations"])
        best[0] = min(best[0], spent / acts)
        plain = {f["seq"]: f["inputs"] for body in frames for f in body["frames"]}
        start = time.perf_counter()
        for index in range(acts):
            low = index * gap
            _ = [plain[n] for n in range(low, low + gap)]
        best[1] = min(best[1], (time.perf_counter() - start) / acts)
    return best[0], best[1], handed


def table(title: str, header: list[str], rows: list[list[str]]) -> perf_doc.Table:
    """Print one table as Markdown, and return it for `--write-docs`."""
    print(f"\n{title}\n")
    print("| " + " | ".join(header) + " |")
    print("|" + "|".join("---" for _ in header) + "|")
    for row in rows:
        print("| " + " | ".join(row) + " |")
    return perf_doc.Table(title + ".", header, rows)


def micro(seconds: float) -> str:
    return f"{seconds * 1e6:,.1f}"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    perf_doc.add_option(parser)
    args = parser.parse_args(argv)
    run = perf_doc.begin("bench_stream", argv, args.write_docs)
    tables: list[perf_doc.Table] = []
    rows = []
    for size in FRAMES_PER_POST:
        ours, base, parse = timed_posts(0, size, posts_needed(size))
        rows.append(
            [
                f"{size:,}",
                f"{1 / ours:,.0f}",
                micro(ours),
                micro(ours / size),
                micro(base / size),
                f"{ours / base:.1f}x",
                micro(parse / size),
                f"{ours / parse:.1f}x",
            ]
        )
    tables.append(
        table(
            "Posts through the keeper (no declaration, one episode), against a dict insert of the same frames and "
            "against json.loads of the same posts",
            [
                "frames per post",
                "posts/s",
                "µs per post",
                "µs per frame",
                "dict insert µs per frame",
                "keeper/dict insert",
                "json.loads µs per frame",
                "keeper/json.loads",
            ],
            rows,
        )
    )
    rows = []
    count = posts_needed(64)
    first = None
    for held in EPISODE_SIZES:
        ours, base, _ = timed_posts(held, 64, count)
        first = first or ours
        rows.append([f"{held:,}", micro(ours), micro(base), f"{ours / base:.1f}x", f"{ours / first:.2f}"])
    tables.append(
        table(
            "Cost of a 64-frame post as the episode grows (frames already held)",
            ["frames held", "µs per post", "baseline µs", "keeper/baseline", "relative to an empty episode"],
            rows,
        )
    )
    rows = []
    for label, declaration in (
        ('{"every": 1}', {"every": 1}),
        ("cam [-8, 0] + s every 2", {"streams": {"cam": {"at": [-8, 0]}, "s": {"every": 2}}}),
    ):
        for gap in ACT_GAPS:
            ours, base, handed = timed_act(gap, declaration)
            rows.append([label, f"{gap:,}", f"{handed:,}", micro(ours), micro(base), f"{ours / base:.1f}x"])
    tables.append(
        table(
            "An act's hand-over (needed, picks, envelope, retention), against dict lookups of the same frames",
            [
                "declaration",
                "steps since the previous act",
                "observations handed",
                "µs per act",
                "baseline µs",
                "keeper/baseline",
            ],
            rows,
        )
    )
    run.write(tables)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
