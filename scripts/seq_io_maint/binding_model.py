"""spec/schemas/*.json → seq_io.binding_types (one language-neutral description of every type) →
generated/binding-model.json.

The builder itself, its value kinds and its naming rules (`RENAMES`) live in `src/seq_io/binding_types.py`, because
the bump review builds the same description for two versions of the spec from an installed package, where scripts/
never ships; this module only adds the two versions and writes the file. `generate` writes it; `check` fails on
any byte of drift (both run by `make generate` / `make check`).
"""

from __future__ import annotations

import json
import sys
import tomllib
from typing import Any

from seq_io import locate
from seq_io.binding_types import RENAMES, ModelBuilder, build_types, pascal, ref_name, split_nullable

__all__ = ["RENAMES", "ModelBuilder", "build", "main", "pascal", "ref_name", "render", "split_nullable"]

CHECKOUT = locate.checkout_root() or locate.data_root()
SCHEMAS = CHECKOUT / "spec" / "schemas"
OUTPUT = CHECKOUT / "generated" / "binding-model.json"
FORMAT = "seq-io-binding-model/1"


def build() -> dict[str, Any]:
    contract = json.loads((CHECKOUT / "spec" / "contract.json").read_text(encoding="utf-8"))
    paths = sorted(SCHEMAS.glob("*.json"))
    builder = build_types((path.stem, json.loads(path.read_text(encoding="utf-8"))) for path in paths)
    return {
        "format": FORMAT,
        "contract_version": contract["contract_version"],
        "package_version": tomllib.loads((CHECKOUT / "pyproject.toml").read_text(encoding="utf-8"))["project"][
            "version"
        ],
        "generated_from": "spec/schemas/*.json by scripts/seq_io_maint/binding_model.py; do not edit",
        "types": [builder.types[name] for name in sorted(builder.types)],
    }


def render() -> str:
    return json.dumps(build(), indent=2, ensure_ascii=False) + "\n"


def main(argv: list[str]) -> int:
    command = argv[0] if argv else "check"
    text = render()
    if command == "generate":
        OUTPUT.write_text(text, encoding="utf-8")
        print(f"wrote {OUTPUT.relative_to(CHECKOUT)}")
        return 0
    if command == "check":
        if not OUTPUT.exists() or OUTPUT.read_text(encoding="utf-8") != text:
            print(
                f"{OUTPUT.relative_to(CHECKOUT)} is stale: run `make generate` and commit the result", file=sys.stderr
            )
            return 1
        return 0
    print("usage: binding_model generate|check", file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
