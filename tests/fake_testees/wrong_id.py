"""A fake testee for tests/test_runner.py: answers the cases named with --on with another case's id."""

from _fake import main

main("wrong_id")
