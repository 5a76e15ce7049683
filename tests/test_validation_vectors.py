"""Every validation vector passes against the reference. (That every valid one round-trips exactly through the
generated model is tests/test_models.py's.)"""

from __future__ import annotations

import pytest
from seq_io_ref.validation import Contract
from seq_io_tools import vectors
from seq_io_tools.validation_cases import judge, outcome_of

FILES, PROBLEMS = vectors.load_suite()
CASES = [(f.doc["type"], case) for f in FILES if f.kind == "validation" for case in f.cases]
IDS = [case.id for _, case in CASES]


def test_suite_loads_and_lints_clean(suite: list[vectors.VectorFile], the_contract: Contract) -> None:
    from seq_io_ref.rule_ids import known_rule_ids

    spec = the_contract.spec
    problems = list(vectors.lint(suite, vectors.read_ledger(), known_rule_ids(spec), set(spec.type_names)))
    assert not problems, "\n".join(map(str, problems))


def test_at_least_300_cases_over_all_types(the_contract: Contract) -> None:
    assert len(CASES) >= 300
    assert {type_name for type_name, _ in CASES} == set(the_contract.type_names)


@pytest.mark.parametrize(("type_name", "case"), CASES, ids=IDS)
def test_case_passes(the_contract: Contract, type_name: str, case: vectors.Case) -> None:
    result = judge(case, outcome_of(the_contract, type_name, case.data))
    assert result.passed, f"{case.file}:{case.line}: {result.detail}"
