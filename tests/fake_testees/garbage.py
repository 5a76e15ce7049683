"""A fake testee for tests/test_runner.py: prints a line that is not JSON on the cases named with --on."""

from _fake import main

main("garbage")
