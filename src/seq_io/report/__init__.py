"""`iospec report`: the JSON reports of several runs → one compliance matrix (HTML, Markdown, a badge per
implementation), or two reports of one implementation → what changed between them.

WHY a package of its own: it only reads what `iospec run --json` and `iospec probe --json` wrote
(conformance/schema/report.schema.json), so it runs anywhere the wheel is installed, long after the runs, on
reports gathered from other machines.
"""
