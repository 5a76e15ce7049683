"""A datamodel-code-generator custom formatter: generated module text → every `float` type written `int | float`.

WHY: JSON Schema's `number` admits integers, and the spec keeps a number's value and spelling kind (an integer
stays an integer on the way out). datamodel-code-generator maps `number` to `float` with no option to change it,
and pydantic turns `15` into `15.0` in a `float` field, so a model dumped back would change the wire text. In the
generated code a `float` that is read (not assigned: an enum member may be named `float`) always stands for a
type, so each such name, found by its syntax tree (never text inside a string, docstring or comment), becomes
`int | float`, which pydantic's smart union fills with the input's own kind. Configured in pyproject.toml
([tool.datamodel-codegen] custom-formatters).
"""

from __future__ import annotations

import ast

from datamodel_code_generator.format import CustomCodeFormatter

NUMBER = "int | float"


def widen_floats(code: str) -> str:
    """The module's text with each `float` that is read written `int | float`."""
    found = [
        (node.lineno, node.col_offset, node.end_col_offset)
        for node in ast.walk(ast.parse(code))
        if isinstance(node, ast.Name) and node.id == "float" and isinstance(node.ctx, ast.Load)
    ]
    lines = code.encode("utf-8").splitlines(keepends=True)  # ast counts UTF-8 bytes, and lines as bytes split them
    for row, start, end in sorted(found, reverse=True):  # from the end, so earlier positions stay valid
        line = lines[row - 1]
        lines[row - 1] = line[:start] + NUMBER.encode("ascii") + line[end:]
    return b"".join(lines).decode("utf-8")


class CodeFormatter(CustomCodeFormatter):
    """The entry point datamodel-code-generator looks for in a custom formatter module."""

    def apply(self, code: str) -> str:
        return widen_floats(code)
