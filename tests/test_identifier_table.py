"""spec/identifier-characters.json → compared with this Python's Unicode 14.0.0 database, and read by the rule.

The table is what every implementation reads for DeploymentPolicy.param-name; these tests prove it is the Unicode
14.0.0 XID data (regenerated here byte for byte), well formed, and what the reference's identifier test uses.
"""

from __future__ import annotations

import itertools
import json
import unicodedata

import pytest

from seq_io.reference.beyond_schema import is_param_name
from seq_io_maint import identifier_table

TABLE = json.loads(identifier_table.TABLE.read_text(encoding="utf-8"))


def test_the_table_is_the_unicode_14_database() -> None:
    assert unicodedata.unidata_version == identifier_table.UNICODE_VERSION, "run the tests with Python 3.11"
    assert identifier_table.TABLE.read_text(encoding="utf-8") == identifier_table.render()


@pytest.mark.parametrize("name", ["xid_start", "xid_continue"])
def test_ranges_ascend_and_never_touch(name: str) -> None:
    ranges = TABLE[name]
    assert all(first <= last for first, last in ranges)
    assert all(earlier[1] + 1 < later[0] for earlier, later in itertools.pairwise(ranges))


def test_the_rule_reads_the_table_not_the_runtime() -> None:
    start = {cp for first, last in TABLE["xid_start"] for cp in range(first, last + 1)}
    cont = {cp for first, last in TABLE["xid_continue"] for cp in range(first, last + 1)}
    for cp in [*range(0x80), 0xB2, 0x2082, 0x200C, 0x30FB, 0xFF3F, 0x1E030, 0x10FFFF]:
        assert is_param_name(chr(cp)) == (cp in start), hex(cp)
        assert is_param_name("a" + chr(cp)) == (cp in cont), hex(cp)
    assert not is_param_name("") and not is_param_name("_x") and ord("_") in cont
