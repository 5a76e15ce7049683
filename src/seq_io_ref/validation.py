"""Deprecated alias: this module is `seq_io.reference.validation` (see seq_io_ref/__init__.py)."""

import sys

from seq_io.reference import validation

sys.modules[__name__] = validation
