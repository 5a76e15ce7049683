"""Random valid declarations, rates and act steps → our schedule functions and sequence-base 0.4.28's
`obs_schedule` side by side → the same answers, except where spec/schedule.md § 13 says we refuse on purpose.
The same for `rows_of` on random JSON answers and Actions declarations.

Why: the vectors pin the cases someone thought of; this pins the ones nobody did, against an independent
implementation (the original package, imported here only). The run is reproducible (derandomized, no example
database); SEQ_IO_FUZZ_EXAMPLES raises the example count (`make fuzz` sets 10000).
"""

from __future__ import annotations

import math
import os
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sequence_base.contract import obs_schedule as upstream
from sequence_base.contract import own_io

from seq_io.reference import schedule as ours
from seq_io.reference.json_values import json_equal
from seq_io.reference.rows_of import rows_of
from seq_io.reference.validation import contract

MAX = 2**53 - 1
EXAMPLES = int(os.environ.get("SEQ_IO_FUZZ_EXAMPLES", "300"))
FUZZ = settings(
    max_examples=EXAMPLES,
    derandomize=True,
    database=None,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)

# ---------------------------------------------------------------------------------------------- declarations

KEYS = st.text(
    st.sampled_from([*"abcAB_-.0 ", "é", "\uff41", "\U0001f600", "\u00a0", "\u200b"]), min_size=1, max_size=5
).filter(lambda key: key == key.strip())


def _whole_numbers(low: int, high: int) -> st.SearchStrategy[int | float]:
    """Integers, sometimes written as floats (value semantics: -3.0 is the step count -3)."""
    whole = st.one_of(
        st.integers(max(low, -12), min(high, 12)), st.integers(max(low, -60), min(high, 60)), st.integers(low, high)
    )
    return st.one_of(whole, whole.map(float))


SECONDS_TRAPS = [-0.0, -0.04, -0.1, -0.12, -0.25, -0.35, -1.45, -2.05, -0.01]
PERIOD_TRAPS = [0.05, 0.15, 0.25, 0.35, 0.5, 0.545, 2.05]


def _offsets(unit: str) -> st.SearchStrategy[Any]:
    if unit == "steps":
        return _whole_numbers(-MAX, 0)
    return st.one_of(
        st.sampled_from(SECONDS_TRAPS), st.floats(-30, 0), st.integers(-30, 0), st.floats(-float(MAX), -1e14)
    )  # these overflow at usual rates


def _period(unit: str) -> st.SearchStrategy[Any]:
    if unit == "steps":
        return _whole_numbers(1, MAX)
    return st.one_of(
        st.sampled_from(PERIOD_TRAPS), st.floats(1e-6, 30), st.integers(1, 30), st.floats(1e14, float(MAX))
    )


def _stream(unit: str) -> st.SearchStrategy[dict[str, Any]]:
    window = st.lists(_offsets(unit), min_size=1, max_size=8, unique=True).map(lambda at: {"at": at})
    wide = st.lists(_offsets(unit), min_size=9, max_size=64, unique=True).map(lambda at: {"at": at})
    fed = _period(unit).map(lambda every: {"every": every})
    alone = st.sampled_from([{}, {"at": None}, {"every": None}, {"at": None, "every": None}])
    return st.one_of(window, window, fed, alone, wide)


@st.composite
def declarations(draw: st.DrawFn) -> dict[str, Any]:
    unit = draw(st.sampled_from(["steps", "steps", "seconds"]))
    declaration: dict[str, Any] = {}
    if unit == "seconds" or draw(st.booleans()):
        declaration["unit"] = unit
    shape = draw(st.sampled_from(["streams", "streams", "streams", "every", "whole", "streams: null"]))
    if shape == "streams":
        declaration["streams"] = draw(st.dictionaries(KEYS, _stream(unit), max_size=6))
    elif shape == "every":
        declaration["every"] = draw(_period(unit))
    elif shape == "streams: null":
        declaration["streams"] = None
    for name, values in (("pad", ["repeat_first", "drop"]), ("when_behind", ["wait", "drop_oldest"])):
        value = draw(st.sampled_from([None, *values]))
        if value is not None:
            declaration[name] = value
    return declaration


RATES = st.one_of(st.sampled_from([10, 15, 30, 100, 12.5, 0.5, 1000.0]), st.floats(0.01, 1000))
ODD_RATES = st.one_of(st.none(), st.sampled_from([0, 0.0, -10, -0.5, math.nan, math.inf]))


@st.composite
def acts(draw: st.DrawFn, edges: tuple[int, ...] = ()) -> tuple[int, int]:
    """(t, t_prev) with t_prev < t and a gap short enough to keep every output small. `edges`: steps worth
    hitting exactly (where a window's offset lands on step 0)."""
    anywhere = st.one_of(st.integers(0, 12), st.integers(0, 300), st.integers(MAX - 300, MAX), st.integers(0, MAX))
    t = draw(st.one_of(anywhere, st.sampled_from(edges)) if edges else anywhere)
    gap = draw(st.one_of(st.integers(1, 8), st.integers(1, 300)))
    return t, max(-1, t - gap)


def _edges(schedule: ours.Schedule) -> tuple[int, ...]:
    """The acts at which a window offset reaches exactly step 0, or just before or after it."""
    return tuple(
        sorted(
            {
                -offset + shift
                for offsets in schedule.windows.values()
                for offset in offsets
                for shift in (-1, 0, 1)
                if 0 <= -offset + shift <= MAX
            }
        )
    )


def _upstream_of(declaration: dict[str, Any], rate: Any) -> tuple[Any, str]:
    """Upstream's schedule, or how it refused."""
    try:
        return upstream.of(declaration, rate=rate), ""
    except (ValueError, OverflowError) as error:
        return None, type(error).__name__


def _beyond_max_step(schedule: Any) -> bool:
    counts = [
        *(offset for offsets in schedule.windows.values() for offset in offsets),
        *schedule.fed.values(),
        schedule.every or 0,
    ]
    return any(abs(count) > MAX for count in counts)


def _same_schedule(mine: ours.Schedule, theirs: Any) -> None:
    assert mine.windows == theirs.windows
    assert list(mine.windows) == list(theirs.windows)
    assert mine.fed == theirs.fed
    assert mine.alone == theirs.alone
    assert (mine.every, mine.whole, mine.pad) == (theirs.every, theirs.whole, theirs.pad)


@FUZZ
@given(declaration=declarations(), rate=st.one_of(RATES, RATES, RATES, ODD_RATES), data=st.data())
def test_schedule_agrees_with_sequence_base(declaration: dict[str, Any], rate: Any, data: st.DataObject) -> None:
    outcome = contract().validate_value("Observations", declaration)
    assert outcome.valid, f"the generator made an invalid declaration: {outcome.issues}"
    theirs, refusal = _upstream_of(declaration, rate)
    try:
        mine = ours.of(declaration, rate)
    except ours.ScheduleError as error:
        # The refusals of spec/schedule.md § 13 (and the two refusals both sides make).
        if error.rule == ours.RATE_REQUIRED:
            assert refusal == "ValueError"
        elif error.rule == ours.INVALID_RATE:
            assert rate is not None and (not math.isfinite(rate) or rate < 0)
        else:
            assert error.rule == ours.STEP_OVERFLOW, error
            assert refusal == "OverflowError" or _beyond_max_step(theirs)
        return
    assert not refusal, f"upstream refused ({refusal}) what we accept"
    assert mine is not None
    _same_schedule(mine, theirs)
    assert ours.reads_past(mine) == upstream.reads_past(theirs)
    assert ours.reads_past_declaration(declaration) == upstream.reads_past(declaration)
    t, t_prev = data.draw(acts(_edges(mine)), label="t, t_prev")
    assert ours.picks(mine, t, t_prev) == upstream.picks(theirs, t, t_prev)
    if not mine.fed and mine.every is None:  # a first act at any t: the output stays small
        assert ours.picks(mine, t) == upstream.picks(theirs, t)
        assert ours.needed(mine, t) == sorted(upstream.needed(theirs, t))
    assert ours.needed(mine, t, t_prev) == sorted(upstream.needed(theirs, t, t_prev))
    assert ours.wanted(mine, t_prev, t) == list(upstream.wanted(theirs, t_prev, t).items())
    assert ours.keeps_from(mine, t) == upstream.keeps_from(theirs, t)


@FUZZ
@given(act=acts())
def test_null_schedule_agrees_with_sequence_base(act: tuple[int, int]) -> None:
    t, t_prev = act
    assert ours.of(None) is None and upstream.of(None) is None
    assert ours.picks(None, t, t_prev) == upstream.picks(None, t, t_prev)
    assert ours.needed(None, t, t_prev) == sorted(upstream.needed(None, t, t_prev))
    assert ours.wanted(None, t_prev, t) == list(upstream.wanted(None, t_prev, t).items())
    assert ours.keeps_from(None, t) == upstream.keeps_from(None, t)
    assert ours.reads_past(None) == upstream.reads_past(None) == ours.reads_past_declaration(None)


# ---------------------------------------------------------------------------------------------- rows_of

NUMBERS = st.one_of(st.integers(-5, 5), st.floats(-10, 10), st.booleans())
LEAVES = st.one_of(st.none(), NUMBERS, st.text(max_size=3))
JSON = st.recursive(
    LEAVES,
    lambda inner: st.one_of(st.lists(inner, max_size=4), st.dictionaries(st.text(max_size=3), inner, max_size=3)),
    max_leaves=10,
)
ROWS = st.one_of(
    st.integers(0, 3).flatmap(lambda n: st.lists(st.lists(NUMBERS, min_size=n, max_size=n), max_size=4)),
    st.lists(st.lists(NUMBERS, max_size=3), max_size=4),
    st.lists(NUMBERS, max_size=5),
    st.lists(st.dictionaries(st.text(max_size=2), NUMBERS, max_size=2), max_size=3),
    st.lists(st.one_of(NUMBERS, st.lists(NUMBERS, max_size=2), st.none(), st.text(max_size=2)), max_size=4),
)
ACTION_KEYS = st.one_of(st.sampled_from(["actions", "a", " a "]), st.text(min_size=1, max_size=4))
ACTIONS = st.one_of(
    st.none(),
    st.fixed_dictionaries(
        {},
        optional={
            "key": st.one_of(st.none(), ACTION_KEYS),
            "hz": st.one_of(st.none(), st.floats(0, 1000, exclude_min=True)),
            "open_loop_horizon": st.one_of(st.none(), st.integers(1, 5), st.integers(1, 100000)),
        },
    ),
)


@st.composite
def answers_and_actions(draw: st.DrawFn) -> tuple[Any, Any]:
    actions = draw(ACTIONS)
    answer = draw(st.one_of(ROWS, JSON))
    key = (actions or {}).get("key")
    if key is not None and draw(st.booleans()):
        answer = {key: answer, **draw(st.dictionaries(st.text(max_size=2), JSON, max_size=2))}
    return answer, actions


UPSTREAM_REASONS = [
    ("has no", "rows_of.missing-key"),
    ("not a list of rows", "rows_of.not-a-list"),
    ("holds no rows", "rows_of.no-rows"),
    ("lengths", "rows_of.ragged"),
    ("dicts", "rows_of.objects"),
    ("a list of", "rows_of.mixed"),
]


def _rule_of(upstream_message: str) -> str:
    return next(rule for phrase, rule in UPSTREAM_REASONS if phrase in upstream_message)


@FUZZ
@given(case=answers_and_actions())
def test_rows_of_agrees_with_sequence_base(case: tuple[Any, Any]) -> None:
    answer, actions = case
    assert actions is None or contract().validate_value("Actions", actions).valid
    try:
        expected = own_io.rows_of(answer, actions)
    except ValueError as error:
        try:
            rows_of(answer, actions)
        except ours.ScheduleError as ours_error:
            assert ours_error.rule == _rule_of(str(error)), (ours_error, error)
            return
        raise AssertionError(f"upstream refused ({error}), we accepted") from None
    assert json_equal(rows_of(answer, actions), expected)
