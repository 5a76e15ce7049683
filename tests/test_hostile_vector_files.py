"""Hostile vector files against `iospec lint` and `iospec run`: nesting 500, 10,000 and 30,000 levels deep (which
raised RecursionError, or crashed the C YAML loader), a FIFO, a symlink to /dev/zero and a folder named `*.yaml`
(which hung or ate memory); each is refused with its file and line, in bounded time, and `iospec run` still
writes its reports. Also: the lint refuses a vector text citing a document outside this package, and none of the
package's own texts do.

Every command runs in a subprocess with a timeout, so a regression hangs or crashes a child, never pytest.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

import suite_cache
from runner_fakes import ROWS_CASE, ROWS_FILE, fake
from seq_io import vectors
from seq_io.strict_yaml import MAX_DEPTH, YamlError, load_text, read_regular_file

pytestmark = pytest.mark.slow

REPO_ROOT = Path(__file__).resolve().parents[1]

BOUND = 60.0
"""Seconds any one command may take: far beyond its normal time, short of hanging a CI job."""
IOSPEC = [sys.executable, "-m", "seq_io.cli"]


def iospec(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*IOSPEC, *args], capture_output=True, text=True, timeout=BOUND, cwd=REPO_ROOT)


def deep_flow(depth: int) -> str:
    """A vector-file-shaped document whose first case's answer is nested `depth` levels (flow sequences)."""
    return ROWS_FILE.replace("{cases}", ROWS_CASE.format(n=1).rstrip("\n")).replace(
        "answer: [[1], [1, 1]]", "answer: " + "[" * depth + "]" * depth
    )


def good_suite(root: Path) -> Path:
    (root / "rows-of").mkdir(parents=True)
    (root / "rows-of" / "good.yaml").write_text(ROWS_FILE.replace("{cases}", ROWS_CASE.format(n=1).rstrip("\n")))
    return root


def assert_clean_refusal(done: subprocess.CompletedProcess[str], code: int, *words: str) -> None:
    output = done.stdout + done.stderr
    assert done.returncode == code, (done.returncode, output[-2000:])  # never -11 (a segfault) or a traceback
    assert "Traceback" not in output and "RecursionError" not in output, output[-2000:]
    for word in words:
        assert word in output, output[-2000:]


@pytest.mark.parametrize("depth", [500, 10_000, 30_000])
def test_deep_nesting_is_refused_with_file_and_line_by_lint_and_run(tmp_path: Path, depth: int) -> None:
    root = good_suite(tmp_path / "vectors")
    deep = root / "rows-of" / "deep.yaml"
    deep.write_text(deep_flow(depth))
    line = next(n for n, text in enumerate(deep.read_text().splitlines(), 1) if "answer:" in text)
    refusal = f"{deep}:{line}: $: the values are nested deeper than {MAX_DEPTH} levels"
    assert_clean_refusal(iospec("lint", "--vectors", str(root)), 1, refusal)
    report = tmp_path / "report.json"
    done = iospec("run", "--impl", " ".join(fake("echo")), "--vectors", str(root), "--json", str(report))
    assert_clean_refusal(done, 1, refusal, "1 passed, 1 run problem in ")
    document = json.loads(report.read_text())  # the run went on with the good file and wrote its report
    assert [case["id"] for case in document["cases"]] == ["fake-0001"]
    assert any(refusal.split(": $: ")[1] in problem["message"] for problem in document["problems"])


@pytest.mark.parametrize(
    "text",
    [
        "a: " + "{b: " * (MAX_DEPTH + 20) + "1" + "}" * (MAX_DEPTH + 20),
        "\n".join(" " * i + "k:" for i in range(MAX_DEPTH + 50)) + " 1",
        "a: " + "[" * (MAX_DEPTH + 1) + "]" * (MAX_DEPTH + 1),
    ],
)
def test_every_way_of_nesting_counts(text: str) -> None:
    with pytest.raises(YamlError, match=f"nested deeper than {MAX_DEPTH} levels"):
        load_text(text)


def test_the_limit_itself_is_allowed() -> None:
    value = load_text("[" * MAX_DEPTH + "]" * MAX_DEPTH).value
    for _ in range(MAX_DEPTH - 1):
        value = value[0]
    assert value == []


@pytest.mark.parametrize(
    ("make", "what"),
    [
        (lambda path: os.mkfifo(path), "a FIFO (named pipe)"),
        (lambda path: path.symlink_to("/dev/zero"), "a character device"),
        (lambda path: path.mkdir(), "a directory"),
    ],
)
def test_a_yaml_that_is_not_a_regular_file_is_refused_unread(tmp_path: Path, make: object, what: str) -> None:
    root = good_suite(tmp_path / "vectors")
    odd = root / "rows-of" / "odd.yaml"
    make(odd)  # type: ignore[operator]
    refusal = f"{odd}:1: $: not a regular file ({what})"
    assert_clean_refusal(iospec("lint", "--vectors", str(root)), 1, refusal)
    done = iospec("run", "--impl", " ".join(fake("echo")), "--vectors", str(root))
    assert_clean_refusal(done, 1, refusal, "1 passed, 1 run problem in ")


def test_no_more_than_the_limit_is_ever_read(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    big = tmp_path / "big.yaml"
    big.write_bytes(b"#" * 1_000_000)
    read: list[int] = []
    real_read = os.read

    def counting(fd: int, n: int) -> bytes:
        data = real_read(fd, n)
        read.append(len(data))
        return data

    monkeypatch.setattr(os, "read", counting)
    with pytest.raises(YamlError, match="more than 1000 bytes"):
        read_regular_file(big, limit=1000)
    assert sum(read) == 1001
    assert read_regular_file(big, limit=1_000_000) == b"#" * 1_000_000


# -- citations ----------------------------------------------------------------------------------------------

OUTSIDE = [
    "The facts" + " sheet's example",
    "as contract" + "-facts says",
    "see ../" + "shared/notes",
    "tooling" + "-notes",
]


@pytest.mark.parametrize("citation", OUTSIDE)
def test_lint_refuses_a_why_citing_a_document_outside_the_package(tmp_path: Path, citation: str) -> None:
    root = good_suite(tmp_path / "vectors")
    path = root / "rows-of" / "good.yaml"
    path.write_text(path.read_text().replace("why: The rows are the answer itself.", f"why: {citation}."))
    done = iospec("lint", "--vectors", str(root))
    assert_clean_refusal(done, 1, f"{path}:10: $.groups[0].cases[0].why: cites ", "which is not part of this package")


def test_no_vector_test_or_document_of_the_package_cites_one() -> None:
    files, problems = suite_cache.suite()
    assert not problems
    assert [str(p) for f in files for p in vectors.outside_citations(f)] == []
    texts = [
        *REPO_ROOT.glob("tests/*.py"),
        *REPO_ROOT.glob("spec/*.md"),
        *REPO_ROOT.glob("conformance/*.md"),
        REPO_ROOT / "README.md",
        *REPO_ROOT.glob("scripts/**/*.py"),
        *REPO_ROOT.glob("reference/**/*.py"),
    ]
    cited = [
        f"{path.relative_to(REPO_ROOT)}: {found.group()}"
        for path in texts
        for found in [vectors.OUTSIDE_CITATION.search(path.read_text(encoding="utf-8"))]
        if found
    ]
    assert cited == []
