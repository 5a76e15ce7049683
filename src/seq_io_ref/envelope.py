"""Deprecated alias: this module is `seq_io.reference.envelope` (see seq_io_ref/__init__.py)."""

import sys

from seq_io.reference import envelope

sys.modules[__name__] = envelope
