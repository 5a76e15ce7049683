"""The wire rules and limits: JSON text that other parsers read differently is refused with a path, never a crash;
the three readers (Python's `json` with hooks, the iterative reader, jiter with the screen) give one answer."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import jsonschema_rs
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from seq_io.reference import fast_wire
from seq_io.reference.issues import MAX_ISSUES
from seq_io.reference.spec_data import load_spec
from seq_io.reference.wire import WIRE_JSON_SYNTAX, parse_json_text, read_iteratively, wire_limits
from seq_io.runner import protocol

REPO_ROOT = Path(__file__).resolve().parents[1]
MAX_JSON_DEPTH = wire_limits().depth


@pytest.mark.parametrize(
    ("text", "path", "rule"),
    [
        ('{"a": 1, "a": 2}', "$", "wire.duplicate-key"),
        ('{"x": {"b": [1, {"c": 1, "c": 1}]}}', "$.x.b[1]", "wire.duplicate-key"),
        ('{"a": NaN}', "$", "wire.json-syntax"),
        ("[-Infinity]", "$", "wire.json-syntax"),
        ('{"a": -1e400}', "$.a", "wire.non-finite-number"),
        ('{"a": 1' + "0" * 400 + "}", "$.a", "wire.non-finite-number"),
        ('{"a": 1' + "0" * 4300 + "}", "$.a", "wire.integer-too-long"),
        ('{"a": 1,}', "$", "wire.json-syntax"),
        ("[" * 100000, "$", "wire.too-deep"),
        ("[" * 202 + "]" * 202, "$", "wire.too-deep"),
        ('{"a": 1, "a": 2' + "[" * 300, "$", "wire.json-syntax"),
        ("", "$", "wire.json-syntax"),
    ],
)
def test_refused(text: str, path: str, rule: str) -> None:
    for reader in (parse_json_text, read_iteratively):
        value, issues = reader(text)
        assert [(i.path, i.rule) for i in issues][:1] == [(path, rule)]
        assert value is None or issues


def test_accepted_values_keep_their_numbers() -> None:
    value, issues = parse_json_text('{"big": 9007199254740993, "neg0": -0.0, "f": 1.0, "k": {"a b": []}}')
    assert not issues
    assert value == {"big": 9007199254740993, "neg0": 0.0, "f": 1.0, "k": {"a b": []}}
    assert isinstance(value["big"], int)


def test_the_depth_limit_counts_what_encloses_a_value() -> None:
    inner: Any = []
    for _ in range(MAX_JSON_DEPTH):
        inner = [inner]
    assert parse_json_text("[" * (MAX_JSON_DEPTH + 1) + "]" * (MAX_JSON_DEPTH + 1)) == (inner, [])
    assert parse_json_text("[" * MAX_JSON_DEPTH + "0" + "]" * MAX_JSON_DEPTH)[1] == []
    assert parse_json_text("[" * (MAX_JSON_DEPTH + 1) + "0" + "]" * (MAX_JSON_DEPTH + 1))[1][0].rule == "wire.too-deep"


def test_a_refused_text_reports_at_most_max_issues() -> None:
    text = "[" + ", ".join(["1e400"] * (MAX_ISSUES + 50)) + "]"
    for reader in (parse_json_text, read_iteratively):
        issues = reader(text)[1]
        assert len(issues) == MAX_ISSUES and {i.rule for i in issues} == {"wire.non-finite-number"}


def test_jiter_stops_exactly_at_the_depth_limit() -> None:
    """fast_wire relies on jiter's own limit being MAX_JSON_DEPTH: if a new jiter moves it, this fails."""
    assert not isinstance(fast_wire.read("[" * MAX_JSON_DEPTH + "0" + "]" * MAX_JSON_DEPTH), fast_wire._NotRead)
    assert fast_wire.read("[" * (MAX_JSON_DEPTH + 1) + "0" + "]" * (MAX_JSON_DEPTH + 1)) is fast_wire.NOT_READ
    assert not isinstance(fast_wire.read("[" * (MAX_JSON_DEPTH + 1) + "]" * (MAX_JSON_DEPTH + 1)), fast_wire._NotRead)


# ------------------------------------------------------------------ the readers agree on generated texts

SCREEN = jsonschema_rs.validator_for(fast_wire.SCREEN)
NUMBERS = st.one_of(
    st.integers(min_value=-(2**60), max_value=2**60).map(str),
    st.floats(allow_nan=False, allow_infinity=False).map(repr),
    st.sampled_from(
        [
            "1e400",
            "-1e400",
            "9007199254740993.0",
            "1.8014398509481985e16",
            "1e-400",
            "-0.0",
            "0.1",
            "1" + "0" * 4300,
            "2" + "0" * 310,
            "2.0000000000000001",
            "4.9e-324",
            "NaN",
            "-Infinity",
            "01",
            "1.",
            "-",
            "1e",
            ".5",
        ]
    ),
)
KEYS = st.sampled_from(["a", "b", "\\ud800", "\\ud83d\\ude00", "a\\u0000", "", '\\"'])
STRINGS = st.sampled_from(['"x"', '"\\ud800"', '"\\udc00\\ud800"', '"\\ud83d\\ude00"', '"\t"', '"\\q"', '"é"'])


def _texts(leaf: st.SearchStrategy[str]) -> st.SearchStrategy[str]:
    return st.recursive(
        leaf,
        lambda inner: st.one_of(
            st.lists(inner, max_size=4).map(lambda items: "[" + ", ".join(items) + "]"),
            st.lists(st.tuples(KEYS, inner), max_size=4).map(
                lambda members: "{" + ", ".join(f'"{key}": {value}' for key, value in members) + "}"
            ),
            inner.map(lambda text: "[" * 199 + text + "]" * 199),
        ),
        max_leaves=12,
    )


TEXTS = st.one_of(
    _texts(st.one_of(NUMBERS, STRINGS, st.sampled_from(["true", "false", "null", "nul", "tru"]))),
    st.text(alphabet='[]{},:" 01e.-\\tnru', max_size=30),
)
FUZZ = settings(
    max_examples=int(os.environ.get("SEQ_IO_FUZZ_EXAMPLES", "400")),
    derandomize=True,
    database=None,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)


def _answer(value: Any, issues: list[Any]) -> tuple[str, Any]:
    if issues:
        return "refused", [(i.path, i.rule) for i in issues]
    return "read", json.dumps(value, sort_keys=True)


@FUZZ
@given(TEXTS)
def test_the_readers_agree(text: str) -> None:
    ours = _answer(*parse_json_text(text))
    assert _answer(*read_iteratively(text)) == ours
    fast = fast_wire.read(text)
    if isinstance(fast, fast_wire.Refused):
        assert ours[0] == "refused" and ours[1] == [("$", WIRE_JSON_SYNTAX)], text
    elif fast is not fast_wire.NOT_READ and SCREEN.is_valid(fast):
        assert ours == ("read", json.dumps(fast, sort_keys=True)), text


UNESCAPED_LONE_SURROGATES = ['"\ud800"', '{"a\udc00": 1}', '["ok", "x\ud83d"]']
"""Texts holding a lone surrogate as the code point itself, not as an escape: no vector file (UTF-8) can carry
one, but a text held as code points can (spec/validation.md, a lone surrogate however it is written)."""


@pytest.mark.parametrize("text", UNESCAPED_LONE_SURROGATES)
def test_an_unescaped_lone_surrogate_is_refused_like_its_escape(text: str) -> None:
    value, issues = parse_json_text(text)
    assert value is None and [(i.path, i.rule) for i in issues] == [("$", "wire.json-syntax")]


def test_the_reference_refuses_an_unescaped_lone_surrogate_sent_through_the_protocol() -> None:
    """The protocol line carries the instance text in a JSON string whose `\\ud800` escape stands for the code point
    itself, so the testee receives a text with an unescaped lone surrogate inside a string token. (The JavaScript
    implementation is held to the same texts by implementations/js/test/run-vectors.js, which runs after `npm ci`.)"""
    cases = [
        {
            "type": "case",
            "id": f"raw-{n}",
            "kind": "validation",
            "input": {"type_name": "ObserveFrame", "json": '{"seq": 0, "inputs": ' + text + "}"},
        }
        for n, text in enumerate(UNESCAPED_LONE_SURROGATES)
    ]
    requests = [protocol.runner_hello(load_spec().contract_version), *cases]
    done = subprocess.run(
        [sys.executable, "-m", "seq_io.reference.testee"],
        input=b"".join(map(protocol.encode, requests)),
        capture_output=True,
        timeout=60,
        check=False,
        cwd=REPO_ROOT,
    )
    answers = [protocol.decode(line) for line in done.stdout.splitlines()][1:]
    assert done.returncode == 0, done.stderr.decode(errors="replace")
    assert [a["result"]["valid"] for a in answers] == [False] * len(UNESCAPED_LONE_SURROGATES)
    assert all(
        {"path": "$", "rule": "wire.json-syntax"}
        in [{k: e[k] for k in ("path", "rule")} for e in a["result"]["errors"]]
        for a in answers
    )


LONE_SURROGATE_SCENARIO = {
    "declaration": None,
    "operations": [
        {"observe": {"episode_id": "e", "frames": [{"seq": 0, "inputs": "\ud800"}]}},
        {"observe": {"episode_id": "e", "frames": [{"seq": 0, "inputs": {"a\udc00": 1}}]}},
        {"act": {"episode_id": "e", "seq": 0, "inputs": ["ok", "x\ud83d"]}},
        {"observe": {"episode_id": "e"}},
    ],
}
"""Stream bodies holding lone surrogates as parsed values (spec/stream.md STR-POST-BODY: a wire rule a value can
still break). No YAML vector can hold one (YAML refuses the escape), so this test sends them; the JavaScript
implementation gets the same scenario in implementations/js/test/run-vectors.js."""
LONE_SURROGATE_OUTCOMES = [
    {"error": "stream.invalid-body", "status": 400},
    {"error": "stream.invalid-body", "status": 400},
    {"error": "stream.invalid-body", "status": 400, "at": 2},
    {"through": -1},
]


def test_the_reference_keeper_refuses_lone_surrogates_in_bodies_sent_through_the_protocol() -> None:
    case = {"type": "case", "id": "raw-stream-0001", "kind": "stream", "input": LONE_SURROGATE_SCENARIO}
    done = subprocess.run(
        [sys.executable, "-m", "seq_io.reference.testee"],
        input=b"".join(map(protocol.encode, [protocol.runner_hello(load_spec().contract_version), case])),
        capture_output=True,
        timeout=60,
        check=False,
        cwd=REPO_ROOT,
    )
    answers = [protocol.decode(line) for line in done.stdout.splitlines()][1:]
    assert done.returncode == 0, done.stderr.decode(errors="replace")
    assert answers[0]["result"]["outcomes"] == LONE_SURROGATE_OUTCOMES
