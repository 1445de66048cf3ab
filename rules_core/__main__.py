"""Command line: ``python -m rules_core list | spec NAME | run NAME 'JSON' | roll NAME 'JSON'``.

Prints JSON. Exit status 0 on success, 2 on bad input (with the error naming the field).
"""

from __future__ import annotations

import json
import sys

from rules_core import api
from rules_core.errors import InputError

USAGE = """usage:
  python -m rules_core list                 every calculator, one per line
  python -m rules_core spec NAME            its inputs as JSON
  python -m rules_core run NAME 'JSON'      compute (JSON object of inputs; '-' reads stdin)
  python -m rules_core roll NAME 'JSON'     roll real dice for it"""


def main(argv: list[str]) -> int:
    if not argv or argv[0] in {"-h", "--help", "help"}:
        print(USAGE)
        return 0 if argv else 2
    command, rest = argv[0], argv[1:]
    if command == "list":
        for name in api.names():
            print(f"{name}\t{api.spec(name)['summary']}")
        return 0
    if command == "spec" and len(rest) == 1:
        try:
            print(json.dumps(api.spec(rest[0]), indent=2))
        except InputError as err:
            print(json.dumps({"ok": False, "error": {"field": err.field, "message": err.message}}))
            return 2
        return 0
    if command in {"run", "roll"} and len(rest) in {1, 2}:
        text = rest[1] if len(rest) == 2 else "{}"
        if text == "-":
            text = sys.stdin.read()
        try:
            inputs = json.loads(text)
        except json.JSONDecodeError as err:
            response = {"ok": False, "error": {"field": "inputs",
                        "message": f"is not valid JSON ({err.msg} at character {err.pos})."}}
        else:
            response = (api.run if command == "run" else api.roll)(rest[0], inputs)
        print(json.dumps(response, indent=2, ensure_ascii=False))
        return 0 if response["ok"] else 2
    print(USAGE, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
