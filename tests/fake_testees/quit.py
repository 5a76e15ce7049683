"""A fake testee for tests/test_runner.py: answers the cases named with --on, then exits (status 0) without
waiting for its stdin to close.
"""

from _fake import main

main("quit")
