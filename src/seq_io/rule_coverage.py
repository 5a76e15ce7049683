"""Normative prose + vector groups → which rule ids are defined, where, and how many cases exercise each.

Every normative rule of spec/schedule.md, spec/stream.md and spec/uploader.md carries a stable id written
`**[SCH-PICKS-WINDOW]**` (like test262's `esid`), and every vector group lists the ids it exercises in `rules:` (a
stream or uploader scenario may add its own in the case's `rules:`). `iospec rules` prints the table and fails
when a rule is defined twice, when no vector exercises a rule, or when a group names a rule the prose does not
define: a rule nobody tests is a rule nobody can rely on.
"""

from __future__ import annotations

import argparse
import re
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

from seq_io import vectors
from seq_io.reference.spec_data import default_spec_root

RULE_ID = re.compile(r"\[([A-Z]+(?:-[A-Z0-9]+)+)\]")
PROSE_FILES = ("schedule.md", "stream.md", "uploader.md")


@dataclass
class Coverage:
    defined: dict[str, list[str]]  # id -> the "file:line" places that define it
    cases: Counter[str]  # id -> number of cases in groups that list it
    listed_undefined: set[str]

    @property
    def unexercised(self) -> list[str]:
        return sorted(rule for rule in self.defined if self.cases[rule] == 0)

    @property
    def defined_twice(self) -> list[str]:
        return sorted(rule for rule, places in self.defined.items() if len(places) > 1)

    @property
    def ok(self) -> bool:
        return not (self.unexercised or self.defined_twice or self.listed_undefined)


def defined_rules(spec_root: Path) -> dict[str, list[str]]:
    """Rule ids written in bracketed form in the normative prose, with where each stands."""
    found: dict[str, list[str]] = {}
    for name in PROSE_FILES:
        lines = (spec_root / name).read_text(encoding="utf-8").splitlines()
        for number, line in enumerate(lines, start=1):
            for rule in RULE_ID.findall(line):
                found.setdefault(rule, []).append(f"spec/{name}:{number}")
    return found


def coverage(files: list[vectors.VectorFile], spec_root: Path | None = None) -> Coverage:
    defined = defined_rules(spec_root or default_spec_root())
    cases: Counter[str] = Counter()
    for vector_file in files:
        for group in vector_file.doc["groups"]:
            for case in group["cases"]:
                for rule in {*group.get("rules", []), *case.get("rules", [])}:
                    cases[rule] += 1
    listed = {rule for rule in cases if RULE_ID.fullmatch(f"[{rule}]")}
    return Coverage(defined, cases, listed - set(defined))


def _run(_: argparse.Namespace) -> int:
    files, problems = vectors.load_suite()
    for problem in problems:
        print(problem)
    report = coverage(files)
    print(f"{'rule':<30}{'cases':>7}  defined at")
    for rule in sorted(report.defined):
        print(f"{rule:<30}{report.cases[rule]:>7}  {', '.join(report.defined[rule])}")
    for rule in report.unexercised:
        print(f"no vector exercises {rule}")
    for rule in report.defined_twice:
        print(f"{rule} is defined more than once: {', '.join(report.defined[rule])}")
    for rule in sorted(report.listed_undefined):
        print(f"vector groups list {rule}, which the prose does not define")
    print(f"{len(report.defined)} rules, {len(report.unexercised)} without a vector")
    return 0 if report.ok and not problems else 1


def register(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = commands.add_parser("rules", help="list the normative rules and the vectors that exercise them")
    parser.set_defaults(func=_run)
