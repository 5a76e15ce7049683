"""`python -m seq_io.runner …`: the runner without the `iospec` wrapper (argv → exit code)."""

import sys

from seq_io.runner import main

sys.exit(main())
