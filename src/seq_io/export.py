"""Every YAML vector file → one JSON bundle, conformance/vectors.json: the format version, the contract
version and each file's document (path relative to conformance/, then the file exactly as loaded), for
implementations that would rather not read YAML. `--check` fails when the bundle is not what the YAML files
give today.

WHY it is shaped this way: the YAML files are the source and stay the only place anyone edits; the bundle is
generated, deterministic (files sorted by path, each document's own member order, `indent=1`, UTF-8 text,
a final newline) so that `--check` can compare bytes and a change in review shows as a small diff. JSON also
reads about a hundred times faster than YAML, and a language without a strict YAML reader then never meets
YAML's typing traps at all. Each document keeps its `$schema`, which still resolves from the bundle's folder
because the paths are relative to it.
"""

from __future__ import annotations

import argparse
import difflib
import json
import sys
from pathlib import Path
from typing import Any

from seq_io import locate
from seq_io.reference.spec_data import load_spec
from seq_io.vectors import CONFORMANCE, VECTORS_DIR, VectorFile, load_suite, relative

BUNDLE = CONFORMANCE / "vectors.json"
FORMAT_VERSION = 1


class ExportError(Exception):
    """The bundle cannot be made: the message names the file and why."""


def _name(vector_file: VectorFile, root: Path) -> str:
    return root.name + "/" + vector_file.path.resolve().relative_to(root.resolve()).as_posix()


def bundle(files: list[VectorFile], root: Path = VECTORS_DIR) -> dict[str, Any]:
    return {
        "format_version": FORMAT_VERSION,
        "contract_version": load_spec().contract_version,
        "generated_from": "the YAML files under conformance/vectors/, by `iospec export`: edit those",
        "files": [{"path": _name(vector_file, root), "document": vector_file.doc} for vector_file in files],
    }


def render(root: Path = VECTORS_DIR) -> str:
    """The bundle's text for the vector files under `root`; ExportError when a file cannot be read or held."""
    files, problems = load_suite(root)
    if problems:
        raise ExportError("the vector files cannot be exported:\n" + "\n".join(map(str, problems)))
    for vector_file in files:
        try:
            json.dumps(vector_file.doc, ensure_ascii=False, allow_nan=False).encode("utf-8")
        except (ValueError, UnicodeEncodeError) as error:
            raise ExportError(f"{relative(vector_file.path)}: a value JSON cannot carry: {error}") from None
    return json.dumps(bundle(files, root), ensure_ascii=False, indent=1, allow_nan=False) + "\n"


def _drift(current: str, wanted: str, name: str) -> str:
    lines = list(
        difflib.unified_diff(
            current.splitlines(),
            wanted.splitlines(),
            f"{name} (on disk)",
            f"{name} (from the YAML files)",
            n=1,
            lineterm="",
        )
    )
    shown = "\n".join(lines[:40]) + (f"\n… {len(lines) - 40} more diff lines" if len(lines) > 40 else "")
    return f"{name} is stale: run `iospec export` (make export) and commit the result\n{shown}"


def _export(args: argparse.Namespace) -> int:
    output: Path = args.output
    if not args.check and output == BUNDLE and locate.checkout_root() is None:
        print(
            "iospec export: the installed package's conformance/vectors.json is read-only: name a file with "
            "--output (or work in a checkout)",
            file=sys.stderr,
        )
        return 2
    try:
        text = render(args.vectors)
    except ExportError as error:
        print(f"iospec export: {error}", file=sys.stderr)
        return 1
    if args.check:
        try:
            current = output.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as error:
            print(f"iospec export: {relative(output)} cannot be read ({error}): run `iospec export`", file=sys.stderr)
            return 1
        if current != text:
            print(_drift(current, text, relative(output)), file=sys.stderr)
            return 1
        print(f"{relative(output)} is up to date")
        return 0
    try:
        output.write_text(text, encoding="utf-8")
    except OSError as error:
        print(f"iospec export: cannot write {output}: {error}", file=sys.stderr)
        return 2
    files = json.loads(text)["files"]
    cases = sum(len(group["cases"]) for file in files for group in file["document"]["groups"])
    print(f"wrote {relative(output)}: {len(files)} files, {cases} cases")
    return 0


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--check", action="store_true", help="write nothing; fail when the bundle differs from what the YAML files give"
    )
    parser.add_argument(
        "--output", type=Path, default=BUNDLE, metavar="FILE", help="the bundle (default: conformance/vectors.json)"
    )
    parser.add_argument(
        "--vectors",
        type=Path,
        default=VECTORS_DIR,
        metavar="DIR",
        help="the folder of vector files (default: conformance/vectors)",
    )


def register(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = commands.add_parser(
        "export", help="write every vector file into one JSON bundle (conformance/vectors.json); --check fails on drift"
    )
    add_arguments(parser)
    parser.set_defaults(func=_export)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="iospec export", description=(__doc__ or "").split("\n")[0])
    add_arguments(parser)
    return _export(parser.parse_args(argv))


if __name__ == "__main__":
    sys.exit(main())
