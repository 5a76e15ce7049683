"""A fake testee for tests/test_runner.py: starts a grandchild that sleeps (--spawn setsid, orphan or plain; at
the start, or on the case --spawn-on), writing its pid after this process's own to --pid-file.
"""

from _fake import main

main("spawner")
