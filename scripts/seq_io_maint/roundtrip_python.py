"""Round-trip requests (JSON Lines on stdin) → the generated pydantic models → the text they write back (stdout).

The Python row of the bindings table is measured the way every compiled binding is: this program speaks the
protocol of `seq_io_maint.roundtrip`, reads each instance with the reference's exact reader (spec/validation.md
wire rules), builds the generated model of its type, and writes it back with
`seq_io.reference.validation.to_json_value`, the documented way to write a model as the instance it stands for.
"""

from __future__ import annotations

import json
import sys

from seq_io.reference.validation import model_adapter, to_json_value
from seq_io.reference.wire import parse_json_text


def answer(request: dict[str, str]) -> dict[str, str]:
    value, issues = parse_json_text(request["json"])
    if issues:
        return {"id": request["id"], "error": "; ".join(map(str, issues))}
    try:
        model = model_adapter(request["type_name"]).validate_python(value)
    except ValueError as error:
        return {"id": request["id"], "error": str(error).splitlines()[0]}
    written = to_json_value(request["type_name"], model)
    return {"id": request["id"], "json": json.dumps(written, ensure_ascii=False)}


def main() -> int:
    for line in sys.stdin:
        print(json.dumps(answer(json.loads(line)), ensure_ascii=False), flush=False)
    return 0


if __name__ == "__main__":
    sys.exit(main())
