"""Runs → the compliance matrix (implementation by kind by group) → one self-contained HTML page, its Markdown
version and a shields.io endpoint badge per implementation.

WHY one model (`Matrix`) under three renderers: the page, the Markdown and the badges must never disagree about a
count, so every number is taken once from the reports' own counts (never recounted from the cases). The page has
no external asset and no script: the "failing only" view is a checkbox and CSS, every jump an anchor, and every
text from a report is escaped, since a case's text is whatever a testee chose to print.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from html import escape
from typing import Any

from seq_io.report.cases import Shown, Vectors, shown
from seq_io.report.load import Counts, Run
from seq_io.runner.kinds import KINDS

EMPTY = Counts(0, 0, 0, 0, 0, 0, 0)


@dataclass(frozen=True)
class Matrix:
    """The runs, and every kind and group any of them holds, in the runner's kind order."""

    runs: list[Run]
    kinds: list[str]
    groups: dict[str, list[str]]
    by_group: list[dict[str, Counts]]

    def cell(self, run: Run, kind: str, group: str | None = None) -> Counts:
        """The counts of one cell: a run's kind, or its group (EMPTY where it ran none of it)."""
        if group is None:
            return run.kinds.get(kind, EMPTY)
        index = next(i for i, r in enumerate(self.runs) if r is run)
        return self.by_group[index].get(group, EMPTY)


def build(runs: list[Run]) -> Matrix:
    order = {kind: index for index, kind in enumerate(KINDS)}
    kinds = sorted({k for run in runs for k in run.kinds}, key=lambda k: (order.get(k, len(order)), k))
    groups: dict[str, list[str]] = {kind: [] for kind in kinds}
    for run in runs:
        for group in run.groups:
            names = groups.setdefault(group.kind, [])
            if group.name not in names:
                names.append(group.name)
    return Matrix(runs, kinds, groups, [{g.name: g.counts for g in run.groups} for run in runs])


def state(counts: Counts) -> str:
    """A cell's colour: none (no case run), pass (every case passed), xfail (only expected failures), fail."""
    if counts.cases == 0:
        return "none"
    if counts.bad:
        return "fail"
    return "xfail" if counts.passed < counts.cases else "pass"


def cell_text(counts: Counts) -> str:
    return f"{counts.passed}/{counts.cases}" if counts.cases else "—"


def cell_note(counts: Counts) -> str:
    """The outcomes beside pass, in words (empty when every case passed)."""
    parts = [(counts.fail, "fail"), (counts.xfail, "xfail"), (counts.xpass, "xpass"), (counts.skip, "skip")]
    return ", ".join(f"{n} {name}" for n, name in [*parts, (counts.error, "error")] if n)


def is_clean(cells: list[Counts]) -> bool:
    """Whether a row has nothing to show in the failing-only view."""
    return all(state(c) in ("pass", "none") for c in cells)


def identity(run: Run) -> str:
    return f"{run.name} {run.version} · contract {run.contract_version}"


# -- badges ---------------------------------------------------------------------------------------------------


def badge(run: Run) -> dict[str, Any]:
    """A shields.io endpoint badge: passed/cases, green when all passed, yellow when the rest is expected."""
    colour = {"pass": "brightgreen", "xfail": "yellow", "fail": "red", "none": "lightgrey"}[state(run.totals)]
    if not run.ok:
        colour = "red"
    return {
        "schemaVersion": 1,
        "label": f"contract {run.contract_version}",
        "message": f"{run.totals.passed}/{run.totals.cases}",
        "color": colour,
    }


def slug(text: str) -> str:
    """A file name from a label: lower-case letters, digits and single dashes."""
    out = "".join(c if c.isascii() and c.isalnum() else "-" for c in text.lower())
    return "-".join(part for part in out.split("-") if part) or "implementation"


# -- Markdown -------------------------------------------------------------------------------------------------


def _md(text: str) -> str:
    """Text safe inside a Markdown table cell."""
    return escape(text, quote=False).replace("|", "\\|").replace("\n", " ")


def _md_cell(counts: Counts, ok: bool = True) -> str:
    mark = {"pass": "✅ ", "xfail": "🟡 ", "fail": "❌ ", "none": ""}[state(counts) if ok else "fail"]
    note = cell_note(counts)
    return f"{mark}{cell_text(counts)}" + (f" ({note})" if note else "")


def markdown(matrix: Matrix) -> str:
    """The matrix in Markdown: implementations, the kind table, then every group that is not all green."""
    runs = matrix.runs
    head = "| | " + " | ".join(_md(r.label) for r in runs) + " |\n|---|" + "---|" * len(runs) + "\n"
    lines = ["# Conformance matrix", "", "| implementation | name and version | contract | report | result |"]
    lines.append("|---|---|---|---|---|")
    for run in runs:
        result = "ok" if run.ok else f"FAILED ({len(run.problems)} run problem(s))" if run.problems else "FAILED"
        lines.append(
            f"| {_md(run.label)} | {_md(run.name)} {_md(run.version)} | {_md(run.contract_version)} "
            f"| `{_md(str(run.path))}` | {result} |"
        )
    lines += ["", "## By kind", "", head.rstrip("\n")]
    lines.append("| **all cases** | " + " | ".join(_md_cell(r.totals, r.ok) for r in runs) + " |")
    lines += [f"| {kind} | " + " | ".join(_md_cell(matrix.cell(r, kind)) for r in runs) + " |" for kind in matrix.kinds]
    rows = [
        (group, [matrix.cell(r, kind, group) for r in runs])
        for kind in matrix.kinds
        for group in matrix.groups.get(kind, [])
    ]
    open_rows = [(g, cells) for g, cells in rows if any(state(c) in ("fail", "xfail") for c in cells)]
    lines += ["", "## Groups where a case did not pass", ""]
    if open_rows:
        lines.append(head.rstrip("\n"))
        lines += [f"| {_md(g)} | " + " | ".join(_md_cell(c) for c in cells) + " |" for g, cells in open_rows]
    else:
        lines.append(f"Every case of all {len(rows)} groups passed in every implementation that ran it.")
    return "\n".join(lines) + "\n"


# -- HTML -----------------------------------------------------------------------------------------------------

STYLE = """
body{font:14px/1.4 system-ui,sans-serif;margin:0 1rem 3rem;color:#1b1b1b;background:#fff}
.wide{overflow-x:auto}
h1{font-size:1.4rem;margin:1rem 0 .2rem}h2{font-size:1.15rem;margin:2rem 0 .4rem;border-bottom:1px solid #ccc}
h3{font-size:1rem;margin:1.2rem 0 .3rem}
.lede{color:#555;margin:0 0 .8rem}
table{border-collapse:collapse;margin:.4rem 0}
th,td{border:1px solid #d0d0d0;padding:.2rem .4rem;text-align:left;vertical-align:top}
thead th{min-width:5rem;max-width:9rem;overflow-wrap:anywhere}
thead th{background:#f3f3f3}
th small,td small{display:block;color:#555;font-weight:normal;font-size:.75rem}
td.cell{text-align:center;white-space:nowrap;font-variant-numeric:tabular-nums}
td.cell a{color:inherit}
.s-pass{background:#d7f5dd}.s-xfail{background:#fff1c2}.s-fail{background:#ffd4d4}.s-none{background:#f6f6f6;color:#999}
tr.kind th{background:#e8eef8}tr.total th,tr.total td{font-weight:bold}
tr.group th{font-weight:normal;max-width:14rem;overflow-wrap:anywhere}
details{margin:.3rem 0}summary{cursor:pointer;font-weight:600}
.toggle{position:sticky;top:0;background:#fff;padding:.4rem 0;z-index:2;border-bottom:1px solid #eee}
body:has(#failing-only:checked) .clean{display:none}
article.case{border:1px solid #ddd;border-left:5px solid #d33;margin:.5rem 0;padding:.4rem .7rem}
article.case.xpass{border-left-color:#c80}article.case:target{outline:3px solid #36c}
article.case,h2,h3{scroll-margin-top:3rem}
pre{background:#f7f7f7;padding:.4rem;overflow:auto;max-height:18rem;margin:.2rem 0}
pre{white-space:pre-wrap;word-break:break-word}
dl{display:grid;grid-template-columns:7rem 1fr;gap:.2rem .6rem;margin:.3rem 0}dt{font-weight:600;color:#444}dd{margin:0}
ul.jump{columns:3 16rem;padding-left:1.2rem}
.problems{color:#a00}
""".strip()


class _Page:
    """The HTML page under construction: run index and group index make the anchors (never report text)."""

    def __init__(self, matrix: Matrix, vectors: Vectors) -> None:
        self.matrix = matrix
        self.vectors = vectors
        self.group_index = {g: i for i, g in enumerate(g for k in matrix.kinds for g in matrix.groups.get(k, []))}
        self.out: list[str] = []

    def cell(self, index: int, counts: Counts, group: str | None, kind: str | None, colour: str) -> str:
        text = escape(cell_text(counts))
        note = cell_note(counts)
        if group is not None and counts.passed < counts.cases:
            text = f'<a href="#f-{index}-{self.group_index[group]}">{text}</a>'
        elif group is None and (counts.passed < counts.cases or colour == "fail"):
            text = f'<a href="#run-{index}">{text}</a>'
        return (
            f'<td class="cell s-{colour}" data-run="{index}" data-kind="{escape(kind or "")}" '
            f'data-pass="{counts.passed}" data-cases="{counts.cases}">{text}'
            + (f"<small>{escape(note)}</small>" if note else "")
            + "</td>"
        )

    def row(
        self, label: str, cells: list[Counts], kind: str | None, group: str | None, css: str, failed: bool = False
    ) -> str:
        colours = [state(c) for c in cells]
        if failed:  # the totals: a run that failed as a whole (its problems) is red whatever its cases did
            colours = ["fail" if not run.ok else colour for run, colour in zip(self.matrix.runs, colours, strict=True)]
        clean = all(colour in ("pass", "none") for colour in colours)
        return (
            f'<tr class="{css}{" clean" if clean else ""}"><th>{label}</th>'
            + "".join(self.cell(i, c, group, kind, colours[i]) for i, c in enumerate(cells))
            + "</tr>"
        )

    def head(self) -> str:
        cols = "".join(
            f'<th><a href="#run-{i}">{escape(r.label)}</a><small>{escape(f"{r.name} {r.version}")}</small>'
            f"<small>contract {escape(r.contract_version)}</small></th>"
            for i, r in enumerate(self.matrix.runs)
        )
        return f"<thead><tr><th>kind / group</th>{cols}</tr></thead>"

    def summary(self) -> None:
        m = self.matrix
        self.out.append('<h2 id="summary">By kind</h2><div class="wide"><table class="matrix" id="kinds">')
        self.out.append(self.head() + "<tbody>")
        self.out.append(self.row("all cases", [r.totals for r in m.runs], "*", None, "total", failed=True))
        for kind in m.kinds:
            label = f'<a href="#kind-{escape(kind)}">{escape(kind)}</a>'
            self.out.append(self.row(label, [m.cell(r, kind) for r in m.runs], kind, None, "kind"))
        self.out.append("</tbody></table></div>")

    def groups(self) -> None:
        m = self.matrix
        self.out.append('<h2 id="groups">By group</h2>')
        for kind in m.kinds:
            cells = {g: [m.cell(r, kind, g) for r in m.runs] for g in m.groups.get(kind, [])}
            rows = [self.row(escape(g), cells[g], None, g, "group") for g in cells]
            dirty = sum(not is_clean(c) for c in cells.values())
            self.out.append(
                f'<details id="kind-{escape(kind)}" class="{"clean" if not dirty else ""}"{" open" if dirty else ""}>'
                f"<summary>{escape(kind)}: {len(rows)} groups, {dirty} with a case that did not pass</summary>"
                f'<div class="wide"><table class="matrix">{self.head()}<tbody>{"".join(rows)}</tbody></table></div>'
                "</details>"
            )

    def case(self, index: int, item: Shown) -> str:
        fields = [("outcome", f"<strong>{escape(item.outcome)}</strong>"), ("vector", escape(item.where))]
        fields.append(("why", escape(item.why)))
        fields.append(("request", f"<pre>{escape(item.request)}</pre>"))
        if item.differences:
            rows = "".join(
                f"<tr><td><code>{escape(at)}</code></td><td><pre>{escape(exp)}</pre></td><td><pre>{escape(got)}</pre></td></tr>"
                for at, exp, got in item.differences
            )
            fields.append(("expected / got", f"<table><tr><th>at</th><th>expected</th><th>got</th></tr>{rows}</table>"))
        if item.detail:
            fields.append(("detail", f"<pre>{escape(item.detail)}</pre>"))
        if item.note:
            fields.append(("note", escape(item.note)))
        body = "".join(f"<dt>{k}</dt><dd>{v}</dd>" for k, v in fields)
        return (
            f'<article class="case {escape(item.outcome)}" id="c-{index}-{escape(item.id)}">'
            f"<h4>{escape(item.id)}</h4><dl>{body}</dl></article>"
        )

    def failures(self) -> None:
        for index, run in enumerate(self.matrix.runs):
            bad = [c for c in run.cases if not c["ok"]]
            expected = [c for c in run.cases if c["ok"] and c["outcome"] != "pass"]
            clean = "" if bad or expected or run.problems else " clean"
            self.out.append(
                f'<section id="run-{index}" class="run{clean}"><h2>{escape(run.label)}: {escape(identity(run))}</h2>'
                f'<p class="lede">report <code>{escape(str(run.path))}</code>; {run.totals.passed} of '
                f"{run.totals.cases} cases passed, {len(bad)} not acceptable, {len(expected)} expected failures; "
                f"run {'ok' if run.ok else 'FAILED'}</p>"
            )
            if run.problems:
                items = "".join(f"<li>{escape(p)}</li>" for p in run.problems)
                self.out.append(f'<ul class="problems">{items}</ul>')
            if bad:
                links = "".join(
                    f'<li><a href="#c-{index}-{escape(c["id"])}">{escape(c["id"])}</a> {escape(c["outcome"])}</li>'
                    for c in bad
                )
                self.out.append(f'<h3>Failing cases ({len(bad)})</h3><ul class="jump">{links}</ul>')
            by_group: dict[str, list[dict[str, Any]]] = {}
            for c in bad + expected:
                by_group.setdefault(str(c["group"]), []).append(c)
            for group in sorted(by_group, key=lambda g: self.group_index.get(g, len(self.group_index))):
                cases = by_group[group]
                anchor = f"f-{index}-{self.group_index[group]}" if group in self.group_index else ""
                self.out.append(f'<h3 id="{anchor}">{escape(group)}</h3>')
                self.out += [self.case(index, shown(c, self.vectors)) for c in cases if not c["ok"]]
                listed = [c for c in cases if c["ok"]]
                if listed:
                    items = "".join(
                        f'<li id="c-{index}-{escape(c["id"])}"><code>{escape(c["id"])}</code> '
                        f"{escape(str(c.get('note') or c.get('detail') or '')[:600])}</li>"
                        for c in listed
                    )
                    self.out.append(
                        f"<details><summary>{len(listed)} expected failure{'' if len(listed) == 1 else 's'}</summary>"
                        f"<ul>{items}</ul></details>"
                    )
            self.out.append("</section>")


def html(matrix: Matrix, vectors: Vectors) -> str:
    """The whole page: summary by kind, every group, then each implementation's failing cases."""
    page = _Page(matrix, vectors)
    versions = sorted({r.contract_version for r in matrix.runs})
    page.summary()
    page.groups()
    page.failures()
    title = f"Conformance matrix: {len(matrix.runs)} implementations, contract {', '.join(versions)}"
    return (
        '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width,initial-scale=1"><link rel="icon" href="data:,">'
        f"<title>{escape(title)}</title><style>{STYLE}</style></head><body>"
        f"<h1>{escape(title)}</h1>"
        '<p class="lede">Each cell: cases passed / cases run; green every case passed, yellow the rest are expected '
        "failures, red a case failed, grey not run. A cell links to its cases below.</p>"
        '<div class="toggle"><input type="checkbox" id="failing-only"><label for="failing-only"> failing only '
        "(hide every row, kind and implementation where every case passed)</label></div>"
        "<main>" + "".join(page.out) + "</main></body></html>\n"
    )


def badge_text(run: Run) -> str:
    return json.dumps(badge(run), ensure_ascii=False) + "\n"
