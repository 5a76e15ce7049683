"""The conformance runner (`iospec run`): vector files → cases → requests to a testee → verdicts → reports.

`suite` loads and selects the cases, `kinds` is the table of case kinds (what each sends and compares),
`verdict` holds the comparison's building blocks, `compare` turns a case into a request and judges an answer,
`protocol` speaks testee protocol v1 to a child process (conformance/protocol.md), `run` is the loop over the
cases (stdio or in process), `xfail` reads and rewrites the expected-failure list, `reports` writes the summary,
JUnit, TAP and JSON, `lastfailed` keeps the ids that failed last (`--last-failed`), `cli` is the `iospec run`
command (`register`, `main`) and `show` the `iospec show ID` command (`register_show`).
"""

from seq_io.runner.cli import main, register
from seq_io.runner.show import register as register_show

__all__ = ["main", "register", "register_show"]
