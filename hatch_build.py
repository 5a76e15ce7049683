"""Hatch metadata hook: spec/contract.json → the contract version → the package's summary and keywords.

WHY: the package version (pyproject.toml) and the contract version (spec/contract.json) are distinct numbers
(spec/CHANGELOG.md says how they move), and the contract version lives only in spec/contract.json. The wheel's
metadata names it all the same (`pip show` prints the summary; the keyword `contract-X.Y.Z` is for tools), so the
text is written in pyproject.toml with a `{contract_version}` placeholder and filled here at build time.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from hatchling.metadata.plugin.interface import MetadataHookInterface


class ContractVersionHook(MetadataHookInterface):
    """Fills `{contract_version}` in the configured summary and keywords."""

    def update(self, metadata: dict[str, Any]) -> None:
        contract = json.loads((Path(self.root) / "spec" / "contract.json").read_text(encoding="utf-8"))
        version = str(contract["contract_version"])
        metadata["description"] = str(self.config["summary"]).format(contract_version=version)
        metadata["keywords"] = [str(k).format(contract_version=version) for k in self.config["keywords"]]
