"""A testee for tests/test_report.py: the reference testee behind a proxy that answers the cases named with
--wrong by an error whose rule and message are HTML, and those named with --skip by a skip, and renames itself.

WHY a proxy over the reference: the report must show real failures of a real run (request, expected, got, why),
and a case's text is hostile input to the page; every other case still passes, so each count is known.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys

HOSTILE = '</pre><script>alert("x")</script><img src=x onerror=alert(1)>&amp;'


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--wrong", action="append", default=[])
    parser.add_argument("--skip", action="append", default=[])
    parser.add_argument("--name", default="seq-io-ref")
    options = parser.parse_args()
    child = subprocess.Popen(
        [sys.executable, "-m", "seq_io.reference.testee"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
    )
    assert child.stdin is not None and child.stdout is not None
    try:
        for line in sys.stdin:
            message = json.loads(line)
            ident = message.get("id")
            if message.get("type") == "case" and ident in options.wrong:
                answer = {"type": "error", "id": ident, "rule": HOSTILE, "message": HOSTILE}
            elif message.get("type") == "case" and ident in options.skip:
                answer = {"type": "skipped", "id": ident, "reason": HOSTILE}
            else:
                child.stdin.write(line)
                child.stdin.flush()
                answer = json.loads(child.stdout.readline())
                if answer.get("type") == "hello":
                    answer["implementation"] = {"name": options.name, "version": "9.9"}
            sys.stdout.write(json.dumps(answer) + "\n")
            sys.stdout.flush()
    finally:
        child.stdin.close()
        child.wait(timeout=10)
    return 0


if __name__ == "__main__":
    sys.exit(main())
