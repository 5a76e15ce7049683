"""spec/decisions.md's entries flow through here: each `## A<n>.` entry's **Settled by** citation is checked against
the spec it cites (rule ids, files, sections and headings).

Why: the decision log is informative, and it is only worth reading if every entry points at the normative text that
now decides its question. A citation that names a rule id nobody defines, a file that moved, or a section that was
renamed sends an implementer to nothing, and nobody notices while reading the log alone. So every entry must carry
the citation, every rule id it cites (`SCH-…`, `STR-…`, and any other prefix spec/*.md defines with `**[ID]**`) must
be defined there, every `spec/` or `conformance/` file it names must exist, every section it quotes or numbers must be
found in the cited document, and entries are numbered A1, A2, … with no gap and no repeat, so that "A16" in the
changelog or a test always means one entry.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SPEC = ROOT / "spec"
LOG = SPEC / "decisions.md"

SETTLED = "**Settled by:**"
# Any `## A...` heading is an entry; a well-formed one is `## A<n>. <title>`.
ENTRY_HEADING = re.compile(r"^## A(\S*)(.*)$", re.MULTILINE)
WELL_FORMED = re.compile(r"^(\d+)\. \S")
DEFINITION = re.compile(r"\*\*\[([A-Z]+-[A-Z0-9-]+)\]\*\*")
RULE_ID = re.compile(r"(?<![A-Za-z0-9_.-])[A-Z]+-[A-Z0-9]+(?:-[A-Z0-9]+)*(?![A-Za-z0-9_])")
CITED_FILE = re.compile(r"(?<![\w/.-])((?:spec|conformance)/[\w./-]*?\.(?:md|json))(?![\w-])")
SECTION_NUMBER = re.compile(r"^§ (\d+)")
QUOTED = re.compile(r'"([^"]+)"')


@dataclass(frozen=True)
class Entry:
    heading: str
    number: int | None  # None when the heading is not `## A<n>. <title>`
    settled_by: str | None  # the first paragraph under the heading, when it is the citation


def definitions() -> dict[str, str]:
    """Every rule id defined in spec/*.md as `**[ID]**`, with the file that defines it."""
    found: dict[str, str] = {}
    for path in sorted(SPEC.glob("*.md")):
        if path == LOG:
            continue
        for rule in DEFINITION.findall(path.read_text(encoding="utf-8")):
            found.setdefault(rule, path.name)
    return found


DEFINED = definitions()
PREFIXES = {"SCH", "STR"} | {rule.split("-", 1)[0] for rule in DEFINED}


def entries() -> list[Entry]:
    text = LOG.read_text(encoding="utf-8")
    headings = list(ENTRY_HEADING.finditer(text))
    result: list[Entry] = []
    for match in headings:
        heading = match.group(0)
        well_formed = WELL_FORMED.match(match.group(1) + match.group(2))
        number = int(well_formed.group(1)) if well_formed else None
        after = text[match.end() :].lstrip("\n")
        paragraph = after.split("\n\n", 1)[0]
        settled_by = " ".join(paragraph.split()) if paragraph.startswith(SETTLED) else None
        result.append(Entry(heading, number, settled_by))
    return result


ENTRIES = entries()


def cited_rule_ids(citation: str) -> list[str]:
    return [rule for rule in RULE_ID.findall(citation) if rule.split("-", 1)[0] in PREFIXES]


def citations_of_sections(citation: str) -> list[tuple[str, str]]:
    """(document, quoted section or `§ n`) pairs: what follows a cited .md file up to the next cited file."""
    pairs: list[tuple[str, str]] = []
    files = list(CITED_FILE.finditer(citation))
    for index, match in enumerate(files):
        if not match.group(1).endswith(".md"):
            continue
        end = files[index + 1].start() if index + 1 < len(files) else len(citation)
        clause = citation[match.end() : end]
        number = SECTION_NUMBER.match(clause.lstrip(", "))
        if number:
            pairs.append((match.group(1), f"§ {number.group(1)}"))
        pairs.extend((match.group(1), quoted) for quoted in QUOTED.findall(clause))
    return pairs


def section_exists(document: Path, section: str) -> bool:
    """A `§ n` is a `## n.` heading; a quoted name is in a heading, a bold paragraph lead or a table row."""
    lines = document.read_text(encoding="utf-8").splitlines()
    if section.startswith("§ "):
        return any(re.match(rf"^#+ {section[2:]}\.? ", line) for line in lines)
    return any(section in line for line in lines if line.startswith(("#", "**", "|")))


def entry_id(entry: Entry) -> str:
    return f"A{entry.number}" if entry.number is not None else entry.heading


def test_the_log_has_entries_and_the_spec_defines_rule_ids() -> None:
    assert len(ENTRIES) >= 25, "spec/decisions.md lost entries"
    assert {"SCH", "STR"} <= {rule.split("-", 1)[0] for rule in DEFINED}, DEFINED


def test_entries_are_numbered_consecutively() -> None:
    malformed = [entry.heading for entry in ENTRIES if entry.number is None]
    assert not malformed, f"entry headings must read `## A<n>. <title>`: {malformed}"
    numbers = [entry.number for entry in ENTRIES]
    assert numbers == list(range(1, len(numbers) + 1)), f"entries must be A1, A2, … in order, once each: {numbers}"


@pytest.mark.parametrize("entry", ENTRIES, ids=entry_id)
def test_entry_is_settled_by_existing_rules_and_sections(entry: Entry) -> None:
    citation = entry.settled_by
    assert citation is not None, f"{entry.heading!r}: the first paragraph under it must start with {SETTLED}"
    citation = citation.removeprefix(SETTLED).strip()
    rules = cited_rule_ids(citation)
    files = CITED_FILE.findall(citation)
    sections = citations_of_sections(citation)
    assert rules or sections, f"{entry.heading!r} cites neither a rule id nor a document's section: {citation!r}"

    undefined = [rule for rule in rules if rule not in DEFINED]
    assert not undefined, f"{entry.heading!r} cites rule ids that spec/*.md does not define: {undefined}"
    missing = [name for name in files if not (ROOT / name).is_file()]
    assert not missing, f"{entry.heading!r} cites files that do not exist: {missing}"
    unfound = [f"{name}: {section!r}" for name, section in sections if not section_exists(ROOT / name, section)]
    assert not unfound, f"{entry.heading!r} cites sections its documents do not have: {unfound}"


def test_a_citation_check_sees_what_it_should() -> None:
    """The parsers above on a known citation, so that a regex that silently matches nothing cannot pass the log."""
    citation = (
        '`STR-ACT-OWN` and `SCH-NOPE-X` (spec/stream.md § 6, "No quantity is ever above its limit"); UTF-8 and I-JSON;'
        ' conformance/protocol.md, "Requests" and "Comparison"; `conformance/protocol/result-stream.schema.json`.'
    )
    assert cited_rule_ids(citation) == ["STR-ACT-OWN", "SCH-NOPE-X"]
    assert CITED_FILE.findall(citation) == [
        "spec/stream.md",
        "conformance/protocol.md",
        "conformance/protocol/result-stream.schema.json",
    ]
    assert citations_of_sections(citation) == [
        ("spec/stream.md", "§ 6"),
        ("spec/stream.md", "No quantity is ever above its limit"),
        ("conformance/protocol.md", "Requests"),
        ("conformance/protocol.md", "Comparison"),
    ]
    assert section_exists(SPEC / "stream.md", "§ 6")
    assert not section_exists(SPEC / "stream.md", "§ 99")
    assert not section_exists(SPEC / "validation.md", "A heading nobody wrote")
    assert "SCH-NOPE-X" not in DEFINED
