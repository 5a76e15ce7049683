"""The README's "Testing an SDK against the reference worker" commands, read from README.md and run for real: the
worker of the first command, the uploader example against it, and the probe of that same worker.

WHY from the README itself: the three commands are what a new user pastes, so they must chain (the uploader and the
probe talk to the worker the first command started) and each must work; a copy of them in this test would drift.
The one change made to them is the port, the same free one in all three, so that a busy port 8765 on the machine
cannot fail the test; and the probe is narrowed to one group of scenarios to bound its time (`make probe` probes
every scenario).
"""

from __future__ import annotations

import json
import re
import shlex
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from http_processes import IOSPEC, REPO, running
from test_probe import timing_errors

SECTION = "## Testing an SDK against the reference worker"
pytestmark = pytest.mark.realclock


def readme_commands() -> list[list[str]]:
    """The section's shell block, each line split into words, comments and a trailing `&` dropped."""
    text = (REPO / "README.md").read_text(encoding="utf-8")
    section = text[text.index(SECTION) :]
    block = re.search(r"```sh\n(.*?)```", section, re.DOTALL)
    assert block is not None, f"no shell block under {SECTION!r}"
    return [shlex.split(line, comments=True) for line in block.group(1).splitlines() if line.strip()]


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def test_the_readme_commands_chain() -> None:
    start, uploader, probe = readme_commands()
    assert start[:2] == ["iospec", "worker"] and start[-1] == "&", start
    port = start[start.index("--port") + 1]
    url = f"http://127.0.0.1:{port}"
    assert uploader[:2] == ["python", "examples/uploader.py"] and uploader[uploader.index("--worker") + 1] == url
    assert probe[:2] == ["iospec", "probe"] and probe[probe.index("--worker") + 1] == url, probe
    assert "--testing" in start  # test keepers: the probe can run every scenario on the first command's worker


def test_the_readme_commands_run(tmp_path: Path) -> None:
    start, uploader, probe = readme_commands()
    port = start[start.index("--port") + 1]
    free = str(_free_port())

    def real(words: list[str]) -> list[str]:
        """The command as this test runs it: the installed `iospec` and this `python`, on the free port."""
        out = [word.replace(f":{port}", f":{free}") for word in words if word != "&"]
        if "--port" in out:
            out[out.index("--port") + 1] = free
        head = {"iospec": IOSPEC, "python": [sys.executable]}.get(out[0], [out[0]])
        return [*head, *out[1:]]

    with running(real(start)) as worker:
        assert worker.url == f"http://127.0.0.1:{free}" and worker.info["testing"] is True
        done = subprocess.run(real(uploader), capture_output=True, text=True, cwd=REPO, timeout=120, check=False)
        assert done.returncode == 0 and re.search(r"\d+ acts matched, 0 did not", done.stdout), done.stdout[-2000:]
        report = tmp_path / "probe.json"
        argv = [word if word != "probe.json" else str(report) for word in real(probe)]
        done = subprocess.run(
            [*argv, "--group", "stream/act/*"], capture_output=True, text=True, cwd=REPO, timeout=600, check=False
        )
        document = json.loads(report.read_text(encoding="utf-8"))
        late = timing_errors(document)  # a loaded machine may keep a case from being judged, nothing else
        assert done.returncode == (1 if late else 0), done.stdout[-2000:] + done.stderr[-2000:]
        assert document["totals"]["pass"] > 0 and document["totals"]["fail"] == 0, document["totals"]
        assert worker.stop() == 0
