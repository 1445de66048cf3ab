"""Helpers the rules_core tests share."""

from __future__ import annotations

import random

from rules_core import api, solver


def refused(name: str, inputs: dict, field: str, *fragments: str) -> str:
    """``api.run(name, inputs)`` must refuse the input, naming ``field`` in a message that
    holds every one of ``fragments``; the message."""
    reply = api.run(name, inputs)
    assert not reply["ok"], reply
    assert reply["error"]["field"] == field, reply
    for fragment in fragments:
        assert fragment in reply["error"]["message"], reply["error"]["message"]
    return reply["error"]["message"]


def play_many(fight: solver.Fight, *, max_rounds: int, trials: int, rng: random.Random
              ) -> dict[str, solver.Estimate]:
    """Each outcome's share of ``trials`` fights played with dice by the dice player
    (:func:`rules_core.solver.play`), with its 95% interval: to hold played fights
    against the exact odds."""
    counts: dict[str, int] = {}
    for _ in range(trials):
        ended = solver.play(fight, max_rounds=max_rounds, rng=rng).outcome
        counts[ended] = counts.get(ended, 0) + 1
    return {name: solver.wilson(k, trials) for name, k in counts.items()}
