"""A fake testee for tests/test_runner.py: answers the runner's hello wrongly (--how: protocol, version,
garbage, silent, exit, no-kinds, type).
"""

from _fake import main

main("bad_handshake")
