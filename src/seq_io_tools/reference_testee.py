"""Deprecated alias: `python -m seq_io_tools.reference_testee` runs `python -m seq_io.reference.testee`."""

import sys

from seq_io.reference.testee import main

if __name__ == "__main__":
    sys.exit(main())
