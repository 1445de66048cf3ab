"""SUCS whole engagements: hand-worked turns, a brute-force oracle that enumerates every
die of every turn, a seeded simulation with real dice, and the inputs' messages."""

from __future__ import annotations

import collections
import functools
import itertools
import random
from fractions import Fraction

import pytest

from rules_core import api, solver
from rules_core.dice.distribution import one_in, percent
from rules_core.fields import validate
from rules_core.sucs import fight as sucs_fight
from rules_core.sucs.calc_actions_fight import FIELDS, fight_of, parse_side
from rules_core.sucs.fight import Fight, Round
from rules_core.sucs.turn import FRESH, Fighter, Rules
from tests.rules_core.support import refused

FACES = range(1, 7)
TN = {1: 10, 2: 9, 3: 8, 4: 7, 5: 6}


def solve(a, b, rounds=20, **rules):
    fight = Fight(tuple(a), tuple(b), Rules(**rules))
    return solver.solve(fight, max_rounds=rounds)


def fraction_step(fight: Fight):
    """The fight's step with each move's chance as a fraction."""
    def step(rnd: Round) -> list[tuple[Round, Fraction]]:
        den, pairs = fight.step(rnd)
        return [(s, Fraction(w, den)) for s, w in pairs]
    return step


class FractionSteps:
    """The same fight, its moves handed to the solver from their fractions."""

    def __init__(self, fight: Fight) -> None:
        self.fight = fight
        self.outcome_order = fight.outcome_order

    def start(self) -> Round:
        return self.fight.start()

    def step(self, rnd: Round) -> solver.Moves:
        return solver.whole_moves(fraction_step(self.fight)(rnd))

    def outcome(self, rnd: Round) -> str | None:
        return self.fight.outcome(rnd)

    def losses(self, rnd: Round) -> dict[str, int]:
        return self.fight.losses(rnd)

    def sample(self, rnd: Round, dice: solver.Dice) -> tuple[Round, str]:
        return self.fight.sample(rnd, dice)


def unit(name, q=3, a=1, r=0, **kw):
    return Fighter(name, q, a, armor=r, **kw)


def test_a_harmless_target_falls_by_turn_r_with_one_minus_seven_twelfths_to_the_r() -> None:
    # A (attack 1) destroys armor 0 on 8+ (15/36); B's attack 0 can never reach armor 2.
    result = solve([unit("A", a=1, r=2)], [unit("B", a=0, r=0)], rounds=12)
    for r, row in enumerate(result.by_round, 1):
        assert row["Side A wins"] == 1 - Fraction(7, 12) ** r
        assert row["Side B wins"] == 0


def test_two_rolls_that_might_have_damaged_a_unit_suppress_it() -> None:
    fight = Fight((unit("A", a=1, r=2),), (unit("B", a=0, r=0),))
    step = dict(fraction_step(fight)(fight.start()))
    assert step == {(2, ((FRESH,), (None,))): Fraction(5, 12),
                    (2, ((FRESH,), ((0, 1),))): Fraction(7, 12)}
    # the second surviving roll gives the marker (B reorganizes it on its own activation,
    # which may come before or after A's attack: initiative 1/2 each)
    after = dict(fraction_step(fight)((2, ((FRESH,), ((0, 1),)))))
    assert after[(2, ((FRESH,), ((1, 0),)))] == Fraction(1, 2) * Fraction(7, 12)
    assert after[(2, ((FRESH,), ((0, 0),)))] == Fraction(1, 2) * Fraction(7, 12)
    off = Fight(fight.units["a"], fight.units["b"], Rules(two_roll_rule=False))
    assert dict(fraction_step(off)(off.start()))[(2, ((FRESH,), (FRESH,)))] == Fraction(7, 12)


def test_a_roll_that_could_never_reach_the_armor_does_not_count() -> None:
    # attack 1 against armor 2 at quality 3: needs 10, never beats it by 3 (13): no damage
    fight = Fight((unit("A", a=1, r=5),), (unit("B", a=0, r=2),))
    assert dict(fraction_step(fight)(fight.start())) == {(2, ((FRESH,), (FRESH,))): 1}
    # with +3 counted over the attacker's own target number, 11+ does 2 damage: it counts
    other = Fight(fight.units["a"], fight.units["b"], Rules(bonus_from_target_number=True))
    assert (2, ((FRESH,), ((0, 1),))) in dict(fraction_step(other)(other.start()))


def test_the_charge_and_the_return_strike_by_hand() -> None:
    a, b = unit("A"), unit("B")
    result = solve([a], [b], rounds=1, melee=True)
    p, q = Fraction(5, 12), Fraction(7, 12)
    # A's charge kills (p); else B strikes back (kills p) and takes a marker, reorganizes
    # it, attacks (kills p) and A strikes back (kills p)
    assert result.outcomes["Side A wins"] == p + q * q * q * p
    assert result.outcomes["Side B wins"] == q * p + q * q * p


def test_initiative_ties_change_a_mirror_match() -> None:
    a, b = [unit("A", a=1, r=0)], [unit("B", a=1, r=0)]
    assert solve(a, b).outcomes["Side A wins"] == solve(b, a).outcomes["Side A wins"]
    reroll = solve(a, b, ties="reroll").outcomes["Side A wins"]
    favoured = solve(a, b, ties="a").outcomes["Side A wins"]
    assert reroll == Fraction(1, 2) * (1 - solve(a, b).outcomes.get(solver.STILL_FIGHTING, 0))
    assert favoured > reroll


# ---- an independent oracle: the rules written out plainly, every die enumerated --------

@functools.cache
def attack_faces(att, tgt, bonus, rules):
    """(outcome, rolled) -> how many of the 2d6 x d6 (x spot 2d6) faces give it, the rule
    written out again face by face."""
    tn = TN[att.quality] + att.out_of_command
    armor = tgt.armor + tgt.dug_in + tgt.armor_support
    need = tn + tgt.cover + (armor if rules.armor_modifies_roll else 0)
    spots = list(itertools.product(FACES, FACES)) if tgt.stealthy else [(6, 6)]
    out = []
    for (s1, s2), x, y, d in itertools.product(spots, FACES, FACES, FACES):
        if tgt.stealthy and s1 + s2 < tn:
            out.append(("no_effect", False))
            continue
        roll = x + y + bonus
        if roll < need:
            out.append(("no_effect", True))
            continue
        base = tn if rules.bonus_from_target_number else need
        dmg = att.attack + att.attack_support + (roll - base >= 3)
        out.append(("destroyed", True) if dmg > armor else ("no_effect", True) if dmg < armor
                   else ("destroyed" if d >= 4 else "suppressed", True))
    return tuple(collections.Counter(out).items())


@functools.cache
def might_damage(att, tgt, rules, bonus=0):
    """Some roll of this attack (with the attacker's modifier) does damage >= armor."""
    tn = TN[att.quality] + att.out_of_command
    armor = tgt.armor + tgt.dug_in + tgt.armor_support
    need = tn + tgt.cover + (armor if rules.armor_modifies_roll else 0)
    base = tn if rules.bonus_from_target_number else need
    return any(att.attack + att.attack_support + (t + bonus - base >= 3) >= armor for t in range(2, 13)
               if t + bonus >= need)


def oracle(a, b, rules, turns, markers=(0, 0)):
    """Outcome chances of a one-on-one fight after ``turns`` turns: every die of every
    attack enumerated, states with equal markers added up after each activation."""
    units = {"a": a, "b": b}

    def hit(st, who, res, counts, bb=0):
        m, n = st[who]
        if res[0] == "destroyed":
            return {**st, who: None}
        if res[0] == "suppressed":
            return {**st, who: (m + 1, n)}
        other = "a" if who == "b" else "b"
        if counts and res[1] and rules.two_roll_rule and might_damage(units[other], units[who],
                                                                       rules, bb):
            n += 1
            if n == 2:
                m, n = m + 1, 0
        return {**st, who: (m, n)}

    def bonus(m, melee):
        if rules.suppression == "penalty":
            return -m
        return -1 if melee and m else 0

    def hurts(att, tgt, b):
        return any(o != "no_effect" for (o, _), _n in attack_faces(att, tgt, b, rules))

    def act(st, who, charge=False):
        """[(state, chance)] after ``who`` activates."""
        other = "a" if who == "b" else "b"
        if st[who] is None or st[other] is None:
            return [(st, Fraction(1))]
        m, n = st[who]
        one_action = units[who].one_action
        if charge and one_action:
            # the move into contact was its one action: the attack fails, no roll
            removed, attacks = 0, True
        elif one_action:
            # one action: reorganize one marker, or attack when it has none
            removed, attacks = min(m, 1), m == 0
        else:
            # two actions: in melee (as written) or under the penalty reading a suppressed
            # unit reorganizes one marker and attacks; else up to two markers come off first
            one_off = rules.suppression == "penalty" or (rules.melee
                                                         and rules.melee_suppressed == "attack")
            removed = min(m, 1 if one_off else 2)
            attacks = one_off or m < 2
        m -= removed
        bb = bonus(m, rules.melee)
        if attacks and m and not (charge and one_action) and rules.hopeless_reorganizes and \
                not hurts(units[who], units[other], bb):
            m, attacks = m - 1, False
        st = {**st, who: (m, n)}
        if not attacks:
            return [(st, Fraction(1))]
        out = []
        faces = attack_faces(units[who], units[other], bb, rules)
        if charge and one_action:
            faces = [(("no_effect", False), 1)]  # no roll: nothing towards the pair
        total = sum(n for _, n in faces)
        for res, ways in faces:
            s2 = hit(st, other, res, True, bb)
            q = Fraction(ways, total)
            if rules.melee and s2[other] is not None:
                mo = s2[other][0]
                rb = bonus(mo, True)
                if hurts(units[other], units[who], rb):
                    back = attack_faces(units[other], units[who], rb, rules)
                    all_back = sum(n for _, n in back)
                    for res2, ways2 in back:
                        s3 = hit(s2, who, res2, False)
                        out.append(({**s3, other: (mo + 1, s2[other][1])},
                                    q * Fraction(ways2, all_back)))
                    continue
            out.append((s2, q))
        return out

    def key(st):
        return (st["a"], st["b"])

    live = {key({"a": (markers[0], 0), "b": (markers[1], 0)}): Fraction(1)}
    for t in range(turns):
        nxt = {}
        firsts = [("a", Fraction(1))] if rules.melee and t == 0 else \
            [(rules.first, Fraction(1))] if rules.first != "roll" else \
            [("a", Fraction(1, 2)), ("b", Fraction(1, 2))]
        for (sa, sb), p in live.items():
            if sa is None or sb is None:
                nxt[(sa, sb)] = nxt.get((sa, sb), 0) + p
                continue
            for first, pf in firsts:
                second = "b" if first == "a" else "a"
                charge = rules.melee and t == 0
                for s1, p1 in act({"a": sa, "b": sb}, first, charge):
                    for s2, p2 in act(s1, second):
                        nxt[key(s2)] = nxt.get(key(s2), 0) + p * pf * p1 * p2
        live = nxt
    totals = {}
    for (sa, sb), p in live.items():
        name = "Side A wins" if sb is None else "Side B wins" if sa is None \
            else solver.STILL_FIGHTING
        totals[name] = totals.get(name, Fraction(0)) + p
    return totals


CASES = [
    (unit("A", a=1, r=0), unit("B", a=1, r=1), {}),
    (unit("A", a=2, r=2), unit("B", q=4, a=1, r=1), {}),
    (unit("A", a=2, r=2), unit("B", q=4, a=1, r=1), {"suppression": "penalty"}),
    (unit("A", a=1, r=1), unit("B", q=2, a=2, r=1, cover=1), {"armor_modifies_roll": False}),
    (unit("A", a=1, r=1), unit("B", a=1, r=2), {"bonus_from_target_number": True}),
    (unit("A", a=1, r=1), unit("B", a=1, r=1, stealthy=True), {}),
    (unit("A", a=1, r=1), unit("B", a=1, r=1), {"melee": True}),
    (unit("A", q=4, a=1, r=1), unit("B", a=1, r=1, dug_in=True),
     {"melee": True, "suppression": "penalty"}),
    (unit("A", a=1, r=0), unit("B", a=0, r=0), {"two_roll_rule": False}),
    (unit("A", a=1, r=1), unit("B", q=4, a=1, r=1), {"melee": True,
                                                     "melee_suppressed": "reorganize"}),
    # attack 1 at -1 cannot hurt armor 1 from quality 1: the hopeless switch matters
    (unit("A", q=1, a=1, r=1), unit("B", q=4, a=2, r=1), {"melee": True,
                                                          "hopeless_reorganizes": True}),
    (unit("A", q=1, a=1, r=1), unit("B", q=4, a=2, r=1), {"melee": True}),
    (unit("A", q=2, a=1, r=1), unit("B", a=2, r=1), {"suppression": "penalty",
                                                     "hopeless_reorganizes": True}),
]


#: the inputs every side may set (issue 29): out of command, support, markers at the
#: start, who acts first; each against the oracle
NEW_INPUT_CASES = [
    (unit("A", a=1, r=1, out_of_command=True), unit("B", a=1, r=1), {}, (0, 0)),
    (unit("A", a=1, r=1, attack_support=True), unit("B", q=4, a=1, r=1), {}, (0, 0)),
    (unit("A", a=1, r=1), unit("B", a=2, r=1, armor_support=True), {}, (0, 0)),
    (unit("A", a=1, r=1, out_of_command=True), unit("B", a=1, r=1, stealthy=True), {}, (0, 0)),
    (unit("A", a=1, r=1), unit("B", a=1, r=1), {}, (2, 1)),
    (unit("A", a=1, r=1), unit("B", a=1, r=1), {"suppression": "penalty"}, (3, 0)),
    (unit("A", a=1, r=1), unit("B", q=4, a=1, r=1), {"first": "b"}, (0, 0)),
    (unit("A", a=1, r=1), unit("B", q=4, a=1, r=1), {"first": "a"}, (1, 0)),
    (unit("A", a=1, r=1, attack_support=True), unit("B", a=1, r=1, armor_support=True),
     {"melee": True, "first": "b"}, (0, 2)),
    # an army that has lost its commanders: one action a turn
    (unit("A", a=1, r=1, one_action=True), unit("B", a=1, r=1), {}, (0, 0)),
    (unit("A", a=1, r=1), unit("B", q=4, a=1, r=1, one_action=True), {}, (0, 2)),
    (unit("A", a=1, r=1, one_action=True), unit("B", a=1, r=1), {"suppression": "penalty"},
     (2, 0)),
    (unit("A", a=1, r=1, one_action=True), unit("B", a=1, r=1), {"melee": True}, (0, 0)),
    (unit("A", a=2, r=1, one_action=True), unit("B", a=1, r=0, one_action=True),
     {"melee": True, "melee_suppressed": "reorganize"}, (1, 1)),
    (unit("A", q=1, a=1, r=1), unit("B", q=4, a=2, r=1, one_action=True),
     {"melee": True, "hopeless_reorganizes": True}, (0, 0)),
]


@pytest.mark.parametrize("a,b,rules,markers", NEW_INPUT_CASES)
def test_the_new_inputs_match_the_brute_force_oracle(a, b, rules, markers) -> None:
    turns = 3
    fight = Fight((a,), (b,), Rules(**rules), markers=markers)
    exact = solver.solve(fight, max_rounds=turns).outcomes
    brute = oracle(a, b, Rules(**rules), turns, markers)
    assert {k: v for k, v in exact.items() if v} == {k: v for k, v in brute.items() if v}


@pytest.mark.parametrize("a,b,rules", CASES)
def test_engagement_matches_the_brute_force_oracle(a, b, rules) -> None:
    turns = 3
    exact = solve([a], [b], rounds=turns, **rules).outcomes
    brute = oracle(a, b, Rules(**rules), turns)
    assert {k: v for k, v in exact.items() if v} == {k: v for k, v in brute.items() if v}
    assert sum(exact.values()) == 1


def _close(pruned: solver.Pruned, exact: solver.Odds) -> None:
    """Every figure of the pruned walk's answer equal to the exact walk's (floating point)."""
    approx = functools.partial(pytest.approx, abs=1e-12)
    assert pruned.outcomes == approx({k: float(v) for k, v in exact.outcomes.items()})
    assert pruned.by_round == [approx({k: float(v) for k, v in row.items()})
                               for row in exact.by_round]
    assert pruned.ends_in == approx({k: float(v) for k, v in exact.ends_in.items()})
    assert pruned.expected_rounds == approx(float(exact.expected_rounds))
    assert pruned.losses == {side: approx({n: float(p) for n, p in dist.items()})
                             for side, dist in exact.losses.items()}


@pytest.mark.parametrize("a,b,rules,markers",
                         [(a, b, rules, (0, 0)) for a, b, rules in CASES] + NEW_INPUT_CASES)
def test_the_pruned_walk_dropping_nothing_is_the_exact_walk(a, b, rules, markers) -> None:
    """The breadth-first pruned walk (army against army's middle tier) at a floor of 0:
    every figure the exact walk's, for every reading and input the oracle checks, with
    two units of a kind on side A (merged, and queued by their markers)."""
    def fight() -> Fight:
        return Fight((a, a), (b,), Rules(**rules), max_work=10**7, markers=markers)
    pruned = solver.solve_pruned(fight(), max_rounds=4, floor=0)
    assert pruned.pruned == 0
    _close(pruned, solver.solve(fight(), max_rounds=4))


def test_the_pruned_walk_is_below_the_exact_answer_by_at_most_what_it_dropped() -> None:
    """Pruned hard (every way to stand under 1 in 10,000 dropped): each chance, by round
    too, is at most the dropped chance below the exact one and never above it."""
    a = (unit("A1", a=1, r=1), unit("A2", a=2, r=0), unit("A3", q=4, a=1, r=1, targets=2))
    b = (unit("B1", q=4, a=1, r=0, targets=2), unit("B2", a=1, r=1, stealthy=True),
         unit("B3", a=2, r=1))
    exact = solver.solve(Fight(a, b, max_work=10**7), max_rounds=5)
    pruned = solver.solve_pruned(Fight(a, b, max_work=10**7), max_rounds=5, floor=1e-4)
    assert 0 < pruned.pruned < 0.2  # about a tenth: the bound is tested where it is large
    assert sum(pruned.outcomes.values()) + pruned.pruned == pytest.approx(1)
    rows = [(pruned.outcomes, exact.outcomes), *zip(pruned.by_round, exact.by_round)]
    for shown, true in rows:
        for name, p in true.items():
            assert shown[name] - 1e-12 <= p <= shown[name] + pruned.pruned + 1e-12
    # the walk's own budget refuses it as the work goes
    small = Fight(a, b, max_work=1_000)
    with pytest.raises(solver.TooLarge):
        solver.solve_pruned(small, max_rounds=5, floor=1e-4)
    assert small.work <= 1_000


@pytest.mark.parametrize("melee, rounds", [(False, 3), (True, 2)])
def test_identical_units_share_their_activations_in_the_pruned_walk(melee, rounds) -> None:
    """The pruned walk keeps an activation's results by the acting unit's kind, not its
    place in the list: three identical units on side A and two on side B, in every state
    they reach, walk each activation once, and every figure is still the exact walk's
    (close combat over two rounds: 2,749 activations by place, its exact walk 2 s of
    CPython; a third round would take 10)."""
    rifle, tough = unit("R", a=1, r=0), unit("T", a=1, r=1)
    a, b = (rifle, rifle, rifle), (tough, tough, unit("G", q=4, a=1, r=0, targets=2))

    def fight() -> Fight:
        return Fight(a, b, Rules(melee=melee), max_work=10**7)
    walked = fight()
    pruned = solver.solve_pruned(walked, max_rounds=rounds, floor=0)
    assert pruned.pruned == 0
    _close(pruned, solver.solve(fight(), max_rounds=rounds))
    known = walked.activations
    by_unit = set()
    for sid, side, i, charge in known.moves:
        state, own = known.info[sid][0], 0 if side == "a" else 1
        by_unit.add((side, i, charge, state[own][i], walked.leaderless(state, side),
                     known.halves[sid][1 - own]))
    assert len(known.local) < 0.9 * len(by_unit)


def test_the_pruned_walk_stops_once_it_has_dropped_more_than_it_may() -> None:
    """Past ``max_pruned`` the walk stops in the round that crossed it, saying how many
    rounds came before within the bound; a walk within it gives the same answer as one
    with no bound."""
    a = (unit("A1", a=1, r=1), unit("A2", a=2, r=0), unit("A3", q=4, a=1, r=1, targets=2))
    b = (unit("B1", q=4, a=1, r=0, targets=2), unit("B2", a=1, r=1, stealthy=True),
         unit("B3", a=2, r=1))
    walked = Fight(a, b, max_work=10**7)
    free = solver.solve_pruned(walked, max_rounds=5, floor=1e-4)
    by_round = [solver.solve_pruned(Fight(a, b, max_work=10**7), max_rounds=n,
                                    floor=1e-4).pruned for n in range(1, 6)]
    bound = (by_round[1] + by_round[2]) / 2  # crossed in round 3
    assert by_round[1] < bound < by_round[2]
    stopped = Fight(a, b, max_work=10**7)
    with pytest.raises(solver.DroppedTooMuch) as caught:
        solver.solve_pruned(stopped, max_rounds=5, floor=1e-4, max_pruned=bound)
    assert caught.value.rounds == 2 and caught.value.pruned == by_round[1]
    # the rounds after the one that crossed it were not walked
    assert stopped.work < walked.work
    within = solver.solve_pruned(Fight(a, b, max_work=10**7), max_rounds=5, floor=1e-4,
                                 max_pruned=free.pruned)
    assert within == free


def test_close_combat_past_the_exact_walk_is_answered_to_within_a_millionth() -> None:
    """Two rifle squads a side in close combat, round cap 20: past the exact walk's limits
    (refused before), answered by the pruned walk; the exact walk with no limits (about a
    second and a half of CPython) is within the reported bound of every figure, and the
    answer says how it was reached."""
    inputs = {"side_a": "3/1/0, 3/1/0", "side_b": "3/1/0, 3/1/0", "mode": "melee",
              "max_rounds": 20}
    full = validate(FIELDS, inputs)
    fight = fight_of(full)
    assert sucs_fight.plan(fight, 20, max_work=sucs_fight.limits(20)[1]).limit is not None
    reply = api.run("sucs.engagement", inputs)
    assert reply["ok"], reply
    got = reply["result"]
    bound = got["error_bound"]
    assert 0 < bound <= sucs_fight.MAX_ERROR and "outcomes_exact" not in got
    unlimited = fight_of(full)
    unlimited.max_work = 10 ** 9
    exact = solver.solve(unlimited, max_rounds=20, max_states=10 ** 6, max_work=10 ** 9)
    for name, p in exact.outcomes.items():
        assert got["outcomes"].get(name, 0.0) - 1e-12 <= p <= got["outcomes"].get(name, 0.0) \
            + bound + 1e-12, name
    assert ["Precision", f"exact to within {one_in(bound)}"] in reply["display"]["headline"]
    assert f"**Exact to within {one_in(bound)}.**" in reply["explanation"]


def test_past_both_walks_a_fight_is_simulated_and_says_how_to_get_exact_odds() -> None:
    """Three rifle squads against the default side B in close combat: the exact walk fits
    two turns, the pruned walk (within its budget) five. At a cap of 7 the fight is played
    thousands of times instead, said to be a simulation with each chance's 95% interval,
    which holds the pruned walk's answer given no budget; the explanation says why and
    how to have exact odds (a cap of 5, answered by the pruned walk)."""
    inputs = {"side_a": "3/1/0, 3/1/0, 3/1/0", "mode": "melee", "max_rounds": 7}
    reply = api.run("sucs.engagement", inputs)
    assert reply["ok"], reply
    got = reply["result"]
    assert got["method"] == "simulation" and got["settled"] and got["stopped"] == "precision"
    why = got["simulated_because"]
    assert "The exact walk: The work of building this fight's turns is past the limit of " \
           "75,000 for an exact answer (the first 2 turns fit)" in why
    assert "The walk with its least likely ways dropped: " in why
    assert "For exact odds, lower the Turn cap to 5 or less (the first 5 turns fit)" in why
    assert "**A simulation, not exact odds.** " + why in reply["explanation"]
    low, high = got["intervals"]["Side A wins"]
    assert ["Side A wins", f"{percent(got['outcomes']['Side A wins'])} "
                           f"({percent(low)} to {percent(high)})"] in reply["display"]["headline"]
    walked = fight_of(validate(FIELDS, inputs))
    walked.work, walked.max_work = 0, 10**9
    full = solver.solve_pruned(walked, max_rounds=7, floor=sucs_fight.PRUNE_FLOOR)
    assert full.pruned <= sucs_fight.MAX_ERROR
    for name, p in full.outcomes.items():
        shown = solver.STILL_FIGHTING if name == solver.STILL_FIGHTING else name
        low, high = got["intervals"][shown]
        assert low <= p <= high + full.pruned, (name, p, low, high)
    assert api.run("sucs.engagement", inputs)["result"] == got  # the same seed
    answered = api.run("sucs.engagement", {**inputs, "max_rounds": 5})
    assert answered["ok"] and 0 < answered["result"]["error_bound"] <= sucs_fight.MAX_ERROR


def test_whole_number_steps_equal_fraction_steps_in_the_shared_engine() -> None:
    fight = Fight((unit("A1"), unit("A2", a=2, r=1)), (unit("B1", q=4, a=1, targets=2),),
                  Rules(suppression="penalty"))
    fast = solver.solve(fight, max_rounds=6)
    slow = solver.solve(FractionSteps(fight), max_rounds=6)
    assert fast == slow


def test_identical_units_are_merged_without_changing_the_answer() -> None:
    a = (unit("A1", a=1, r=1), unit("A2", a=2, r=0), unit("A3", a=1, r=1))
    b = (unit("B1", q=4, a=1, r=0, targets=2), unit("B2", a=1, r=0), unit("B3", a=1, r=0))
    merged = Fight(a, b)
    plain = Fight(a, b, max_work=10**7)  # every unit kept apart: more work than the form allows
    plain._merge = False
    fast = solver.solve(merged, max_rounds=6)
    slow = solver.solve(plain, max_rounds=6)
    assert fast.outcomes == slow.outcomes and fast.losses == slow.losses
    assert fast.peak_states < slow.peak_states
    # identical units listed in another order: the same fight
    again = solve([a[0], a[2], a[1]], b, rounds=6)
    assert again.outcomes == fast.outcomes


def test_real_dice_agree_with_the_exact_odds() -> None:
    inputs = {"side_a": "3/1/0, 3/1/1", "side_b": "4/1/0, 3/2/1", "max_rounds": 20}
    exact = api.run("sucs.engagement", inputs)["result"]["outcomes_exact"]
    rng = random.Random(15)
    counts: dict[str, int] = {}
    trials = 600
    for _ in range(trials):
        rolled = api.roll("sucs.engagement", inputs, rng)["result"]
        assert rolled["outcome"] in exact
        counts[rolled["outcome"]] = counts.get(rolled["outcome"], 0) + 1
    for name, p in exact.items():
        est = solver.wilson(counts.get(name, 0), trials, z=3.3)
        assert est.low <= float(Fraction(p)) <= est.high, name


@pytest.mark.parametrize("extra", [
    {"a_support": "attack", "b_out_of_command": True, "first": "b"},
    {"a_markers": 2, "b_support": "armor", "mode": "melee", "max_rounds": 3},
    {"a_one_action": True, "b_markers": 1, "mode": "melee", "max_rounds": 4},
    {"b_one_action": True, "a_markers": 1},
])
def test_real_dice_agree_with_the_exact_odds_with_the_new_inputs(extra) -> None:
    inputs = {"side_a": "3/1/0, 3/1/1", "side_b": "4/1/0, 3/2/1", "max_rounds": 20, **extra}
    exact = api.run("sucs.engagement", inputs)["result"]["outcomes_exact"]
    fight = fight_of(validate(FIELDS, inputs))
    rng = random.Random(29)
    counts: dict[str, int] = {}
    trials = 400
    for _ in range(trials):
        played = solver.play(fight, max_rounds=inputs["max_rounds"], rng=rng)
        counts[played.outcome] = counts.get(played.outcome, 0) + 1
    for name, p in exact.items():
        est = solver.wilson(counts.get(name, 0), trials, z=3.3)
        assert est.low <= float(Fraction(p)) <= est.high, name
    if "first" in extra:
        assert solver.play(fight, max_rounds=1, rng=rng).log[:2] == [
            "Turn 1", "Side B acts first, as set."]


def test_result_shape_and_log() -> None:
    response = api.run("sucs.engagement", {})
    assert response["ok"], response
    result = response["result"]
    assert sum(Fraction(v) for v in result["outcomes_exact"].values()) == 1
    assert set(result["by_round_exact"]) == {str(r) for r in range(1, 21)}
    assert sum(Fraction(v) for v in result["losses_a_exact"].values()) == 1
    melee = {"mode": "melee", "side_a": "3/2/1", "side_b": "3/1/0, 3/1/0", "max_rounds": 6}
    res = api.roll("sucs.engagement", melee, random.Random(3))["result"]
    assert res["outcome"] in api.run("sucs.engagement", melee)["result"]["outcomes_exact"]
    assert res["log"][:2] == ["Turn 1", "Side A charges into contact and acts first."]
    assert res["dice"] and all(d["face"] >= 1 for d in res["dice"])


@pytest.mark.parametrize("inputs,field,words", [
    ({"side_a": "3/1"}, "side_a", "Side A units: could not read"),
    ({"side_b": "6/1/0"}, "side_b", "quality must be from 1 to 5; received 6"),
    ({"side_a": ", ".join(["3/1/0"] * 7)}, "side_a", "at most 6 units"),
    ({"side_a": "3/1/0 z"}, "side_a", "is not an extra"),
    ({"side_b": ""}, "side_b", "at least one unit"),
    ({"side_a": 5}, "side_a", "expected text"),
    ({"ties": "coin"}, "ties", "must be one of"),
    ({"max_rounds": 0}, "max_rounds", "from 1 to 100"),
    ({"a_markers": 6}, "a_markers", "Side A suppression markers at the start"),
    ({"b_markers": -1}, "b_markers", "from 0 to 5"),
    ({"a_support": "morale"}, "a_support", "Side A support"),
    ({"first": "c"}, "first", "Who acts first"),
    ({"b_out_of_command": "yes"}, "b_out_of_command", "Side B out of its commanders' range"),
])
def test_bad_inputs_name_the_field(inputs, field, words) -> None:
    refused("sucs.engagement", inputs, field, words)


def test_the_spec_sizes_are_answered_exactly() -> None:
    three = api.run("sucs.engagement", {"side_a": "3/1/1, 3/2/1, 4/1/0",
                                        "side_b": "3/1x2/0, 3/1/1, 4/2/2"})
    assert three["ok"], three
    six = api.run("sucs.engagement", {"side_a": "4/2/2", "side_b": ", ".join(["3/1/1"] * 6)})
    assert six["ok"], six
    assert sum(Fraction(v) for v in six["result"]["outcomes_exact"].values()) == 1


def test_parse_side_reads_every_extra() -> None:
    (u,) = parse_side("side_a", "4/1x2/1 c2 d s")
    assert (u.quality, u.attack, u.targets, u.armor, u.cover, u.dug_in, u.stealthy) == \
        (4, 1, 2, 1, 2, True, True)
