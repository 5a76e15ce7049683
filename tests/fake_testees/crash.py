"""A fake testee for tests/test_runner.py: dies (exit status 3, a last word on stderr) on the cases named
with --on.
"""

from _fake import main

main("crash")
