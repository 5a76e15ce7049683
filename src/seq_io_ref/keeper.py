"""Deprecated alias: this module is `seq_io.reference.keeper` (see seq_io_ref/__init__.py)."""

import sys

from seq_io.reference import keeper

sys.modules[__name__] = keeper
