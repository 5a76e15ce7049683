"""The reference SDK, except that the first act of the process reaches the worker `DELAY` seconds after the robot's
act was acknowledged → a correct uploader on a machine that stalled once (`python tests/late_uploader.py`).

WHY it exists: a request that comes later than the tolerance must not make the runner answer nothing in its place
and then answer every later request of that sort with the one before's answer (conformance/uploader-http.md,
"Playing a scenario"); with this SDK the first play of a scenario fails on timing alone, and the replay passes.
"""

from __future__ import annotations

import asyncio
import sys
from typing import Any

from seq_io.reference import uploader_driver

DELAY = 0.5
"""Seconds the first act waits before it is sent: past the 0.1 s tolerance of an idle machine, within 1 s."""
_send = uploader_driver.Episode._send
_late = [True]


async def _late_first_act(self: uploader_driver.Episode, sort: str, body: Any) -> None:
    if sort == "act" and _late[0]:
        _late[0] = False
        await asyncio.sleep(DELAY)
    await _send(self, sort, body)


if __name__ == "__main__":
    uploader_driver.Episode._send = _late_first_act  # type: ignore[method-assign]
    sys.exit(uploader_driver.main())
