"""The strict YAML loader refuses every typing trap with its line, and reads the JSON subset as JSON would."""

from __future__ import annotations

from pathlib import Path

import pytest

from seq_io.strict_yaml import MAX_FILE_BYTES, YamlError, load_file, load_text


@pytest.mark.parametrize(
    ("text", "line", "words"),
    [
        ("a: 1\nb: 2\na: 3\n", 3, "appears twice"),
        ("a: 1\nb: no\n", 2, "YAML 1.1 boolean"),
        ("a: On\n", 1, "YAML 1.1 boolean"),
        ("x:\n  when: 2024-01-01\n", 2, "date"),
        ("a: &anchor 1\nb: *anchor\n", 1, "anchors and aliases"),
        ("a: 010\n", 1, "not a JSON number"),
        ("a: 1:20\n", 1, "not a JSON number"),
        ("a: .nan\n", 1, "not a JSON number"),
        ("a: 1_000\n", 1, "not a JSON number"),
        ("a: 1e5\n", 1, "read as a string by YAML 1.1"),
        ("a: ~\n", 1, "write null"),
        ("a: !!str x\n", 1, "tag"),
        ("base: {a: 1}\nother:\n  <<: {b: 2}\n", 3, "merge keys"),
        ("1: x\n", 1, "must be a string"),
        ("a: [1, 2\n", 2, "not valid YAML"),
        ("", 1, "empty"),
    ],
)
def test_traps_are_refused_with_their_line(text: str, line: int, words: str) -> None:
    with pytest.raises(YamlError) as raised:
        load_text(text, "f.yaml")
    assert raised.value.line == line
    assert words in raised.value.message
    assert str(raised.value).startswith(f"f.yaml:{line}:")


def test_json_subset_reads_as_json() -> None:
    loaded = load_text('a: [1, -2.5, 1.5e+3, -0.0, true, null, "no", x]\nb: {c: "2024-01-01"}\n')
    assert loaded.value == {"a": [1, -2.5, 1500.0, -0.0, True, None, "no", "x"], "b": {"c": "2024-01-01"}}
    assert isinstance(loaded.value["a"][0], int) and isinstance(loaded.value["a"][2], float)
    assert loaded.line_of(("b", "c")) == 2 and loaded.line_of(("a", 3)) == 1


@pytest.mark.parametrize(
    "literal",
    [
        "1.0e+400",
        "-1.0e+400",
        "1.8e+308",
        "-179769313486231580793728971405303415079"
        "934132710037826936173778980444968292764750946649017977587207096330286416692887"
        "910943419360237.0e+200",
    ],
)
def test_numbers_that_overflow_a_double_are_refused_with_file_and_line(literal: str) -> None:
    with pytest.raises(YamlError) as raised:
        load_text(f"a: 1\nb: [0, {literal}]\n", "v.yaml")
    assert raised.value.line == 2 and raised.value.file == "v.yaml"
    assert "overflows a binary64 double" in raised.value.message and literal in raised.value.message


def test_numbers_follow_the_contracts_value_model() -> None:
    """An integral literal beyond 2^53 is that integer exactly; any other is the nearest double (1e-400 is 0)."""
    loaded = load_text("a: [9007199254740993.0, 1.8014398509481985e+16, 1.0e-400, 0.1, 1.0e+308]\n")
    assert loaded.value["a"][:3] == [9007199254740993, 18014398509481985, 0.0]
    assert isinstance(loaded.value["a"][0], int) and loaded.value["a"][3] == 0.1
    assert loaded.value["a"][4] == 10**308


def test_oversized_file_is_refused(tmp_path: Path) -> None:
    big = tmp_path / "big.yaml"
    big.write_text("a: " + "x" * (MAX_FILE_BYTES + 1) + "\n")
    with pytest.raises(YamlError, match="may have at most"):
        load_file(big)
