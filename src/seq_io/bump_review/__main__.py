"""`python -m seq_io.bump_review …`: the bump review without the `iospec` wrapper (argv → exit code)."""

import sys

from seq_io.bump_review import main

sys.exit(main())
