"""Every hand-written uploader scenario of conformance/vectors/uploader/ → the brute-force model of
scripts/seq_io_maint/uploader_model.py → the same requests, event by event; and the generated long scenarios are what
scripts/gen_uploader_vectors.py writes.

The hand-written expectations were derived from spec/uploader.md by hand, the model was written from the same prose
without reading the reference uploader, so a scenario both agree on is checked twice over: this is the cross-check
of the hand vectors. Requests are compared as conformance/protocol.md ("Comparison") says: in order, a post's
frames and skipped numbers as sets, `at` the event's reading unless the vector gives one (a window's ends exactly:
they are binary64 sums the vector writes as such).
"""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path
from typing import Any

import pytest

import suite_cache
from seq_io.runner.suite import SuiteCase, suite_cases
from seq_io_maint import generated_vectors, uploader_model
from seq_io_maint.uploader_model import Unjudgeable, play

FILES, PROBLEMS = suite_cache.suite()
CASES = [case for case in suite_cases(FILES) if case.kind == "uploader"]
HAND = [case for case in CASES if not Path(case.case.file).name.startswith("long-")]
SCRIPTS = Path(__file__).resolve().parents[1] / "scripts"

Request = tuple[Any, ...]


def scenario_of(case: SuiteCase) -> dict[str, Any]:
    """The scenario as the runner sends it: the case's setup, its group's where the case gives none."""
    data, group = case.case.data, case.case.group
    found = {key: data.get(key, group.get(key)) for key in ("declaration", "rate", "episode_id", "backlog")}
    present = {key: value for key, value in found.items() if key in data or key in group}
    return present | {"events": data["events"]}


def _canonical(value: Any) -> str:
    return json.dumps(value, sort_keys=True, ensure_ascii=False)


def normalized(request: dict[str, Any], reading: float) -> Request:
    at = request.get("at", reading)
    when = (float(at["from"]), float(at["to"])) if isinstance(at, dict) else float(at)
    if "act" in request:
        return ("act", request["act"]["seq"], _canonical(request["act"]["inputs"]), when)
    post = request["post"]
    frames = frozenset((frame["seq"], _canonical(frame["inputs"])) for frame in post.get("frames", []))
    return ("post", frames, frozenset(post.get("skipped", [])), when)


def first_difference(case: SuiteCase, requests: list[list[dict[str, Any]]]) -> str | None:
    """Where the model's requests first depart from the vector's, in words; None when they agree throughout."""
    events = case.case.data["events"]
    if len(requests) != len(events):
        return f"{len(requests)} lists of requests for {len(events)} events"
    reading = 0.0
    for index, (event, sent) in enumerate(zip(events, requests, strict=True)):
        if "advance" in event:
            reading += float(event["advance"])
        expected = [normalized(request, reading) for request in event.get("expect", [])]
        found = [normalized(request, reading) for request in sent]
        if expected != found:
            return f"event {index} ({next(iter(event))}): the vector expects {expected}, the model sends {found}"
    return None


def test_the_uploader_files_load_and_the_hand_written_are_many() -> None:
    assert not [problem for problem in PROBLEMS if "/uploader/" in problem.file]
    assert len(HAND) >= 170
    assert len(CASES) > len(HAND), "the generated long scenarios are in the suite too"


@pytest.mark.parametrize("case", HAND, ids=[case.id for case in HAND])
def test_the_model_sends_what_each_hand_written_vector_expects(case: SuiteCase) -> None:
    result = play(scenario_of(case))
    if "expect" in case.case.data:
        assert result == case.case.data["expect"]
        return
    assert isinstance(result, list), result
    difference = first_difference(case, result)
    assert difference is None, f"{case.case.file}:{case.case.line}: {case.id}: {difference}"


def test_the_comparison_notices_a_wrong_request() -> None:
    """A changed frame, a missing skip, a moved reading or a missing window each differ."""
    case = next(c for c in HAND if any("from" in str(e.get("expect")) for e in c.case.data["events"]))
    result = play(scenario_of(case))
    assert isinstance(result, list) and first_difference(case, result) is None
    index = next(i for i, sent in enumerate(result) if sent and "post" in sent[0])
    for wrong in (
        {"post": {"frames": [{"seq": 999, "inputs": 0}]}},
        {**result[index][0], "post": {**result[index][0]["post"], "skipped": [12345]}},
        {**result[index][0], "at": 99.0},
    ):
        changed = [*result[:index], [wrong], *result[index + 1 :]]
        assert first_difference(case, changed) is not None
    retry = next(i for i, sent in enumerate(result) if sent and isinstance(sent[0].get("at"), dict))
    moved = [*result[:retry], [{**result[retry][0], "at": result[retry][0]["at"]["to"]}], *result[retry + 1 :]]
    assert first_difference(case, moved) is not None
    assert first_difference(case, result[:-1]) is not None


def test_the_model_refuses_what_the_rules_leave_open() -> None:
    """The model leaves to the prose (no vector relies on them) a 409 to a post, a 3xx and a 201 that lists the format;
    no vector may place an event inside a retry window."""
    start = [{"plan": 1}, {"observe": {"n": 0, "inputs": 0}}]
    for events in (
        [*start, {"answer": {"to": "post", "status": 409}}],
        [*start, {"answer": {"to": "post", "status": 302}}],
        [*start, {"fail": {"to": "post", "reason": "timeout"}}, {"advance": 0.15}],
        [*start, {"answer": {"to": "post", "status": 201}}],
    ):
        with pytest.raises(Unjudgeable):
            play({"declaration": {"every": 1}, "episode_id": "e", "events": events})


def test_a_format_listed_in_any_of_two_headers_keeps_the_stream_on() -> None:
    """UPL-FORMATS: names match without regard to ASCII case, and any header of that name may list the format. The
    answer to the post of frame 0 sends frame 1 exactly when the stream stays on."""

    def answered(headers: dict[str, str]) -> list[Any]:
        events: list[dict[str, Any]] = [
            {"plan": 3},
            {"observe": {"n": 0, "inputs": 0}},
            {"observe": {"n": 1, "inputs": 1}},
            {"answer": {"to": "post", "status": 200, "headers": headers}},
        ]
        played = play({"declaration": {"every": 1}, "episode_id": "e", "events": events})
        assert isinstance(played, list)
        return played[3]

    assert answered({"Seq-Accept-Formats": "a", "seq-accept-formats": "b"}) == []
    assert answered({"SEQ-ACCEPT-FORMATS": "a, x-seq-observe/1"}) != []
    assert answered({"Seq-Accept-Formats": "a", "seq-accept-formats": "x-seq-observe/1"}) != []


def test_the_model_is_written_without_the_reference_uploader() -> None:
    """Independence is the point of the cross-check: the model neither imports nor reads the reference uploader."""
    source = Path(uploader_model.__file__).read_text(encoding="utf-8")
    assert "reference.uploader" not in source and "reference/uploader" not in source


def _generator() -> Any:
    script = SCRIPTS / "gen_uploader_vectors.py"
    spec = importlib.util.spec_from_file_location("gen_uploader_vectors", script)
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
def test_the_drift_check_notices_an_edited_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    generator = _generator()
    (tmp_path / "uploader").mkdir()
    for name, seeds in generator.FILES.items():
        (tmp_path / "uploader" / name).write_text(generator.file_text(seeds), encoding="utf-8")
    monkeypatch.setattr(generated_vectors, "VECTORS_DIR", tmp_path)
    assert generator.main(["--check"]) == 0
    first = tmp_path / "uploader" / next(iter(generator.FILES))
    first.write_text(first.read_text(encoding="utf-8").replace('"status": 200', '"status": 201', 1), encoding="utf-8")
    assert generator.main(["--check"]) == 1


def test_the_generated_scenarios_agree_with_the_model_as_written() -> None:
    """The files hold what the model computes for their events (the drift check compares whole texts; this names
    the event when a hand edit of a generated file changed an expectation)."""
    generated = [case for case in CASES if case not in HAND]
    assert len(generated) >= 6
    for case in generated:
        result = play(scenario_of(case))
        assert isinstance(result, list)
        assert first_difference(case, result) is None, case.id
        assert len(case.case.data["events"]) >= 300, "a long scenario has hundreds of events"
