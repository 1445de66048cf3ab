"""The quick SUCS fight (rules_core.sucs.quick, what sucs.fight.play_quickly plays for a
simulation) against the exact turn walk: on small fights under every reading, the states
drawn after one and two turns fit the exact walk's chances (a chi-square test), and the
95% intervals of seeded simulations hold the exact chances as often as they should."""

from __future__ import annotations

import random
from typing import Any

import pytest

from rules_core import solver
from rules_core.sucs import quick
from rules_core.sucs.fight import Fight
from rules_core.sucs.quick import play_quickly
from rules_core.sucs.turn import Fighter as F
from rules_core.sucs.turn import Rules
from tests.rules_core.sim_check import covered, drawn, exact_after, sampled_fits

VETERAN = F("Veterans", 4, 1, armor=1)
FIGHTS: dict[str, tuple[Fight, int]] = {
    "exchange of fire, automatic weapon": (
        Fight((F("Rifles", 3, 1), F("Rifles", 3, 1)), (VETERAN, F("Gunners", 3, 1, targets=2)),
              Rules()), 2),
    "melee, the charge's return strikes": (
        Fight((F("Rifles", 3, 1), F("Heavy", 4, 2, armor=1)), (VETERAN, F("Rifles", 3, 1)),
              Rules(melee=True)), 2),
    "melee, suppressed units reorganize first, markers at the start": (
        Fight((F("Rifles", 3, 1), F("Heavy", 4, 2, armor=1)), (VETERAN, F("Rifles", 3, 1)),
              Rules(melee=True, melee_suppressed="reorganize"), markers=(1, 2)), 2),
    "stealthy units, automatic fire, side A wins ties": (
        Fight((F("Scouts", 3, 1, stealthy=True), F("Rifles", 3, 1)),
              (F("Scouts", 4, 1, armor=1, stealthy=True), F("Gunners", 3, 2, targets=2)),
              Rules(ties="a")), 2),
    "markers as a penalty": (
        Fight((F("Rifles", 3, 1), F("Rifles", 3, 1)), (VETERAN, F("Rifles", 3, 1)),
              Rules(suppression="penalty"), markers=(2, 1)), 2),
    "commanders lost, a unit acting once": (
        Fight((F("Officer", 3, 1, commander=True), F("Rifles", 3, 1)),
              (F("Officer", 4, 1, armor=1, commander=True),
               F("Rifles", 3, 1, one_action=True)), Rules()), 2),
    "melee with commanders, a charger acting once": (
        Fight((F("Officer", 3, 1, commander=True), F("Rifles", 3, 1, one_action=True)),
              (F("Officer", 4, 1, armor=1, commander=True), F("Rifles", 3, 1)),
              Rules(melee=True)), 2),
    "hopeless units reorganize, side B first": (
        Fight((F("Rifles", 3, 1), F("Rifles", 3, 1)), (F("Tank", 4, 0, armor=3), F("Rifles", 3, 1)),
              Rules(hopeless_reorganizes=True, first="b"), markers=(1, 1)), 2),
    "list targeting, leaderless armies, side B wins ties": (
        Fight((F("Rifles", 3, 1), F("Veterans", 4, 1)), (VETERAN, F("Rifles", 3, 1)),
              Rules(targeting="list", no_commander="leaderless", ties="b")), 2),
    "a duel the first to fire mostly wins, side B wins ties": (
        Fight((F("Elite", 5, 1),), (F("Elite", 5, 1),), Rules(ties="b")), 2),
    "identical units, three turns": (
        Fight((F("Rifles", 3, 1),) * 3, (VETERAN,) * 2, Rules()), 3),
    "the two-roll rule off, armor not on the roll": (
        Fight((F("Rifles", 3, 1), F("Rifles", 4, 1)), (VETERAN, F("Rifles", 3, 1, cover=1)),
              Rules(two_roll_rule=False, armor_modifies_roll=False,
                    bonus_from_target_number=True)), 2),
}


def canonical(fight: Fight) -> Any:
    """A played fight's end as the exact walk keeps it (identical units merged)."""
    def key(rnd: Any, played: int) -> Any:
        return (rnd[0], fight.canonical(rnd[1])) if played else rnd
    return key


@pytest.mark.parametrize("name", FIGHTS)
def test_every_turn_is_drawn_at_the_exact_walks_chances(name: str) -> None:
    """Each way the fight can stand after one turn, and after two (three for the identical
    units), is drawn as often as the exact turn walk (:meth:`Fight.step`) says: 6,000
    seeded fights each, a chi-square test at one in 10,000. No state is drawn that the
    exact walk cannot reach (a wrong target, a strike back that should not be, a roll
    counted that should not be)."""
    fight, turns = FIGHTS[name]
    for rounds in range(1, turns + 1):
        counts = drawn(lambda r, rng: play_quickly(fight, r, rng), rounds, 6_000, rounds,
                       canonical(fight))
        assert sampled_fits(exact_after(fight, rounds), counts) == "", (name, rounds)


def test_a_played_fight_ends_as_the_exact_walk_ends_it() -> None:
    """The state a quick fight stops in is the exact walk's kind (the solver reads its
    outcome and losses), turns are counted up to the cap, and the same seed plays the same
    fight."""
    fight = FIGHTS["identical units, three turns"][0]
    rng = random.Random(5)
    for _ in range(200):
        rnd, played = play_quickly(fight, 4, rng)
        assert 1 <= played <= 4 and rnd[0] == 2
        assert fight.outcome(rnd) is not None or played == 4
        assert set(fight.losses(rnd)) == {"a", "b"}
    assert play_quickly(fight, 0, rng) == (fight.start(), 0)
    again = [play_quickly(fight, 4, random.Random(9)) for _ in range(2)]
    assert again[0] == again[1]
    assert quick.player(fight) is quick.player(fight)  # its tables are kept with the fight


def test_the_intervals_hold_the_exact_chances_as_often_as_they_say() -> None:
    """200 seeded simulations of 200 fights each of a fight whose exact answer is known:
    each outcome's 95% interval holds the exact chance in at least 90% of them (a true 95%
    interval does in all but under 0.1% of such tests)."""
    fight = Fight((F("Rifles", 3, 1), F("Rifles", 3, 1)), (VETERAN,), Rules())
    exact = solver.solve(fight, max_rounds=3)
    chances = {name: float(p) for name, p in exact.outcomes.items()}
    hits = covered(lambda r, rng: play_quickly(fight, r, rng),
                   lambda rnd: fight.outcome(rnd) or solver.STILL_FIGHTING, chances, 3, 200, 200)
    assert all(n >= 180 for n in hits.values()), hits
