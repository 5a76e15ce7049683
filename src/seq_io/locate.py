"""Where the spec and the conformance data are: the installed package's own copy, or the checkout it runs from.

The wheel carries `spec/` and `conformance/` inside the `seq_io` package (pyproject.toml maps the two folders
there at build time), so an installed package finds them through `importlib.resources`, wherever it is
installed. In a checkout (`src/seq_io/`, imported through an editable install or pytest's `pythonpath`) the
package holds no data, and the checkout's own `spec/` and `conformance/` are used, so an edit there takes effect
without a reinstall. Everything that reads the data asks here, and nothing raises at import: a missing or
partial data folder is reported by `data_problem()` in one sentence.

`SEQ_IO_SPEC_ROOT` (read by `seq_io.reference.spec_data`) overrides the spec folder only.
"""

from __future__ import annotations

import json
from importlib import resources
from pathlib import Path

PACKAGE = "seq_io"
"""The distribution's import package: the wheel puts `spec/` and `conformance/` inside its folder."""

NEEDED = ("spec/contract.json", "spec/schemas", "conformance/vectors", "conformance/protocol", "conformance/schema")
"""What a data folder must hold; `data_problem` names the first ones missing."""


def _package_folder() -> Path | None:
    """This package's folder on disk, or None when it is imported from an archive (a zip), which has no folder."""
    folder = resources.files(PACKAGE)
    return folder if isinstance(folder, Path) else None


def _checkout_of(folder: Path) -> Path | None:
    """The checkout around `<checkout>/src/seq_io/` (a checkout's own package), or None."""
    checkout = folder.parents[1]
    has_layout = (checkout / "pyproject.toml").is_file() and (checkout / "spec").is_dir()
    return checkout if has_layout and (checkout / "conformance").is_dir() else None


def data_root() -> Path:
    """The folder holding `spec/` and `conformance/`: this package's own (an installed wheel), else the checkout's."""
    folder = _package_folder()
    if folder is None:
        return Path(str(resources.files(PACKAGE)))
    if (folder / "spec").is_dir():
        return folder
    return _checkout_of(folder) or folder


def checkout_root() -> Path | None:
    """The checkout whose own files are the data (an editable install), or None for an installed package: the
    maintainers' tools that write (`iospec ids`, `iospec export`, `make generate`) work only in a checkout."""
    folder = _package_folder()
    if folder is None or (folder / "spec").is_dir():
        return None
    return _checkout_of(folder)


def spec_root() -> Path:
    """The package's own `spec/` folder (`SEQ_IO_SPEC_ROOT` is applied by `seq_io.reference.spec_data`, not here)."""
    return data_root() / "spec"


def conformance_root() -> Path:
    """The package's `conformance/` folder: vectors, vectors.json, the protocol and the file schemas."""
    return data_root() / "conformance"


def data_problem() -> str | None:
    """None when the data is all there, else one sentence saying what is missing and what to do."""
    if _package_folder() is None:
        return (
            f"the package {PACKAGE} is imported from an archive ({resources.files(PACKAGE)}), so its data "
            "files cannot be read: install the wheel into a folder (pip install) instead"
        )
    root = data_root()
    missing = [name for name in NEEDED if not (root / name).exists()]
    if not missing:
        return None
    return (
        f"the package's data is missing: {root} has no {', '.join(missing)}; the installation is incomplete, "
        "reinstall sequences-io-spec from its wheel (or work in a checkout with an editable install)"
    )


def contract_version() -> str:
    """The contract version the package's own spec carries (it lives only in spec/contract.json)."""
    return str(json.loads((spec_root() / "contract.json").read_text(encoding="utf-8"))["contract_version"])
