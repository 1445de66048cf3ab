"""The worker's Python side: one JSON request in, one JSON reply out.

The Web Worker calls :func:`handle` with a JSON string; nothing from the page is ever
turned into Python source. Whatever the request holds, the reply is JSON and the runtime
stays alive: the request's depth is measured before it is parsed (a deep structure would
exhaust the WebAssembly stack, which Python cannot catch), and anything Python itself
cannot handle (RecursionError, MemoryError, OverflowError or any other exception)
becomes a plain error reply.
"""

from __future__ import annotations

import json
from typing import Any

from calculators.render import response_html, roll_html
from rules_core import api
from rules_core.errors import InputError
from rules_core.messages import MAX_DEPTH, parse_json, sentence

_root = "/"
#: the request object and its inputs wrap the calculator's own inputs
_ENVELOPE = 2


def configure(root: str) -> None:
    """Remember the site root URL (for links to rules in explanations)."""
    global _root
    _root = root


def _refused(field: str, message: str) -> dict[str, Any]:
    return api.error_reply([InputError(field, message)])


def _reply(request_json: str) -> dict[str, Any]:
    try:
        request: Any = parse_json(request_json, "request", MAX_DEPTH + _ENVELOPE)
    except InputError as err:
        return _refused("request", sentence("the request", err.message))
    if not isinstance(request, dict) or "op" not in request or "name" not in request:
        return _refused("request", "The request must be an object with an op and a name.")
    op, name, inputs = request["op"], request["name"], request.get("inputs", {})
    uid = str(request.get("uid", "calc"))
    if op == "roll":
        response = api.roll(name, inputs)
        if response["ok"]:
            response["html"] = roll_html(response)
        return response
    if op == "run":
        response = api.run(name, inputs)
        if response["ok"]:
            response["html"] = response_html(response, _root, uid)
        return response
    return _refused("op", 'The operation must be "run" or "roll".')


def handle(request_json: str) -> str:
    """``{"op": "run"|"roll", "name", "inputs", "uid"}`` -> response with ``html``."""
    try:
        return json.dumps(_reply(request_json))
    except Exception as err:  # noqa: BLE001 - the runtime must answer and stay alive
        what = {RecursionError: "is nested too deeply to work through",
                MemoryError: "is too large to work through",
                OverflowError: "holds a number too large to work with"}.get(type(err))
        message = (f"The request {what}; nothing was changed." if what else
                   f"The request could not be worked through ({type(err).__name__}); "
                   "nothing was changed.")
        return json.dumps(_refused("request", message))
