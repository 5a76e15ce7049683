"""Every stream scenario of conformance/vectors/stream/ → the reference keeper (through the reference testee and
the runner's comparison) and → the brute-force model of scripts/seq_io_maint/stream_model.py: both must give
every operation's expected outcome.

The expectations were derived by hand from spec/stream.md (hand-written files) or by the model (the generated
file); the reference keeper shares no code with the model, so a case passing both is checked twice over. The model
plays declarations in unit "steps" only and needs a keeper to exist: the few scenarios it cannot play (a rate in
seconds, a declaration `of` refuses) are named by `model_plays`, and `test_the_model_plays_nearly_all` keeps that
exception small. A malformed scenario (STR-SCENARIO) is one the model decides too: it refuses it as a whole.
"""

from __future__ import annotations

import sys
from typing import Any

import pytest

import suite_cache
from seq_io.reference.cases import judge
from seq_io.runner.kinds import TABLE, expected_outcome, operation_name
from seq_io.runner.suite import SuiteCase, suite_cases
from seq_io.runner.verdict import differences
from seq_io_maint import generated_vectors
from seq_io_maint.stream_model import Malformed, play

FILES, PROBLEMS = suite_cache.suite()
CASES = [case for case in suite_cases(FILES) if case.kind == "stream"]


def malformed(case: SuiteCase) -> bool:
    return bool(case.case.data.get("expect", {}).get("error") == Malformed.rule)


def model_plays(case: SuiteCase) -> bool:
    data: dict[str, Any] = case.case.data
    declaration = data["declaration"]
    in_steps = declaration is None or (isinstance(declaration, dict) and declaration.get("unit") != "seconds")
    return malformed(case) or (in_steps and "expect" not in data)


def test_the_stream_files_load_and_are_many() -> None:
    assert not [p for p in PROBLEMS if "/stream/" in p.file]
    assert len(CASES) >= 200


def test_the_model_plays_nearly_all() -> None:
    unplayed = [case.id for case in CASES if not model_plays(case)]
    assert len(unplayed) <= 8, unplayed


@pytest.mark.parametrize("case", CASES, ids=[case.id for case in CASES])
def test_reference_keeper_passes(case: SuiteCase) -> None:
    result = judge("stream", case.case)
    assert result.passed, f"{case.case.file}:{case.case.line}: {result.detail}"


@pytest.mark.parametrize("case", [c for c in CASES if model_plays(c)], ids=[c.id for c in CASES if model_plays(c)])
def test_brute_force_model_agrees(case: SuiteCase) -> None:
    operations = case.case.data["operations"]
    if malformed(case):
        with pytest.raises(Malformed):
            play(TABLE["stream"].input(case))
        return
    outcomes = play(TABLE["stream"].input(case))
    assert len(outcomes) == len(operations)
    for index, operation in enumerate(operations):
        found, _ = differences(expected_outcome(index, operation), outcomes[index])
        assert not found, f"{case.id} operation {index} ({operation_name(operation)}): {found[0]}"


def _generator() -> Any:
    import importlib.util
    from pathlib import Path

    script = Path(__file__).resolve().parents[1] / "scripts" / "gen_stream_vectors.py"
    spec = importlib.util.spec_from_file_location("gen_stream_vectors", script)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up there
    spec.loader.exec_module(module)
    return module


@pytest.mark.slow
def test_the_generated_files_are_what_the_generator_writes() -> None:
    generator = _generator()
    assert generator.main(["--check"]) == 0
    seeds = next(iter(generator.FILES.values()))
    assert generator.file_text(seeds) == generator.file_text(seeds)  # seeded: the same text every run


@pytest.mark.slow
def test_the_drift_check_notices_an_edited_file(tmp_path: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    generator = _generator()
    (tmp_path / "stream").mkdir()
    for name, seeds in generator.FILES.items():
        (tmp_path / "stream" / name).write_text(generator.file_text(seeds), encoding="utf-8")
    monkeypatch.setattr(generated_vectors, "VECTORS_DIR", tmp_path)
    assert generator.main(["--check"]) == 0
    first = tmp_path / "stream" / next(iter(generator.FILES))
    first.write_text(first.read_text(encoding="utf-8").replace('"through": 0', '"through": 1', 1), encoding="utf-8")
    assert generator.main(["--check"]) == 1


def test_the_comparison_names_the_first_operation_that_differs() -> None:
    case = next(c for c in CASES if len(c.case.data["operations"]) >= 4 and "expect" not in c.case.data)
    outcomes = play(TABLE["stream"].input(case))
    judge_stream = TABLE["stream"].judge
    assert judge_stream(case, {"outcomes": outcomes}).status == "pass"
    wrong = [*outcomes[:2], {"through": 12345}, *outcomes[3:]]
    verdict = judge_stream(case, {"outcomes": wrong})
    assert verdict.status == "fail" and "operation 2 (" in verdict.detail and verdict.differences
    assert verdict.differences[0].at.startswith("$.outcomes[2]")
    assert judge_stream(case, {"outcomes": outcomes[:-1]}).status == "fail"
    assert judge_stream(case, {"outcomes": [*outcomes, {"through": 0}]}).status == "fail"
    assert judge_stream(case, {"no": "outcomes"}).status == "fail"


def test_an_act_decided_later_must_say_when() -> None:
    """`at` defaults to the act's own index only when the vector leaves it out; a vector that gives it is held to
    it, so an implementation that hands a waiting act over at the wrong operation fails."""
    case = next(
        c
        for c in CASES
        if any(
            "act" in op and op["expect"].get("at") not in (None, i) for i, op in enumerate(c.case.data["operations"])
        )
    )
    outcomes = play(TABLE["stream"].input(case))
    index = next(
        i
        for i, op in enumerate(case.case.data["operations"])
        if "act" in op and op["expect"].get("at") not in (None, i)
    )
    moved = [dict(outcome) for outcome in outcomes]
    moved[index]["at"] = index
    assert TABLE["stream"].judge(case, {"outcomes": moved}).status == "fail"
