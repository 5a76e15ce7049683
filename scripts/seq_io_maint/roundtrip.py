"""A binding's round-trip program + every valid validation vector → decode, write back, compare → a verdict per case.

spec/validation.md "Writing an instance" is what a binding's types must keep: absent stays absent, `null` stays
`null`, no default is written, every number keeps its value under the spec's number model ("Language-neutral
decisions": `9007199254740993.0` is that integer, `0.10000000000000001` is the double 0.1) and an integer literal
stays an integer literal (`15`, never `15.0`); opaque values come back unchanged; member order is free. A literal
with a fraction written back as an integer of the same value (`2.0` → `2`) keeps the value, which is what the
spec requires (keeping the kind there is a SHOULD), so it passes. This module checks on text, since the literal
kind is gone once a value is parsed in most languages.

The program under test speaks JSON Lines on stdin/stdout, one answer per request, in order:
  request  {"id": "...", "type_name": "Camera", "json": "<the instance's text>"}
  answer   {"id": "...", "json": "<the text its types wrote back>"}  or  {"id": "...", "error": "<a sentence>"}
and exits when stdin closes. The whole run has one time bound; a program that stops answering fails the run.

    python -m seq_io_maint.roundtrip --lang go --impl "bindings/go/bin/roundtrip" [--report reports/bindings/go.json]
"""

from __future__ import annotations

import argparse
import json
import shlex
import subprocess
import sys
from dataclasses import dataclass
from decimal import Decimal
from pathlib import Path
from typing import Any

from seq_io import locate

CHECKOUT = locate.checkout_root() or locate.data_root()
VECTORS = CHECKOUT / "conformance" / "vectors.json"
TIMEOUT_S = 300
"""One bound for the whole run: a few hundred small documents, so minutes mean the program is stuck."""


@dataclass(frozen=True)
class Literal:
    """A number as written: its exact value and whether it was written as an integer (no fraction, no exponent)."""

    value: Decimal
    integer: bool


def number_value(literal: str) -> Decimal:
    """A literal's value under spec/validation.md "Language-neutral decisions": its exact decimal value when that is
    an integer (`9007199254740993.0` is that integer), otherwise the nearest double (`0.10000000000000001` is 0.1,
    `2.0000000000000001` is 2, `1e-400` is 0)."""
    exact = Decimal(literal)
    if exact == exact.to_integral_value():
        return exact
    return Decimal(float(literal))


def parse_exact(text: str) -> Any:
    """JSON text → Python values with every number a Literal (its value under the spec's model, and its kind)."""
    return json.loads(
        text,
        parse_int=lambda s: Literal(Decimal(s), True),
        parse_float=lambda s: Literal(number_value(s), False),
    )


def valid_cases() -> list[tuple[str, str, str]]:
    """(case id, type name, instance text) of every valid validation case in conformance/vectors.json."""
    bundle = json.loads(VECTORS.read_text(encoding="utf-8"))
    cases = []
    for entry in bundle["files"]:
        document = entry["document"]
        if document.get("kind") != "validation":
            continue
        for group in document.get("groups", []):
            for case in group["cases"]:
                if case.get("valid"):
                    text = case["json"] if "json" in case else json.dumps(case["instance"], ensure_ascii=False)
                    cases.append((case["id"], document["type"], text))
    return cases


def differences(sent: Any, got: Any, path: str) -> list[str]:
    """Where `got` (the text written back) departs from `sent` (the instance): members, `null`s, numbers by value."""
    if isinstance(sent, Literal):
        if not isinstance(got, Literal) or got.value != sent.value:
            return [f"{path}: sent {show(sent)}, written back {show(got)} (a different value)"]
        if sent.integer and not got.integer:
            return [f"{path}: the integer {show(sent)} was written back as {show(got)}"]
        return []
    if isinstance(sent, dict):
        if not isinstance(got, dict) or set(got) != set(sent):
            return [f"{path}: sent {show(sent)}, written back {show(got)}"]
        return [d for k in sent for d in differences(sent[k], got[k], f"{path}[{json.dumps(k)}]")]
    if isinstance(sent, list):
        if not isinstance(got, list) or len(got) != len(sent):
            return [f"{path}: sent {show(sent)}, written back {show(got)}"]
        return [d for i, (s, g) in enumerate(zip(sent, got, strict=True)) for d in differences(s, g, f"{path}[{i}]")]
    if type(sent) is not type(got) or sent != got:
        return [f"{path}: sent {show(sent)}, written back {show(got)}"]
    return []


def show(value: Any) -> str:
    if isinstance(value, Literal):
        return str(value.value) if value.integer else f"{value.value} (with a fraction or exponent)"
    text = json.dumps(value, ensure_ascii=False, default=str)
    return text if len(text) <= 80 else text[:77] + "..."


def run_program(impl: str, cases: list[tuple[str, str, str]]) -> dict[str, dict[str, Any]]:
    """Send every case to the program at once, read one answer per case; a bad line or a timeout fails the run."""
    requests = "".join(
        json.dumps({"id": i, "type_name": t, "json": text}, ensure_ascii=False) + "\n" for i, t, text in cases
    )
    completed = subprocess.run(
        shlex.split(impl), input=requests, capture_output=True, text=True, timeout=TIMEOUT_S, check=False, cwd=CHECKOUT
    )
    answers: dict[str, dict[str, Any]] = {}
    for number, line in enumerate(completed.stdout.splitlines(), 1):
        try:
            answer = json.loads(line)
            answers[str(answer["id"])] = answer
        except (ValueError, KeyError, TypeError):
            raise SystemExit(
                f"roundtrip: line {number} of the program's output is not an answer: {line[:200]!r}"
            ) from None
    if completed.returncode != 0:
        raise SystemExit(f"roundtrip: the program exited with {completed.returncode}: {completed.stderr[-1000:]}")
    return answers


def judge(cases: list[tuple[str, str, str]], answers: dict[str, dict[str, Any]]) -> dict[str, list[str]]:
    """Case id → its differences (an empty list when the case round-trips)."""
    verdicts: dict[str, list[str]] = {}
    for case_id, _type_name, text in cases:
        answer = answers.get(case_id)
        if answer is None:
            verdicts[case_id] = ["no answer"]
        elif "error" in answer:
            verdicts[case_id] = [f"refused to decode a valid instance: {answer['error']}"]
        else:
            written = parse_exact(str(answer["json"]))
            verdicts[case_id] = differences(parse_exact(text), written, "$")
    return verdicts


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="roundtrip", description=__doc__.splitlines()[0])
    parser.add_argument("--lang", required=True, help="the binding's name, for the report")
    parser.add_argument("--impl", required=True, help="the command that starts the round-trip program")
    parser.add_argument("--report", type=Path, help="write {lang, cases, exact, failures} as JSON here")
    args = parser.parse_args(argv)
    cases = valid_cases()
    try:
        answers = run_program(args.impl, cases)
    except subprocess.TimeoutExpired:
        print(f"roundtrip: the program did not finish within {TIMEOUT_S} s", file=sys.stderr)
        return 1
    except OSError as error:
        print(f"roundtrip: cannot start {args.impl!r}: {error}", file=sys.stderr)
        return 2
    verdicts = judge(cases, answers)
    failures = {case_id: found for case_id, found in verdicts.items() if found}
    for case_id, found in failures.items():
        print(f"FAIL {case_id}: " + "; ".join(found[:3]) + (f" (+{len(found) - 3} more)" if len(found) > 3 else ""))
    exact = len(cases) - len(failures)
    print(f"{args.lang}: {exact}/{len(cases)} valid vectors round-trip exactly")
    if args.report:
        args.report.parent.mkdir(parents=True, exist_ok=True)
        report = {"lang": args.lang, "cases": len(cases), "exact": exact, "failures": failures}
        args.report.write_text(json.dumps(report, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
