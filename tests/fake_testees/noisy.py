"""A fake testee for tests/test_runner.py: on the cases named with --on, writes --stderr (with Python escapes:
control characters) to stderr, then answers.
"""

from _fake import main

main("noisy")
