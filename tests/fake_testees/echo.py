"""A fake testee for tests/test_runner.py: behaves, except for the wrong answers, refusals, skips and bad
shapes it is told to give.
"""

from _fake import main

main("echo")
