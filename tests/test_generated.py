"""The generated models are exactly what the schemas generate today, and carry no collision-suffixed names."""

from __future__ import annotations

from pathlib import Path

from seq_io_maint import generate
from seq_io_maint.codegen_numbers import widen_floats


def test_no_drift_and_no_collision_names(capsys: object) -> None:
    assert generate.check() == 0


def test_collision_detector_can_fire(tmp_path: Path) -> None:
    (tmp_path / "X.py").write_text("class Camera1(BaseModel):\n    pass\n")
    assert generate.collision_names(tmp_path) == ["X.py: Camera1"]


def test_drift_detector_can_fire(tmp_path: Path) -> None:
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    (tmp_path / "a" / "M.py").write_text("x = 1\n")
    (tmp_path / "b" / "M.py").write_text("x = 2\n")
    assert generate.drift(tmp_path / "a", tmp_path / "b") == ["M.py"]


def test_number_widening_touches_only_types_that_are_read() -> None:
    code = (
        'class Kind(Enum):\n    float = "float"\n\n\n'
        'class M(BaseModel):\n    """A float, or none."""\n    x: float | None = None  # float\n'
        '    y: Annotated[str, Field(pattern="é")] | float\n'
    )
    assert widen_floats(code) == code.replace("x: float", "x: int | float").replace("] | float", "] | int | float")
