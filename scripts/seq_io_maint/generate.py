"""spec/schemas/*.json → datamodel-code-generator (config in pyproject.toml) → generated/python/seq_io_models/.

`generate` writes the models; `check` regenerates into a temporary folder and fails on any byte of difference
or on a collision-suffixed class name (`Camera1`), which is how the generator says two schemas fought over a
name. The generator runs as a subprocess with a time bound, so a hung generator cannot hang CI.
"""

from __future__ import annotations

import filecmp
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from seq_io import locate

CHECKOUT = locate.checkout_root() or locate.data_root()
"""The generator's configuration is the checkout's pyproject.toml: generating is a maintainer's job in a checkout."""
OUTPUT = CHECKOUT / "generated" / "python" / "seq_io_models"
SCRATCH = CHECKOUT / "build"
"""Scratch space inside the checkout, so the generator's formatter reads the same configuration as for OUTPUT."""
TIMEOUT_S = 300
_COLLISION = re.compile(r"^class ([A-Za-z_]+[0-9]+)\(", re.MULTILINE)


def run_generator(output: Path) -> None:
    """Run datamodel-codegen with the project's configuration, writing into `output`."""
    command = [str(Path(sys.executable).with_name("datamodel-codegen")), "--output", str(output)]
    # The configured formatter, seq_io_maint.codegen_numbers, is imported by the generator from scripts/.
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(CHECKOUT / "scripts"), os.environ.get("PYTHONPATH", "")])}
    completed = subprocess.run(
        command, cwd=CHECKOUT, env=env, capture_output=True, text=True, timeout=TIMEOUT_S, check=False
    )
    if completed.returncode != 0:
        raise RuntimeError(f"datamodel-codegen failed ({completed.returncode}):\n{completed.stderr[-2000:]}")


def collision_names(folder: Path) -> list[str]:
    """Class names with a numeric suffix in the generated modules."""
    return [
        f"{path.name}: {name}"
        for path in sorted(folder.glob("*.py"))
        for name in _COLLISION.findall(path.read_text(encoding="utf-8"))
    ]


def drift(expected: Path, actual: Path) -> list[str]:
    """Files that differ, are missing or are extra between two generated folders."""
    names = {p.name for p in expected.glob("*.py")} | {p.name for p in actual.glob("*.py")}
    return sorted(
        name
        for name in names
        if not (expected / name).exists()
        or not (actual / name).exists()
        or not filecmp.cmp(expected / name, actual / name, shallow=False)
    )


def generate() -> int:
    SCRATCH.mkdir(exist_ok=True)
    with tempfile.TemporaryDirectory(dir=SCRATCH) as temp:
        fresh = Path(temp) / "seq_io_models"
        run_generator(fresh)
        shutil.rmtree(OUTPUT, ignore_errors=True)
        shutil.copytree(fresh, OUTPUT)
    print(f"generated {len(list(OUTPUT.glob('*.py')))} modules into {OUTPUT.relative_to(CHECKOUT)}")
    return check()


def check() -> int:
    SCRATCH.mkdir(exist_ok=True)
    with tempfile.TemporaryDirectory(dir=SCRATCH) as temp:
        fresh = Path(temp) / "seq_io_models"
        run_generator(fresh)
        changed = drift(fresh, OUTPUT)
        collisions = collision_names(fresh)
    for name in changed:
        print(f"generated/python/seq_io_models/{name} differs from what the schemas generate: run `make generate`")
    for name in collisions:
        print(f"collision-suffixed class name {name}: give the clashing schemas distinct titles")
    return 1 if changed or collisions else 0


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if args not in (["generate"], ["check"]):
        print("usage: python -m seq_io_maint.generate generate|check", file=sys.stderr)
        return 2
    if locate.checkout_root() is None:
        print(
            "seq_io_maint.generate: the models are generated in a checkout (an editable install), not from an "
            "installed package",
            file=sys.stderr,
        )
        return 2
    return generate() if args == ["generate"] else check()


if __name__ == "__main__":
    sys.exit(main())
