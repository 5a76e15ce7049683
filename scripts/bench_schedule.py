"""Benchmark of the schedule: representative declarations → the cost of one act (`picks` + `wanted`) with our
reference and with sequence-base 0.4.28, measured in the same run → a table with the ratio (upstream / ours), a
table of cost per output entry as the output grows, and the one-off cost of `of`.

Why this shape: absolute times on a shared machine mean little, so both implementations are timed side by side
(best of several repeats, which discards interference) and compared as a ratio. The second table checks the
design promise of seq_io_ref/schedule.py: an act costs in proportion to what it outputs, so nanoseconds per entry
stay flat as the gap between acts grows. Run: `.venv/bin/python scripts/bench_schedule.py`.
"""

from __future__ import annotations

import timeit
from collections.abc import Callable
from typing import Any

from seq_io_ref import schedule as ours
from sequence_base.contract import obs_schedule as upstream  # type: ignore[import-untyped]

T = 1_000_000  # a step well inside an episode: no padding

DECLARATIONS: dict[str, tuple[dict[str, Any], int]] = {
    # label: (declaration, gap between acts)
    "2-key window + key alone": ({"streams": {"cam": {"at": [-15, 0]}, "wrist": {"at": [-1, 0]}, "state": {}}}, 4),
    "whole every=1": ({"every": 1}, 4),
    "64-offset window + fed key": ({"streams": {"cam": {"at": list(range(-63, 1))}, "s": {"every": 2}}}, 4),
    "64 keys (windows, fed, alone)": ({"streams": {
        **{f"w{i:02}": {"at": [-(i % 8) - 1, 0]} for i in range(32)},
        **{f"f{i:02}": {"every": i % 4 + 1} for i in range(16)},
        **{f"a{i:02}": {} for i in range(16)}}}, 4),
    "long gap (window + fed every 1)": ({"streams": {"cam": {"at": [-15, 0]}, "s": {"every": 1}}}, 1000),
}
SCALING_GAPS = (10, 100, 1000, 10000)


def best_seconds(call: Callable[[], object], repeat: int = 7) -> float:
    """Best-of-`repeat` seconds per call, the loop count sized to about 0.2 s a round."""
    timer = timeit.Timer(call)
    number, _ = timer.autorange()
    return min(timer.repeat(repeat=repeat, number=number)) / number


def act_of(module: Any, schedule: Any, t: int, t_prev: int) -> Callable[[], object]:
    """One act as a worker and an SDK see it: what the act reads, and what travels before the next one."""
    picks, wanted = module.picks, module.wanted

    def act() -> object:
        return picks(schedule, t, t_prev), wanted(schedule, t_prev, t)

    return act


def entries(schedule: ours.Schedule, t: int, t_prev: int) -> int:
    return len(ours.picks(schedule, t, t_prev)) + len(ours.wanted(schedule, t_prev, t))


def check_agreement(declaration: dict[str, Any], t: int, t_prev: int) -> tuple[ours.Schedule, Any]:
    mine, theirs = ours.of(declaration), upstream.of(declaration)
    assert mine is not None
    assert ours.picks(mine, t, t_prev) == upstream.picks(theirs, t, t_prev)
    assert ours.wanted(mine, t_prev, t) == list(upstream.wanted(theirs, t_prev, t).items())
    return mine, theirs


def per_act_table() -> None:
    print("Per act: picks(t, t_prev) + wanted(t_prev, t), t = 10^6")
    print(f"{'declaration':<34}{'gap':>6}{'entries':>9}{'ours µs':>10}{'upstream µs':>13}{'upstream/ours':>15}")
    for label, (declaration, gap) in DECLARATIONS.items():
        mine, theirs = check_agreement(declaration, T, T - gap)
        ours_s = best_seconds(act_of(ours, mine, T, T - gap))
        theirs_s = best_seconds(act_of(upstream, theirs, T, T - gap))
        print(f"{label:<34}{gap:>6}{entries(mine, T, T - gap):>9}{ours_s * 1e6:>10.2f}{theirs_s * 1e6:>13.2f}"
              f"{theirs_s / ours_s:>14.1f}x")


def scaling_table() -> None:
    print("\nCost per output entry, whole observation every=1 (picks + wanted)")
    print(f"{'gap':>8}{'entries':>9}{'ours ns/entry':>15}{'upstream ns/entry':>19}{'upstream/ours':>15}")
    for gap in SCALING_GAPS:
        mine, theirs = check_agreement({"every": 1}, T, T - gap)
        count = entries(mine, T, T - gap)
        ours_s = best_seconds(act_of(ours, mine, T, T - gap), repeat=5)
        theirs_s = best_seconds(act_of(upstream, theirs, T, T - gap), repeat=5)
        print(f"{gap:>8}{count:>9}{ours_s / count * 1e9:>15.1f}{theirs_s / count * 1e9:>19.1f}"
              f"{theirs_s / ours_s:>14.1f}x")


def of_table() -> None:
    print("\nof(declaration): once per episode. Ours validates the declaration first (spec/validation.md); "
          "upstream reads it raw")
    print(f"{'declaration':<34}{'ours µs':>10}{'upstream µs':>13}{'ours/upstream':>15}")
    for label, (declaration, _) in DECLARATIONS.items():
        ours_s = best_seconds(lambda d=declaration: ours.of(d), repeat=3)
        theirs_s = best_seconds(lambda d=declaration: upstream.of(d), repeat=3)
        print(f"{label:<34}{ours_s * 1e6:>10.1f}{theirs_s * 1e6:>13.2f}{ours_s / theirs_s:>14.0f}x")


def main() -> None:
    per_act_table()
    scaling_table()
    of_table()


if __name__ == "__main__":
    main()
