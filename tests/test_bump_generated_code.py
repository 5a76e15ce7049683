"""The bump review's generated-code axis (spec/compatibility.md, "Generated code"): its predictions of what each
binding's generator writes are checked against the generated files in the repository, and its findings, level and
gate against small synthetic heads.

WHY the cross-check with generated/: the review never runs the generators (a release snapshot or the wheel has
neither them nor their toolchains), so the one way to know its names are the generators' names is to predict the
repository's own spec and find every predicted name in what `make generate` wrote.
"""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path
from typing import Any

import pytest

from seq_io.binding_types import build_types
from seq_io.bump_review import gate, report, sarif, workflow_commands
from seq_io.bump_review.generated_code import FILES, compare, facts
from seq_io.bump_review.review import review
from seq_io.bump_review.rules import RULES, make
from seq_io.bump_review.snapshot import load_folder
from seq_io.reference.spec_data import load_spec

REPO_ROOT = Path(__file__).resolve().parents[1]
SPEC = REPO_ROOT / "spec"
GENERATED = REPO_ROOT / "generated"
RELEASE = SPEC / "releases" / "0.5.25"


def _spec_files() -> list[tuple[str, dict[str, Any]]]:
    return [(p.stem, json.loads(p.read_text(encoding="utf-8"))) for p in sorted((SPEC / "schemas").glob("*.json"))]


def test_the_package_builds_the_model_the_generated_file_holds() -> None:
    written = json.loads((GENERATED / "binding-model.json").read_text(encoding="utf-8"))["types"]
    built = build_types(_spec_files()).types
    assert [built[name] for name in sorted(built)] == written


def _type_facts() -> dict[str, set[tuple[str, str]]]:
    """binding → {(type name, file)} the review predicts for the repository's spec."""
    out: dict[str, set[tuple[str, str]]] = {}
    for (kind, _, _, _), fact in facts(load_spec(SPEC)).items():
        if kind == "file":
            for binding, spelled in fact.by_binding.items():
                name = spelled.shown.rsplit("/", 1)[-1] if "{type}" in spelled.same else ""
                out.setdefault(binding, set()).add((name, spelled.shown))
    return out


DECLARATION = {
    "python": r"^class {name}\(",
    "ts": r"^export (?:interface|type) {name}\b",
    "go": r"^type {name} ",
    "rust": r"^pub (?:struct|enum) {name}\b",
    "cpp": r"^(?:struct|enum class) {name}\b",
}


@pytest.mark.parametrize("binding", sorted(DECLARATION))
def test_every_predicted_type_is_declared_in_its_predicted_file(binding: str) -> None:
    predicted = {
        (k[1], k[2]): fact.by_binding[binding].shown
        for k, fact in facts(load_spec(SPEC)).items()
        if k[0] == "type" and binding in fact.by_binding
    }
    files = {
        (k[1], k[2]): fact.by_binding[binding].shown
        for k, fact in facts(load_spec(SPEC)).items()
        if k[0] == "file" and binding in fact.by_binding
    }
    missing = []
    for place, name in sorted(predicted.items()):
        text = (REPO_ROOT / files[place]).read_text(encoding="utf-8")
        if not re.search(DECLARATION[binding].format(name=re.escape(name)), text, re.MULTILINE):
            missing.append(f"{name} in {files[place]}")
    assert missing == []


def test_every_predicted_java_file_exists() -> None:
    java = {shown for name, shown in _type_facts()["java"]}
    assert java and all((REPO_ROOT / path).is_file() for path in java), sorted(
        p for p in java if not (REPO_ROOT / p).is_file()
    )


def test_predicted_enum_members_and_fields_are_in_the_compiled_bindings() -> None:
    found = facts(load_spec(SPEC))
    texts = {b: (REPO_ROOT / FILES[b]).read_text(encoding="utf-8") for b in ("go", "rust", "cpp")}
    missing = []
    for (kind, _, location, _), fact in found.items():
        if kind not in ("member", "property"):
            continue
        for binding, text in texts.items():
            word = fact.by_binding[binding].shown
            if not re.search(rf"\b{re.escape(word)}\b", text):
                missing.append(f"{binding} {kind} {word} at {location}")
    assert missing == []


def _head(tmp_path: Path, edit: dict[str, Any]) -> tuple[Path, Path]:
    base, head = tmp_path / "base", tmp_path / "head"
    shutil.copytree(RELEASE, base)
    shutil.copytree(RELEASE, head)
    for file, change in edit.items():
        path = head / "schemas" / file
        schema = json.loads(path.read_text(encoding="utf-8")) if path.exists() else {}
        schema.update(change)
        path.write_text(json.dumps(schema, indent=2), encoding="utf-8")
    return base, head


def test_an_enum_member_renamed_is_a_source_change_that_needs_a_minor_bump(tmp_path: Path) -> None:
    names = json.loads((RELEASE / "schemas" / "SeqFlags.json").read_text(encoding="utf-8"))["x-enum-varnames"]
    base, head = _head(tmp_path, {"SeqFlags.json": {"x-enum-varnames": ["BOOT", *names[1:]]}})
    result = review(load_folder(base), load_folder(head))
    assert [(c.type_name, c.rule, c.bindings) for c in result.code.changes] == [
        ("SeqFlags", "code-renamed", ("python", "go", "rust", "java", "cpp"))
    ]
    assert "`SeqFlagsWarmup` → `SeqFlagsBoot`" in result.code.changes[0].detail
    assert result.diff.changes == []  # `x-enum-varnames` left `annotation-changed`
    assert result.verdict.required == "minor" and not result.verdict.passed
    assert "generated-code changes need a minor bump" in result.verdict.reasons[0]
    text = report.markdown(result)
    assert "## Generated code" in text and "| SeqFlags | `$` | `code-renamed` | python, go, rust, java, cpp |" in text
    entry = report.as_json(result)["generated_code"][0]
    assert entry["level"] == "source" and entry["bindings"] == ["python", "go", "rust", "java", "cpp"]


def test_nothing_generated_changes_nothing_is_found(tmp_path: Path) -> None:
    base, head = _head(tmp_path, {"Camera.json": {"description": "One camera view."}})
    result = review(load_folder(base), load_folder(head))
    assert result.code.changes == [] and result.verdict.required == "none"
    assert "## Generated code" not in report.markdown(result)


ROOT_STRING_TYPE = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "$id": "https://seq-io-spec.example/schemas/Tag.json",
    "title": "Tag",
    "type": "string",
}
"""A type whose root is a string: no binding's generator represents it (a named type is an object or an enum)."""


def test_a_head_no_binding_can_represent_is_one_source_finding(tmp_path: Path) -> None:
    base, head = _head(tmp_path, {"Tag.json": ROOT_STRING_TYPE})
    result = review(load_folder(base), load_folder(head))
    assert [(c.type_name, c.rule, c.bindings) for c in result.code.changes] == [
        ("(generated code)", "code-unrepresentable", ("python", "ts", "go", "rust", "java", "cpp"))
    ]
    assert any("the generators cannot represent the head's schemas" in note for note in result.notes)
    assert result.verdict.required == "minor" and not result.verdict.passed
    assert "code-unrepresentable" in report.markdown(result)
    assert [f["rule"] for f in report.as_json(result)["generated_code"]] == ["code-unrepresentable"]
    log = sarif.log(result)
    assert "code-unrepresentable" in {r["ruleId"] for r in log["runs"][0]["results"]}
    assert "code-unrepresentable" in workflow_commands.render(result)


def test_a_base_no_binding_can_represent_adds_no_bump(tmp_path: Path) -> None:
    head, base = _head(tmp_path, {"Tag.json": ROOT_STRING_TYPE})
    result = review(load_folder(base), load_folder(head))
    assert result.code.changes == [] and "base" in result.code.problems
    assert not any("generated" in reason for reason in result.verdict.reasons)


def test_source_is_its_own_level_and_bumps_as_far_as_a_break() -> None:
    assert {rule for rule, r in RULES.items() if r.source} == {
        "code-renamed",
        "code-moved",
        "code-retyped",
        "code-unrepresentable",
    }
    change = make("code-retyped", "Camera", ("width",), "int64 → Number")
    assert change.level == "source"
    assert gate.required_bump("0.5.25", [], 0, source=True) == "minor"
    assert gate.required_bump("1.2.3", [], 0, source=True) == "major"
    assert gate.required_bump("1.2.3", [], 0) == "none"


def test_the_same_spec_on_both_sides_has_no_findings() -> None:
    spec = load_spec(SPEC)
    assert compare(spec, spec).changes == []


FIELD_DECLARATION = {
    "go": r"\b{name}\s+{type}\n",
    "rust": r"pub {name}: {type},",
    "cpp": r"{type} {name}\{{\}};",
}


@pytest.mark.parametrize("binding", sorted(FIELD_DECLARATION))
def test_every_predicted_field_type_is_the_declared_one(binding: str) -> None:
    """Unions are left out: the compiled bindings name them (`NumberOrNumberList`), the review writes their options."""
    found = facts(load_spec(SPEC))
    text = (REPO_ROOT / FILES[binding]).read_text(encoding="utf-8")
    checked, missing = 0, []
    for (kind, file, location, _), fact in found.items():
        declared = fact.by_binding[binding].shown
        if kind != "field" or "union" in declared or "Or" in declared or "variant" in declared:
            continue
        checked += 1
        name = found[("property", file, location, "")].by_binding[binding].shown
        pattern = FIELD_DECLARATION[binding].format(name=re.escape(name), type=re.escape(declared))
        if not re.search(pattern, text):
            missing.append(f"{file} {location}: {name} {declared}")
    assert checked > 90 and missing == []
