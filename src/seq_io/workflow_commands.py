"""A level, a message and an optional file, line and title → one GitHub Actions workflow command line
(`::error file=spec/schemas/Camera.json,line=12,title=…::message`), which GitHub shows as an annotation on that line.

WHY one module: every command that annotates (`iospec bump-review --annotations github`, `iospec run --annotations
github`) must escape alike. GitHub reads a command up to the end of its line and splits its properties at `,` and
`:`, so a message or title carrying a newline, a `%`, a comma or a colon would be cut or misread. Its rules: in the
message, `%` → `%25`, CR → `%0D`, LF → `%0A`; in a property value, additionally `:` → `%3A` and `,` → `%2C`.
"""

from __future__ import annotations


def escape_data(text: str) -> str:
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def escape_property(text: str) -> str:
    return escape_data(text).replace(":", "%3A").replace(",", "%2C")


def command(level: str, message: str, *, file: str | None = None, line: int | None = None, title: str = "") -> str:
    """One workflow command line (level: error, warning or notice)."""
    properties = []
    if file:
        properties.append(f"file={escape_property(file)}")
        if line:
            properties.append(f"line={line}")
    if title:
        properties.append(f"title={escape_property(title)}")
    return (
        f"::{level} {','.join(properties)}::{escape_data(message)}"
        if properties
        else f"::{level}::{escape_data(message)}"
    )
