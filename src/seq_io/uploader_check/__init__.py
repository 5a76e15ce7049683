"""`iospec uploader-check`: the uploader vectors played over real HTTP against a robot SDK (client mode).

`sdk` speaks the driver protocol (conformance/uploader-http.md) to the SDK under test, `worker` is the recording
worker that holds, answers and records the SDK's requests, `engine` plays one scenario and judges what arrived with
the runner's comparison, `run` is the loop over the cases, and `cli` is the command, reporting through the runner's
writers and expected-failure list. Nothing here needs the HTTP extra; the reference SDK
(`seq_io.reference.uploader_driver`) does.
"""

from seq_io.uploader_check.cli import main, register

__all__ = ["main", "register"]
