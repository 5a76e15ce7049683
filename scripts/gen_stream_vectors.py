"""Seeds → long stream scenarios (robots posting thousands of frames in several interleaved episodes, out of order,
with resends, skips, waits, failures and idle ends) → their expected outcomes from the brute-force model →
conformance/vectors/stream/long-*.yaml.

WHY it exists: hand-written scenarios pin each rule of spec/stream.md in a few operations; these pin what only
volume shows (retention over thousands of acts, a line far above `through`, several episodes sharing the worker's
byte limit). Their expectations come from scripts/seq_io_maint/stream_model.py, a brute-force model written from
the prose's definitions, never from the reference keeper (src/seq_io/reference/keeper.py), which the vectors then
check. The output is deterministic (seeded), so `--check` (run by tests/test_stream_vectors.py) regenerates it and
fails on any byte of drift. A scenario's id is fixed by its seed: add scenarios with new seeds, never change what an
existing seed generates (an id never changes meaning, conformance/README.md).

Run: `python scripts/gen_stream_vectors.py` (write) or `python scripts/gen_stream_vectors.py --check`.
"""

from __future__ import annotations

import json
import random
import sys
from dataclasses import dataclass
from typing import Any

from seq_io_maint.generated_vectors import write_or_check
from seq_io_maint.stream_model import play

PREFIX = "str-long"
FILES = {"long-a.yaml": range(1, 4), "long-b.yaml": range(4, 7)}
"""Output file → the seeds (and case numbers) it holds."""

DECLARATIONS: list[Any] = [
    {"every": 1},
    {"streams": {"cam": {"at": [-8, 0]}, "s": {"every": 4}}},
    {"every": 3},
    {"streams": {"cam": {"at": [-3, -1]}, "st": {}}, "pad": "drop"},
    None,
    {"streams": {"cam": {"at": [-5, 0]}, "st": {}}},
    {"every": 2, "pad": "drop"},
    {"streams": {"s": {"every": 2}, "st": {}}},
    {"streams": {"cam": {"at": [-12, -6, 0]}}},
    {"streams": {}},
]


@dataclass
class Robot:
    """One episode's robot: makes frames 0..steps-1, posts them in batches (some late, some twice, some left out and
    declared skipped), and acts every few steps."""

    episode_id: str
    steps: int
    act_every: int
    keyed: bool
    rng: random.Random
    made: int = 0
    last_act: int = -1

    def inputs(self, number: int) -> Any:
        return {"cam": number, "s": number, "st": number % 7} if self.keyed else number

    def operations(self) -> list[dict[str, Any]]:
        """This robot's requests in its own order (the scenario interleaves robots)."""
        ops: list[dict[str, Any]] = []
        sent: list[list[dict[str, Any]]] = []
        held_back: list[dict[str, Any]] = []
        dropped: list[int] = []
        while self.made < self.steps:
            size = self.rng.randint(1, 12)
            batch = [{"seq": n, "inputs": self.inputs(n)} for n in range(self.made, min(self.steps, self.made + size))]
            self.made += len(batch)
            keep = []
            for frame in batch:
                roll = self.rng.random()
                if roll < 0.02:
                    dropped.append(frame["seq"])
                elif roll < 0.06:
                    held_back.append(frame)  # arrives late, in a later post
                else:
                    keep.append(frame)
            if held_back and self.rng.random() < 0.6:
                keep += held_back
                held_back = []
            if self.rng.random() < 0.05 and keep:
                keep.append(dict(keep[0], inputs="resent"))  # a duplicate inside one post
            self.rng.shuffle(keep)
            body: dict[str, Any] = {"episode_id": self.episode_id, "frames": keep}
            if dropped and self.rng.random() < 0.8:
                body["skipped"] = dropped
                dropped = []
            ops.append({"observe": body})
            sent.append(keep)
            if self.rng.random() < 0.05 and len(sent) > 3:  # a resend of an older post, often after retention
                old = self.rng.choice(sent[:-1])
                ops.append({"observe": {"episode_id": self.episode_id, "frames": old}})
            t = self.made - 1
            if t - self.last_act >= self.act_every:
                act = {"act": {"episode_id": self.episode_id, "seq": t, "inputs": self.inputs(t)}}
                ops.insert(len(ops) - (1 if self.rng.random() < 0.3 else 0), act)  # sometimes before its frames
                self.last_act = t
        rest: dict[str, Any] = {"episode_id": self.episode_id, "frames": held_back}
        if dropped:
            rest["skipped"] = dropped
        ops.append({"observe": rest})
        return ops


def scenario(seed: int) -> dict[str, Any]:
    """The scenario of one seed: its setup and its operations, interleaving 2 to 4 robots with clock advances."""
    rng = random.Random(seed)
    declaration = DECLARATIONS[(seed - 1) % len(DECLARATIONS)]
    keyed = isinstance(declaration, dict) and "streams" in declaration
    robots = [
        Robot(f"ep-{seed}-{k}", rng.randint(350, 850), rng.randint(1, 9), keyed, random.Random(seed * 100 + k))
        for k in range(rng.randint(2, 4))
    ]
    queues = [robot.operations() for robot in robots]
    idle = 10 if seed % 2 else None
    operations: list[dict[str, Any]] = []
    while any(queues):
        queue = rng.choice([q for q in queues if q])
        operations.append(queue.pop(0))
        roll = rng.random()
        if roll < 0.003 and idle is None:
            operations.append({"advance": 10.5})  # waiting acts fail; without an idle timeout no episode ends
        elif roll < 0.3:
            operations.append({"advance": rng.choice([0.01, 0.02, 0.05, 0.1])})
    if idle is not None:  # every episode ends at once, and its id is forgotten: a post then starts afresh
        operations += [{"advance": 25}, {"observe": {"episode_id": robots[0].episode_id, "frames": []}}]
    setup: dict[str, Any] = {"declaration": declaration, "episode_idle": idle}
    if seed % 3 == 0:
        setup["limits"] = {"MAX_STREAM_FRAMES": 40, "MAX_STREAM_BYTES": 1600, "MAX_WORKER_STREAM_BYTES": 2600}
    return setup | {"operations": operations}


RULES_OF_OUTCOME = {
    "stream.frames-missing": "STR-ACT-MISSING",
    "stream.frames-over-limit": "STR-LIMIT-CHECK",
    "stream.act-over-limit": "STR-ACT-BOUND",
    "stream.episode-ended": "STR-ENDED",
    "stream.act-not-after-previous": "STR-ACT-ORDER",
}


def rules_of(outcomes: list[dict[str, Any]], operations: list[dict[str, Any]]) -> list[str]:
    rules = {"STR-THROUGH", "STR-FIRST-WINS", "STR-POST-ORDER", "STR-RETENTION", "STR-ACT-HANDOVER", "STR-EPISODE"}
    for index, outcome in enumerate(outcomes):
        if "error" in outcome:
            rules.add(RULES_OF_OUTCOME.get(outcome["error"], "STR-HTTP"))
        if "handed" in outcome and outcome.get("at", index) != index:
            rules.add("STR-ACT-COMPLETE")
        if outcome.get("ended"):
            rules.add("STR-IDLE")
    if any("skipped" in op.get("observe", {}) for op in operations):
        rules.add("STR-ACT-SKIPPED")
    return sorted(rules)


def _flow(value: Any) -> str:
    """A JSON value as a YAML flow node (JSON is YAML; keys and strings quoted, so nothing is read as another type)."""
    return json.dumps(value, ensure_ascii=False, separators=(", ", ": "))


def render(seed: int) -> str:
    data = scenario(seed)
    outcomes = play(data)
    counts = {name: sum(1 for op in data["operations"] if name in op) for name in ("observe", "act", "advance")}
    frames = sum(len(op["observe"].get("frames", [])) for op in data["operations"] if "observe" in op)
    episodes = len({op[k]["episode_id"] for op in data["operations"] for k in ("observe", "act") if k in op})
    why = (
        f"Generated from seed {seed}: {episodes} robots interleaved, {frames} frames in {counts['observe']} posts "
        f"(out of order, late, resent, some left out and declared skipped), {counts['act']} acts, "
        f"{counts['advance']} clock advances. Expectations computed by the brute-force model of "
        "scripts/seq_io_maint/stream_model.py from spec/stream.md, not by the reference keeper."
    )
    lines = [
        f"      - id: {PREFIX}-{seed:04d}",
        f"        why: {_flow(why)}",
        f"        rules: {_flow(rules_of(outcomes, data['operations']))}",
        f"        declaration: {_flow(data['declaration'])}",
        f"        episode_idle: {_flow(data['episode_idle'])}",
    ]
    if "limits" in data:
        lines.append(f"        limits: {_flow(data['limits'])}")
    lines.append("        operations:")
    for operation, outcome in zip(data["operations"], outcomes, strict=True):
        name = next(iter(operation))
        lines.append(f"          - {{{name}: {_flow(operation[name])}, expect: {_flow(outcome)}}}")
    return "\n".join(lines)


def file_text(seeds: range) -> str:
    head = [
        "# GENERATED by scripts/gen_stream_vectors.py: do not edit (`--check` fails on any drift).",
        "# Expectations come from the brute-force model scripts/seq_io_maint/stream_model.py, written from the",
        "# definitions of spec/stream.md, never from the reference keeper these vectors check.",
        "$schema: ../../schema/vector-file.schema.json",
        "kind: stream",
        f"id_prefix: {PREFIX}",
        "description: >-",
        "  Long generated scenarios of spec/stream.md: robots posting thousands of frames in interleaved episodes.",
        "groups:",
        "  - group: robots-" + f"{seeds.start}-{seeds.stop - 1}",
        "    why: >-",
        "      Robots stream every observation of their episodes as spec/stream.md describes, with the faults a",
        "      real link has; each case states how many frames and acts, and which rules its outcomes exercise.",
        "    cases:",
    ]
    return "\n".join(head + [render(seed) for seed in seeds]) + "\n"


def main(argv: list[str] | None = None) -> int:
    return write_or_check("scripts/gen_stream_vectors.py", "stream", PREFIX, FILES, file_text, argv)


if __name__ == "__main__":
    sys.exit(main())
