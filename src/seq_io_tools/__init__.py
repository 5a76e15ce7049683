"""Deprecated alias of the `iospec` tools, now `seq_io` (sequences-io-spec 0.2.0; the alias goes in 0.3.0).

WHY kept for one release: testee commands in users' CI call `python -m seq_io_tools.reference_testee`; that still
runs the reference testee, after one DeprecationWarning on stderr naming `python -m seq_io.reference.testee`.
"""

import warnings

warnings.warn(
    "seq_io_tools is renamed seq_io (sequences-io-spec 0.2.0): run `python -m seq_io.reference.testee`; "
    "the old name goes in 0.3.0",
    DeprecationWarning,
    stacklevel=2,
)
