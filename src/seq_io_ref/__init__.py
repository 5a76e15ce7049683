"""Deprecated alias of `seq_io.reference` (renamed in sequences-io-spec 0.2.0; the alias goes in 0.3.0).

WHY kept for one release: users import `seq_io_ref.validation.to_json_value` and `seq_io_ref.schedule.of`;
each public module below is the very module of `seq_io.reference` (same objects), after one DeprecationWarning
that names the new import. CHANGELOG.md, 0.2.0, says how to migrate.
"""

import warnings

warnings.warn(
    "seq_io_ref is renamed seq_io.reference (sequences-io-spec 0.2.0); the old name goes in 0.3.0",
    DeprecationWarning,
    stacklevel=2,
)
