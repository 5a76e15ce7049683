"""`iospec run`: argv → the testee started from `--impl` and its handshake → the vector files of the contract version
it declares (`contracts`) and the expected-failure list → the selected cases through `run.run_cases` → summary,
JUnit, TAP and JSON reports (and, with `--fix`, the list rewritten; `.iospec_cache/lastfailed.json` updated) → exit
code 0 only when every case is acceptable (with `--fix`: acceptable to the rewritten list), 1 when one is not, 2
when the command was used wrongly (a filter that selects nothing is such a mistake) or the testee failed its
handshake.

WHY it is apart from the loop: the command's checks of its own arguments (exit 2), where reports go and how the
list is rewritten are the command's business; `run` stays the one loop both testees share. The handshake comes
before the vectors are read: a testee that cannot start, or answers the hello wrongly, can run no case, so the
run ends within seconds with one line saying why (and what to do) instead of a report of every case not run;
the reports asked for still record it, as a run problem of source `handshake`. `--collect-only` starts no
testee at all.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shlex
import sys
import time
from collections.abc import Sequence
from pathlib import Path

from seq_io.reference.spec_data import load_spec
from seq_io.runner import contracts, github, lastfailed, reports, xfail
from seq_io.runner.kinds import KINDS
from seq_io.runner.protocol import UNCARRIED, Broken, Traffic, runner_hello
from seq_io.runner.reports import Problem, Report, printable
from seq_io.runner.run import DEFAULT_TIMEOUT, MAX_TIMEOUTS, START_TIMEOUT, StdioTestee, rejudged, run_cases
from seq_io.runner.suite import SuiteCase, load_cases, select
from seq_io.runner.xfail import ExpectedFailures, XfailError
from seq_io.vector_index import Filters
from seq_io.vectors import Problem as SuiteProblem
from seq_io.vectors import relative


def _positive(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of seconds") from None
    if not value > 0:
        raise argparse.ArgumentTypeError("a timeout must be more than 0 seconds")
    return value


def _count(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if value < 0:
        raise argparse.ArgumentTypeError("a count cannot be negative")
    return value


def _kind(text: str) -> str:
    """A kind as the protocol spells it; the folder's spelling (`rows-of`) is accepted for `rows_of`."""
    kind = text.replace("-", "_")
    if kind not in KINDS:
        raise argparse.ArgumentTypeError(f"{text!r} is not a case kind; the kinds are {', '.join(KINDS)}")
    return kind


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--impl",
        metavar="COMMAND",
        help="the testee's command line, split like a POSIX shell, run in the current folder "
        '(e.g. "python -m seq_io.reference.testee"); required unless --collect-only',
    )
    parser.add_argument(
        "--vectors",
        type=Path,
        metavar="DIR",
        help="the folder of vector files (default: those of the contract version the testee declares: "
        "conformance/vectors for the package's own, spec/releases/<version>/vectors for an older release)",
    )
    parser.add_argument(
        "--id",
        action="append",
        default=[],
        metavar="ID",
        help="run the cases whose id matches this pattern (shell-style; repeatable)",
    )
    parser.add_argument(
        "--group",
        action="append",
        default=[],
        metavar="G",
        help="run the groups matching this pattern: kind folder/file/group, e.g. "
        "'schedule/windows/*', or a bare group name (repeatable)",
    )
    parser.add_argument(
        "--tag",
        action="append",
        default=[],
        metavar="T",
        help="run the cases carrying this tag (theirs or their group's; repeatable)",
    )
    parser.add_argument(
        "--kind",
        action="append",
        default=[],
        type=_kind,
        metavar="K",
        help=f"run the cases of this kind: {', '.join(KINDS)} (the folder spelling, rows-of, is "
        "accepted too; repeatable)",
    )
    parser.add_argument(
        "--timeout",
        type=_positive,
        default=DEFAULT_TIMEOUT,
        metavar="S",
        help=f"seconds to wait for each answer (default {DEFAULT_TIMEOUT:g})",
    )
    parser.add_argument(
        "--start-timeout",
        type=_positive,
        default=START_TIMEOUT,
        metavar="S",
        help=f"seconds to wait for the testee's hello (default {START_TIMEOUT:g})",
    )
    parser.add_argument(
        "--max-timeouts",
        type=_count,
        default=MAX_TIMEOUTS,
        metavar="N",
        help=f"stop the run when the testee has not answered N cases in a row within the "
        f"timeout; the rest are recorded as not run (default {MAX_TIMEOUTS}; 0: never stop)",
    )
    parser.add_argument(
        "--xfail",
        type=Path,
        metavar="FILE",
        help="the expected-failure list (JSON; conformance/schema/xfail.schema.json)",
    )
    parser.add_argument(
        "--fix",
        action="store_true",
        help="rewrite the --xfail list to match this run (created when missing); the exit "
        "code then judges the run against the rewritten list",
    )
    parser.add_argument(
        "--validate-traffic",
        action="store_true",
        help="check every message against its schema in conformance/protocol/",
    )
    parser.add_argument("--junit", type=Path, metavar="F", help="write a JUnit XML report")
    parser.add_argument("--tap", type=Path, metavar="F", help="write a TAP 14 report")
    parser.add_argument(
        "--json", type=Path, metavar="F", help="write the JSON report (conformance/schema/report.schema.json)"
    )
    parser.add_argument(
        "--annotations",
        choices=["github", "none"],
        help="github: print a GitHub Actions ::error command per case that fails the run, at its vector's file "
        "and line (default: github when GITHUB_ACTIONS is true, else none)",
    )
    parser.add_argument(
        "--summary-md",
        type=Path,
        metavar="F",
        help="write a Markdown summary of the run (counts per kind, the failing cases); without it the summary "
        "is appended to $GITHUB_STEP_SUMMARY when that is set",
    )
    parser.add_argument("--show", type=int, default=20, metavar="N", help="failing cases shown in full (default 20)")
    parser.add_argument(
        "--collect-only",
        action="store_true",
        help="list the selected cases (id and file:line; with -q ids only) and exit; no testee is started",
    )
    parser.add_argument(
        "--contract",
        metavar="VERSION",
        help="with --collect-only: list the cases of this contract version the runner carries (default: the "
        "newest; a run takes the version from the testee's hello)",
    )
    parser.add_argument(
        "--last-failed",
        "--lf",
        action="store_true",
        help=f"run only the selected cases that failed last time in this folder ({lastfailed.CACHE_FILE}, "
        "updated by every run); every selected case when none did",
    )
    parser.add_argument(
        "-x",
        "--exitfirst",
        action="store_true",
        help="stop at the first case that is not acceptable; the rest are recorded as not run",
    )
    parser.add_argument(
        "-q", "--quiet", action="store_true", help="print only the failures and the last line (no tables)"
    )


def _announce(text: str) -> None:
    print(f"iospec run: {text}", file=sys.stderr, flush=True)


def _expected(args: argparse.Namespace) -> ExpectedFailures:
    if args.xfail is None:
        return ExpectedFailures()
    if args.fix and not args.xfail.exists():
        return ExpectedFailures()
    return xfail.load(args.xfail)


def _write(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8", errors="backslashreplace")


def _fix(args: argparse.Namespace, expected: ExpectedFailures, report: Report, suite: list[SuiteCase]) -> Report:
    """Rewrite the list to match the run; the run judged against the rewritten list (without the problems of
    entries naming no case, which the rewrite removed)."""
    new = xfail.fixed(expected, [(r.case, r.verdict) for r in report.records], suite)
    old_entries = {e.label: e for e in expected.all_entries()}
    new_entries = {e.label: e for e in new.all_entries()}
    added = new_entries.keys() - old_entries.keys()
    removed = old_entries.keys() - new_entries.keys()
    changed = [label for label in new_entries.keys() & old_entries.keys() if new_entries[label] != old_entries[label]]
    _write(args.xfail, xfail.dump(new))
    print(
        f"wrote {args.xfail}: {len(new_entries)} entries ({len(added)} added, {len(removed)} removed, "
        f"{len(changed)} changed); the summary below judges the run against it"
    )
    fixed = rejudged(report, new)
    fixed.problems = [p for p in fixed.problems if p.source != "expected-failures"]
    return fixed


def _no_match_hint(suite: list[SuiteCase]) -> list[str]:
    """The id prefixes of the suite, by folder, with what each file is."""
    by_folder: dict[str, list[str]] = {}
    for case in suite:
        folder = case.group.split("/", 1)[0]
        prefix = case.id.rsplit("-", 1)[0] + "-"
        if prefix not in by_folder.setdefault(folder, []):
            by_folder[folder].append(prefix)
    return [
        "case ids are <id_prefix>-NNNN, the prefix set by each vector file (conformance/README.md, "
        '"Case ids"); the prefixes:',
        *(f"  {folder}/: {', '.join(prefixes)}" for folder, prefixes in sorted(by_folder.items())),
    ]


def _suggestion(pattern: str, suite: list[SuiteCase]) -> str:
    """`--id 'rows-*'` for `--id 'rows-of-*'`: the ids of the file or folder whose name the pattern starts with."""
    head = re.split(r"[*?\[]", pattern, maxsplit=1)[0].rstrip("-").replace("_", "-")
    for case in suite:
        stem = case.group.rsplit("/", 1)[0]
        if head and head in (stem, *stem.split("/"), case.kind.replace("_", "-")):
            prefix = case.id.rsplit("-", 1)[0]
            return (
                f"did you mean --id '{prefix}-*' (ids of {case.case.file}), --group '{stem}/*' or --kind {case.kind}?"
            )
    return ""


def _selection_problems(
    args: argparse.Namespace, suite: list[SuiteCase], contract: contracts.Contract | None = None
) -> list[str]:
    """A sentence for each filter that matches no case of the suite (a typo, or a wrong guess at the ids, or a
    kind the testee's contract version does not have)."""
    found: list[str] = []
    if contract is not None:
        found += [
            f"--kind {kind}: not in contract {contract.version}, whose vectors hold {', '.join(contract.kinds)}"
            for kind in args.kind
            if kind in contract.absent_kinds
        ]
    for pattern in args.id:
        if not select(suite, ids=[pattern]):
            found += [f"--id {pattern!r} matches no case id", *filter(None, [_suggestion(pattern, suite)])]
    for pattern in args.group:
        if not select(suite, groups=[pattern]):
            stems = sorted({case.group.rsplit("/", 1)[0] for case in suite})
            found.append(
                f"--group {pattern!r} matches no group; a group is <folder>/<file>/<group> or a bare "
                f"group name, the files are: {', '.join(stems[:12])}"
                + (f" and {len(stems) - 12} more" if len(stems) > 12 else "")
            )
    for tag in args.tag:
        if not select(suite, tags=[tag]):
            tags = sorted({tag for case in suite for tag in case.tags})
            found.append(f"--tag {tag!r} is carried by no case; the tags are {', '.join(tags)}")
    if found and args.id:
        found += _no_match_hint(suite)
    return found


def _empty_selection(
    args: argparse.Namespace, root: Path, unreadable: list[SuiteProblem], contract: contracts.Contract | None
) -> list[str]:
    """Why the selection is empty: the vector files that cannot be read (each as itself: file, line, path, what is
    wrong), else each filter that matches nothing in the whole suite; nothing when the suite has no case at all
    (the run then fails on its own)."""
    if unreadable:
        return [
            f"{len(unreadable)} problem(s) in the vector files, so no case could be selected:",
            *map(str, unreadable),
        ]
    suite, _ = load_cases(root)
    if not suite:
        return []
    nothing = "the filters (--id, --group, --tag, --kind) together select no case"
    return _selection_problems(args, suite, contract) or [nothing]


def shared_argument_problem(args: argparse.Namespace) -> str | None:
    """What is wrong with the arguments `iospec run` and `iospec probe` share (`--fix`, `--xfail`, `--vectors`)."""
    if args.fix and args.xfail is None:
        return "--fix needs --xfail FILE (the list to rewrite)"
    if args.vectors is not None and not args.vectors.is_dir():
        return f"{args.vectors} is not a folder of vector files"
    return None


def command_words(text: str, flag: str) -> list[str] | str:
    """A command line given as one flag's value (`--impl`, `--start`), split as a POSIX shell would; or what is wrong
    with it."""
    try:
        words = shlex.split(text)
    except ValueError as error:
        return f"{flag} cannot be split into words: {error}"
    return words if words else f"{flag} is empty"


def handshake_problem(broken: Broken, argv: list[str], contract_version: str, carried: Sequence[str] = ()) -> str:
    """One line for a testee that cannot be used: what went wrong, what it printed, and what to do."""
    printed = broken.printed
    said = [f"it ended with {printed.exit}"] if printed.exit else []
    refused = broken.detail.startswith("handshake refused: ")
    if printed.stdout.strip() and not refused:  # a refused hello is named by the reason
        said.append(f"its stdout began {printed.stdout.strip()[:120]!r}")
    last_words = [line for line in printed.stderr.splitlines() if line.strip()][-1:]
    said += [f"its stderr ended {line.strip()[:200]!r}" for line in last_words]
    if broken.timed_out:
        said.append("--start-timeout S waits longer")
    if broken.detail.startswith("cannot start"):
        what = broken.detail
        advice = 'check --impl: it must start your testee from this folder (e.g. --impl "python -m my_testee")'
    else:
        what = (
            f"the testee's hello was refused: {broken.detail.removeprefix('handshake refused: ')}"
            if refused
            else f"the testee failed its handshake: {broken.detail.removeprefix('handshake failed: ')}"
        )
        hello = json.dumps(runner_hello(contract_version, carried), separators=(",", ":"))
        advice = (
            "the hello's contract_version names the contract the testee implements, one of those "
            '(conformance/protocol.md, "Handshake")'
            if refused and UNCARRIED in broken.detail
            else "a testee answers the runner's hello with its own, as its first line on stdout "
            f"(conformance/protocol.md, \"Handshake\"); try: echo '{hello}' | {shlex.join(argv)}"
        )
    return "; ".join([what, *said, advice])


def _annotate(args: argparse.Namespace, report: Report) -> None:
    """`--annotations github` (the default when GITHUB_ACTIONS is true): an ::error command per case that fails
    the run and per run problem, on standard output."""
    if (args.annotations or ("github" if os.environ.get("GITHUB_ACTIONS") == "true" else "none")) == "github":
        print(github.error_commands(report), end="")


def _write_reports(args: argparse.Namespace, report: Report) -> str | None:
    """Write the reports asked for (and the Markdown summary: to --summary-md, else appended to
    $GITHUB_STEP_SUMMARY when set, where GitHub gathers a step's summary); what went wrong, if anything."""
    try:
        for path, render in ((args.junit, reports.junit), (args.tap, reports.tap), (args.json, reports.json_text)):
            if path is not None:
                _write(path, render(report))
        if args.summary_md is not None:
            _write(args.summary_md, github.summary_markdown(report))
        elif step_summary := os.environ.get("GITHUB_STEP_SUMMARY"):
            with open(step_summary, "a", encoding="utf-8", errors="backslashreplace") as handle:
                handle.write(github.summary_markdown(report))
    except OSError as error:
        return f"cannot write a report: {error}"
    return None


def _unusable(args: argparse.Namespace, argv: list[str], carried: list[str], broken: Broken, started: float) -> int:
    """A testee that failed its handshake: one line on stderr, the reports asked for with that problem, exit 2."""
    version = carried[0]
    line = handshake_problem(broken, argv, version, carried)
    report = Report(version, argv, None, (), relative(args.xfail) if args.xfail else None)
    report.problems.append(Problem("handshake", line))
    report.seconds = time.monotonic() - started
    cannot_write = _write_reports(args, report)
    _annotate(args, report)
    print(printable(f"iospec run: {line}"), file=sys.stderr)
    if cannot_write is not None:
        print(f"iospec run: {cannot_write}", file=sys.stderr)
    return 2


Found = tuple[list[SuiteCase], list[SuiteCase], list[SuiteProblem]]
"""The cases read, those the filters select, and the problems of the files that could not be read."""


def _read(args: argparse.Namespace, contract: contracts.Contract) -> Found:
    """The cases of --vectors, else of `contract`'s vectors. An expected-failure list is judged against every case
    (entries naming none are stale), so with one every file is read; else only those that can hold a selected
    case."""
    filters = Filters(args.id, args.group, args.tag, args.kind)
    cases, unreadable = load_cases(args.vectors or contract.vectors, None if args.xfail else filters)
    chosen = [case for case in cases if filters.wanted(case.id, case.group, case.tags, case.kind)]
    return cases, chosen, unreadable


def _refused_selection(args: argparse.Namespace, contract: contracts.Contract, found: Found) -> bool:
    """Whether the selection is empty for a reason worth exit 2; if so, the reason is said on stderr."""
    _, chosen, unreadable = found
    known = None if args.vectors is not None else contract
    if not chosen and (mistakes := _empty_selection(args, args.vectors or contract.vectors, unreadable, known)):
        print("\n".join(f"iospec run: {line}" for line in mistakes), file=sys.stderr)
        return True
    return False


def _collect(args: argparse.Namespace) -> int:
    """`--collect-only`: the selected cases, one a line (`id  file:line`, or the id alone with `-q`)."""
    contract = contracts.carried()[0] if args.contract is None else contracts.of(args.contract)
    if contract is None:
        carried = ", ".join(contracts.versions())
        print(
            f"iospec run: --contract {args.contract}: not a contract version this runner carries ({carried})",
            file=sys.stderr,
        )
        return 2
    found = _read(args, contract)
    if _refused_selection(args, contract, found):
        return 2
    _, chosen, unreadable = found
    for problem in unreadable:
        print(f"iospec run: {problem}", file=sys.stderr)
    lines = [case.id if args.quiet else f"{case.id}  {case.where}" for case in chosen]
    if not args.quiet:
        lines.append(f"{len(chosen)} case(s) selected")
    print("\n".join(lines))
    return 1 if unreadable else 0


def _run(args: argparse.Namespace) -> int:
    started = time.monotonic()
    if args.impl is None and not args.collect_only:
        print(
            "iospec run: --impl COMMAND is required (the testee to run); --collect-only lists the cases without one",
            file=sys.stderr,
        )
        return 2
    argv = command_words(args.impl, "--impl") if args.impl is not None else []
    if isinstance(argv, str):
        print(f"iospec run: {argv}", file=sys.stderr)
        return 2
    problem = shared_argument_problem(args)
    if problem is not None:
        print(f"iospec run: {problem}", file=sys.stderr)
        return 2
    try:
        expected = _expected(args)
    except XfailError as error:
        print(f"iospec run: {error}", file=sys.stderr)
        return 2
    if args.collect_only:
        return _collect(args)
    if args.contract is not None:
        print(
            "iospec run: --contract goes with --collect-only; a run takes the contract version from the testee's hello",
            file=sys.stderr,
        )
        return 2
    traffic = Traffic() if args.validate_traffic else None
    load_spec()  # a spec folder that cannot be read (SEQ_IO_SPEC_ROOT) is one line, before any testee starts
    carried = list(contracts.versions())
    if traffic is not None and (problems := traffic.problems("runner-hello", runner_hello(carried[0], carried))):
        print(f"iospec run: the runner's own hello breaks the protocol: {problems[0]}", file=sys.stderr)
        return 2
    testee = StdioTestee(
        argv,
        carried[0],
        timeout=args.timeout,
        start_timeout=args.start_timeout,
        traffic=traffic,
        announce=_announce,
        carried=carried,
    )
    try:
        testee.start()  # the testee starts up while the vector files of the package's own contract are read
        head = contracts.carried()[0]
        found = _read(args, head)
        # a filter only an older contract's vectors answer is judged once the testee has said its version
        older_only = not found[1] and args.vectors is None and any(_read(args, c)[1] for c in contracts.carried()[1:])
        if not older_only and _refused_selection(args, head, found):
            testee.close()
            return 2
        hello = testee.hello()
    except Broken as broken:
        testee.close()
        return _unusable(args, argv, carried, broken, started)
    contract = contracts.of(hello.contract)
    assert contract is not None, "the handshake accepts only the versions carried"
    try:
        if contract.version != head.version and args.vectors is None:
            found = _read(args, contract)
        if _refused_selection(args, contract, found):
            return 2
        return _judged(args, argv, testee, contract, expected, traffic, started, found)
    finally:
        testee.close()  # already closed by the run, unless the run was interrupted


def _judged(
    args: argparse.Namespace,
    argv: list[str],
    testee: StdioTestee,
    contract: contracts.Contract,
    expected: ExpectedFailures,
    traffic: Traffic | None,
    started: float,
    found: tuple[list[SuiteCase], list[SuiteCase], list[SuiteProblem]],
) -> int:
    """The selected cases of the testee's contract version through a testee that passed its handshake → the
    reports and the exit code."""
    cases, chosen, unreadable = found
    if args.last_failed:
        chosen, said = lastfailed.narrowed(chosen, Path.cwd())
        _announce(said)
    report = run_cases(
        chosen,
        testee,
        expected,
        traffic=traffic,
        command=argv,
        expected_failures=relative(args.xfail) if args.xfail else None,
        max_timeouts=args.max_timeouts,
        exitfirst=args.exitfirst,
    )
    report.not_in_contract = () if args.vectors is not None else contract.absent_kinds
    stale = [Problem("expected-failures", f"{label} names no case of the suite") for label in expected.stale(cases)]
    report.problems[:0] = [Problem("suite", str(problem)) for problem in unreadable] + stale
    try:
        lastfailed.update(Path.cwd(), report.records)
    except OSError as error:
        _announce(f"cannot update {lastfailed.CACHE_FILE} (--last-failed will not know this run): {error}")
    sys.stdout.reconfigure(errors="backslashreplace")  # type: ignore[union-attr]  # a TextIOWrapper
    try:
        if args.fix:
            report = _fix(args, expected, report, cases)
    except OSError as error:
        print(f"iospec run: cannot write a report: {error}", file=sys.stderr)
        return 2
    report.seconds = time.monotonic() - started
    cannot_write = _write_reports(args, report)
    if cannot_write is not None:
        print(f"iospec run: {cannot_write}", file=sys.stderr)
        return 2
    _annotate(args, report)
    print(reports.summary(report, args.show, quiet=args.quiet), end="")
    return 0 if report.ok else 1


def register(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = commands.add_parser(
        "run",
        help="run the conformance vectors against an implementation (testee protocol v1, conformance/protocol.md)",
    )
    add_arguments(parser)
    parser.set_defaults(func=_run)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="iospec run", description=(__doc__ or "").split("\n")[0])
    add_arguments(parser)
    return _run(parser.parse_args(argv))
