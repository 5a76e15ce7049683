"""`iospec report` on real runs: the reference, and the reference behind a proxy that fails, skips and passes
listed cases with HTML in its answers (tests/report_testee.py) → the matrix page, its Markdown and badges, the
comparison of two runs, and bad input refused in one line.

WHY real runs: the report reads what `iospec run --json` writes; a report written by hand would let the two
drift apart unnoticed. The selection is one small vector file, so both runs take seconds.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from seq_io.cli import main
from seq_io.report import load
from seq_io.vectors import CONFORMANCE

TESTS = Path(__file__).parent
SELECTION = ["--kind", "validation", "--id", "val-act-request-edge-*"]
WRONG, SKIPPED, LISTED_PASSING, LISTED_FAILING = (f"val-act-request-edge-{n:04d}" for n in (1, 2, 3, 4))
HOSTILE = '</pre><script>alert("x")</script><img src=x onerror=alert(1)>&amp;'
HOSTILE_NAME = '<b>evil</b>&"'
sys.path.insert(0, str(TESTS))
from report_testee import HOSTILE as TESTEE_HOSTILE  # noqa: E402  # the proxy's own text, one definition

assert TESTEE_HOSTILE == HOSTILE


def _run(tmp: Path, name: str, impl: str, xfail: Path | None = None) -> Path:
    out = tmp / f"{name}.json"
    argv = [sys.executable, "-m", "seq_io.cli", "run", "--impl", impl, *SELECTION, "--json", str(out)]
    if xfail is not None:
        argv += ["--xfail", str(xfail)]
    done = subprocess.run(argv, capture_output=True, text=True, timeout=240)
    assert done.returncode in (0, 1) and out.is_file(), done.stdout + done.stderr
    return out


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """good: the reference on the selection; bad: the hostile proxy, with an expected-failure list."""
    tmp = tmp_path_factory.mktemp("runs")
    xfail = tmp / "known.json"
    entries = [{"id": LISTED_PASSING, "reason": "<i>listed</i> but passes"}, {"id": LISTED_FAILING, "reason": "a gap"}]
    xfail.write_text(json.dumps({"entries": entries}), encoding="utf-8")
    proxy = f"{sys.executable} {TESTS / 'report_testee.py'} --wrong {WRONG} --wrong {LISTED_FAILING} --skip {SKIPPED}"
    return {
        "good": _run(tmp, "good", f"{sys.executable} -m seq_io.reference.testee"),
        "bad": _run(tmp, "bad", f"{proxy} --name '{HOSTILE_NAME}'", xfail),
    }


def _json(path: Path) -> Any:
    return json.loads(path.read_text(encoding="utf-8"))


@pytest.mark.realclock
def test_the_runs_hold_every_outcome_the_report_shows(runs: dict[str, Path]) -> None:
    totals = _json(runs["bad"])["totals"]
    assert (totals["fail"], totals["skip"], totals["xpass"], totals["xfail"]) == (1, 1, 1, 1)
    assert _json(runs["good"])["totals"]["pass"] == totals["cases"]


@pytest.mark.realclock
def test_the_matrix_shows_each_report_escaped_with_its_failing_cases(
    runs: dict[str, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "matrix"
    assert main(["report", str(runs["good"]), f"<u>proxy</u>={runs['bad']}", "--out", str(out)]) == 0
    assert "2 implementations, 1 with a failed run" in capsys.readouterr().out
    page = (out / "index.html").read_text(encoding="utf-8")
    assert "<script" not in page and "<img" not in page and "<b>evil" not in page and "<u>proxy" not in page
    assert "&lt;/pre&gt;&lt;script&gt;alert(&quot;x&quot;)" in page and "&lt;u&gt;proxy&lt;/u&gt;" in page
    bad = _json(runs["bad"])
    failing = [c for c in bad["cases"] if not c["ok"]]
    assert {c["id"] for c in failing} == {WRONG, SKIPPED, LISTED_PASSING}
    for case in failing:
        article = re.search(rf'<article class="case [a-z]+" id="c-1-{case["id"]}">(.*?)</article>', page, re.S)
        assert article is not None, case["id"]
        assert f"{case['file']}:{case['line']}" in article.group(1)
        assert "&quot;type_name&quot;: &quot;ActRequest&quot;" in article.group(1)  # the request, from the vector
    wrong = re.search(rf'id="c-1-{WRONG}">(.*?)</article>', page, re.S)
    assert wrong is not None and "The whole instance null is not an object" in wrong.group(1)  # its `why`
    assert "&quot;rule&quot;: &quot;type&quot;" in wrong.group(1)  # expected, beside what the proxy answered
    assert f'href="#c-1-{WRONG}"' in page and f'id="c-1-{LISTED_FAILING}"' in page
    badge = _json(out / "badges" / "u-proxy-u.json")
    assert badge == {
        "schemaVersion": 1,
        "label": f"contract {bad['contract_version']}",
        "message": f"{bad['totals']['pass']}/{bad['totals']['cases']}",
        "color": "red",
    }
    good = _json(runs["good"])
    assert _json(out / "badges" / "seq-io-ref.json")["color"] == "brightgreen"
    markdown = (out / "matrix.md").read_text(encoding="utf-8")
    row = next(line for line in markdown.splitlines() if line.startswith("| **all cases** |"))
    assert f"{good['totals']['pass']}/{good['totals']['cases']}" in row.split("|")[2]
    assert f"{bad['totals']['pass']}/{bad['totals']['cases']} (1 fail, 1 xfail, 1 xpass, 1 skip)" in row.split("|")[3]
    assert "&lt;u&gt;proxy&lt;/u&gt;" in markdown and "<u>" not in markdown


@pytest.mark.realclock
def test_what_a_report_lacks_is_looked_up_in_the_vectors(
    runs: dict[str, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A report without `why` and `request` (an older runner's): both come from the vector file it names; a case
    of a file this package lacks says so instead."""
    bad = _json(runs["bad"])
    for case in bad["cases"]:
        for name in ("why", "request", "request_excerpt"):
            case.pop(name, None)
    moved = next(c for c in bad["cases"] if c["id"] == SKIPPED)
    moved["file"] = "conformance/vectors/validation/gone.yaml"
    older = tmp_path / "older.json"
    older.write_text(json.dumps(bad), encoding="utf-8")
    assert main(["report", str(older), "--out", str(tmp_path / "m")]) == 0
    capsys.readouterr()
    page = (tmp_path / "m" / "index.html").read_text(encoding="utf-8")
    wrong = re.search(rf'id="c-0-{WRONG}">(.*?)</article>', page, re.S)
    assert wrong is not None and "The whole instance null is not an object" in wrong.group(1)
    assert "&quot;type_name&quot;: &quot;ActRequest&quot;" in wrong.group(1)
    assert f"&quot;id&quot;: &quot;{WRONG}&quot;" in wrong.group(1)  # the whole protocol message, as sent
    gone = re.search(rf'id="c-0-{SKIPPED}">(.*?)</article>', page, re.S)
    assert gone is not None and "gone.yaml is not in this package" in gone.group(1)


@pytest.mark.realclock
def test_compare_names_what_moved_and_fails_on_a_regression(
    runs: dict[str, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["report", "--compare", str(runs["good"]), str(runs["bad"])]) == 1
    text = capsys.readouterr().out
    assert _ids(text, "Newly failing") == {WRONG, SKIPPED}
    assert _ids(text, "Expected failures that now pass") == {LISTED_PASSING}
    assert _ids(text, "Newly passing") == set()
    assert "different implementations" in text
    assert main(["report", "--compare", str(runs["bad"]), str(runs["good"])]) == 0
    back = capsys.readouterr().out
    assert _ids(back, "Newly passing") == {WRONG, SKIPPED, LISTED_FAILING}
    assert _ids(back, "Newly failing") == _ids(back, "Expected failures that now pass") == set()


def _ids(markdown: str, section: str) -> set[str]:
    """The case ids listed under the Markdown section whose title starts so; its count must match."""
    for part in markdown.split("\n## ")[1:]:
        title, _, body = part.partition("\n")
        if title.startswith(section):
            ids = re.findall(r"^- `([a-z0-9-]+)`", body, re.M)
            assert title.endswith(f"({len(ids)})"), title
            return set(ids)
    raise AssertionError(f"no section {section!r} in {markdown}")


def _report() -> dict[str, Any]:
    """The smallest report the schema accepts, as a base for broken ones."""
    counts = {"cases": 0, "pass": 0, "fail": 0, "xfail": 0, "xpass": 0, "skip": 0, "error": 0}
    return {
        "report_version": 1,
        "protocol": 1,
        "contract_version": "0.5.25",
        "testee": {"command": None, "name": "x", "version": "1", "kinds": []},
        "expected_failures": None,
        "seconds": 0,
        "ok": True,
        "passed": 0,
        "failed": 0,
        "totals": counts,
        "kinds": [],
        "groups": [],
        "cases": [],
        "problems": [],
    }


def test_the_base_of_the_broken_reports_is_a_valid_report() -> None:
    from jsonschema import Draft202012Validator

    schema = json.loads((CONFORMANCE / "schema" / "report.schema.json").read_text(encoding="utf-8"))
    Draft202012Validator(schema).validate(_report())


@pytest.mark.parametrize(
    ("content", "said"),
    [
        (None, "no such file"),
        ("{not json", "not JSON"),
        ("[]", "$ should be an object"),
        ('{"a": 1}', "not a report of `iospec run --json`"),
        (json.dumps({**_report(), "report_version": 7}), "$.report_version is 7"),
        (json.dumps({**_report(), "testee": "me"}), "$.testee should be an object"),
        (
            json.dumps({**_report(), "totals": {**_report()["totals"], "pass": "3"}}),
            "$.totals.pass should be an integer",
        ),
        (json.dumps({**_report(), "cases": [{"id": "a-0001"}]}), "$.cases[0] has no 'kind'"),
        (json.dumps({**_report(), "kinds": [{"kind": "validation"}]}), "$.kinds[0] has no 'cases'"),
        (b"\xff\xfe", "not UTF-8"),
        ("[" * 100000, "nested too deeply"),
    ],
)
def test_bad_input_is_one_line_naming_the_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], content: str | bytes | None, said: str
) -> None:
    path = tmp_path / "r.json"
    if isinstance(content, bytes):
        path.write_bytes(content)
    elif content is not None:
        path.write_text(content, encoding="utf-8")
    for argv in (["report", str(path), "--out", str(tmp_path / "o")], ["report", "--compare", str(path), str(path)]):
        assert main(argv) == 2
        captured = capsys.readouterr()
        assert captured.out == "" and len(captured.err.splitlines()) == 1, captured.err
        assert captured.err.startswith(f"iospec report: {path}") and said in captured.err, captured.err
    assert not (tmp_path / "o").exists()


def test_a_report_over_the_size_limit_is_refused_unread(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "big.json"
    path.write_text(json.dumps(_report()), encoding="utf-8")
    monkeypatch.setattr(load, "MAX_REPORT_BYTES", 100)
    assert main(["report", str(path), "--out", str(tmp_path / "o")]) == 2
    assert "more than the 100 a report may have" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("argv", "said"),
    [
        (["report"], "name the JSON reports"),
        (["report", "a.json", "--compare", "b.json", "c.json"], "takes no other report"),
        (["report", "a.json", "--markdown", "m.md"], "--markdown goes with --compare"),
    ],
)
def test_usage_mistakes_are_one_line(argv: list[str], said: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert len(err.splitlines()) == 1 and said in err


def test_labels_and_too_many_reports(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "r.json"
    path.write_text(json.dumps(_report()), encoding="utf-8")
    assert load.parse_argument(f"Go starter={path}") == ("Go starter", path)
    assert load.parse_argument(str(path)) == (None, path)
    runs = load.load_runs([str(path), str(path), f"y={path}"])
    assert [r.label for r in runs] == ["x", "x (2)", "y"]
    assert main(["report", *[str(path)] * (load.MAX_REPORTS + 1)]) == 2
    assert f"at most {load.MAX_REPORTS}" in capsys.readouterr().err


@pytest.mark.realclock
def test_the_page_in_chromium_renders_without_errors_and_shows_the_reports_counts(
    runs: dict[str, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Headless Chromium (Debian's chromium, installed by .ci/run) over loopback HTTP; the screenshot stays in
    build/ to be looked at. Then the same page with a count changed, a console error and an outside asset."""
    from seq_io_maint import browser_check

    out = tmp_path / "matrix"
    reports = [str(runs["good"]), f"proxy={runs['bad']}"]
    assert main(["report", *reports, "--out", str(out)]) == 0
    capsys.readouterr()
    build = TESTS.parent / "build"
    seen = browser_check.open_page(out / "index.html", build / "report-screenshot.png", build / "report-case.png")
    assert browser_check.problems(seen, reports) == []
    assert (build / "report-screenshot.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert seen.case_shot and (build / "report-case.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    bad = _json(runs["bad"])["totals"]
    assert {"run": 1, "kind": "*", "text": f"{bad['pass']}/{bad['cases']}"} in seen.page["cells"]
    page = (out / "index.html").read_text(encoding="utf-8")
    cell = f'data-kind="*" data-pass="{bad["pass"]}" data-cases="{bad["cases"]}"><a href="#run-1">{bad["pass"]}/'
    assert page.count(cell) == 1
    page = page.replace(cell, cell.replace(f">{bad['pass']}/", f">{bad['pass'] + 1}/"))
    page = page.replace("</body>", '<img src="http://127.0.0.1:9/x.png"><script>console.error("boom")</script></body>')
    (out / "index.html").write_text(page, encoding="utf-8")
    found = browser_check.problems(browser_check.open_page(out / "index.html", tmp_path / "s.png"), reports)
    assert any(line.startswith("console: boom") for line in found), found
    assert any("requested 'http://127.0.0.1:9/x.png'" in line for line in found), found
    assert any(f"kind *: the page shows '{bad['pass'] + 1}/{bad['cases']}'" in line for line in found), found
    clean = tmp_path / "clean"
    assert main(["report", str(runs["good"]), "--out", str(clean)]) == 0
    (tmp_path / "case.png").write_bytes(b"stale")
    seen = browser_check.open_page(clean / "index.html", tmp_path / "s.png", tmp_path / "case.png")
    assert not seen.case_shot and not (tmp_path / "case.png").exists(), "every case passed: no case to photograph"


@pytest.mark.realclock
def test_a_run_that_never_started_is_red_with_its_problem(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "never.json"
    argv = [sys.executable, "-m", "seq_io.cli", "run", "--impl", str(tmp_path / "no-such-testee"), "--json", str(out)]
    done = subprocess.run(argv, capture_output=True, text=True, timeout=120)
    assert done.returncode == 2 and _json(out)["cases"] == [], done.stderr
    assert main(["report", f"never={out}", "--out", str(tmp_path / "m")]) == 0
    capsys.readouterr()
    assert _json(tmp_path / "m" / "badges" / "never.json")["color"] == "red"
    page = (tmp_path / "m" / "index.html").read_text(encoding="utf-8")
    assert '<td class="cell s-fail" data-run="0" data-kind="*"' in page
    assert "no-such-testee" in page.split('<ul class="problems">', 1)[1]
    assert "| **all cases** | ❌ — |" in (tmp_path / "m" / "matrix.md").read_text(encoding="utf-8")
