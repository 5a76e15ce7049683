"""`python -m seq_io_tools.bump_review …`: the bump review without the `iospec` wrapper (argv → exit code)."""

import sys

from seq_io_tools.bump_review import main

sys.exit(main())
