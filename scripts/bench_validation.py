"""Benchmark of the validation API: representative wire bodies and declarations → the cost of
`Contract.validate_text` on both paths (jsonschema-rs fast path, pure-Python jsonschema path) against sequence-base
0.4.28's `model_validate_json` of the same text and `json.loads` alone, all measured in the same run → a table whose
first columns are the ratios to upstream, and whether each row meets its target; then `of()` against upstream's
`model_validate` + `of`.

Why this shape: absolute times on a shared machine mean little, so every contender is timed side by side, their
rounds interleaved (a busy spell hits all alike), best of several rounds, and compared as a ratio. The targets are
those of the project (issue 12): wire bodies within 1.5x upstream, declarations within 2x, `of()` within 1x.
Before timing, each instance is checked to be valid for both implementations, so a fast refusal cannot pass for a
fast acceptance. Run: `make bench` (or `.venv/bin/python scripts/bench_validation.py`); with `--write-docs`, both
tables also go, as Markdown with the date and the load average, into section `bench_validation` of
docs/performance.md (seq_io_maint/perf_doc.py).
"""

from __future__ import annotations

import argparse
import json
import string
import sys
import timeit
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from typing import Any

from sequence_base.contract import deployments, observe, own_io, wire
from sequence_base.contract import obs_schedule as upstream_schedule

from seq_io.reference import schedule as ours_schedule
from seq_io.reference.validation import contract
from seq_io_maint import perf_doc

UPSTREAM: dict[str, Any] = {
    "ObserveRequest": observe.ObserveRequest,
    "ObserveResponse": observe.ObserveResponse,
    "ActRequest": wire.ActRequest,
    "Observations": own_io.Observations,
    "DeploymentPolicy": deployments.DeploymentPolicy,
}


def best_of(calls: list[Callable[[], object]], rounds: int = 9) -> list[float]:
    """Best seconds per call of each callable, their timing rounds interleaved; each loop sized to about 0.1 s."""
    timers = [timeit.Timer(call) for call in calls]
    numbers = [max(1, timer.autorange()[0] // 2) for timer in timers]
    best = [float("inf")] * len(calls)
    for _ in range(rounds):
        for index, (timer, number) in enumerate(zip(timers, numbers, strict=True)):
            best[index] = min(best[index], timer.timeit(number) / number)
    return best


STATE = [0.1234567, -0.25, 0.5, 1.0e-3, 3.14159, -2.71828, 0.0]
"""A 7-float robot state (a 7-joint arm), as robots send it."""
TEXT = (string.ascii_letters + string.digits) * 4 + "abcdefgh"
"""A 256-character string (an instruction, or a small encoded payload)."""
assert len(TEXT) == 256


def observe_request(frames: int) -> dict[str, Any]:
    return {
        "episode_id": "ep-0001",
        "skipped": [],
        "frames": [{"seq": 1000 + i, "inputs": {"state": STATE, "text": TEXT}} for i in range(frames)],
    }


ACT_REQUEST = {
    "inputs": {"state": STATE, "text": TEXT},
    "seed": 7,
    "episode_id": "ep-0001",
    "params": {"temperature": 0.7},
    "seq": 1023,
}
OBSERVATIONS = {
    "streams": {
        "cam": {"at": [-15, -5, 0], "camera": {"width": 224, "height": 224, "codec": "jpeg", "quality": 90}},
        "state": {"every": 1},
        "instruction": {},
    },
    "pad": "drop",
}
DEPLOYMENT_POLICY = {
    "handler_ref": "policies.mine:Policy",
    "episodes": "own",
    "secrets": [{"name": "HF_TOKEN"}],
    "observations": OBSERVATIONS,
    "actions": {"key": "actions", "hz": 10, "open_loop_horizon": 8},
    "tensors": {"batch": False},
    "family": "mine",
    "models": ["org/model-a"],
    "params": {"temperature": {"type": "float", "default": 0.7, "min": 0, "max": 2}},
}


@dataclass(frozen=True)
class Row:
    label: str
    type_name: str
    value: Any
    target: float


ROWS = [
    Row("ObserveRequest, 1 frame", "ObserveRequest", observe_request(1), 1.5),
    Row("ObserveRequest, 64 frames", "ObserveRequest", observe_request(64), 1.5),
    Row("ObserveRequest, 1,024 frames", "ObserveRequest", observe_request(1024), 1.5),
    Row("ActRequest", "ActRequest", ACT_REQUEST, 1.5),
    Row("ObserveResponse", "ObserveResponse", {"through": 1023}, 1.5),
    Row("Observations (typical)", "Observations", OBSERVATIONS, 2.0),
    Row("DeploymentPolicy (own I/O)", "DeploymentPolicy", DEPLOYMENT_POLICY, 2.0),
]


def wire_table(tables: list[perf_doc.Table]) -> bool:
    rows: list[list[str]] = []
    fast, slow = contract(fast=True), contract(fast=False)
    print(
        "validate_text(type, text): ours (jsonschema-rs fast path, pure-Python jsonschema path) against "
        "sequence-base 0.4.28 model_validate_json and json.loads of the same text"
    )
    print(
        f"{'instance':<30}{'target':>7}{'fast/up':>9}{'slow/up':>9}{'fast/parse':>11}{'fast µs':>10}"
        f"{'slow µs':>10}{'upstream µs':>13}{'json.loads µs':>15}  met"
    )
    all_met = True
    for row in ROWS:
        text = json.dumps(row.value)
        upstream = UPSTREAM[row.type_name]
        assert fast.validate_text(row.type_name, text).valid and slow.validate_text(row.type_name, text).valid
        upstream.model_validate_json(text)
        ours_fast, ours_slow, theirs, parse = best_of(
            [
                partial(fast.validate_text, row.type_name, text),
                partial(slow.validate_text, row.type_name, text),
                partial(upstream.model_validate_json, text),
                partial(json.loads, text),
            ]
        )
        met = ours_fast <= row.target * theirs
        all_met &= met
        print(
            f"{row.label:<30}{row.target:>6.1f}x{ours_fast / theirs:>8.2f}x{ours_slow / theirs:>8.2f}x"
            f"{ours_fast / parse:>10.2f}x{ours_fast * 1e6:>10.1f}{ours_slow * 1e6:>10.1f}{theirs * 1e6:>13.1f}"
            f"{parse * 1e6:>15.1f}  {'yes' if met else 'NO'}"
        )
        rows.append(
            [
                row.label,
                perf_doc.times(row.target),
                perf_doc.times(ours_fast / theirs, 2),
                perf_doc.times(ours_slow / theirs, 2),
                perf_doc.times(ours_fast / parse, 2),
                f"{ours_fast * 1e6:.1f}",
                f"{ours_slow * 1e6:.1f}",
                f"{theirs * 1e6:.1f}",
                f"{parse * 1e6:.1f}",
                "yes" if met else "**no**",
            ]
        )
    tables.append(
        perf_doc.Table(
            "`Contract.validate_text(type, text)`: ours on the default path (jiter + jsonschema-rs) and on the "
            "pure-Python path of record, against sequence-base 0.4.28's `model_validate_json` of the same text "
            "(ours/upstream: below 1 is faster) and against `json.loads` of it.",
            [
                "instance",
                "target",
                "default/upstream",
                "pure-Python/upstream",
                "default/json.loads",
                "default µs",
                "pure-Python µs",
                "upstream µs",
                "json.loads µs",
                "met",
            ],
            rows,
        )
    )
    return all_met


OF_DECLARATIONS: dict[str, dict[str, Any]] = {
    "typical (window, fed, alone)": OBSERVATIONS,
    "whole observation, every=1": {"every": 1},
    "64-offset window + fed key": {"streams": {"cam": {"at": list(range(-63, 1))}, "s": {"every": 2}}},
    "64 keys": {
        "streams": {
            **{f"w{i:02}": {"at": [-(i % 8) - 1, 0]} for i in range(32)},
            **{f"f{i:02}": {"every": i % 4 + 1} for i in range(16)},
            **{f"a{i:02}": {} for i in range(16)},
        }
    },
}


def upstream_of(declaration: dict[str, Any]) -> object:
    return upstream_schedule.of(own_io.Observations.model_validate(declaration))


def of_table(tables: list[perf_doc.Table]) -> bool:
    rows: list[list[str]] = []
    print(
        "\nof(declaration): ours (validates, then builds the schedule) against upstream's "
        "Observations.model_validate + of"
    )
    print(f"{'declaration':<30}{'target':>7}{'ours/up':>9}{'ours µs':>10}{'upstream µs':>13}  met")
    all_met = True
    for label, declaration in OF_DECLARATIONS.items():
        ours_s, theirs_s = best_of([partial(ours_schedule.of, declaration), partial(upstream_of, declaration)])
        met = ours_s <= theirs_s
        all_met &= met
        print(
            f"{label:<30}{1.0:>6.1f}x{ours_s / theirs_s:>8.2f}x{ours_s * 1e6:>10.1f}{theirs_s * 1e6:>13.1f}"
            f"  {'yes' if met else 'NO'}"
        )
        rows.append(
            [
                label,
                perf_doc.times(1.0),
                perf_doc.times(ours_s / theirs_s, 2),
                f"{ours_s * 1e6:.1f}",
                f"{theirs_s * 1e6:.1f}",
                "yes" if met else "**no**",
            ]
        )
    tables.append(
        perf_doc.Table(
            "`of(declaration)`: ours (validates, then builds the schedule) against upstream's "
            "`Observations.model_validate` + `of`.",
            ["declaration", "target", "ours/upstream", "ours µs", "upstream µs", "met"],
            rows,
        )
    )
    return all_met


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    perf_doc.add_option(parser)
    args = parser.parse_args(argv)
    run = perf_doc.begin("bench_validation", argv, args.write_docs)
    tables: list[perf_doc.Table] = []
    met = wire_table(tables)
    met &= of_table(tables)
    print("\nevery row within its target" if met else "\nsome rows miss their target (NO above)")
    run.write(tables, ["Every row is within its target." if met else "Some rows miss their target."])
    return 0


if __name__ == "__main__":
    sys.exit(main())
