"""Deprecated alias of `seq_io.locate`, the data locator (sequences-io-spec 0.2.0; the alias goes in 0.3.0).

WHY kept for one release: scripts call `seq_io_spec.spec_root()` and its siblings; they answer as before. The
data itself now ships inside the `seq_io` package: `importlib.resources.files("seq_io") / "spec"` replaces
`files("seq_io_spec") / "spec"`, or better `seq_io.locate.spec_root()`, which also finds a checkout's files.
"""

import warnings

from seq_io.locate import checkout_root, conformance_root, contract_version, data_problem, data_root, spec_root

__all__ = ["checkout_root", "conformance_root", "contract_version", "data_problem", "data_root", "spec_root"]

warnings.warn(
    "seq_io_spec is renamed seq_io.locate (sequences-io-spec 0.2.0); the old name goes in 0.3.0",
    DeprecationWarning,
    stacklevel=2,
)
