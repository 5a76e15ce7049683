"""The wire rules: JSON text that other parsers read differently is refused with a path, never a crash."""

from __future__ import annotations

import subprocess
import sys

import pytest
from seq_io_ref.spec_data import REPO_ROOT, load_spec
from seq_io_ref.wire import parse_json_text
from seq_io_tools.runner import protocol


@pytest.mark.parametrize(("text", "path", "rule"), [
    ('{"a": 1, "a": 2}', "$", "wire.duplicate-key"),
    ('{"x": {"b": [1, {"c": 1, "c": 1}]}}', "$.x.b[1]", "wire.duplicate-key"),
    ('{"a": NaN}', "$", "wire.json-syntax"),
    ('[-Infinity]', "$", "wire.json-syntax"),
    ('{"a": -1e400}', "$.a", "wire.non-finite-number"),
    ('{"a": 1' + "0" * 400 + "}", "$.a", "wire.non-finite-number"),
    ('{"a": 1,}', "$", "wire.json-syntax"),
    ("[" * 100000, "$", "wire.json-syntax"),
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
    implementation is held to the same texts by conformance/js/test/run-vectors.js, which runs after `npm ci`.)"""
    cases = [{"type": "case", "id": f"raw-{n}", "kind": "validation",
              "input": {"type_name": "ObserveFrame", "json": '{"seq": 0, "inputs": ' + text + "}"}}
             for n, text in enumerate(UNESCAPED_LONE_SURROGATES)]
    requests = [protocol.runner_hello(load_spec().contract_version), *cases]
    done = subprocess.run([sys.executable, "-m", "seq_io_tools.reference_testee"],
                          input=b"".join(map(protocol.encode, requests)), capture_output=True, timeout=60, check=False,
                          cwd=REPO_ROOT)
    answers = [protocol.decode(line) for line in done.stdout.splitlines()][1:]
    assert done.returncode == 0, done.stderr.decode(errors="replace")
    assert [a["result"]["valid"] for a in answers] == [False] * len(UNESCAPED_LONE_SURROGATES)
    assert all({"path": "$", "rule": "wire.json-syntax"} in [{k: e[k] for k in ("path", "rule")}
                                                           for e in a["result"]["errors"]] for a in answers)
