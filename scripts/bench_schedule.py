"""Benchmark of the schedule: representative declarations → the cost of one act (`picks` + `wanted`) with our
reference and with sequence-base 0.4.28, measured in the same run → a table with the ratio (upstream / ours), a
table of cost per output entry as the output grows, the one-off cost of `of`, and both combined over episodes of
N acts.

Why this shape: absolute times on a shared machine mean little, so both implementations are timed side by side
(best of several repeats, which discards interference) and compared as a ratio. The second table checks the
design promise of seq_io.reference/schedule.py: an act costs in proportion to what it outputs, so nanoseconds per entry
stay flat as the gap between acts grows. Run: `.venv/bin/python scripts/bench_schedule.py`; with `--write-docs`, the
four tables also go, as Markdown with the date and the load average, into section `bench_schedule` of
docs/performance.md (seq_io_maint/perf_doc.py).
"""

from __future__ import annotations

import argparse
import sys
import timeit
from collections.abc import Callable
from functools import partial
from typing import Any

from sequence_base.contract import obs_schedule as upstream

from seq_io.reference import schedule as ours
from seq_io_maint import perf_doc

T = 1_000_000  # a step well inside an episode: no padding
GAP = 8  # steps between two acts: an open-loop horizon of 8 rows, typical of action-chunking policies

DECLARATIONS: dict[str, tuple[dict[str, Any], int]] = {
    # label: (declaration, gap between acts)
    "2-key window + key alone": ({"streams": {"cam": {"at": [-15, 0]}, "wrist": {"at": [-1, 0]}, "state": {}}}, GAP),
    "whole every=1": ({"every": 1}, GAP),
    "whole every=1, acts back to back": ({"every": 1}, 1),
    "64-offset window + fed key": ({"streams": {"cam": {"at": list(range(-63, 1))}, "s": {"every": 2}}}, GAP),
    "64 keys (windows, fed, alone)": (
        {
            "streams": {
                **{f"w{i:02}": {"at": [-(i % 8) - 1, 0]} for i in range(32)},
                **{f"f{i:02}": {"every": i % 4 + 1} for i in range(16)},
                **{f"a{i:02}": {} for i in range(16)},
            }
        },
        GAP,
    ),
    "long gap (window + fed every 1)": ({"streams": {"cam": {"at": [-15, 0]}, "s": {"every": 1}}}, 1000),
}
SCALING_GAPS = (10, 100, 1000, 10000)


def best_pair(first: Callable[[], object], second: Callable[[], object], rounds: int = 7) -> tuple[float, float]:
    """Best seconds per call of each, their timing rounds interleaved so that a busy spell on the machine hits
    both alike; the loop count of each is sized to about 0.2 s a round."""
    timers = [timeit.Timer(first), timeit.Timer(second)]
    numbers = [timer.autorange()[0] for timer in timers]
    best = [float("inf"), float("inf")]
    for _ in range(rounds):
        for index, (timer, number) in enumerate(zip(timers, numbers, strict=True)):
            best[index] = min(best[index], timer.timeit(number) / number)
    return best[0], best[1]


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


Timings = dict[str, tuple[float, float]]
"""label → (ours, upstream) seconds per call."""
EPISODE_ACTS = (1, 10, 100, 1000)


def per_act_table(tables: list[perf_doc.Table]) -> Timings:
    measured: Timings = {}
    rows: list[list[str]] = []
    print("Per act: picks(t, t_prev) + wanted(t_prev, t), t = 10^6")
    print(f"{'declaration':<36}{'gap':>6}{'entries':>9}{'ours µs':>10}{'upstream µs':>13}{'upstream/ours':>15}")
    for label, (declaration, gap) in DECLARATIONS.items():
        mine, theirs = check_agreement(declaration, T, T - gap)
        ours_s, theirs_s = best_pair(act_of(ours, mine, T, T - gap), act_of(upstream, theirs, T, T - gap))
        measured[label] = ours_s, theirs_s
        count = entries(mine, T, T - gap)
        print(f"{label:<36}{gap:>6}{count:>9}{ours_s * 1e6:>10.2f}{theirs_s * 1e6:>13.2f}{theirs_s / ours_s:>14.1f}x")
        rows.append(
            [
                label,
                f"{gap:,}",
                f"{count:,}",
                f"{ours_s * 1e6:.2f}",
                f"{theirs_s * 1e6:.2f}",
                perf_doc.times(theirs_s / ours_s),
            ]
        )
    tables.append(
        perf_doc.Table(
            "One act: `picks(t, t_prev)` + `wanted(t_prev, t)` at t = 10^6, ours against sequence-base 0.4.28 "
            "(both checked to agree on the act first).",
            ["declaration", "gap", "entries", "ours µs", "upstream µs", "upstream/ours"],
            rows,
        )
    )
    return measured


def scaling_table(tables: list[perf_doc.Table]) -> None:
    rows: list[list[str]] = []
    print("\nCost per output entry, whole observation every=1 (picks + wanted)")
    print(f"{'gap':>8}{'entries':>9}{'ours ns/entry':>15}{'upstream ns/entry':>19}{'upstream/ours':>15}")
    for gap in SCALING_GAPS:
        mine, theirs = check_agreement({"every": 1}, T, T - gap)
        count = entries(mine, T, T - gap)
        ours_s, theirs_s = best_pair(act_of(ours, mine, T, T - gap), act_of(upstream, theirs, T, T - gap), rounds=5)
        print(
            f"{gap:>8}{count:>9}{ours_s / count * 1e9:>15.1f}{theirs_s / count * 1e9:>19.1f}{theirs_s / ours_s:>14.1f}x"
        )
        rows.append(
            [
                f"{gap:,}",
                f"{count:,}",
                f"{ours_s / count * 1e9:.1f}",
                f"{theirs_s / count * 1e9:.1f}",
                perf_doc.times(theirs_s / ours_s),
            ]
        )
    tables.append(
        perf_doc.Table(
            "Cost per output entry as the gap between acts grows: whole observation, `every=1`, picks + wanted.",
            ["gap", "entries", "ours ns/entry", "upstream ns/entry", "upstream/ours"],
            rows,
        )
    )


def _of_and_layout(declaration: dict[str, Any]) -> bool:
    """`of`, then a call that needs the per-act layout (which `of` leaves to the first act), so that the one-off
    cost of an episode's schedule is measured whole."""
    return ours.reads_past(ours.of(declaration))


def of_table(tables: list[perf_doc.Table]) -> Timings:
    measured: Timings = {}
    rows: list[list[str]] = []
    print(
        "\nof(declaration), once per episode, with the per-act layout ours builds on the first act (reads_past "
        "builds it). Ours validates the declaration first (spec/validation.md); upstream reads it raw"
    )
    print(f"{'declaration':<36}{'ours µs':>10}{'upstream µs':>13}{'ours/upstream':>15}")
    for label, (declaration, _) in DECLARATIONS.items():
        ours_s, theirs_s = best_pair(partial(_of_and_layout, declaration), partial(upstream.of, declaration), rounds=3)
        measured[label] = ours_s, theirs_s
        print(f"{label:<36}{ours_s * 1e6:>10.1f}{theirs_s * 1e6:>13.2f}{ours_s / theirs_s:>14.0f}x")
        rows.append([label, f"{ours_s * 1e6:.1f}", f"{theirs_s * 1e6:.2f}", perf_doc.times(ours_s / theirs_s)])
    tables.append(
        perf_doc.Table(
            "`of(declaration)`, once per episode, with the per-act layout ours builds on the first act; ours "
            "validates the declaration first, upstream reads it raw. Note the ratio: ours/upstream.",
            ["declaration", "ours µs", "upstream µs", "ours/upstream"],
            rows,
        )
    )
    return measured


def episode_table(acts: Timings, of: Timings, tables: list[perf_doc.Table]) -> None:
    """of once, then N acts: the two tables above combined (no new timing), to show where validating the
    declaration once is paid back by cheaper acts."""
    print("\nAn episode: of + N acts (picks + wanted), from the figures above; upstream/ours")
    print(f"{'declaration':<36}" + "".join(f"{f'N={n}':>10}" for n in EPISODE_ACTS))
    rows: list[list[str]] = []
    for label, (ours_act, theirs_act) in acts.items():
        ours_of, theirs_of = of[label]
        ratios = [(theirs_of + n * theirs_act) / (ours_of + n * ours_act) for n in EPISODE_ACTS]
        print(f"{label:<36}" + "".join(f"{ratio:>9.1f}x" for ratio in ratios))
        rows.append([label, *map(perf_doc.times, ratios)])
    tables.append(
        perf_doc.Table(
            "An episode: `of` once, then N acts, from the figures above (no new timing); upstream/ours.",
            ["declaration", *(f"N = {n:,}" for n in EPISODE_ACTS)],
            rows,
        )
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    perf_doc.add_option(parser)
    args = parser.parse_args(argv)
    run = perf_doc.begin("bench_schedule", argv, args.write_docs)
    tables: list[perf_doc.Table] = []
    acts = per_act_table(tables)
    scaling_table(tables)
    episode_table(acts, of_table(tables), tables)
    run.write(tables)
    return 0


if __name__ == "__main__":
    sys.exit(main())
