"""The quick Heroic group fight (rules_core.heroic.quick, what heroic.fight.play_quickly
plays for a simulation) against the exact round (heroic.fight.round_moves): on small fights
under every reading, the pools drawn after one and two rounds fit the exact chances (a
chi-square test), and the 95% intervals of seeded simulations hold the exact chances as
often as they should."""

from __future__ import annotations

import random
from fractions import Fraction
from typing import Any

import pytest

from rules_core import solver
from rules_core.heroic import fight as model
from rules_core.heroic import quick
from rules_core.heroic.damage import Damage
from tests.rules_core.sim_check import covered, drawn, exact_after, sampled_fits


def side(name: str, members: int, skill: int, hp: int, dr: int, damage: Damage,
         **over: Any) -> model.Side:
    return model.Side(**{"name": name, "members": members, "skill": skill,
                         "tactic": "balanced", "speed_factor": 3, "hp": hp, "dr": dr,
                         "damage": damage, "wounding": Fraction(1), "frontage": None,
                         "checks_morale": True, **over})


FIGHTS: dict[str, model.Fight] = {
    "whole members": model.Fight(side("Raiders", 3, 12, 10, 1, Damage(2, 0)),
                                 side("Guards", 2, 13, 12, 2, Damage(1, 2)), model.Rules()),
    "carried wounds": model.Fight(side("Raiders", 2, 12, 6, 1, Damage(1, 1)),
                                  side("Guards", 2, 13, 7, 2, Damage(1, 2),
                                       wounding=Fraction(3, 2)),
                                  model.Rules(carry_wounds=True)),
    "blows at once on a tie, a broken side surrenders": model.Fight(
        side("Raiders", 3, 12, 8, 0, Damage(1, 0)),
        side("Guards", 2, 14, 9, 1, Damage(1, 1), cornered=True),
        model.Rules(ties="simultaneous", on_break="surrender")),
    "a lone creature, carried wounds, blows at once": model.Fight(
        side("Troll", 1, 14, 12, 2, Damage(2, 0)),
        side("Villagers", 3, 11, 5, 0, Damage(1, 0), cowardice=2, tactic="offensive"),
        model.Rules(carry_wounds=True, ties="simultaneous")),
    "frontage and reach, no morale for one side": model.Fight(
        side("Pikes", 4, 11, 6, 0, Damage(1, 0), frontage=2, attack_modifier=1),
        side("Knights", 3, 12, 6, 1, Damage(1, 1), fearlessness=1, checks_morale=False,
             defence=14),
        model.Rules(reach=1)),
}


@pytest.mark.parametrize("name", FIGHTS)
def test_every_round_is_drawn_at_the_exact_chances(name: str) -> None:
    """Each pair of pools (or end) after one round and after two is drawn as often as the
    exact round (:meth:`Fight.step`) says: 6,000 seeded fights each, a chi-square test at
    one in 10,000; no state is drawn that the exact round cannot reach."""
    fight = FIGHTS[name]
    for rounds in (1, 2):
        counts = drawn(lambda r, rng: quick.play_quickly(fight, r, rng), rounds, 6_000,
                       rounds, lambda state, _: state)
        assert sampled_fits(exact_after(fight, rounds), counts) == "", (name, rounds)


def test_a_played_fight_stops_where_the_exact_walk_would() -> None:
    """The state a quick fight stops in is the exact walk's kind (its outcome and losses
    read as the solver reads them), rounds are counted up to the cap, and the same seed
    plays the same fight."""
    fight = FIGHTS["carried wounds"]
    rng = random.Random(3)
    for _ in range(200):
        state, played = quick.play_quickly(fight, 5, rng)
        assert 1 <= played <= 5
        assert (fight.outcome(state) is None) == (state[0] == "fight" and played == 5)
        assert set(fight.losses(state)) == {"a", "b"}
    assert quick.play_quickly(fight, 0, rng) == (fight.start(), 0)
    again = [quick.play_quickly(fight, 5, random.Random(9)) for _ in range(2)]
    assert again[0] == again[1]
    assert quick.player(fight) is quick.player(fight)  # its tables are kept with the fight


def test_the_intervals_hold_the_exact_chances_as_often_as_they_say() -> None:
    """200 seeded simulations of 200 fights each of a fight whose exact answer is known:
    each outcome's 95% interval holds the exact chance in at least 90% of them."""
    fight = FIGHTS["whole members"]
    exact = solver.solve(fight, max_rounds=4)
    chances = {name: float(p) for name, p in exact.outcomes.items()}
    hits = covered(lambda r, rng: quick.play_quickly(fight, r, rng),
                   lambda state: fight.outcome(state) or solver.STILL_FIGHTING, chances, 4,
                   200, 200)
    assert all(n >= 180 for n in hits.values()), hits
