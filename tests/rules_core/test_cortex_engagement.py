"""cortex.engagement: a whole firefight, checked against hand-worked fights, brute-force
enumeration of every die face of every attack, and a seeded simulation."""

from __future__ import annotations

import functools
import itertools
import random
from fractions import Fraction

import pytest

from rules_core import api, solver
from rules_core.cortex import fight as F
from rules_core.cortex.contest import EffectLimit, effect_dice, resolve
from rules_core.cortex.effect import Rules, assign
from rules_core.cortex.tables import Range
from tests.rules_core.support import refused

NAME = "cortex.engagement"


def inputs(**over: object) -> dict:
    merged = {**api.spec(NAME)["initial"], **over}
    return {k: v for k, v in merged.items() if v is not None}


def run(**over: object) -> dict:
    reply = api.run(NAME, inputs(**over))
    assert reply["ok"], reply
    return reply["result"]


def duel(**over: object) -> dict:
    """One d4 member a side, nothing else: every attack wins with 3/8 and takes out."""
    return run(a_quality="d4", b_quality="d4", a_cover=None, b_cover=None, distance="same",
               **over)


def test_one_member_duel_by_hand() -> None:
    # totals of one d4: 0 (a hitch), 2, 3, 4; the attacker wins 6 of 16 pairs, and its
    # d4 effect die (none left over) takes out the d4 member.
    p, q = Fraction(3, 8), Fraction(5, 8)
    result = duel(max_rounds=6)
    for r in range(1, 7):
        row = result["by_round_exact"][str(r)]
        assert Fraction(row["Side A wins"]) == p * sum(q ** (2 * k) for k in range(r))
        assert Fraction(row["Side B wins"]) == q * p * sum(q ** (2 * k) for k in range(r))
    assert Fraction(result["outcomes_exact"]["Still fighting"]) == q ** 12
    assert sum(Fraction(v) for v in result["outcomes_exact"].values()) == 1
    # with no cap to speak of, the side acting first wins p / (1 - q^2) = 8/13
    long = duel(max_rounds=100)
    assert abs(Fraction(long["outcomes_exact"]["Side A wins"]) - Fraction(8, 13)) < 1e-15
    assert Fraction(duel(max_rounds=100, first="b")["outcomes_exact"]["Side B wins"]) == \
        Fraction(long["outcomes_exact"]["Side A wins"])


#: a die's steps (d4 = 1 ... d12 = 5), written out here so the model below owes nothing to
#: the code it checks
STEPS = {4: 1, 6: 2, 8: 3, 10: 4, 12: 5}


def hand_assign(dice: tuple[int, ...], members: tuple[int, ...], injury: int,
                rules: Rules, carry: bool, highest: bool) -> tuple[tuple[int, ...], int]:
    """The source's harm rule, tried in every order of the effect dice, best for the
    attacker (most members out, then the best ones, then the largest injury, then the
    fewest dice): (quality dice taken out, smallest first; the injury die left or 0).

    A die (or a complication stepped up by it) takes out a member whose quality die it
    equals or beats: the lowest one (lowest first), or the best one it reaches (highest
    first); a die below every member's is a complication; Part II allows one die per
    attack that takes nobody out (a new injury, or stepping up an older one)."""
    def take(standing: list[int], e: int) -> int:
        reach = [q for q in standing if STEPS[q] <= e]
        return (max if highest else min)(reach) if reach else 0

    best: tuple | None = None
    for order in set(itertools.permutations(dice)):
        standing, inj = list(members), STEPS[injury] if injury else 0
        slot, old, out, used = False, bool(injury), [], 0
        for die in order:
            e = STEPS[die]
            if not standing:
                break
            q = take(standing, e)
            if not q and inj and (rules is Rules.PART1 or (old and not slot)):
                e, q = inj + e, take(standing, inj + e)
                if not q:
                    inj, slot, used = e, True, used + 1
                    continue
                inj, slot, old = 0, True, False
            if q:
                used += 1
                surplus = e - STEPS[q]
                while q:
                    standing.remove(q)
                    out.append(q)
                    q = take(standing, surplus) if carry else 0
                    surplus -= STEPS[q] if q else 0
                continue
            if not inj and not (rules is Rules.PART2 and slot):
                inj, slot, old, used = e, True, False, used + 1
        left = inj if standing else 0
        score = (len(out), sum(STEPS[q] for q in out), left, -used)
        if best is None or score > best[0]:
            size = next((d for d, st in STEPS.items() if st == left), 0)
            best = (score, (tuple(sorted(out)), size))
    assert best is not None
    return best[1]


def standing_of(unit: F.Unit, lost: tuple[int, ...]) -> tuple[int, ...]:
    left = list(unit.quality)
    for q in lost:
        left.remove(q)
    return tuple(sorted(left))


@functools.cache
def brute_attack(fight: F.Fight, side: str, state: F.State) -> dict[F.State, Fraction]:
    """Every face of both pools, resolved by the roll's own rule and the effect dice
    assigned by :func:`hand_assign`."""
    other = "b" if side == "a" else "a"
    attack, defence = fight.pools(side, state)
    lost, injury = (state[2], state[3]) if side == "a" else (state[0], state[1])
    target = fight.unit(other)
    standing = standing_of(target, lost)
    d_totals: dict[int, int] = {}
    for faces in itertools.product(*[range(1, s + 1) for s in defence]):
        t = resolve(list(zip(defence, faces))).total
        d_totals[t] = d_totals.get(t, 0) + 1
    n = 1
    for s in attack + defence:
        n *= s
    out: dict[F.State, Fraction] = {}

    def harm(d: tuple[int, ...]) -> tuple[tuple[int, ...], int]:
        return hand_assign(d, standing, injury, fight.rules, fight.carry_surplus,
                           target.highest_first)

    for faces in itertools.product(*[range(1, s + 1) for s in attack]):
        roll = resolve(list(zip(attack, faces)))
        for d_total, count in d_totals.items():
            dice = effect_dice(roll.remaining, roll.total - d_total, False, fight.limit)
            nxt = state
            if dice:
                extra = effect_dice(roll.remaining, roll.total - d_total, True, fight.limit)
                spent = state[4] if side == "a" else state[5]
                # a plot point buys one more die when one is left that could be used (no
                # more dice than members under Part II); under "takes out" only if the
                # die takes out one more member; under "every win" it is paid on every
                # win while any is left, whether or not a die is left to add
                keep = len(standing) if fight.rules is Rules.PART2 else 99
                pay = spent < fight.unit(side).plot_points and extra[:keep] != dice[:keep]
                if pay and fight.spend == F.SPEND_TAKES_OUT:
                    pay = len(harm(extra)[0]) > len(harm(dice)[0])
                if fight.spend == F.SPEND_EVERY_WIN:
                    pay = spent < fight.unit(side).plot_points
                if pay:
                    dice = extra
                    nxt = nxt[:4] + ((spent + 1, nxt[5]) if side == "a" else (nxt[4], spent + 1))
                taken, left = harm(dice)
                new = (tuple(sorted(lost + taken)), left)
                nxt = new + nxt[2:] if other == "a" else nxt[:2] + new + nxt[4:]
            out[nxt] = out.get(nxt, Fraction(0)) + Fraction(count, n)
    return out


SMALL = [
    F.Fight(F.Unit((6, 8), (4,), None, 6), F.Unit((4, 6), (), 6, 8), Range.ADJACENT),
    F.Fight(F.Unit((6, 8), (), 4, None), F.Unit((8, 8), (), None, 6), Range.SAME, Rules.PART1,
            True),
    F.Fight(F.Unit((4, 10)), F.Unit((6, 6, 8)), Range.SAME, Rules.PART2, False, EffectLimit.EVERY),
    # issue 29: plot points (both ways of spending them), the best members falling first
    F.Fight(F.Unit((6, 8), (4,), plot_points=1), F.Unit((4, 6, 6), plot_points=2),
            Range.SAME),
    F.Fight(F.Unit((6, 8), plot_points=2), F.Unit((4, 6, 6), plot_points=1), Range.SAME,
            spend=F.SPEND_TAKES_OUT),
    F.Fight(F.Unit((4, 8), highest_first=True), F.Unit((4, 6, 8), highest_first=True),
            Range.SAME),
    F.Fight(F.Unit((6, 8), highest_first=True, plot_points=1), F.Unit((4, 4, 8)),
            Range.SAME, Rules.PART1),
    # issue 42: highest first takes out the best member each die reaches
    F.Fight(F.Unit((6, 8, 8), highest_first=True), F.Unit((6, 10), highest_first=True),
            Range.SAME),
    F.Fight(F.Unit((4, 10)), F.Unit((4, 6, 8), highest_first=True), Range.SAME, Rules.PART1,
            True),
    # issue 42: a plot point paid on every winning attack while any is left
    F.Fight(F.Unit((6, 8), (4,), plot_points=2), F.Unit((4, 6, 6), plot_points=1), Range.SAME,
            spend=F.SPEND_EVERY_WIN),
    F.Fight(F.Unit((6, 8), plot_points=1), F.Unit((4, 6), plot_points=2), Range.SAME,
            Rules.PART1, limit=EffectLimit.EVERY, spend=F.SPEND_EVERY_WIN),
]


@pytest.mark.parametrize("fight", SMALL)
def test_every_attack_matches_enumeration_of_every_face(fight: F.Fight) -> None:
    seen = {F.START}
    todo = [F.START]
    while todo:
        state = todo.pop()
        if F.outcome(fight, state) is not None:
            continue
        for side in ("a", "b"):
            exact = F.attack(fight, side, state)
            assert exact == brute_attack(fight, side, state), (side, state)
            for nxt in exact:
                if nxt not in seen:
                    seen.add(nxt)
                    todo.append(nxt)
    assert len(seen) > 4


def walk_every_sequence(fight: F.Fight, first: str, rounds: int
                        ) -> tuple[list[dict[str, Fraction]], dict[str, dict[int, Fraction]]]:
    """Every sequence of attacks to the round cap, each attack by :func:`brute_attack`:
    (the chance of each outcome by the end of each round, each side's losses)."""
    by_round = [dict.fromkeys((*F.OUTCOMES, F.BOTH_FALL), Fraction(0)) for _ in range(rounds)]
    lost: dict[str, dict[int, Fraction]] = {"a": {}, "b": {}}

    def end(state: F.State, p: Fraction, ended: str, r: int) -> None:
        for row in by_round[r - 1:] if ended != solver.STILL_FIGHTING else ():
            row[ended] += p
        for side, i in (("a", 0), ("b", 2)):
            lost[side][len(state[i])] = lost[side].get(len(state[i]), Fraction(0)) + p

    def after(state: F.State, p: Fraction, r: int) -> None:
        ended = F.outcome(fight, state)
        if ended or r == rounds:
            end(state, p, ended or solver.STILL_FIGHTING, r)
        else:
            walk(state, p, r + 1)

    def walk(state: F.State, p: Fraction, r: int) -> None:
        """Round ``r`` from ``state``, reached with chance ``p``."""
        if first == F.AT_ONCE:
            for sb, q in brute_attack(fight, "a", state).items():
                for sa, q2 in brute_attack(fight, "b", state).items():
                    after((sa[0], sa[1], sb[2], sb[3], sb[4], sa[5]), p * q * q2, r)
            return
        second = "b" if first == "a" else "a"
        for mid, q in brute_attack(fight, first, state).items():
            if F.outcome(fight, mid):
                after(mid, p * q, r)
                continue
            for nxt, q2 in brute_attack(fight, second, mid).items():
                after(nxt, p * q * q2, r)

    walk(F.START, Fraction(1), 1)
    return by_round, lost


@pytest.mark.parametrize("fight", SMALL)
def test_whole_fight_matches_a_walk_over_every_sequence(fight: F.Fight) -> None:
    rounds = 3
    by_round, lost = walk_every_sequence(fight, "a", rounds)
    exact = solver.solve(F.Firefight(fight, "a"), max_rounds=rounds)
    for r in range(rounds):
        assert {k: v for k, v in exact.by_round[r].items() if k != solver.STILL_FIGHTING} == \
            {k: v for k, v in by_round[r].items() if v or k in exact.by_round[r]}, r
    assert exact.outcomes[solver.STILL_FIGHTING] == 1 - sum(by_round[-1].values())
    assert exact.losses == {side: dict(sorted(d.items())) for side, d in lost.items()}


@pytest.mark.parametrize("over", [
    dict(a_quality="d8 d6", b_quality="d6 d6 d4", max_rounds=8, first="roll"),
    # issue 42: each die takes the best member it reaches, in the account as in the odds
    dict(a_quality="d10 d6", b_quality="d8 d6 d4", max_rounds=8, first="roll",
         falls="highest", a_cover=None, distance="same"),
    # issue 42: a point paid on every winning attack while any is left
    dict(a_quality="d8 d6", b_quality="d6 d6 d4", max_rounds=8, a_plot_points=2,
         b_plot_points=1, plot_spend=F.SPEND_EVERY_WIN, distance="same", a_cover=None),
])
def test_rolls_agree_with_the_exact_odds(over: dict) -> None:
    exact = run(**over)["outcomes"]
    rng = random.Random(20261123)
    counts: dict[str, int] = {}
    trials = 1500
    for _ in range(trials):
        reply = api.roll(NAME, inputs(**over), rng)
        outcome = reply["result"]["outcome"]
        assert outcome in exact
        counts[outcome] = counts.get(outcome, 0) + 1
    for name, p in exact.items():
        est = solver.wilson(counts.get(name, 0), trials, z=3.5)
        assert est.low <= p <= est.high, (name, p, est)


def test_roll_log_and_dice() -> None:
    reply = api.roll(NAME, inputs(first="roll"), random.Random(5))
    result = reply["result"]
    assert result["outcome"] in run()["outcomes_exact"] or result["outcome"] in \
        run(first="roll")["outcomes_exact"]
    assert result["log"][0].startswith("Initiative: Side A")
    assert any(line.startswith("Round 1: ") for line in result["log"])
    assert result["dice"] and {"die", "face"} <= set(result["dice"][0])
    assert result["summary"].startswith(result["outcome"])


def test_roll_off_chance_equals_the_initiative_calculator() -> None:
    result = run(a_assets="d8", first="roll")
    initiative = api.run("cortex.initiative", {"players": "d8 d8 d8 d6 d6", "gm": "d6 d6 d6 d6 d6"})
    assert result["p_a_first_exact"] == initiative["result"]["p_players_choose_exact"]
    a_first, b_first = run(a_assets="d8", first="a"), run(a_assets="d8", first="b")
    p = Fraction(result["p_a_first_exact"])
    for name, value in result["outcomes_exact"].items():
        assert Fraction(value) == p * Fraction(a_first["outcomes_exact"][name]) + \
            (1 - p) * Fraction(b_first["outcomes_exact"][name])


def test_six_a_side_with_cover_range_armor_and_assets_is_exact() -> None:
    result = run(a_quality="d10 d8 d8 d8 d6 d6", a_assets="d8", a_armor=8, a_cover=8,
                 b_quality="d8 d8 d8 d8 d6 d6", b_assets="d6", b_armor=6, b_cover=6,
                 distance="adjacent", first="roll")
    assert sum(Fraction(v) for v in result["outcomes_exact"].values()) == 1
    assert sum(Fraction(v) for v in result["losses_a_exact"].values()) == 1
    assert set(result["losses_b_exact"]) <= {str(k) for k in range(7)}
    assert result["a_attack_pool"] == [10, 8, 8, 8, 8, 6, 6]
    # B defends with its six, its asset, mid-range d8, cover d6 (its lowest die) and armor
    assert result["b_defence_pool"] == [8, 8, 8, 8, 8, 6, 6, 6, 6, 6]


def test_readings_change_the_fight() -> None:
    base = run()
    every = run(effect_limit="every")
    part1 = run(rules="part1", surplus="carried")
    assert base["outcomes_exact"] != every["outcomes_exact"]
    assert base["outcomes_exact"] != part1["outcomes_exact"]
    # in one attack, every leftover die can only add effect dice
    fight = F.Fight(F.Unit((6, 6, 8, 8)), F.Unit((6, 6, 6, 6, 6)))
    every_fight = F.Fight(fight.a, fight.b, limit=EffectLimit.EVERY)
    def mean_out(f: F.Fight) -> Fraction:
        return sum((len(s[2]) * p for s, p in F.attack(f, "a", F.START).items()), Fraction(0))
    assert mean_out(every_fight) > mean_out(fight)


def test_pools_rebuilt_from_the_members_still_standing() -> None:
    fight = F.Fight(F.Unit((6, 8, 8), (4,), None, 10), F.Unit((4, 6, 8), (), 6, 10))
    attack, defence = fight.pools("a", ((6,), 4, (4,), 0, 0, 0))
    assert attack == (8, 8, 4)  # the d6 is out; A's asset; B carries no injury
    # d6 d8, range d8, cover d6 (the lowest is now d6), armor d6, A's d4 injury
    assert defence == (8, 8, 6, 6, 6, 4)
    attack, defence = fight.pools("b", ((6,), 4, (4,), 0, 0, 0))
    assert attack == (8, 6, 4)  # B's d6 d8 and A's d4 injury
    assert defence == (8, 8, 8, 8, 4)  # A's d8 d8, asset d4, range d8, cover d8


@pytest.mark.parametrize("over, field, words", [
    ({"a_quality": "d8 d7"}, "a_quality.2", "received 7"),
    ({"b_quality": "d6 d6 d6 d6 d6 d6 d6"}, "b_quality", "at most 6"),
    ({"a_assets": "d6 d6 d6"}, "a_assets", "at most 2"),
    ({"max_rounds": 0}, "max_rounds", "from 1 to 100"),
    ({"first": "both"}, "first", "must be one of"),
    ({"effect_limit": "all"}, "effect_limit", "Every die left over"),
    ({"plot_spend": "always"}, "plot_spend", "On every winning attack"),
])
def test_bad_inputs_name_the_field(over: dict, field: str, words: str) -> None:
    refused(NAME, inputs(**over), field, words)


def test_past_the_exact_walks_budget_the_pruned_walk_answers_within_its_bound(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Past the exact walk's work budget the fight is no longer refused (issue 46.6): the
    pruned walk answers, each chance at most its bound below the exact one."""
    exact = run(max_rounds=37)
    monkeypatch.setattr(F, "COST_PER_ROUND", 50)
    pruned = run(max_rounds=37)
    assert pruned["method"] == "pruned" and 0 < pruned["error_bound"] <= solver.MAX_ERROR
    assert pruned["precision"].startswith("exact to within 1 in")
    for name, p in exact["outcomes"].items():
        assert p - pruned["error_bound"] - 1e-12 <= pruned["outcomes"][name] <= p + 1e-12


def test_the_firefights_page_example() -> None:
    # four soldiers (d8 d8 d6 d6, d6 zone) against five recruits (d6 x5, d8 zone), next zone
    result = run()
    assert result["a_attack_pool"] == [8, 8, 6, 6]
    assert round(result["outcomes"]["Side A wins"], 2) == 0.79
    assert round(result["expected_losses_a"], 1) == 0.9
    assert 0.09 < result["outcomes"]["Still fighting"] < 0.10


def test_both_at_once_variant_by_hand() -> None:
    # one d4 a side, both shoot from the round's start: each hits with p = 3/8
    p, q = Fraction(3, 8), Fraction(5, 8)
    result = duel(order="at_once", first=None, max_rounds=5)
    for r in range(1, 6):
        row = result["by_round_exact"][str(r)]
        done = sum(q ** (2 * k) for k in range(r))
        assert Fraction(row["Side A wins"]) == p * q * done
        assert Fraction(row["Both sides fall"]) == p * p * done
    assert "p_a_first" not in result
    reply = api.roll(NAME, inputs(order="at_once", first=None), random.Random(2))
    assert reply["result"]["outcome"] in run(order="at_once", first=None)["outcomes"]
    assert "At the same time: Side B" in reply["result"]["log"][0]


def test_rulings_numbers_for_the_round_and_the_effect_dice() -> None:
    """The figures the Rulings page quotes for both readings."""
    odds = {limit: api.run("cortex.odds", {"attacker": "d10 d10 d8 d8 d6", "defender": "d8 4d6",
                                           "unit": "4d6", "effect_limit": limit})["result"]
            for limit in ("margin", "every")}
    assert round(odds["margin"]["expected_taken_out"], 3) == 1.485
    assert round(odds["every"]["expected_taken_out"], 3) == 1.934
    base, every = run(), run(effect_limit="every")
    at_once = run(order="at_once", first=None)
    assert [round(r["outcomes"]["Side A wins"], 3) for r in (base, every, at_once)] == \
        [0.788, 0.759, 0.754]
    assert [round(r["expected_rounds"], 2) for r in (base, every)] == [10.60, 8.69]
    assert [round(r["expected_losses_a"], 2) for r in (base, at_once)] == [0.91, 1.10]
    assert [round(r["outcomes"]["Still fighting"], 3) for r in (base, at_once)] == [0.097, 0.112]


#: the heaviest inputs the form accepts (issue 29): 6 d12 members a side with 2 d12 assets,
#: d12 armor and cover, the best members falling first, a roll-off, at both caps; and the
#: plot points' limit (4 v 5 d12 members with a point a side); timed in
#: benchmarks/site_speed.py (HEAVIEST), not here
WORST = {f"{s}_{k}": v for s in "ab" for k, v in {
    "quality": "d12 d12 d12 d12 d12 d12", "assets": "d12 d12", "armor": 12, "cover": 12}.items()}


@pytest.mark.parametrize("over", [
    {**WORST, "max_rounds": 20},
    {**WORST, "max_rounds": 100, "first": "roll", "falls": "highest"},
    {**WORST, "a_quality": "d12 d12 d12 d12", "b_quality": "d12 d12 d12 d12 d12",
     "a_plot_points": 1, "b_plot_points": 1, "falls": "highest", "max_rounds": 100},
    {**WORST, "a_plot_points": 3, "b_plot_points": 3, "plot_spend": F.SPEND_TAKES_OUT},
    # issue 42: highest first keeps which members are out; at the limit of ways to stand
    {**WORST, "a_quality": "d8 d8 d6 d6", "b_quality": "d10 d8 d6 d6 d6", "falls": "highest",
     "rules": "part1", "surplus": "carried", "effect_limit": "every", "max_rounds": 20},
    {**WORST, "a_quality": "d12 d12 d10 d8 d6 d4", "b_quality": "d12 d12", "falls": "highest",
     "max_rounds": 100, "first": "roll"},
])
def test_the_heaviest_inputs_are_answered_or_refused_naming_a_field(over: dict) -> None:
    reply = api.run(NAME, inputs(**over))
    if not reply["ok"]:
        assert reply["error"]["field"] in {"max_rounds", "a_plot_points", "b_plot_points"}
        assert "lower the" in reply["error"]["message"].lower()


def test_highest_first_past_its_limit_is_answered_saying_why_not_exactly() -> None:
    """Six mixed dice a side can stand 47 ways each when any die may go: no longer refused
    (issue 46.6) but answered without the exact walk, saying why ("47 x 47") and how
    precisely; plot points past their limit likewise."""
    mixed = dict(a_quality="d12 d12 d10 d8 d6 d4", b_quality="d12 d10 d8 d6 d4 d4")
    result = run(**mixed, falls="highest")
    assert result["method"] in ("pruned", "simulation")
    if result["method"] == "simulation":
        assert "47 x 47" in result["simulated_because"] and result["trials"] > 0
        for low, high in result["intervals"].values():
            assert high - low <= 2 * 0.005 + 1e-12
    assert api.run(NAME, inputs(**mixed, a_cover=None, b_cover=None))["ok"]
    with_points = run(a_quality="d10 d8 d6", b_quality="d8 d6", falls="highest",
                      a_plot_points=2, b_plot_points=1)
    assert with_points["method"] in ("pruned", "exact", "simulation")
    assert with_points["precision"]


def test_typical_fights_with_the_new_inputs_are_answered() -> None:
    run(a_plot_points=1, falls="highest", first="roll", ties="b")
    run(a_plot_points=1, b_plot_points=1, first="roll", ties="b")
    run(max_rounds=100, a_plot_points=1, first="roll", ties="b")
    run(a_quality="d8 d8 d8 d8 d8 d8", b_quality="d8 d8 d8 d8 d8 d8", a_assets="d6")


def test_rulings_numbers_for_plot_points_and_ties() -> None:
    """The figures the Rulings page quotes for the plot point's moment and for ties."""
    spends = (F.SPEND_FIRST, F.SPEND_TAKES_OUT, F.SPEND_EVERY_WIN)
    wins = [run(a_plot_points=points, b_quality="d10 d8 d6 d6 d6", plot_spend=spend)
            ["outcomes"]["Side A wins"] for points in (1, 2) for spend in spends]
    assert [round(w, 4) for w in wins] == [0.1342, 0.1331, 0.1239, 0.1404, 0.1378, 0.1377]
    assert round(run(b_quality="d10 d8 d6 d6 d6")["outcomes"]["Side A wins"], 4) == 0.0822
    ties = [run(first="roll", ties=t) for t in ("again", "a", "b")]
    assert [round(r["p_a_first"], 3) for r in ties] == [0.646, 0.690, 0.566]
    assert [round(r["outcomes"]["Side A wins"], 3) for r in ties] == [0.763, 0.766, 0.757]
    falls = [run(falls=f, b_quality="d10 d8 d6 d6 d6")["outcomes"]["Side A wins"]
             for f in ("lowest", "highest")]
    assert [round(w, 3) for w in falls] == [0.082, 0.127]
    # the recruits' effect dice never pass a d6: the order cannot change their fight
    assert run(falls="highest")["outcomes_exact"] == run()["outcomes_exact"]


@pytest.mark.parametrize("falls", ["lowest", "highest"])
def test_an_effect_die_takes_out_a_member_it_reaches_whatever_the_order(falls: str) -> None:
    """Issue 42: a die equal to or greater than *a* member's quality die takes someone
    out; the order only says whom. d8 d8 d6 against d10 d6 cannot roll a d10 effect die,
    so the old "reach the best member standing" gave 0 here."""
    result = run(a_quality="d8 d8 d6", b_quality="d10 d6", a_cover=None, b_cover=None,
                 distance="same", max_rounds=1, falls=falls)
    assert Fraction(result["losses_b_exact"]["1"]) == Fraction(9437, 23040)
    fight = F.Fight(F.Unit((6, 8, 8), highest_first=falls == "highest"),
                    F.Unit((6, 10), highest_first=falls == "highest"), Range.SAME)
    after = brute_attack(fight, "a", F.START)
    assert sum(p for s, p in after.items() if s[2]) == Fraction(9437, 23040)
    assert {s[2] for s in after} == {(), (6,)}  # only the d6 can be reached


def test_highest_first_takes_the_best_member_each_die_reaches() -> None:
    done = assign([10, 8, 4], [6, 8, 10, 12], highest_first=True)
    assert sorted(done.taken_out) == [8, 10] and done.injury == 4
    assert assign([8], [6, 10], highest_first=True).taken_out == (6,)
    assert assign([8], [6, 10]).taken_out == (6,)
    assert assign([4], [6, 10], highest_first=True).injury == 4
    # carried surplus goes on to the best member it reaches: a d12 (5 steps) takes the
    # d10 (4), and 1 step is short of a d6; against d8 (3) it keeps 2 steps, a d6's
    carried = assign([12], [6, 6, 10], highest_first=True, carry_surplus=True)
    assert carried.taken_out == (10,)
    carried = assign([12], [4, 6, 8], highest_first=True, carry_surplus=True)
    assert carried.taken_out == (8, 6)


def test_every_win_pays_a_point_even_with_no_die_to_add() -> None:
    """With every leftover die already an effect die, a point never adds one: paid on
    every win anyway (the played account says so), and only while any are left."""
    over = dict(a_quality="d8 d6", b_quality="d6 d6 d4", a_plot_points=2, distance="same",
                a_cover=None, effect_limit="every", plot_spend=F.SPEND_EVERY_WIN)
    seen = 0
    for seed in range(40):
        log = api.roll(NAME, inputs(**over), random.Random(seed))["result"]["log"]
        paid = sum(line.count("a plot point paid, with no die left to add") for line in log)
        assert paid <= 2 and "bought with a plot point" not in " ".join(log)
        wins = sum(line.count("Side A rolls") and line.split("Side B rolls")[0].count("wins by")
                   for line in log)
        assert paid == min(2, wins), log
        seen += paid
    assert seen
    # the points change nothing but themselves: same odds as no points at all
    assert run(**over)["outcomes_exact"] == run(**{**over, "a_plot_points": 0})["outcomes_exact"]
