"""Helpers the rules_core tests share."""

from __future__ import annotations

from rules_core import api


def refused(name: str, inputs: dict, field: str, *fragments: str) -> str:
    """``api.run(name, inputs)`` must refuse the input, naming ``field`` in a message that
    holds every one of ``fragments``; the message."""
    reply = api.run(name, inputs)
    assert not reply["ok"], reply
    assert reply["error"]["field"] == field, reply
    for fragment in fragments:
        assert fragment in reply["error"]["message"], reply["error"]["message"]
    return reply["error"]["message"]
