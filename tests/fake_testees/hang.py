"""A fake testee for tests/test_runner.py: stops answering (sleeps) on the cases named with --on."""

from _fake import main

main("hang")
