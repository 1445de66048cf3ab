"""The worker's Python side: one JSON request in, one JSON reply out.

The Web Worker calls :func:`handle` with a JSON string; nothing from the page is ever
turned into Python source.
"""

from __future__ import annotations

import json
from typing import Any

from calculators.render import response_html, roll_html
from rules_core import api

_root = "/"


def configure(root: str) -> None:
    """Remember the site root URL (for links to rules in explanations)."""
    global _root
    _root = root


def handle(request_json: str) -> str:
    """``{"op": "run"|"roll"|"spec", "name", "inputs", "uid"}`` -> response with ``html``."""
    try:
        request: Any = json.loads(request_json)
        op, name, inputs = request["op"], request["name"], request.get("inputs", {})
        uid = str(request.get("uid", "calc"))
    except (ValueError, KeyError, TypeError) as err:
        return json.dumps({"ok": False, "error": {"field": "request",
                                                  "message": f"malformed request ({err})."}})
    if op == "roll":
        response = api.roll(name, inputs)
        if response["ok"]:
            response["html"] = roll_html(response)
    elif op == "run":
        response = api.run(name, inputs)
        if response["ok"]:
            response["html"] = response_html(response, _root, uid)
    else:
        response = {"ok": False, "error": {"field": "op", "message": f"unknown operation {op!r}."}}
    return json.dumps(response)
