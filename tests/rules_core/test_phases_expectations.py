"""What a threat level means: the Markov chain against two oracles (a recursion written
from the rules text with brute-force outcome counts, and for small pools every sequence
of die faces played through the tracker)."""

from __future__ import annotations

import itertools
from fractions import Fraction
from functools import cache

import pytest

from rules_core import api
from rules_core.phases import expectations as ex
from rules_core.phases.tables import Outcome, Phase
from rules_core.phases.tracker import Action, advance, dice_for_action
from tests.rules_core.phases_oracle import counts, dice_after, spent


@cache
def oracle(phase: Phase, left: int, always: bool) -> dict[tuple[int, ...], Fraction]:
    """Outcome counts to the end of the phase, from the rules as written on the Rulings
    page: spend 2 (3 when exactly 3 are left, or when the side always takes the extra die),
    remove 1 on a failed offense / successful defence if any is left, a defence ultra ends
    the phase, fewer than 2 dice end it."""
    spend = spent(left, always)
    out: dict[tuple[int, ...], Fraction] = {}
    for outcome, p in counts(phase, spend).items():
        rest = dice_after(phase, outcome, left, spend)
        here = tuple(int(o is outcome) for o in Outcome)
        ends = rest < 2 or (phase is Phase.DEFENCE and outcome is Outcome.ULTRA)
        tail = {(0, 0, 0, 0): Fraction(1)} if ends else oracle(phase, rest, always)
        for t, q in tail.items():
            key = tuple(a + b for a, b in zip(here, t))
            out[key] = out.get(key, Fraction(0)) + p * q
    return out


@pytest.mark.parametrize("phase", list(Phase))
@pytest.mark.parametrize("dice", range(3, 8))
@pytest.mark.parametrize("extra", ex.ExtraDie.ALL)
def test_chain_matches_the_rules_oracle(phase: Phase, dice: int, extra: str) -> None:
    odds = ex.phase_odds(phase, dice, extra)
    assert odds.tallies == oracle(phase, dice, extra == ex.ExtraDie.ALWAYS)
    assert sum(odds.tallies.values()) == 1


def enumerate_tracker(phase: Phase, dice: int) -> dict[tuple[int, ...], Fraction]:
    """Every sequence of faces played through the tracker itself (auto policy)."""
    out: dict[tuple[int, ...], Fraction] = {}

    def walk(state, p: Fraction, tally: tuple[int, ...]) -> None:
        n = dice_for_action(state, False)
        for faces in itertools.product(range(1, 7), repeat=n):
            step = advance(state, Action(faces))
            assert step.report.outcome is not None
            new = tuple(t + (o is step.report.outcome) for t, o in zip(tally, Outcome))
            q = p / 6 ** n
            if step.report.phase_ended:
                out[new] = out.get(new, Fraction(0)) + q
            else:
                walk(step.state, q, new)

    walk(ex.phase_start(phase, dice), Fraction(1), (0, 0, 0, 0))
    return out


@pytest.mark.parametrize("phase", list(Phase))
@pytest.mark.parametrize("dice", [3, 4, 5])
def test_chain_matches_every_sequence_of_faces(phase: Phase, dice: int) -> None:
    assert ex.phase_odds(phase, dice).tallies == enumerate_tracker(phase, dice)


def test_known_figures() -> None:
    three = ex.phase_odds(Phase.OFFENSE, 3)
    assert three.expected() == 1  # three dice: one action with the automatic third die
    assert three.expected(ex.DAMAGE_DEALT) == 1 - Fraction(7, 36)
    five = ex.phase_odds(Phase.OFFENSE, 5)
    assert five.expected() == 2  # 2 dice then, whatever happens, 2 or 3 dice: one more
    assert five.expected(ex.DAMAGE_DEALT) == Fraction(35, 27)
    dfn = ex.phase_odds(Phase.DEFENCE, 5)
    assert dfn.expected(ex.DAMAGE_TAKEN) == Fraction(25, 24)


def test_more_dice_never_means_fewer_actions() -> None:
    for phase in Phase:
        actions = [ex.phase_odds(phase, d).expected() for d in range(3, 8)]
        assert actions == sorted(actions)


def test_phase_odds_calculator() -> None:
    reply = api.run("phases.phase_odds", {"offense_dice": 5, "defence_dice": 5})
    r = reply["result"]
    assert r["offense"]["actions_exact"] == "2"
    assert r["offense"]["damage_dealt_exact"] == "35/27"
    assert r["defence"]["damage_taken_exact"] == "25/24"
    assert sum(Fraction(p) for p in r["damage_dealt_exact"].values()) == 1
    assert sum(Fraction(p) for p in r["damage_taken_exact"].values()) == 1
    ultra = ex.phase_odds(Phase.DEFENCE, 5).distribution(ex.ULTRAS)
    assert Fraction(r["defence"]["ultra_ends_phase_exact"]) == 1 - ultra[0]
