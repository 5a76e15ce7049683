"""The matrix page of `iospec report` and the JSON reports it was made from → the page served on loopback HTTP,
opened in headless Chromium driven over its DevTools pipe → console errors, requests, the counts it shows, the
failing-only view and a screenshot → one line per problem, exit 1 when there is one.

WHY Chromium's own DevTools protocol over `--remote-debugging-pipe` (file descriptors 3 and 4, messages ended by a
NUL byte): it needs no driver library and no WebSocket client, only Debian's `chromium`; a real browser is the only
judge of "renders without errors", and the counts are read from what the DOM shows, not from the HTML text.
Every wait is bounded, and the browser and the server are stopped whatever happens.
"""

from __future__ import annotations

import argparse
import base64
import contextlib
import functools
import http.server
import json
import os
import select
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from seq_io.report.load import Counts, load_runs
from seq_io.report.matrix import build, is_clean

CHROMIUM = os.environ.get("SEQ_IO_CHROMIUM", "/usr/bin/chromium")
FLAGS = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--hide-scrollbars",
    "--remote-debugging-pipe",
)
STEP_TIMEOUT = 30.0
"""Seconds any one step (start, load, evaluate, screenshot) may take before the check fails."""
WINDOW = (1400, 1000)

READ_PAGE = """(() => {
  const cells = [...document.querySelectorAll('#kinds td.cell')].map(td => ({
    run: Number(td.dataset.run), kind: td.dataset.kind, text: td.firstChild.textContent}));
  const before = document.querySelectorAll('tr.group').length;
  document.getElementById('failing-only').click();
  const failingOnly = [...document.querySelectorAll('tr.group')].filter(tr => tr.getClientRects().length > 0).length;
  document.getElementById('failing-only').click();
  return {cells, groups: before, failingOnly, width: document.documentElement.scrollWidth,
          cases: document.querySelectorAll('article.case').length};
})()"""


class BrowserError(Exception):
    """The browser could not be started or driven; the message is one line."""


@dataclass
class Seen:
    """What the page did while it was open."""

    errors: list[str] = field(default_factory=list)
    requests: list[str] = field(default_factory=list)
    page: dict[str, Any] = field(default_factory=dict)
    case_shot: bool = False  # a case was reached through a link and photographed


class Pipe:
    """The DevTools protocol over Chromium's pipe: commands written to fd 3, answers and events read from fd 4."""

    def __init__(self, write_fd: int, read_fd: int) -> None:
        self.write_fd, self.read_fd = write_fd, read_fd
        self.buffer = b""
        self.next_id = 0
        self.events: list[dict[str, Any]] = []

    def _message(self, deadline: float) -> dict[str, Any]:
        while b"\0" not in self.buffer:
            left = deadline - time.monotonic()
            if left <= 0 or not select.select([self.read_fd], [], [], left)[0]:
                raise BrowserError("Chromium did not answer in time")
            chunk = os.read(self.read_fd, 1 << 20)
            if not chunk:
                raise BrowserError("Chromium closed its DevTools pipe")
            self.buffer += chunk
        raw, self.buffer = self.buffer.split(b"\0", 1)
        message: dict[str, Any] = json.loads(raw)
        return message

    def call(self, method: str, session: str | None = None, **params: Any) -> dict[str, Any]:
        self.next_id += 1
        command: dict[str, Any] = {"id": self.next_id, "method": method, "params": params}
        if session:
            command["sessionId"] = session
        os.write(self.write_fd, json.dumps(command).encode() + b"\0")
        deadline = time.monotonic() + STEP_TIMEOUT
        while True:
            message = self._message(deadline)
            if message.get("id") == self.next_id:
                if "error" in message:
                    raise BrowserError(f"{method}: {message['error'].get('message')}")
                result: dict[str, Any] = message.get("result", {})
                return result
            self.events.append(message)

    def wait_for(self, method: str) -> None:
        deadline = time.monotonic() + STEP_TIMEOUT
        while not any(e.get("method") == method for e in self.events):
            self.events.append(self._message(deadline))


@contextlib.contextmanager
def serve(folder: Path) -> Iterator[str]:
    """The folder over HTTP on 127.0.0.1 (a free port), stopped on exit; yields the base URL."""
    handler = functools.partial(_QuietHandler, directory=str(folder))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/"
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=10)


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: Any) -> None:  # the base class's name
        pass


@contextlib.contextmanager
def chromium() -> Iterator[Pipe]:
    """Headless Chromium with a fresh profile and its DevTools pipe; killed and reaped on exit."""
    if not Path(CHROMIUM).exists() and shutil.which(CHROMIUM) is None:
        raise BrowserError(f"{CHROMIUM} is missing: install Debian's chromium package (apt-get install chromium)")
    to_browser_read, to_browser_write = os.pipe()
    from_browser_read, from_browser_write = os.pipe()
    profile = tempfile.mkdtemp(prefix="seq-io-chromium-")

    def wire_pipes() -> None:  # in the child, before exec: the pipe ends at the fds Chromium reads and writes
        os.dup2(to_browser_read, 3)
        os.dup2(from_browser_write, 4)

    w, h = WINDOW
    process = subprocess.Popen(
        [CHROMIUM, *FLAGS, f"--user-data-dir={profile}", f"--window-size={w},{h}", "about:blank"],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        close_fds=False,
        preexec_fn=wire_pipes,
        start_new_session=True,
    )
    os.close(to_browser_read)
    os.close(from_browser_write)
    try:
        yield Pipe(to_browser_write, from_browser_read)
    finally:
        os.close(to_browser_write)
        os.close(from_browser_read)
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, 15)
        try:
            process.wait(timeout=10)
        finally:  # the browser's helpers (zygote, renderers) share its process group: none outlives the check
            with contextlib.suppress(ProcessLookupError):
                os.killpg(process.pid, 9)
            process.wait(timeout=10)
        shutil.rmtree(profile, ignore_errors=True)


JUMP_TO_A_CASE = """(() => {
  const link = document.querySelector('ul.jump a') || document.querySelector('tr.group td.cell a');
  if (link) link.click();
  return !!link;
})()"""


def open_page(page: Path, screenshot: Path, case_screenshot: Path | None = None) -> Seen:
    """Open the page over HTTP, collect errors and requests, read what it shows, save a screenshot (and one of
    the first case that did not pass, reached through a link: a failing case's, else the first group cell's, so a
    matrix of expected failures alone still shows one; none when every case passed)."""
    seen = Seen()
    with serve(page.parent) as base, chromium() as pipe:
        target = pipe.call("Target.createTarget", url="about:blank")["targetId"]
        session = pipe.call("Target.attachToTarget", targetId=target, flatten=True)["sessionId"]
        for domain in ("Page", "Runtime", "Log", "Network"):
            pipe.call(f"{domain}.enable", session)
        pipe.call(
            "Emulation.setDeviceMetricsOverride",
            session,
            width=WINDOW[0],
            height=WINDOW[1],
            deviceScaleFactor=1,
            mobile=False,
        )
        pipe.events.clear()
        pipe.call("Page.navigate", session, url=base + page.name)
        pipe.wait_for("Page.loadEventFired")
        evaluated = pipe.call("Runtime.evaluate", session, expression=READ_PAGE, returnByValue=True)
        if "exceptionDetails" in evaluated:
            seen.errors.append(f"reading the page threw: {evaluated['exceptionDetails'].get('text')}")
        seen.page = evaluated.get("result", {}).get("value") or {}
        shot = pipe.call("Page.captureScreenshot", session, format="png")
        screenshot.parent.mkdir(parents=True, exist_ok=True)
        screenshot.write_bytes(base64.b64decode(shot["data"]))
        if case_screenshot is not None:
            case_screenshot.unlink(missing_ok=True)
            jumped = pipe.call("Runtime.evaluate", session, expression=JUMP_TO_A_CASE, returnByValue=True)
            seen.case_shot = jumped.get("result", {}).get("value") is True
            if seen.case_shot:
                shot = pipe.call("Page.captureScreenshot", session, format="png")
                case_screenshot.write_bytes(base64.b64decode(shot["data"]))
        for event in pipe.events:
            method, params = event.get("method"), event.get("params", {})
            if method == "Runtime.consoleAPICalled" and params.get("type") in ("error", "assert"):
                seen.errors.append(
                    "console: " + " ".join(str(a.get("value", a.get("description"))) for a in params["args"])
                )
            elif method == "Runtime.exceptionThrown":
                seen.errors.append("exception: " + str(params["exceptionDetails"].get("text")))
            elif method == "Log.entryAdded" and params["entry"].get("level") == "error":
                seen.errors.append(f"log: {params['entry'].get('text')} {params['entry'].get('url', '')}".strip())
            elif method == "Network.requestWillBeSent":
                seen.requests.append(str(params["request"]["url"]))
        seen.requests = [url.removeprefix(base) for url in seen.requests]
    return seen


def problems(seen: Seen, reports: list[str]) -> list[str]:
    """What is wrong with the page as opened, against the reports it was made from."""
    runs = load_runs(reports)
    matrix = build(runs)
    out = list(seen.errors)
    out += [
        f"the page requested {url!r} (it must hold every asset itself)" for url in seen.requests if url != "index.html"
    ]
    shown = {(c["run"], c["kind"]): c["text"] for c in seen.page.get("cells", [])}
    for index, run in enumerate(runs):
        wanted: list[tuple[str, Counts]] = [("*", run.totals), *((k, matrix.cell(run, k)) for k in matrix.kinds)]
        for kind, counts in wanted:
            expected = f"{counts.passed}/{counts.cases}" if counts.cases else "—"
            got = shown.get((index, kind))
            if got != expected:
                out.append(f"{run.label} ({run.path}), kind {kind}: the page shows {got!r}, the report {expected!r}")
    rows = [[matrix.cell(r, k, g) for r in runs] for k in matrix.kinds for g in matrix.groups.get(k, [])]
    if seen.page.get("groups") != len(rows):
        out.append(f"the page has {seen.page.get('groups')} group rows, the reports {len(rows)} groups")
    failing = sum(not is_clean(cells) for cells in rows)
    if seen.page.get("failingOnly") != failing:
        out.append(
            f"failing only shows {seen.page.get('failingOnly')} group rows; "
            f"{failing} groups have a case that did not pass"
        )
    bad = sum(not c["ok"] for run in runs for c in run.cases)
    if seen.page.get("cases") != bad:
        out.append(f"the page details {seen.page.get('cases')} failing cases, the reports hold {bad}")
    if seen.page.get("width", 0) > WINDOW[0] * 3:
        out.append(f"the page is {seen.page.get('width')} px wide")
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m seq_io_maint.browser_check", description=__doc__.splitlines()[0])
    parser.add_argument("page", type=Path, help="the index.html `iospec report` wrote")
    parser.add_argument("reports", nargs="+", help="the [LABEL=]REPORT arguments it was written from")
    parser.add_argument("--screenshot", type=Path, required=True, help="where to save the PNG")
    parser.add_argument("--case-screenshot", type=Path, help="where to save a PNG of the first failing case")
    args = parser.parse_args(argv)
    try:
        seen = open_page(args.page, args.screenshot, args.case_screenshot)
    except BrowserError as error:
        print(f"browser check: {error}", file=sys.stderr)
        return 2
    found = problems(seen, args.reports)
    for line in found:
        print(f"browser check: {line}", file=sys.stderr)
    if not found:
        shots = f"{args.screenshot}" + (f" and {args.case_screenshot}" if seen.case_shot else "")
        print(f"browser check: {args.page} renders without errors and shows the reports' counts; {shots}")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
