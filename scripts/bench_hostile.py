"""Benchmark of validation on hostile documents: each adversarial text → its refusal (rule id) and the time to decide
it, as a ratio to `json.loads` of the same text measured in the same run → a table, and whether each is within 20x.

Why this shape: a validator must not be made to work much harder than reading the text costs. `json.loads` is the
baseline a reader cannot avoid (where it fails, as on an integer of 4,301 digits or a text nested 100,000 deep, its
time to fail). Each document is first checked to be refused with the rule the limits of spec/validation.md name,
so a fast wrong answer cannot pass. The default path (jsonschema-rs and jiter where they import) is the one timed;
the pure-Python path of record is timed too, for the record. Every `uniqueItems` of spec/schemas, at every place a
type reaches it (seq_io_maint/unique_positions.py: `Observations.streams.a.at` as well as `Stream.at`), gets two
rows: 10,000 distinct objects (past its `maxItems`, refused by the size alone) and a full array of wide objects
alike but for their last member, the last one a repeat (refused by `uniqueItems`, on objects jsonschema cannot sort:
its own check compares every pair, member by member). Run:
`make bench`; with `--write-docs`, the table also goes, as Markdown with the date and the load average, into
section `bench_hostile` of docs/performance.md (seq_io_maint/perf_doc.py).
"""

from __future__ import annotations

import argparse
import json
import sys
import timeit
from collections.abc import Callable
from dataclasses import dataclass

from seq_io.reference.validation import Contract, contract
from seq_io_maint import perf_doc, unique_positions

TARGET = 20.0


@dataclass(frozen=True)
class Hostile:
    label: str
    type_name: str
    text: str
    path: str
    rule: str


def documents() -> list[Hostile]:
    many_keys = ", ".join(f'"k{i}": {{}}' for i in range(100_000))
    frames = ", ".join(f'{{"seq": {i}, "inputs": {{"state": [0.1, 0.2, 0.3]}}}}' for i in range(100_000))
    return [
        Hostile(
            "integer of 4,301 digits",
            "ObserveFrame",
            '{"seq": 0, "inputs": 1' + "0" * 4300 + "}",
            "$.inputs",
            "wire.integer-too-long",
        ),
        Hostile(
            "integer of 1,000,000 digits",
            "ObserveFrame",
            '{"seq": 0, "inputs": 1' + "0" * 999_999 + "}",
            "$.inputs",
            "wire.integer-too-long",
        ),
        Hostile("nested 1,000 deep", "ActRequest", '{"inputs": ' + "[" * 1000 + "]" * 1000 + "}", "$", "wire.too-deep"),
        Hostile("nested 100,000 deep, unclosed", "ActRequest", "[" * 100_000, "$", "wire.too-deep"),
        Hostile(
            "100,000 stream keys", "Observations", '{"streams": {' + many_keys + "}}", "$.streams", "maxProperties"
        ),
        Hostile(
            "a stream key of 1,000,000 chars",
            "Observations",
            '{"streams": {"' + "k" * 1_000_000 + '": {}}}',
            "$.streams",
            "Observations.stream-key",
        ),
        Hostile(
            "an unknown key of 10,000,000 chars",
            "Stream",
            '{"' + "x" * 10_000_000 + '": 1}',
            "$",
            "additionalProperties",
        ),
        Hostile(
            "100,000 duplicate keys",
            "ActRequest",
            '{"inputs": {' + ", ".join('"a": 1' for _ in range(100_000)) + "}}",
            "$.inputs",
            "wire.duplicate-key",
        ),
        Hostile(
            "100,000 overflowing numbers",
            "ActRequest",
            '{"inputs": [' + ", ".join("1e400" for _ in range(100_000)) + "]}",
            "$.inputs[0]",
            "wire.non-finite-number",
        ),
        Hostile(
            "episode_id of 10,000,000 chars",
            "ObserveRequest",
            '{"episode_id": "' + "e" * 10_000_000 + '"}',
            "$.episode_id",
            "maxLength",
        ),
        Hostile(
            "100,000 frames, the last one refused",
            "ObserveRequest",
            '{"episode_id": "e", "frames": [' + frames + ', {"seq": -1, "inputs": null}]}',
            "$.frames[100000].seq",
            "minimum",
        ),
        Hostile(
            "models: 1,000,000 names",
            "DeploymentPolicy",
            '{"handler_ref": "h", "models": [' + ", ".join(f'"o/m{i}"' for i in range(1_000_000)) + "]}",
            "$.models",
            "maxItems",
        ),
        *unique_documents(),
    ]


LARGE = 10_000
MEMBERS = 1_000
"""Members of each object of a full array: objects that differ only in their last member make every pairwise
comparison walk all of them, so jsonschema's own check costs items squared times members."""


def unique_documents() -> list[Hostile]:
    """Two documents per place a `uniqueItems` is judged: 10,000 distinct objects (past its `maxItems`), and as
    many objects of 1,000 members as it may hold (256 where it has no `maxItems`), alike but for their last member,
    the last object equal to the first."""
    found: list[Hostile] = []
    same = ", ".join(f'"m{index}": 0' for index in range(MEMBERS - 1))
    for position in unique_positions.positions():
        limit = position.max_items
        if limit is None or limit < LARGE:
            objects = [{"i": i} for i in range(LARGE)]
            rule = "uniqueItems" if limit is None else "maxItems"
            text = json.dumps(position.instance([*objects, objects[0]] if limit is None else objects))
            found.append(
                Hostile(
                    f"{LARGE:,} distinct objects at {position.label}", position.type_name, text, position.path, rule
                )
            )
        count = 256 if limit is None else min(limit, 256)
        marker = "\u0000ARRAY\u0000"
        wide = "[" + ", ".join(f'{{{same}, "last": {i % (count - 1)}}}' for i in range(count)) + "]"
        text = json.dumps(position.instance([marker])).replace(json.dumps([marker]), wide)
        found.append(
            Hostile(
                f"{count} objects of {MEMBERS:,} members, a repeat, at {position.label}",
                position.type_name,
                text,
                position.path,
                "uniqueItems",
            )
        )
    return found


def best_seconds(call: Callable[[], object], repeat: int = 3) -> float:
    timer = timeit.Timer(call)
    number = max(1, timer.autorange()[0] // 4)
    return min(timer.repeat(repeat=repeat, number=number)) / number


def _loads(text: str) -> object:
    try:
        return json.loads(text)
    except (ValueError, RecursionError) as error:
        return error


def decided(the_contract: Contract, hostile: Hostile) -> bool:
    outcome = the_contract.validate_text(hostile.type_name, hostile.text)
    return any((issue.path, issue.rule) == (hostile.path, hostile.rule) for issue in outcome.issues)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    perf_doc.add_option(parser)
    args = parser.parse_args(argv)
    run = perf_doc.begin("bench_hostile", argv, args.write_docs)
    rows: list[list[str]] = []
    fast, slow = contract(), contract(fast=False)
    print(f"Hostile documents: time to refuse, against json.loads of the same text (target: within {TARGET:.0f}x)")
    print(
        f"{'document':<64}{'MB':>7}{'rule':>26}{'json.loads ms':>15}{'ours ms':>10}{'x loads':>9}"
        f"{'pure-Python ms':>16}  met"
    )
    all_met = True
    for hostile in documents():
        assert decided(fast, hostile), hostile.label
        assert decided(slow, hostile), hostile.label
        base = best_seconds(lambda h=hostile: _loads(h.text))  # type: ignore[misc]
        ours = best_seconds(lambda h=hostile: fast.validate_text(h.type_name, h.text))  # type: ignore[misc]
        pure = best_seconds(lambda h=hostile: slow.validate_text(h.type_name, h.text), repeat=1)  # type: ignore[misc]
        met = ours <= TARGET * base
        all_met &= met
        print(
            f"{hostile.label:<64}{len(hostile.text) / 1e6:>7.2f}{hostile.rule:>26}{base * 1e3:>15.3f}"
            f"{ours * 1e3:>10.3f}{ours / base:>8.1f}x{pure * 1e3:>16.3f}  {'yes' if met else 'NO'}"
        )
        rows.append(
            [
                hostile.label,
                f"{len(hostile.text) / 1e6:.2f}",
                f"`{hostile.rule}`",
                f"{base * 1e3:.3f}",
                f"{ours * 1e3:.3f}",
                perf_doc.times(ours / base),
                f"{pure * 1e3:.3f}",
                "yes" if met else "**no**",
            ]
        )
    print("every document refused within the target" if all_met else "some documents miss the target (NO above)")
    table = perf_doc.Table(
        f"Time to refuse each document on the default path, against `json.loads` of the same text (target: "
        f"within {perf_doc.times(TARGET, 0)}); each was first checked to be refused with its rule on both paths.",
        ["document", "MB", "refused by", "json.loads ms", "ours ms", "ours/json.loads", "pure-Python ms", "met"],
        rows,
    )
    run.write(
        [table], ["Every document was refused within the target." if all_met else "Some documents miss the target."]
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
