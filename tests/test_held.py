"""Frames held as their text (src/seq_io/reference/held.py) → every stream vector played by a keeper that holds its
frames compact, and by one that holds the parsed values → the same outcomes, written to the same bytes; and `dumps`
against `json.dumps` on values with awkward strings, numbers and keys.

WHY: the worker holds its frames compact and writes its answers with `held.dumps`; nothing a client reads may change
by it, so the answers of every scenario of the suite are compared byte for byte."""

from __future__ import annotations

import json
from typing import Any

import pytest

import suite_cache
from seq_io.reference import testee
from seq_io.reference.held import Text, compact, dumps
from seq_io.reference.keeper import Keeper
from seq_io.runner.kinds import TABLE


def _plain(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"), allow_nan=False)


VALUES: list[Any] = [
    [],
    {},
    0,
    -0.0,
    1e300,
    2.5,
    'é \u2028 \x00 \\ " \ud83e\udd16',
    None,
    True,
    {"a": [1, {"b": None}], "": "", "\x00": 1},
    [[[]], {"x": [0.1, -3]}],
    "\x00nonce:0\x00",
    {"cam": [1, 2], "s": "x", "n": 2.5, "e": [], "o": {}},
]


@pytest.mark.parametrize("value", VALUES, ids=range(len(VALUES)))
def test_dumps_writes_a_held_value_as_json_dumps_writes_the_value(value: Any) -> None:
    assert dumps({"outputs": {"observations": [compact(value), value], "steps": [0, 1]}}) == _plain(
        {"outputs": {"observations": [value, value], "steps": [0, 1]}}
    )


def test_an_object_is_held_member_by_member_and_anything_else_whole() -> None:
    held = compact({"cam": [1, 2], "s": "x", "n": 2.5, "e": []})
    assert isinstance(held, dict) and list(held) == ["cam", "s", "n", "e"]
    assert isinstance(held["cam"], Text) and held["cam"].text == "[1,2]"
    assert held["s"] == "x" and held["n"] == 2.5 and held["e"] == []  # as small as their text: kept as they are
    assert isinstance(compact([1]), Text) and compact([1]).text == "[1]"
    assert compact([]) == [] and compact("x") == "x" and compact(None) is None
    with pytest.raises(TypeError, match="not a JSON value"):
        dumps({"x": object()})


def _played(case: Any) -> str:
    return dumps(testee._stream(TABLE["stream"].input(case)))


@pytest.mark.slow
def test_every_stream_vector_answers_the_same_bytes_with_frames_held_compact() -> None:
    cases = [case for case in suite_cache.cases()[0] if case.kind == "stream" and "expect" not in case.case.data]
    assert len(cases) > 250
    plain = {case.id: _played(case) for case in cases}
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(Keeper, "of", classmethod(_compact_of))
        compacted = {case.id: _played(case) for case in cases}
    differing = [name for name in plain if plain[name] != compacted[name]]
    assert not differing, differing[:5]
    assert any('"handed":{"observations":[{' in text for text in compacted.values())


_ORIGINAL_OF = Keeper.of.__func__  # type: ignore[attr-defined]


def _compact_of(cls: type[Keeper], *args: Any, **kwargs: Any) -> Keeper:
    keeper: Keeper = _ORIGINAL_OF(cls, *args, **kwargs, store=compact)
    assert keeper.store is compact
    return keeper
