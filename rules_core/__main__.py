"""Command line: ``python -m rules_core list | spec NAME | run NAME 'JSON' | roll NAME 'JSON'``.

Prints JSON. Exit status 0 on success, 2 on bad input (with the error naming the field).
Never a traceback: JSON that is too deep, numbers too long for Python, text that is not
valid Unicode all give the JSON error; a reader that goes away (a closed pipe) ends the
program quietly.
"""

from __future__ import annotations

import json
import os
import sys
from typing import Any

from rules_core import api
from rules_core.errors import InputError
from rules_core.messages import parse_json, sentence

USAGE = """usage:
  python -m rules_core list                 every calculator, one per line
  python -m rules_core spec NAME            its inputs as JSON
  python -m rules_core run NAME 'JSON'      compute (JSON object of inputs; '-' reads stdin)
  python -m rules_core run NAME 'JSON' --precision P
                                            a whole fight to precision P: "exact",
                                            "0.2 points" or a time ("3 s"; default 0.5 points)
  python -m rules_core roll NAME 'JSON'     roll real dice for it
  python -m rules_core app NAME             an app's data from the core (sucs.roster...)"""


def _emit(text: str, stream: Any = None) -> None:
    """Write a line; text holding a lone surrogate is written with escapes instead."""
    stream = stream or sys.stdout
    try:
        text.encode(stream.encoding or "utf-8")
    except (UnicodeEncodeError, LookupError):
        text = text.encode("utf-8", "backslashreplace").decode("utf-8")
    stream.write(text + "\n")


def _dump(response: dict[str, Any], indent: int | None = 2) -> str:
    try:
        return json.dumps(response, indent=indent, ensure_ascii=False)
    except (ValueError, RecursionError, OverflowError):  # a value Python cannot print
        return json.dumps(api.error_reply([InputError(
            "inputs", "The result could not be written as JSON; send smaller values.")]))


def _read(text: str) -> Any:
    try:
        return parse_json(text, "inputs")
    except InputError as err:
        raise _CliError(api.error_reply([InputError(err.field, sentence(
            "the inputs' JSON text", err.message))])) from None


class _CliError(Exception):
    def __init__(self, response: dict[str, Any]) -> None:
        super().__init__()
        self.response = response


def main(argv: list[str]) -> int:
    """Run one command; returns the exit status."""
    if not argv or argv[0] in {"-h", "--help", "help"}:
        _emit(USAGE)
        return 0 if argv else 2
    command, rest = argv[0], argv[1:]
    if command == "list":
        for name in api.names():
            _emit(f"{name}\t{api.spec(name)['summary']}")
        return 0
    if command in {"spec", "app"} and len(rest) == 1:
        what = "the calculator's name" if command == "spec" else "the app's name"
        try:
            _emit(json.dumps((api.spec if command == "spec" else api.app_data)(rest[0]), indent=2))
        except InputError as err:
            _emit(_dump(api.error_reply([InputError(err.field, sentence(what, err.message))]), None))
            return 2
        return 0
    wanted = None
    if command == "run" and len(rest) >= 2 and rest[-2] == "--precision":
        wanted, rest = rest[-1], rest[:-2]
    if command in {"run", "roll"} and len(rest) in {1, 2}:
        text = rest[1] if len(rest) == 2 else "{}"
        try:
            if text == "-":
                text = sys.stdin.buffer.read().decode("utf-8", "surrogateescape")
            response = (api.run(rest[0], _read(text), wanted) if command == "run"
                        else api.roll(rest[0], _read(text)))
        except _CliError as err:
            response = err.response
        _emit(_dump(response))
        return 0 if response["ok"] else 2
    _emit(USAGE, sys.stderr)
    return 2


def entry(argv: list[str]) -> int:
    """:func:`main`, ending quietly when the reader of the output has gone away."""
    try:
        status = main(argv)
        sys.stdout.flush()
        return status
    except BrokenPipeError:
        # Python would report the failed flush at exit; point stdout at nothing first
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 1


if __name__ == "__main__":
    sys.exit(entry(sys.argv[1:]))
