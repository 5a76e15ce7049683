"""The contract versions this runner carries: the package's own (spec/contract.json, vectors in conformance/vectors/)
and each release snapshot with vectors (spec/releases/<version>/vectors/) → for a version a testee declares, the
folder of its vectors and the case kinds that contract has.

WHY it is shaped this way: an implementation of an older contract keeps its CI while it moves, so the runner asks
the testee's hello which contract it implements and runs that release's vectors (conformance/protocol.md,
"Handshake"). A release snapshot says which kinds it carries by its folders: `vectors/<kind>/` (the folder spelling,
`rows-of` for `rows_of`) exists exactly for the kinds that contract version has (spec/compatibility.md, "Release
snapshots and the head"); a kind the runner knows and the snapshot has no folder for did not exist in that contract,
and is reported as "not in contract X", never as a failure. The package's own version reads conformance/vectors/,
not its snapshot (which `make release-snapshot` keeps equal to it), so an edit there takes effect at once.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from seq_io import locate
from seq_io.runner.kinds import KINDS
from seq_io.vectors import VECTORS_DIR

RELEASES = locate.spec_root() / "releases"


@dataclass(frozen=True)
class Contract:
    """One contract version the runner can run: where its vectors are and the kinds it has (in KINDS order)."""

    version: str
    vectors: Path
    kinds: tuple[str, ...]

    @property
    def absent_kinds(self) -> tuple[str, ...]:
        """The kinds the runner knows that this contract version does not have."""
        return tuple(kind for kind in KINDS if kind not in self.kinds)


def _order(version: str) -> tuple[int, ...]:
    return tuple(int(part) for part in version.split("."))


def _is_version(name: str) -> bool:
    parts = name.split(".")
    return len(parts) == 3 and all(part.isdigit() for part in parts)


def kinds_in(vectors: Path) -> tuple[str, ...]:
    """The kinds a vectors folder has a folder of (`rows-of/` is `rows_of`), in KINDS order."""
    if not vectors.is_dir():
        return ()
    folders = {child.name.replace("-", "_") for child in vectors.iterdir() if child.is_dir()}
    return tuple(kind for kind in KINDS if kind in folders)


def carried() -> list[Contract]:
    """Every contract version this runner carries, newest first."""
    head = locate.contract_version()
    found = {head: Contract(head, VECTORS_DIR, kinds_in(VECTORS_DIR))}
    if RELEASES.is_dir():
        for folder in RELEASES.iterdir():
            vectors = folder / "vectors"
            if _is_version(folder.name) and folder.name not in found and vectors.is_dir():
                found[folder.name] = Contract(folder.name, vectors, kinds_in(vectors))
    return sorted(found.values(), key=lambda contract: _order(contract.version), reverse=True)


def versions() -> tuple[str, ...]:
    """The versions carried, newest first (the runner's hello lists them as `contract_versions`)."""
    return tuple(contract.version for contract in carried())


def of(version: str) -> Contract | None:
    """The carried contract `version`, or None."""
    return next((contract for contract in carried() if contract.version == version), None)
