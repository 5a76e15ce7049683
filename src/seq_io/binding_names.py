"""A JSON name (member, enum value, `x-enum-varnames` entry) or a value kind of the binding model → how each
compiled binding (Go, Rust, Java, C++) spells it: field names, enum member names, scalar types, and the wrapper a
field gets from being required and nullable.

WHY one module in the package: the generators (scripts/seq_io_maint/codegen_*.py) write the bindings with these
rules, and the bump review's generated-code axis (seq_io.bump_review.generated_code) predicts from the same rules,
for two versions of the spec, what those generators would write; scripts/ never ships, so the rules live here and
the generators import them. A rule changed here changes both, and the generators' drift checks prove the move.
"""

from __future__ import annotations

import re
from typing import Any

Field = dict[str, Any]

# --- Go -------------------------------------------------------------------------------------------------------------

GO_SCALARS = {"string": "string", "integer": "int64", "number": "Number", "boolean": "bool", "any": "Value"}
GO_INITIALISMS = {"id": "ID", "io": "IO", "url": "URL"}
"""Member-name words Go spells in capitals (`episode_id` → `EpisodeID`, `worker_url` → `WorkerURL`)."""


def go_pascal(text: str) -> str:
    """`when_behind` → `WhenBehind`, `MAX_STREAM_FRAMES` → `MaxStreamFrames`, `hwc_uint8` → `HwcUint8`."""
    parts = text.replace("-", "_").replace(".", "_").split("_")
    words = [part.lower() if part.isupper() else part for part in parts if part]
    return "".join(word[:1].upper() + word[1:] for word in words)


def go_field_name(json_name: str) -> str:
    """A member's Go field name: each `_` word capitalized, initialisms in capitals."""
    return "".join(GO_INITIALISMS.get(word, go_pascal(word)) for word in json_name.split("_") if word)


def go_wrap(field: Field, inner: str) -> str:
    """A required, non-nullable member is its plain type; every other member an `Optional[T]` (three states)."""
    return inner if field["required"] and not field["nullable"] else f"Optional[{inner}]"


# --- Rust -----------------------------------------------------------------------------------------------------------

RUST_SCALARS = {"string": "String", "integer": "i64", "number": "Number", "boolean": "bool", "any": "Json"}


def rust_pascal(text: str) -> str:
    """`hwc_uint8` → `HwcUint8`; `MAX_STREAM_FRAMES` → `MaxStreamFrames`."""
    lowered = text.lower() if text.isupper() else text
    return "".join(part[:1].upper() + part[1:] for part in re.split(r"[_\W]+", lowered) if part)


def rust_field_name(text: str) -> str:
    """A member name as a Rust field (`type` is a keyword: `r#type`)."""
    return "r#type" if text == "type" else text


def rust_wrap(field: Field, inner: str) -> str:
    """Required: the plain type, or `Option<T>` when nullable; optional: `Option<T>`, or `Field<T>` when nullable."""
    if field["required"]:
        return f"Option<{inner}>" if field["nullable"] else inner
    return f"Field<{inner}>" if field["nullable"] else f"Option<{inner}>"


# --- Java -----------------------------------------------------------------------------------------------------------

JAVA_SCALARS = {"string": "String", "integer": "Long", "number": "JsonNumber", "boolean": "Boolean"}
JAVA_KEYWORDS = {"default", "class", "enum", "package", "new", "switch", "case", "static", "final", "int", "long"}


def java_name(member: str) -> str:
    """`when_behind` → `whenBehind`; a Java keyword gets a trailing underscore (`default` → `default_`)."""
    head, *rest = member.split("_")
    name = head + "".join(part[:1].upper() + part[1:] for part in rest)
    return name + "_" if name in JAVA_KEYWORDS else name


def java_constant(value: str) -> str:
    """`joint_absolute` → `JOINT_ABSOLUTE`, `MAX_STREAM_FRAMES` stays."""
    return "".join(c if c.isalnum() else "_" for c in value).upper()


def java_plain(field: Field) -> bool:
    """A required, non-nullable member is a plain Java field; every other one is a three-state `Field`."""
    return bool(field["required"]) and not field["nullable"]


def java_wrap(field: Field, inner: str) -> str:
    return inner if java_plain(field) else f"Field<{inner}>"


# --- C++ ------------------------------------------------------------------------------------------------------------

CPP_SCALARS = {
    "string": "std::string",
    "integer": "std::int64_t",
    "number": "Number",
    "boolean": "bool",
    "any": "Value",
}
CPP_KEYWORDS = frozenset(
    [
        "alignas",
        "alignof",
        "and",
        "and_eq",
        "asm",
        "auto",
        "bitand",
        "bitor",
        "bool",
        "break",
        "case",
        "catch",
        "char",
        "char16_t",
        "char32_t",
        "class",
        "compl",
        "const",
        "const_cast",
        "constexpr",
        "continue",
        "decltype",
        "default",
        "delete",
        "do",
        "double",
        "dynamic_cast",
        "else",
        "enum",
        "explicit",
        "export",
        "extern",
        "false",
        "float",
        "for",
        "friend",
        "goto",
        "if",
        "inline",
        "int",
        "long",
        "mutable",
        "namespace",
        "new",
        "noexcept",
        "not",
        "not_eq",
        "nullptr",
        "operator",
        "or",
        "or_eq",
        "private",
        "protected",
        "public",
        "register",
        "reinterpret_cast",
        "return",
        "short",
        "signed",
        "sizeof",
        "static",
        "static_assert",
        "static_cast",
        "struct",
        "switch",
        "template",
        "this",
        "thread_local",
        "throw",
        "true",
        "try",
        "typedef",
        "typeid",
        "typename",
        "union",
        "unsigned",
        "using",
        "virtual",
        "void",
        "volatile",
        "wchar_t",
        "while",
        "xor",
        "xor_eq",
    ]
)
"""C++17 keywords: a JSON member of that name gets a trailing `_` as its C++ member name (`default` → `default_`)."""


def cpp_pascal(text: str) -> str:
    """`hwc_uint8` → `HwcUint8`, `MAX_STREAM_FRAMES` → `MaxStreamFrames`, `ON_EPISODE` → `OnEpisode`."""
    return "".join(part[:1].upper() + part[1:].lower() for part in text.replace("-", "_").split("_") if part)


def cpp_member_name(json_name: str) -> str:
    """A C++ member name for a JSON member: the name itself, with `_` appended to a C++ keyword."""
    return json_name + "_" if json_name in CPP_KEYWORDS else json_name


def cpp_wrap(field: Field, inner: str) -> str:
    """A required, non-nullable member is the plain type; any other member is a three-state Field."""
    return inner if field["required"] and not field["nullable"] else f"Field<{inner}>"
