"""A fake testee for tests/test_runner.py: on the cases named with --on, prints an extra line after its
answer (--wait seconds later; --how-chatty log: a line of text, twice: the same answer again).
"""

from _fake import main

main("chatty")
