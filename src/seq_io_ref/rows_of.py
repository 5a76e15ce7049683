"""Deprecated alias: this module is `seq_io.reference.rows_of` (see seq_io_ref/__init__.py)."""

import sys

from seq_io.reference import rows_of

sys.modules[__name__] = rows_of
