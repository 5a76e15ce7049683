"""`python -m seq_io_tools.runner …`: the runner without the `iospec` wrapper (argv → exit code)."""

import sys

from seq_io_tools.runner import main

sys.exit(main())
