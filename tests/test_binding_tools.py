"""The two tools every compiled binding is measured with: the binding model and the round-trip checker.

generated/binding-model.json must say what the schemas say about each member (required, nullable), or four
languages inherit the same mistake; the round-trip checker must catch each way a binding is known to change an
instance (docs/bindings-generators.md, "Failure classes"), or a 255/255 in the README means nothing. Each
expectation below is written from spec/validation.md "Writing an instance" and "Language-neutral decisions".
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from seq_io_maint import binding_model, roundtrip

SCHEMAS = Path(binding_model.SCHEMAS)


def model_types() -> dict[str, dict[str, Any]]:
    return {t["name"]: t for t in binding_model.build()["types"]}


def test_the_model_file_is_current() -> None:
    assert binding_model.OUTPUT.read_text(encoding="utf-8") == binding_model.render()


def test_every_schema_is_a_named_type() -> None:
    titles = {json.loads(p.read_text(encoding="utf-8"))["title"] for p in SCHEMAS.glob("*.json")}
    assert titles <= set(model_types())


@pytest.mark.parametrize("path", sorted(SCHEMAS.glob("*.json")), ids=lambda p: p.stem)
def test_members_keep_required_and_nullable(path: Path) -> None:
    schema = json.loads(path.read_text(encoding="utf-8"))
    if "properties" not in schema:
        return
    fields = {f["json"]: f for f in model_types()[schema["title"]]["fields"]}
    assert list(fields) == list(schema["properties"])
    for name, sub in schema["properties"].items():
        assert fields[name]["required"] == (name in schema.get("required", [])), name
        assert fields[name]["nullable"] == ({"type": "null"} in sub.get("anyOf", [])), name


def test_nested_names_are_the_declared_ones() -> None:
    types = model_types()
    info = types["StreamErrorInfo"]
    assert [f["type"] for f in info["fields"] if f["json"] == "details"] == [
        {"kind": "ref", "name": "StreamErrorDetails"}
    ]
    assert types["SeqFlags"]["members"][0] == {"name": "WARMUP", "value": 1}
    assert types["CameraCodec"]["values"] == ["raw", "png", "jpeg"]


def diff(sent: str, got: str) -> list[str]:
    return roundtrip.differences(roundtrip.parse_exact(sent), roundtrip.parse_exact(got), "$")


@pytest.mark.parametrize(
    ("sent", "written", "because"),
    [
        ('{"a": 1}', '{"a": 1, "b": null}', "absent written as null"),
        ('{"a": null}', "{}", "null dropped"),
        ('{"s": {}}', "{}", "an empty object dropped"),
        ('{"b": []}', "{}", "an empty list dropped"),
        ('{"w": 1}', '{"w": 1, "streaming": false}', "a default written"),
        ('{"w": 15}', '{"w": 15.0}', "an integer written as a float"),
        ('{"n": 9007199254740993}', '{"n": 9007199254740992}', "an integer beyond 2^53 rounded"),
        ('{"n": 9007199254740993.0}', '{"n": 9007199254740992.0}', "an integral literal beyond 2^53 rounded"),
        ('{"x": 2.5}', '{"x": 2}', "a fraction truncated"),
        ('{"t": true}', '{"t": 1}', "a boolean written as a number"),
        ('{"k": [1, 2]}', '{"k": [2, 1]}', "a list reordered"),
    ],
)
def test_the_checker_catches(sent: str, written: str, because: str) -> None:
    assert diff(sent, written), because


@pytest.mark.parametrize(
    ("sent", "written", "because"),
    [
        ('{"a": 1, "b": 2}', '{"b": 2, "a": 1}', "member order is free"),
        ('{"w": 640.0}', '{"w": 640}', "2.0 becomes 2: the same value"),
        ('{"m": 0.10000000000000001}', '{"m": 0.1}', "the same double"),
        ('{"m": 1e-400}', '{"m": 0.0}', "an underflow is 0"),
        ('{"n": 9.007199254740993e15}', '{"n": 9007199254740993}', "the same integer"),
    ],
)
def test_the_checker_accepts(sent: str, written: str, because: str) -> None:
    assert diff(sent, written) == [], because


def test_the_python_models_round_trip_every_valid_vector(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    checkout = binding_model.CHECKOUT
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join(str(checkout / p) for p in ("scripts", "src", "generated/python")))
    report = tmp_path / "python.json"
    impl = f"{sys.executable} -m seq_io_maint.roundtrip_python"
    assert roundtrip.main(["--lang", "python", "--impl", impl, "--report", str(report)]) == 0
    written = json.loads(report.read_text(encoding="utf-8"))
    assert written["exact"] == written["cases"] == len(roundtrip.valid_cases())
    assert written["cases"] > 200


@pytest.mark.parametrize("table", sorted(Path(binding_model.CHECKOUT, "bindings").glob("*/looseness.json")), ids=str)
def test_every_looseness_table_has_the_one_layout(table: Path) -> None:
    schema = json.loads((table.parent.parent / "looseness.schema.json").read_text(encoding="utf-8"))
    document = json.loads(table.read_text(encoding="utf-8"))
    jsonschema.Draft202012Validator(schema).validate(document)
    for rule, row in document["rules"].items():
        verdict = {row["vectors"]: "types", 0: "validator only"}.get(row["refused_by_types"], "types in part")
        assert row["held_by"] == verdict, rule


def test_the_bindings_have_looseness_tables() -> None:
    tables = {p.parent.name for p in Path(binding_model.CHECKOUT, "bindings").glob("*/looseness.json")}
    assert tables == {"go", "rust", "java", "cpp"}
