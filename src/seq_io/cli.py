"""`iospec`: the command line over the spec, the vectors and the reference (argv → one subcommand → exit code).

Exit codes: 0 success, 1 the input was refused or a check failed, 2 the command itself was used wrongly (a
missing file, an unknown type) or the package's data cannot be read. A user's mistake is always a message, never
a traceback.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import sys
from collections import Counter
from collections.abc import Iterator
from importlib import metadata
from pathlib import Path

from seq_io import bump_review, export, locate, rule_coverage, runner, timeline, uploader_check, vectors
from seq_io.probe import cli as probe_cli
from seq_io.reference.bounded_file import TooLarge, UnreadableFile, decode_utf8, read_bounded_bytes, read_bounded_stream
from seq_io.reference.rule_ids import error_ids, known_rule_ids
from seq_io.reference.spec_data import SpecError
from seq_io.reference.validation import contract
from seq_io.reference.validation_cases import judge, outcome_of
from seq_io.reference.wire import MAX_DOCUMENT_BYTES, READER_TOO_LARGE
from seq_io.report import cli as report_cli
from seq_io.strict_yaml import YamlError, read_regular_file
from seq_io.worker import cli as worker_cli


def _validate(args: argparse.Namespace) -> int:
    the_contract = contract()
    if args.type not in the_contract.type_names:
        print(f"iospec: no type {args.type!r}; known types: {', '.join(the_contract.type_names)}", file=sys.stderr)
        return 2
    try:
        data = (
            read_bounded_stream(sys.stdin.buffer, MAX_DOCUMENT_BYTES)
            if args.file == "-"
            else read_bounded_bytes(args.file, MAX_DOCUMENT_BYTES)
        )
        text = decode_utf8(data)
    except UnreadableFile as error:
        print(f"iospec: cannot read {args.file}: {error}", file=sys.stderr)
        return 2
    except TooLarge as error:
        print(
            f"{args.file}: $: the document holds {error}, more than the {MAX_DOCUMENT_BYTES:,} bytes this reader "
            f'accepts (spec/validation.md, "Limits") [{READER_TOO_LARGE}]'
        )
        return 1
    outcome = the_contract.validate_text(args.type, text)
    for issue in outcome.issues:
        print(f"{args.file}: {issue}")
    if outcome.valid:
        print(f"{args.file}: valid {args.type}")
    return 0 if outcome.valid else 1


def _load_and_lint(root: Path = vectors.VECTORS_DIR) -> tuple[list[vectors.VectorFile], list[vectors.Problem]]:
    files, problems = vectors.load_suite(root)
    spec = contract().spec
    known = known_rule_ids(spec), set(spec.type_names), error_ids(spec)
    problems += list(vectors.lint(files, vectors.read_ledger(), *known))
    return files, problems


def _lint(args: argparse.Namespace) -> int:
    if not args.vectors.is_dir():
        print(f"iospec lint: {args.vectors} is not a folder of vector files", file=sys.stderr)
        return 2
    files, problems = _load_and_lint(args.vectors)
    for problem in problems:
        print(problem)
    cases = sum(len(f.cases) for f in files)
    print(f"{len(files)} vector files, {cases} cases, {len(problems)} problem(s)")
    return 1 if problems else 0


def _vectors(args: argparse.Namespace) -> int:
    files, problems = _load_and_lint()
    for problem in problems:
        print(problem)
    the_contract = contract()
    totals: Counter[tuple[str, str]] = Counter()
    failures = []
    for vector_file in (f for f in files if f.kind == "validation"):
        type_name = vector_file.doc["type"]
        for case in vector_file.cases:
            result = judge(case, outcome_of(the_contract, type_name, case.data))
            totals[(type_name, "valid" if case.data["valid"] else "invalid")] += 1
            totals[(type_name, "pass" if result.passed else "fail")] += 1
            if not result.passed:
                failures.append(f"{case.file}:{case.line}: {case.id}: {result.detail}")
    types = sorted({t for t, _ in totals})
    print(f"{'type':<22}{'cases':>7}{'valid':>7}{'invalid':>9}{'pass':>7}{'fail':>6}")
    for name in types:
        row = [totals[(name, k)] for k in ("valid", "invalid", "pass", "fail")]
        print(f"{name:<22}{row[0] + row[1]:>7}{row[0]:>7}{row[1]:>9}{row[2]:>7}{row[3]:>6}")
    all_rows = [sum(totals[(n, k)] for n in types) for k in ("valid", "invalid", "pass", "fail")]
    print(
        f"{'all ' + str(len(types)) + ' types':<22}{all_rows[0] + all_rows[1]:>7}{all_rows[0]:>7}{all_rows[1]:>9}"
        f"{all_rows[2]:>7}{all_rows[3]:>6}"
    )
    for failure in failures[: args.show]:
        print("FAIL", failure)
    print(f"{all_rows[2]} passed, {all_rows[3]} failed")
    return 1 if failures or problems else 0


_NEW_ID = re.compile(r"^(\s*(?:-\s+)?id:\s*)new\s*$", re.MULTILINE)


def _next_free_ids(prefix: str, ledger: set[str]) -> Iterator[str]:
    """Ids of a prefix never handed out before, in order (numbers continue after the highest in the ledger)."""
    numbers = [int(i.rsplit("-", 1)[1]) for i in ledger if i.rsplit("-", 1)[0] == prefix and i[-4:].isdigit()]
    return (f"{prefix}-{n:04d}" for n in range(max(numbers, default=0) + 1, 10_000))


def _assign_in_file(path: Path, ledger: set[str]) -> list[str]:
    """Replace each `id: new` in one file with a fresh id; return the ids handed out."""
    text = read_regular_file(path).decode("utf-8")
    prefix_match = re.search(r"^id_prefix:\s*['\"]?([a-z0-9-]+)", text, re.MULTILINE)
    if not _NEW_ID.search(text) or prefix_match is None:
        return []
    fresh = _next_free_ids(prefix_match.group(1), ledger)
    added: list[str] = []

    def take(match: re.Match[str]) -> str:
        added.append(next(fresh))
        return match.group(1) + added[-1]

    path.write_text(_NEW_ID.sub(take, text), encoding="utf-8")
    return added


def _assign_ids(args: argparse.Namespace) -> int:
    """Replace each `id: new` with the file's next unused id and record it in the ledger."""
    if locate.checkout_root() is None:
        print(
            "iospec ids: ids are assigned in a checkout of the spec (an editable install); the installed "
            "package's vectors and ledger are read-only",
            file=sys.stderr,
        )
        return 2
    ledger = vectors.read_ledger()
    added: list[str] = []
    paths = [Path(f) for f in args.files] or vectors.vector_paths()
    missing = [str(path) for path in paths if not path.is_file()]
    if missing:
        print(f"iospec: not a vector file (missing, or not a regular file): {', '.join(missing)}", file=sys.stderr)
        return 2
    refused = None
    for path in paths:
        try:
            new = _assign_in_file(path, ledger)
        except (YamlError, UnicodeDecodeError, OSError) as error:
            refused = f"iospec: cannot assign ids in {path}: {error}"
            break
        ledger.update(new)
        added.extend(new)
    with vectors.LEDGER.open("a", encoding="utf-8") as handle:  # the ids already written, even after a refusal
        handle.writelines(f"{i}\n" for i in added)
    if refused is not None:
        print(refused, file=sys.stderr)
        return 2
    print(f"assigned {len(added)} id(s)")
    return 0


PACKAGE = "sequences-io-spec"


def version_text() -> str:
    """The package's version and the contract version it carries: two numbers that move apart (spec/CHANGELOG.md)."""
    try:
        package = metadata.version(PACKAGE)
    except metadata.PackageNotFoundError:
        package = "unknown (not installed)"
    try:
        contract_version = locate.contract_version()
    except (OSError, ValueError, KeyError, TypeError):
        contract_version = "unknown (the data is missing or unreadable)"
    return f"iospec {package} ({PACKAGE}), contract {contract_version}"


class _VersionAction(argparse.Action):
    """`--version`: read the versions only when asked, so no other command depends on them."""

    def __call__(self, parser: argparse.ArgumentParser, *_: object) -> None:
        print(version_text())
        parser.exit()


WHERE = {
    "data": "",
    "spec": "spec",
    "schemas": "spec/schemas",
    "contract": "spec/contract.json",
    "releases": "spec/releases",
    "conformance": "conformance",
    "vectors": "conformance/vectors",
    "bundle": "conformance/vectors.json",
    "protocol": "conformance/protocol",
    "examples": "examples",
}
"""What `iospec where` names, and where each is under the data folder (`locate.data_root`)."""


def _where(args: argparse.Namespace) -> int:
    """Where the package's spec, conformance data and examples are, for tools and SDK authors that read the files:
    one path (`iospec where NAME`), all as JSON (`--json`), or a listing for a person."""
    root = locate.data_root()
    paths = {name: str(root / path) if path else str(root) for name, path in WHERE.items()}
    if args.name is not None:
        print(paths[args.name])
    elif args.json:
        source = "checkout" if locate.checkout_root() else "installed"
        print(json.dumps({"source": source, **paths}, ensure_ascii=False, indent=1))
    else:
        source = "the checkout (editable install)" if locate.checkout_root() else "the installed package"
        print(f"data:        {root}  ({source})")
        for name in WHERE:
            if name != "data":
                print(f"{name + ':':<12} {paths[name]}")
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="iospec", description=__doc__.splitlines()[0])
    parser.add_argument(
        "--version", action=_VersionAction, nargs=0, help="print the package version and the contract version, and exit"
    )
    commands = parser.add_subparsers(dest="command", required=True)
    validate = commands.add_parser("validate", help="validate a JSON file against a contract type")
    validate.add_argument("type", help="a type name, e.g. Observations")
    validate.add_argument("file", help="a JSON file, or - for standard input")
    validate.set_defaults(func=_validate)
    run_vectors = commands.add_parser("vectors", help="check every validation vector against the reference")
    run_vectors.add_argument("--show", type=int, default=20, help="how many failures to print (default 20)")
    run_vectors.set_defaults(func=_vectors)
    lint = commands.add_parser("lint", help="check the vector files' shape, ids, rule names and citations")
    lint.add_argument(
        "--vectors",
        type=Path,
        default=vectors.VECTORS_DIR,
        metavar="DIR",
        help="the folder of vector files (default: conformance/vectors)",
    )
    lint.set_defaults(func=_lint)
    ids = commands.add_parser("ids", help="assign ids to cases written `id: new` (in the files named, or all)")
    ids.add_argument("files", nargs="*", help="vector files to assign ids in (default: every vector file)")
    ids.set_defaults(func=_assign_ids)
    where = commands.add_parser("where", help="print where the spec, the schemas, the vectors and the examples are")
    where.add_argument("name", nargs="?", choices=list(WHERE), help="print only this one path (for scripts)")
    where.add_argument("--json", action="store_true", help="print every path as one JSON object (for scripts)")
    where.set_defaults(func=_where)
    rule_coverage.register(commands)
    timeline.register(commands)
    runner.register(commands)
    runner.register_show(commands)
    worker_cli.register(commands)
    probe_cli.register(commands)
    uploader_check.register(commands)
    export.register(commands)
    bump_review.register(commands)
    report_cli.register(commands)
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    problem = locate.data_problem()
    if problem is not None:
        print(f"iospec: {problem}", file=sys.stderr)
        return 2
    try:
        return int(args.func(args))
    except SpecError as error:
        print(f"iospec: the spec cannot be read: {error}", file=sys.stderr)
        return 2
    except BrokenPipeError:
        return _reader_went_away()


def _reader_went_away() -> int:
    """Standard output was closed early (`iospec show ID | head`): stop quietly, as the shell's own tools do,
    with stdout pointed at the null device so the interpreter's final flush cannot raise again."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())
    return 1


if __name__ == "__main__":
    sys.exit(main())
