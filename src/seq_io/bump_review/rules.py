"""The classifier's rule set: a rule id (as written in spec/compatibility.md) → whom a change of that kind
breaks.

Every change the structural diff finds is a `Change` built here, so the direction it breaks (old readers of
new data, new readers of old data, both, or neither) comes from one table that tests compare with the prose of
spec/compatibility.md. A rule's default can be overridden for one change only with a written reason (`note`):
that is how a rule that cannot fire on the other version's data is shown to be compatible in that direction.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

Location = tuple[str, ...]
"""Where in an instance: property names and the tokens `*` (any key), `[]` (any item), `[N]`, `{key}`."""

Level = Literal["breaking", "source", "compatible", "editorial"]
"""`source`: the wire is not the point, but the generated code of some binding changes (rules `code-…`)."""


@dataclass(frozen=True)
class Rule:
    """One classification rule: the directions a change of this kind breaks by default."""

    old_readers: bool
    new_readers: bool
    meaning_only: bool
    statement: str
    source: bool = False
    """A generated-code rule: level `source` (seq_io.bump_review.generated_code), no reader of the wire broken."""


# fmt: off
RULES: dict[str, Rule] = {
    "type-added": Rule(False, False, False,
        "A new type breaks no one: no old data of it exists, and where it is reached from an old type the"
        " new property is classified itself."),
    "type-removed": Rule(False, True, False,
        "Old data of a removed type can no longer be read."),
    "property-added-closed": Rule(True, False, False,
        "A closed object gains a property: an old reader refuses new data that carries it."),
    "property-added-open": Rule(False, True, False,
        "An open object gains a constrained property: old data may carry that name with any value."),
    "property-removed-closed": Rule(False, True, False,
        "A closed object loses a property: a new reader refuses old data that carries it."),
    "property-removed-open": Rule(True, False, False,
        "An open object loses a constrained property: new data may carry that name with any value."),
    "required-added": Rule(False, True, False,
        "Old data may lack the newly required property."),
    "required-removed": Rule(True, False, False,
        "New data may lack a property old readers require."),
    "type-widened": Rule(True, False, False,
        "More JSON types are accepted: old readers refuse some new data."),
    "type-narrowed": Rule(False, True, False,
        "Fewer JSON types are accepted: new readers refuse some old data."),
    "type-changed": Rule(True, True, False,
        "Neither set of JSON types contains the other."),
    "enum-values-added": Rule(True, False, False,
        "New values are accepted: old readers refuse them."),
    "enum-values-removed": Rule(False, True, False,
        "Values old data may hold are refused."),
    "bound-tightened": Rule(False, True, False,
        "A bound accepts less: new readers refuse some old data."),
    "bound-loosened": Rule(True, False, False,
        "A bound accepts more: old readers refuse some new data."),
    "bound-changed": Rule(True, True, False,
        "A bound is replaced by one neither containing nor contained by it."),
    "default-changed": Rule(True, True, True,
        "An absent value means something else on each side."),
    "content-closed": Rule(False, True, False,
        "Unknown properties are no longer accepted as before."),
    "content-opened": Rule(True, False, False,
        "Properties old readers refuse are now accepted."),
    "ref-changed": Rule(True, True, False,
        "A location now holds another type."),
    "subschema-changed": Rule(True, True, False,
        "Any other change to a subschema: both ways, conservatively."),
    "rule-added": Rule(False, True, False,
        "A new rule refuses some old data (unless it cannot fire on it)."),
    "rule-removed": Rule(True, False, False,
        "New data may break a rule old readers still check (unless the rule cannot fire on it)."),
    "rule-changed": Rule(True, True, False,
        "A rule says something else: both ways, each direction unless the rule cannot fire on the other "
        "version's data."),
    "normalization-added": Rule(True, False, True,
        "New writers emit a rewritten form that old readers never learned to read the same way."),
    "normalization-removed": Rule(False, True, True,
        "Old data relied on a rewrite new readers no longer do."),
    "normalization-changed": Rule(True, True, True,
        "A rewrite differs: both ways."),
    "constant-added": Rule(False, False, False,
        "A new name in contract.json breaks no one."),
    "constant-removed": Rule(True, True, False,
        "A constant disappears; its effect cannot be told: both ways."),
    "constant-changed": Rule(True, True, False,
        "A constant changes value; its effect cannot be told: both ways."),
    "prose-changed": Rule(True, True, False,
        "A section of a normative document is added, removed or edited: the review cannot read prose, so both"
        " ways unless the changelog marks it editorial."),
    "document-added": Rule(False, False, False,
        "A normative document only the head has: it specifies something new; one that constrains existing"
        " types says so in the changelog."),
    "document-removed": Rule(True, True, False,
        "A normative document only the base has: what it required is undecided, both ways."),
    "description-values-changed": Rule(True, True, True,
        "A description's values (a number, a quoted string, a code span) change: it may state another rule,"
        " undecided both ways unless the changelog marks it editorial."),
    "annotation-changed": Rule(False, False, False,
        "Descriptions, deprecation marks, formats, limit names: no effect on what is accepted or generated."),
    "code-renamed": Rule(False, False, False,
        "A type, property or enum member is called otherwise in some binding's generated code (a `title`, an"
        " `x-enum-varnames` entry): every SDK source that names it breaks.", source=True),
    "code-moved": Rule(False, False, False,
        "A type is generated into another file or module of some binding: every import of it breaks.",
        source=True),
    "code-retyped": Rule(False, False, False,
        "A field's generated type changes in some binding (integer → number + multipleOf 1: int → float):"
        " source that reads or sets it breaks.", source=True),
    "code-unrepresentable": Rule(False, False, False,
        "The head's schemas hold what the bindings' generators cannot represent, where the base's they could:"
        " no SDK can be generated from the head.", source=True),
    "behaviour-changed": Rule(True, True, False,
        "A case both versions carry expects something else: breaking, both ways unless a validation case's"
        " acceptance flipped (valid → refused breaks new readers of old data, refused → valid old readers of new"
        " data)."),
    "via-reference": Rule(False, False, False,
        "A type that contains a changed type: it inherits that type's changes, counted once, at the type "
        "that changed."),
}
# fmt: on
"""Rule id → default classification; spec/compatibility.md states each one, with the same id."""


@dataclass(frozen=True)
class Change:
    """One classified difference between two versions of a type, of contract.json or of the wire rules."""

    type_name: str
    location: Location
    rule: str
    detail: str
    old_readers: bool
    new_readers: bool
    note: str = ""
    editorial: bool = False
    """Nothing accepted or meant changes (decided by content, or marked editorial in the changelog)."""
    evidence: tuple[str, ...] = ()
    """Witnesses: instances one side accepts and the other refuses, each with the side that accepts it."""
    excerpt: tuple[str, ...] = ()
    """For a document section: the lines of its diff."""

    @property
    def level(self) -> Level:
        if self.old_readers or self.new_readers:
            return "breaking"
        if RULES[self.rule].source:
            return "source"
        return "editorial" if self.editorial or self.rule == "annotation-changed" else "compatible"

    @property
    def meaning_only(self) -> bool:
        return RULES[self.rule].meaning_only


def make(
    rule_id: str,
    type_name: str,
    location: Location,
    detail: str,
    *,
    old_readers: bool | None = None,
    new_readers: bool | None = None,
    note: str = "",
    editorial: bool = False,
    evidence: tuple[str, ...] = (),
    excerpt: tuple[str, ...] = (),
) -> Change:
    """A Change classified by its rule; overriding a direction needs the note that justifies it."""
    rule = RULES[rule_id]
    old = rule.old_readers if old_readers is None else old_readers
    new = rule.new_readers if new_readers is None else new_readers
    assert note or (old, new) == (rule.old_readers, rule.new_readers), rule_id
    return Change(
        type_name, location, rule_id, detail, old, new, note, editorial and not (old or new), evidence, excerpt
    )


def render_location(location: Location) -> str:
    """`("cameras", "*", "codec")` → `$.cameras.*.codec`; `("at", "[]")` → `$.at[]`; a document section
    `("§ Heading",)` and a vector case `("case str-act-0001",)` as they are."""
    if len(location) == 1 and location[0].startswith(("§", "case ")):
        return location[0]
    out = "$"
    for part in location:
        if part in ("*", "{key}"):
            out += "." + part if part == "*" else part
        elif part.startswith("[") and part.endswith("]"):
            out += part
        elif part.isascii() and part.replace("_", "a").isalnum() and not part[:1].isdigit():
            out += "." + part
        else:
            out += '["' + part.replace("\\", "\\\\").replace('"', '\\"') + '"]'
    return out
