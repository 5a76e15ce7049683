"""Benchmark of the validation API: instance → cost per call, as ratios against a parse-only baseline measured in
the same run (absolute times on a shared machine mean little).

Rows: a maximal ObserveRequest (MAX_STREAM_FRAMES frames, read from contract.json) and a typical Observations
declaration, each through (a) `json.loads` alone, the baseline, (b) the validation API with jsonschema, the
validator of record, (c) the API with the jsonschema-rs fast path. Run: `make bench`.
"""

from __future__ import annotations

import json
import timeit
from collections.abc import Callable
from functools import partial

from seq_io_ref.spec_data import load_spec
from seq_io_ref.validation import contract


def best_seconds(call: Callable[[], object], repeat: int = 5) -> float:
    """Best-of-`repeat` seconds per call, with the loop count sized to about 0.2 s a round."""
    timer = timeit.Timer(call)
    number, _ = timer.autorange()
    return min(timer.repeat(repeat=repeat, number=number)) / number


def instances() -> dict[str, tuple[str, str]]:
    frames = int(load_spec().limits["MAX_STREAM_FRAMES"])
    observe = {"episode_id": "ep-1", "skipped": [3, 7],
               "frames": [{"seq": i, "inputs": {"cam": f"frame-{i}", "state": [0.1, 0.2, 0.3]}}
                          for i in range(frames)]}
    observations = {"streams": {"cam": {"at": [0, -15], "camera": {"width": 224, "height": 224, "codec": "jpeg",
                                                                   "quality": 90}},
                                "state": {"every": 1}, "instruction": {}}, "pad": "drop"}
    return {f"ObserveRequest ({frames} frames)": ("ObserveRequest", json.dumps(observe)),
            "Observations (typical)": ("Observations", json.dumps(observations))}


def main() -> None:
    slow, fast = contract(), contract(fast=True)
    print(f"{'instance':<32}{'parse µs':>11}{'jsonschema µs':>15}{'x parse':>9}{'fast µs':>10}{'x parse':>9}"
          f"{'speed-up':>10}")
    for label, (type_name, text) in instances().items():
        assert slow.validate_text(type_name, text).valid and fast.validate_text(type_name, text).valid
        base = best_seconds(partial(json.loads, text))
        ours = best_seconds(partial(slow.validate_text, type_name, text), repeat=3)
        quick = best_seconds(partial(fast.validate_text, type_name, text))
        print(f"{label:<32}{base * 1e6:>11.1f}{ours * 1e6:>15.1f}{ours / base:>9.1f}{quick * 1e6:>10.1f}"
              f"{quick / base:>9.1f}{ours / quick:>9.1f}x")


if __name__ == "__main__":
    main()
