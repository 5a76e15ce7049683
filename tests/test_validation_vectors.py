"""The validation vectors lint clean and cover every type. (Each case against the reference:
tests/test_reference_vectors.py; every valid one round-trips exactly through the generated model:
tests/test_models.py.)"""

from __future__ import annotations

import suite_cache
from seq_io import vectors
from seq_io.reference.validation import Contract

FILES, PROBLEMS = suite_cache.suite()
CASES = [(f.doc["type"], case) for f in FILES if f.kind == "validation" for case in f.cases]


def test_suite_loads_and_lints_clean(suite: list[vectors.VectorFile], the_contract: Contract) -> None:
    from seq_io.reference.rule_ids import error_ids, known_rule_ids

    spec = the_contract.spec
    known = known_rule_ids(spec), set(spec.type_names), error_ids(spec)
    problems = list(vectors.lint(suite, vectors.read_ledger(), *known))
    assert not problems, "\n".join(map(str, problems))


def test_at_least_300_cases_over_all_types(the_contract: Contract) -> None:
    assert len(CASES) >= 300
    assert {type_name for type_name, _ in CASES} == set(the_contract.type_names)
