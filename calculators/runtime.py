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
    return _compared(name, inputs, response, api.run(name, inputs["pinned"]), uid)


def _compared(name: str, inputs: dict[str, Any], response: dict[str, Any],
              pinned: dict[str, Any], uid: str) -> dict[str, Any]:
    """The current setup's response with setup A's figures beside it."""
    response = dict(response)
    if pinned["ok"]:
        head = compare_html(api.spec(name), inputs["pinned"], pinned, inputs["setup"], response)
    else:
        head = ('<p class="calc-compare-broken">Setup A cannot be worked out: '
                f'{escape(pinned["error"]["message"])} Unpin it to compare again.</p>')
    response["html"] = head + response_html(response, _root, uid)
    return response


class Comparing:
    """Setup A pinned beside the current setup, both whole fights refined at once: a
    reply as soon as both have a first answer, sharpening with them."""

    def __init__(self, name: str, setup: api.Sharpening, pinned: api.Sharpening,
                 inputs: dict[str, Any], uid: str) -> None:
        self.name, self.inputs, self.uid = name, inputs, uid
        self.sides = {"setup": setup, "pinned": pinned}
        self.last: dict[str, dict[str, Any] | None] = {"setup": None, "pinned": None}

    @property
    def done(self) -> bool:
        return all(side.done for side in self.sides.values())

    def step(self, seconds: float, hold: float = 0.0) -> dict[str, Any] | None:
        """As :meth:`api.Sharpening.step`, for both sides at once (each holding back its
        answers within ``hold`` seconds of its last)."""
        going = [key for key, side in self.sides.items() if not side.done]
        new = False
        for key in going:
            reply = self.sides[key].step(seconds / len(going), hold)
            if reply is not None:
                self.last[key], new = reply, True
        setup, pinned = self.last["setup"], self.last["pinned"]
        if not new or setup is None or pinned is None:
            return None
        if not setup["ok"]:
            return setup
        return _compared(self.name, self.inputs, setup, pinned, self.uid)


#: the least time between two answers of one refinement sent to the page (seconds): each
#: is drawn as HTML here and on the page, and a batch of fights can take a few hundredths
#: of a second; the first answer and the settled one are sent at once
DRAW_EVERY = 0.4

#: whole fights being refined, by the widget's id: one at a time per widget
_sessions: dict[str, api.Sharpening | Comparing] = {}


def begin(request_json: str) -> str:
    """Start a "run" request as answers that sharpen: the reply at once for anything but a
    whole fight (as :func:`handle`); for a whole fight ``{"refining": true}``, its answers
    then come from :func:`advance`. A widget's earlier refinement is dropped."""
    try:
        request: Any = parse_json(request_json, "request", MAX_DEPTH + _ENVELOPE)
        if not isinstance(request, dict) or request.get("op") not in ("run", "compare"):
            return handle(request_json)
        uid = str(request.get("uid", "calc"))
        _sessions.pop(uid, None)
        _paused.pop(uid, None)
        name, inputs = str(request.get("name")), request.get("inputs", {})
        if request["op"] == "compare":
            if not isinstance(inputs, dict) or set(inputs) != {"setup", "pinned"}:
                return handle(request_json)
            setup, pinned = api.begin(name, inputs["setup"]), api.begin(name, inputs["pinned"])
            if isinstance(setup, dict) or isinstance(pinned, dict):
                return handle(request_json)  # not a whole fight, or refused: answered at once
            _sessions[uid] = Comparing(name, setup, pinned, inputs, uid)
            return json.dumps({"refining": True})
        started = api.begin(name, inputs)
        if isinstance(started, dict):
            if started["ok"]:
                started["html"] = response_html(started, _root, uid)
            return json.dumps(started)
        _sessions[uid] = started
        return json.dumps({"refining": True})
    except Exception:  # noqa: BLE001 - the runtime must answer and stay alive
        return handle(request_json)


def advance(uid: str, seconds: float) -> str:
    """Refine widget ``uid``'s whole fight for about ``seconds``: ``{"reply": the newest
    response with its HTML, or null when none came of it, "done": bool}``. A widget with
    nothing being refined is done, with no reply."""
    session = _sessions.get(uid)
    if session is None:
        return json.dumps({"reply": None, "done": True})
    reply = None
    try:
        reply = session.step(seconds, DRAW_EVERY)
        if reply is not None and reply["ok"] and "html" not in reply:
            reply["html"] = response_html(reply, _root, uid)
    except Exception as err:  # noqa: BLE001 - the runtime must answer and stay alive
        _sessions.pop(uid, None)
        said = api.could_not(err, "The request", plural=False, smaller="nothing was changed.",
                             other="nothing was changed.")
        return json.dumps({"reply": _refused("request", said), "done": True})
    done = session.done
    if done:
        _sessions.pop(uid, None)
    return json.dumps({"reply": reply, "done": done})


#: refinements stopped by their widget (Stop), which may go on (Keep refining)
_paused: dict[str, api.Sharpening | Comparing] = {}


def pause(uid: str) -> None:
    """Stop refining widget ``uid``'s fight (Stop): it may go on later (:func:`resume`)."""
    entry = _sessions.pop(uid, None)
    if entry is not None:
        _paused.clear()  # one kept at a time: the rest are given up
        _paused[uid] = entry


def resume(uid: str) -> bool:
    """Go on refining widget ``uid``'s stopped fight (Keep refining); False when there is
    none kept (the widget then asks again)."""
    entry = _paused.pop(uid, None)
    if entry is not None:
        _sessions[uid] = entry
    return entry is not None


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
