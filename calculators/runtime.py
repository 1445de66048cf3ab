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
import random
from html import escape
from typing import Any

from calculators.render import compare_html, markdown_parser, response_html, roll_html, roll_record
from rules_core import api, catalog
from rules_core.errors import InputError
from rules_core.messages import MAX_DEPTH, parse_json, sentence

_root = "/"
#: the request object and its inputs wrap the calculator's own inputs (a comparison
#: wraps them once more: {"setup": ..., "pinned": ...})
_ENVELOPE = 3


def prepare() -> None:
    """Import what requests need beyond the start-up (every system's calculators, the
    dice engine, the Markdown parser): the worker goes live without them and calls this
    right after, before any request and before its memory snapshot, so that a return
    visit restored from that snapshot has them all."""
    catalog.calculators()
    markdown_parser()


def restored() -> None:
    """After a start restored from a memory snapshot: the random state is that of the
    start that made the snapshot, so it is seeded afresh (rolls use SystemRandom, which
    nothing saves; this is for anything else that draws from ``random``)."""
    random.seed()


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
            response["log"] = roll_record(api.spec(name), inputs, response)
        return response
    if op == "compare":
        return _compare(name, inputs, uid)
    if op == "run":
        response = api.run(name, inputs)
        if response["ok"]:
            response["html"] = response_html(response, _root, uid)
        return response
    return _refused("op", 'The operation must be "run", "roll" or "compare".')


def _compare(name: str, inputs: Any, uid: str) -> dict[str, Any]:
    """The current setup's result (as for "run") with setup A beside it. A pinned setup
    that no longer works (a damaged link) is said in words; the current result stays."""
    if not isinstance(inputs, dict) or set(inputs) != {"setup", "pinned"}:
        return _refused("inputs", "A comparison needs the current setup and the pinned setup A.")
    response = api.run(name, inputs["setup"])
    if not response["ok"]:
        return response
    pinned = api.run(name, inputs["pinned"])
    if pinned["ok"]:
        head = compare_html(api.spec(name), inputs["pinned"], pinned, inputs["setup"], response)
    else:
        head = ('<p class="calc-compare-broken">Setup A cannot be worked out: '
                f'{escape(pinned["error"]["message"])} Unpin it to compare again.</p>')
    response["html"] = head + response_html(response, _root, uid)
    return response


def handle(request_json: str) -> str:
    """``{"op": "run"|"roll"|"compare", "name", "inputs", "uid"}`` -> response with
    ``html`` (a roll also with ``log``, its session-log entry; "compare" takes
    ``{"setup": inputs, "pinned": inputs}``)."""
    try:
        return json.dumps(_reply(request_json))
    except Exception as err:  # noqa: BLE001 - the runtime must answer and stay alive
        message = api.could_not(err, "The request", plural=False, smaller="nothing was changed.",
                                other="nothing was changed.")
        return json.dumps(_refused("request", message))
