"""Every YAML vector file → one JSON bundle, conformance/vectors.json: the format version, the contract
version and each file's document (path relative to conformance/, then the file exactly as loaded), for
implementations that would rather not read YAML; and conformance/vectors-index.json, which file holds which case
(seq_io.vector_index), for the runner. `--check` fails when either is not what the YAML files give today.

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

from seq_io import locate, vector_index
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
    return render_both(root)[0]


def render_both(root: Path = VECTORS_DIR) -> tuple[str, str]:
    """The bundle's text and the index's (seq_io.vector_index) for the vector files under `root`, read once."""
    files, problems = load_suite(root)
    if problems:
        raise ExportError("the vector files cannot be exported:\n" + "\n".join(map(str, problems)))
    for vector_file in files:
        try:
            json.dumps(vector_file.doc, ensure_ascii=False, allow_nan=False).encode("utf-8")
        except (ValueError, UnicodeEncodeError) as error:
            raise ExportError(f"{relative(vector_file.path)}: a value JSON cannot carry: {error}") from None
    text = json.dumps(bundle(files, root), ensure_ascii=False, indent=1, allow_nan=False) + "\n"
    return text, vector_index.render(files, root)


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


def _outputs(args: argparse.Namespace) -> list[Path]:
    """The files written (or checked): the bundle, and the index when it is asked for or the suite is the
    package's own (`--vectors` left at its default)."""
    index: Path | None = args.index
    if index is None and args.vectors.resolve() == VECTORS_DIR.resolve():
        index = vector_index.INDEX
    return [args.output] if index is None else [args.output, index]


def _check(outputs: list[Path], texts: tuple[str, str]) -> int:
    for output, text in zip(outputs, texts, strict=False):
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


def _export(args: argparse.Namespace) -> int:
    outputs = _outputs(args)
    packaged = [output for output in outputs if output in (BUNDLE, vector_index.INDEX)]
    if not args.check and packaged and locate.checkout_root() is None:
        print(
            f"iospec export: the installed package's {relative(packaged[0])} is read-only: name files with "
            "--output and --index (or work in a checkout)",
            file=sys.stderr,
        )
        return 2
    try:
        texts = render_both(args.vectors)
    except ExportError as error:
        print(f"iospec export: {error}", file=sys.stderr)
        return 1
    if args.check:
        return _check(outputs, texts)
    for output, text in zip(outputs, texts, strict=False):
        try:
            output.write_text(text, encoding="utf-8")
        except OSError as error:
            print(f"iospec export: cannot write {output}: {error}", file=sys.stderr)
            return 2
    files = json.loads(texts[0])["files"]
    cases = sum(len(group["cases"]) for file in files for group in file["document"]["groups"])
    print(f"wrote {', '.join(map(relative, outputs))}: {len(files)} files, {cases} cases")
    return 0


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--check", action="store_true", help="write nothing; fail when the bundle differs from what the YAML files give"
    )
    parser.add_argument(
        "--output", type=Path, default=BUNDLE, metavar="FILE", help="the bundle (default: conformance/vectors.json)"
    )
    parser.add_argument(
        "--index",
        type=Path,
        metavar="FILE",
        help="the index of which file holds which case, read by `iospec run` to load only the files a selection "
        "needs (default: conformance/vectors-index.json when --vectors is the package's own folder)",
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
        "export",
        help="write every vector file into one JSON bundle (conformance/vectors.json) and the index of which file "
        "holds which case (conformance/vectors-index.json); --check fails on drift",
    )
    add_arguments(parser)
    parser.set_defaults(func=_export)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="iospec export", description=(__doc__ or "").split("\n")[0])
    add_arguments(parser)
    return _export(parser.parse_args(argv))


if __name__ == "__main__":
    sys.exit(main())
