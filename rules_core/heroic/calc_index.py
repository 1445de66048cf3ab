"""Calculator of the Heroic Combat index page: side initiative, each side's 1d roll for
the round (source: Heroic Combat, the round sequence)."""

from __future__ import annotations

import random
from fractions import Fraction
from typing import Any

import icepool

from rules_core.calculator import Calculator, Chart, Result
from rules_core.dice.distribution import from_icepool, percent, to_json
from rules_core.explain import rule
from rules_core.fields import ChoiceField
from rules_core.heroic.inputs import INDEX_PAGE

TIES = (("reroll", "Roll again until one side is higher"),
        ("simultaneous", "Both sides act at the same time"))


def initiative_winner(die_a: int, die_b: int) -> str:
    """The verdict for one pair of 1d rolls: "a", "b" or "tie" (source: the round, step 1)."""
    return "a" if die_a > die_b else "b" if die_b > die_a else "tie"


def initiative_odds(ties: str) -> dict[str, Fraction]:
    """Exact chance each side acts first, or both at once, under the tie ruling."""
    dist = from_icepool(icepool.map(initiative_winner, icepool.d6, icepool.d6))
    if ties == "reroll":
        decided = dist["a"] + dist["b"]
        return {"Side A first": dist["a"] / decided, "Side B first": dist["b"] / decided}
    return {"Side A first": dist["a"], "Side B first": dist["b"], "Both at once": dist["tie"]}


def _init_roll(inputs: dict[str, Any], rng: random.Random) -> Result:
    dice, lines = [], []
    while True:
        a, b = rng.randint(1, 6), rng.randint(1, 6)
        dice += [{"die": "side A d6", "face": a}, {"die": "side B d6", "face": b}]
        verdict = initiative_winner(a, b)
        lines.append(f"A {a}, B {b}")
        if verdict != "tie" or inputs["ties"] == "simultaneous":
            break
    outcome = {"a": "Side A first", "b": "Side B first", "tie": "Both at once"}[verdict]
    return {"dice": dice, "outcome": outcome,
            "summary": f"{'; tie, again: '.join(lines)}: {outcome}"}


INITIATIVE = Calculator(
    name="heroic.initiative",
    title="Side initiative",
    summary="Each side rolls 1d; the higher acts first and declares its tactics last.",
    fields=(ChoiceField("ties", "Ties", default="reroll", choices=TIES),),
    compute=lambda i: to_json("first", initiative_odds(i["ties"])),
    explain=lambda i, r: (
        f"Each side rolls one die and the higher roll wins the round's initiative "
        f"({rule('the round', 'heroic/', 'the-round')}): 15 of the 36 pairs favour each side "
        f"and 6 are ties. The source does not say what a tie does "
        f"({rule('ruling', 'rulings/', 'heroic-initiative-ties')}): "
        + ("rolled again, each side goes first half the time." if i["ties"] == "reroll"
           else "with both acting at once, each side leads 15 times in 36 and 6 in 36 "
                "rounds are simultaneous.")),
    headline=lambda r: [(k, percent(v)) for k, v in r["first"].items()],
    charts=(Chart("first", "Who acts first", "Result", ordered=False),),
    roll=_init_roll,
    roll_label="Roll initiative",
    page=INDEX_PAGE,
)
