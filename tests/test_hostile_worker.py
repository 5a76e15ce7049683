"""The fast attacks of scripts/bench_hostile_worker.py as tests: each attack → a real `iospec worker` (or `iospec
probe` against a misbehaving server) on loopback, started and stopped by the attack → its Row → asserted to meet
every target the benchmark judges (others served, the robot alongside within 100 ms of its own worst, peak RSS
under 2x the counted bytes + RSS_CONSTANT_MIB, no traceback, every answer shaped, the exit on SIGTERM and the probe
within their budgets).

WHY this shape: the attacks and their targets live in one place, the benchmark, so that what `make
bench-hostile-worker` reports and what these tests hold cannot drift apart; the tests add only the assertion that
names what failed (the Row's own failures), one rerun of a row that failed only by a stall (the one measure another
process on the machine can spoil), and the check that nothing was left running. Only the attacks that end
within seconds are here; the thousands of connections and the gigabyte-scale ones stay in the benchmark.
"""

from __future__ import annotations

import shutil
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

import bench_hostile_worker as bench
from http_processes import children
from seq_io_maint.perf_doc import begin_marker, end_marker

pytestmark = pytest.mark.realclock

DOC = Path(__file__).resolve().parents[1] / "docs" / "performance.md"


@pytest.fixture(autouse=True)
def no_leftovers() -> Iterator[None]:
    yield
    assert children() == [], "an attack left a process behind"


def only_stalls(row: bench.Row) -> bool:
    return bool(row.failures) and all("stalled" in failure for failure in row.failures)


def held_to_targets(attack: Callable[[], bench.Row]) -> None:
    """The attack's row must meet every target; a row whose only failure is a stall is run once more, since a
    stall of a little over 100 ms can be another process's doing on a loaded 2-core machine."""
    row = attack()
    if only_stalls(row):
        row = attack()
    assert row.passed, f"{row.name}: " + "; ".join(row.failures + row.notes)


FAST: dict[str, Callable[[], bench.Row]] = {
    "a 4 MiB body with a syntax error at its end": lambda: bench.attack_syntax_4mib(1),
    "four such bodies at once": lambda: bench.attack_syntax_4mib(4),
    "a valid 16 MiB post": lambda: bench.attack_large_post(16),
    "frames posted 2 s into an act's wait while 4 MiB parse": bench.attack_frames_during_parse,
    "malformed HTTP and /observe/": bench.attack_malformed_http,
    "log lines (U+2028, a hang-up, --quiet)": bench.attack_log_lines,
    "--port 99999": bench.attack_bad_port,
    "SIGTERM while bodies arrive": bench.attack_sigterm,
    "the probe against a dripping /stream/info": lambda: bench.attack_probe("drip"),
    "the probe against an endless /stream/info": lambda: bench.attack_probe("endless"),
    "1,024 episodes without --episode-idle, then a new one": bench.attack_idle_lockout,
    "1,100 idle connections under ulimit -n 1024": bench.attack_idle_under_ulimit,
}


@pytest.mark.timeout(60)
@pytest.mark.parametrize("name", sorted(FAST))
def test_the_worker_meets_its_targets_under_attack(name: str) -> None:
    held_to_targets(FAST[name])


def test_the_quick_subset_of_the_benchmark_is_what_these_tests_run() -> None:
    quick = {attack.name for attack in bench.ATTACKS if attack.quick}
    assert len(quick) == len(FAST), "a quick attack of the benchmark is missing here, or one here is not quick"


def test_a_row_is_judged_against_every_target() -> None:
    row = bench.Row(
        "example",
        "an example",
        served=False,
        peak_rss_mib=2 * 10 + bench.RSS_CONSTANT_MIB,
        counted_mib=10,
        stall_ms=bench.STALL_MS + 1,
        unshaped=1,
        tracebacks=1,
        exit_s=5.0,
        exit_budget_s=4.0,
        probe_s=20.0,
        probe_budget_s=12.0,
    ).judge()
    assert len(row.failures) == 7 and not row.passed
    fine = bench.Row("fine", "fine", served=True, peak_rss_mib=50, counted_mib=0, stall_ms=0, unshaped=0).judge()
    assert fine.passed


def test_an_answer_is_shaped_only_as_a_stream_error_or_a_200() -> None:
    error = b'{"error": {"code": "conflict", "message": "m", "details": {"reason": "frames_missing"}}}'
    assert bench.shaped(bench.Answer(409, {}, error))
    assert bench.shaped(bench.Answer(200, {}, b'{"through": 3}'))
    assert not bench.shaped(bench.Answer(400, {}, b"Invalid HTTP request received."))
    assert not bench.shaped(bench.Answer(307, {"location": "/observe"}, b""))
    assert not bench.shaped(bench.Answer(503, {}, b'{"error": {"code": "unavailable"}}'))


def test_flags_the_worker_does_not_have_are_left_out_with_their_values() -> None:
    asked = ["--wait-s", "1", "--no-such-flag-yet", "3", "--quiet"]
    assert bench.known_flags(asked) == ["--wait-s", "1", "--quiet"]


def test_write_docs_writes_its_table_into_its_own_section_only(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    copy = tmp_path / "performance.md"
    shutil.copy(DOC, copy)
    before = copy.read_text(encoding="utf-8")
    code = bench.main(["--only", "port-99999", "--label", "trial", "--write-docs", str(copy)])
    after = copy.read_text(encoding="utf-8")
    assert code == (0 if "| PASS |" in after else 1)
    name = "bench_hostile_worker"
    start, stop = after.index(begin_marker(name)), after.index(end_marker(name))
    section = after[start:stop]
    assert "| port-99999: iospec worker --port 99999 |" in section and "(trial)" in section
    assert section.count("\n| ") == 2, "the header and one row"
    old_start, old_stop = before.index(begin_marker(name)), before.index(end_marker(name))
    assert after[:start] == before[:old_start] and after[stop:] == before[old_stop:], "text outside its markers kept"
    assert "1 attacks within their targets" in capsys.readouterr().out


def test_the_json_rows_are_strict_json() -> None:
    row = bench.Row("killed", "a worker killed past its budget", exit_s=float("inf"), exit_budget_s=4.0).judge()
    data = bench.as_json(row)
    assert data["exit_s"] is None and data["passed"] is False and "inf" in data["failures"][0]
