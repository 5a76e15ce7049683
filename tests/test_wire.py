"""The wire rules: JSON text that other parsers read differently is refused with a path, never a crash."""

from __future__ import annotations

import pytest
from seq_io_ref.wire import parse_json_text


@pytest.mark.parametrize(("text", "path", "rule"), [
    ('{"a": 1, "a": 2}', "$", "wire.duplicate-key"),
    ('{"x": {"b": [1, {"c": 1, "c": 1}]}}', "$.x.b[1]", "wire.duplicate-key"),
    ('{"a": NaN}', "$", "wire.json-syntax"),
    ('[-Infinity]', "$", "wire.json-syntax"),
    ('{"a": -1e400}', "$.a", "wire.non-finite-number"),
    ('{"a": 1' + "0" * 400 + "}", "$.a", "wire.non-finite-number"),
    ('{"a": 1,}', "$", "wire.json-syntax"),
    ("[" * 100000, "$", "wire.too-deep"),
    ("", "$", "wire.json-syntax"),
])
def test_refused(text: str, path: str, rule: str) -> None:
    value, issues = parse_json_text(text)
    assert [(i.path, i.rule) for i in issues][:1] == [(path, rule)]
    assert value is None or issues


def test_accepted_values_keep_their_numbers() -> None:
    value, issues = parse_json_text('{"big": 9007199254740993, "neg0": -0.0, "f": 1.0, "k": {"a b": []}}')
    assert not issues
    assert value == {"big": 9007199254740993, "neg0": 0.0, "f": 1.0, "k": {"a b": []}}
    assert isinstance(value["big"], int)
