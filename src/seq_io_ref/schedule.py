"""Deprecated alias: this module is `seq_io.reference.schedule` (see seq_io_ref/__init__.py)."""

import sys

from seq_io.reference import schedule

sys.modules[__name__] = schedule
