"""A fake testee for tests/test_runner.py: answers the cases named with --on only after --delay seconds."""

from _fake import main

main("slow")
