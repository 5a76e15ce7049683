"""The limits are decided once: the contract limits in spec/contract.json, the reader limits as constants of this
package, and spec/validation.md states the same values; and the pure-Python path of record is what a user gets
where jiter and jsonschema-rs cannot be installed."""

from __future__ import annotations

import re
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from sequence_base.contract import obs_schedule as upstream

from seq_io.reference import schedule
from seq_io.reference.issues import MAX_ISSUES, QUOTE_CHARS
from seq_io.reference.schema_errors import _KEYS_NAMED
from seq_io.reference.spec_data import load_spec
from seq_io.reference.wire import MAX_DOCUMENT_BYTES, wire_limits

MAX_JSON_DEPTH, MAX_INTEGER_DIGITS = wire_limits().depth, wire_limits().integer_digits

REPO_ROOT = Path(__file__).resolve().parents[1]

PROSE = (REPO_ROOT / "spec" / "validation.md").read_text(encoding="utf-8")
LIMITS = PROSE[PROSE.index("## Limits") : PROSE.index("## Language-neutral decisions")]


def test_the_contract_limits_come_from_contract_json_and_the_prose_states_them() -> None:
    limits = load_spec().limits
    assert (limits["MAX_JSON_DEPTH"], limits["MAX_INTEGER_DIGITS"]) == (MAX_JSON_DEPTH, MAX_INTEGER_DIGITS)
    assert f"| `MAX_JSON_DEPTH` | {MAX_JSON_DEPTH} arrays and objects" in LIMITS
    assert f"| `MAX_INTEGER_DIGITS` | {MAX_INTEGER_DIGITS:,} digits" in LIMITS


def test_the_reader_limits_in_the_prose_are_the_constants() -> None:
    assert f"{MAX_DOCUMENT_BYTES // 2**20} MiB ({MAX_DOCUMENT_BYTES:,} bytes)" in LIMITS
    assert 2 * load_spec().limits["MAX_STREAM_BYTES"] == MAX_DOCUMENT_BYTES
    assert f"cut to {QUOTE_CHARS} characters ({QUOTE_CHARS - 3} and `...`)" in LIMITS
    assert f"names at most {_KEYS_NAMED} of them" in LIMITS
    assert f"at most the first {MAX_ISSUES} refusals" in LIMITS


def test_the_schedule_result_bound_in_the_prose_is_the_constant() -> None:
    prose = (REPO_ROOT / "spec" / "schedule.md").read_text(encoding="utf-8")
    stated = re.search(r"This implementation's\s+bound is B = ([0-9,]+)", prose)
    assert stated is not None and int(stated.group(1).replace(",", "")) == schedule.MAX_RESULT_ENTRIES


# (declaration, the call, the last step of the gap at which its result reaches B entries), one per path of the
# bound's arithmetic: a whole observation `every` 1, a fed stream alone, a fed stream beside a stream read at each act,
# and a window beside a fed stream, whose union is what grows. That one step more makes B + 1 entries is checked
# against sequence-base, which has no bound, so the refusal is not taken from the implementation it checks.
RESULT_BOUND_EDGES = [
    ({"every": 1}, "picks", 999_999),
    ({"every": 1}, "wanted", 1_000_000),
    ({"streams": {"f": {"every": 1}}}, "picks", 999_999),
    ({"streams": {"f": {"every": 1}}}, "wanted", 1_000_000),
    ({"streams": {"f": {"every": 1}, "g": {}}}, "picks", 999_999),
    ({"streams": {"w": {"at": [-5, -3, 0]}, "f": {"every": 2}}}, "picks", 1_999_995),
    ({"streams": {"w": {"at": [-5, -3, 0]}, "f": {"every": 2}}}, "wanted", 1_999_995),
]


@pytest.mark.slow
@pytest.mark.parametrize(("declaration", "call", "gap"), RESULT_BOUND_EDGES)
def test_the_result_bound_is_exactly_b_entries(declaration: dict[str, object], call: str, gap: int) -> None:
    """SCH-RESULT-BOUND: this implementation returns results of up to B = MAX_RESULT_ENTRIES entries and refuses
    one entry more. No vector can pin this (an implementation may choose any B from 1,000,000 to 2^53 - 1, and a
    result of a million entries is larger than a vector file may be), so the exact bound is pinned here; `make
    mutation` leaves the bound's arithmetic unmutated for that reason."""
    plan = schedule.of(declaration, 10)

    def result(last: int) -> list[schedule.Entry]:
        return schedule.picks(plan, last, -1) if call == "picks" else schedule.wanted(plan, -1, last)

    assert len(result(gap)) == schedule.MAX_RESULT_ENTRIES
    with pytest.raises(schedule.ScheduleError) as refused:
        result(gap + 1)
    assert refused.value.rule == "schedule.result-too-large"
    theirs = upstream.of(declaration, rate=10)
    one_more = upstream.picks(theirs, gap + 1, -1) if call == "picks" else upstream.wanted(theirs, -1, gap + 1)
    assert len(one_more) == schedule.MAX_RESULT_ENTRIES + 1


def test_without_jiter_and_jsonschema_rs_the_path_of_record_answers() -> None:
    code = textwrap.dedent("""
        import sys
        sys.modules["jiter"] = None  # as on a platform without their wheels
        sys.modules["jsonschema_rs"] = None
        from seq_io.reference import schedule
        from seq_io.reference.validation import contract
        c = contract()
        assert not c.fast
        assert c.validate_text("Stream", '{"at": [-2, 0]}').valid
        assert [(i.path, i.rule) for i in c.validate_text("Stream", '{"at": [1]}').issues] == [("$.at[0]", "maximum")]
        assert c.validate_text("ActRequest", '{"inputs": 1, "inputs": 2}').issues[0].rule == "wire.duplicate-key"
        assert schedule.picks(schedule.of({"every": 2}), 4, 0) == [(2, None), (4, None)]
        print("ok")
    """)
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=False)
    assert done.stdout == "ok\n", done.stderr[-2000:]
