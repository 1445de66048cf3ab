"""heroic.engagement: hand-worked fights, a simulation of the same rules, and the pieces
(hit counts, damage sums) against icepool and the contest oracle."""

from __future__ import annotations

import gc
import itertools
import random
import weakref
from fractions import Fraction

import icepool
import pytest

from rules_core import api, solver
from rules_core.dice.distribution import from_icepool
from rules_core.fields import initial_inputs, validate
from rules_core.heroic import calc_groups_fight as calc
from rules_core.heroic import contest
from rules_core.heroic import fight as model
from rules_core.heroic.calc_groups_fight import ENGAGEMENT, build
from rules_core.heroic.damage import Damage, damage_sum, pooled_injury
from tests.rules_core.support import refused


def inputs(**over):
    base = initial_inputs(ENGAGEMENT.fields)
    base.update(over)
    return base


def small(**over):
    """Three raiders against two guards, small enough for carried wounds."""
    return inputs(a_name="Raiders", a_members=3, a_skill=12, a_hp=4, a_dr=0, a_damage="1d",
                  a_wounding=1, b_name="Guards", b_members=2, b_skill=13, b_hp=5, b_dr=1,
                  b_damage="1d+1", b_wounding=1.5, **over)


@pytest.mark.parametrize("diff", [-12, -3, 0, 2, 7, 15])
@pytest.mark.parametrize("sf,mult", [(4, 1), (6, 5)])
def test_hit_counts_match_the_contest_enumeration(diff, sf, mult):
    fast = {h: Fraction(w, 46_656) for h, w in contest.hit_counts(diff, sf, multiplier=mult)}
    slow = {h: p for h, p in contest.hit_distribution(10 + diff, 10, sf, multiplier=mult).items()
            if p}
    assert fast == slow


@pytest.mark.parametrize("hits,damage", [(1, Damage(2, 0)), (7, Damage(1, 2)),
                                          (24, Damage(2, 0)), (5, Damage(1, -2))])
def test_damage_sums_match_icepool(hits, damage):
    one = (damage.dice @ icepool.d6 + damage.add).map(lambda t: max(0, t))
    ref = from_icepool(hits @ one)
    ours = damage_sum(hits, damage)
    total = 6 ** (damage.dice * hits)
    assert sum(ours) == total
    assert {k: Fraction(w, total) for k, w in enumerate(ours) if w} == ref


def test_pooled_injury_of_the_knights_example():
    # five hits of 2d cutting against DR 6: the source's 38 damage gives 12 injury
    dist = pooled_injury(5, Damage(2, 0), 6, Fraction(3, 2))
    assert sum(dist.values()) == 1
    # injury 12 needs exactly 8 past DR (9 would be 13): a total of exactly 38
    assert dist[12] == from_icepool(10 @ icepool.d6)[38]


def test_a_one_sided_duel_ends_by_round_r_with_one_minus_miss_to_the_r():
    # B cannot hurt A (DR 20); any hit of A's kills B (1 HP); nobody checks morale
    raw = inputs(a_members=1, a_skill=12, a_hp=10, a_dr=20, a_damage="3d", a_morale=False,
                 b_members=1, b_skill=12, b_hp=1, b_dr=0, b_damage="1d", b_morale=False,
                 max_rounds=6)
    out = api.run("heroic.engagement", raw)
    assert out["ok"], out
    p = contest.p_win(contest.hit_distribution(12, 12, 4))
    for r in range(1, 7):
        assert Fraction(out["result"]["by_round_exact"][str(r)]["Knights wiped out"]) \
            == 1 - (1 - p) ** r
    exact = {k: Fraction(v) for k, v in out["result"]["outcomes_exact"].items()}
    assert sum(exact.values()) == 1
    assert exact["Still fighting"] == (1 - p) ** 6


def simulate(raw, trials, seed):
    f = build(validate(ENGAGEMENT.fields, raw))
    rng = random.Random(seed)
    counts: dict[str, int] = {}
    for _ in range(trials):
        name = solver.play(f, max_rounds=raw["max_rounds"], rng=rng).outcome
        counts[name] = counts.get(name, 0) + 1
    return counts


def test_blows_struck_at_once_can_wipe_out_both_sides_in_the_exact_odds_and_with_dice():
    # one fighter a side, 1 HP, any hit kills, nobody checks morale: a tie on initiative
    # (6 in 36) is a round of blows struck at once, so both can fall together
    raw = inputs(a_members=1, a_skill=12, a_hp=1, a_dr=0, a_damage="3d", a_morale=False,
                 b_members=1, b_skill=12, b_hp=1, b_dr=0, b_damage="3d", b_morale=False,
                 ties="simultaneous", max_rounds=1)
    out = api.run("heroic.engagement", raw)
    assert out["ok"], out
    p = contest.p_win(contest.hit_distribution(12, 12, 4))
    first, at_once = Fraction(15, 36), Fraction(6, 36)
    row = {k: Fraction(v) for k, v in out["result"]["by_round_exact"]["1"].items()}
    assert row[model.BOTH_WIPED] == at_once * p * p
    assert row["Knights wiped out"] == first * p + first * (1 - p) * p + at_once * p * (1 - p)
    assert row["Orcs wiped out"] == row["Knights wiped out"]
    raw["max_rounds"] = 6
    counts = simulate(raw, 2000, seed=11)
    assert counts.get(model.BOTH_WIPED, 0) > 0  # the dice player reports it too
    exact = {k: Fraction(v) for k, v in api.run("heroic.engagement", raw)["result"]
             ["outcomes_exact"].items()}
    assert set(counts) <= set(exact)
    for name, q in exact.items():
        sd = (float(q) * (1 - float(q)) / 2000) ** 0.5
        assert abs(counts.get(name, 0) / 2000 - float(q)) <= 4.5 * sd + 0.003, name


@pytest.mark.parametrize("over", [
    {"wounds": "carry"},
    {"wounds": "drop", "ties": "simultaneous"},
    {"wounds": "carry", "on_break": "surrender", "a_frontage": 2},
])
def test_exact_answer_agrees_with_playing_the_fight_many_times(over):
    raw = small(max_rounds=8, **over)
    out = api.run("heroic.engagement", raw)
    assert out["ok"], out
    exact = {k: Fraction(v) for k, v in out["result"]["outcomes_exact"].items()}
    assert sum(exact.values()) == 1
    trials = 3000
    counts = simulate(raw, trials, seed=7)
    for name, p in exact.items():
        sd = (float(p) * (1 - float(p)) / trials) ** 0.5
        assert abs(counts.get(name, 0) / trials - float(p)) <= 4.5 * sd + 0.003, name
    assert set(counts) <= set(exact)


def test_losses_distributions_sum_to_one_and_match_the_members():
    out = api.run("heroic.engagement", small(wounds="carry"))["result"]
    for key, members in (("a", 3), ("b", 2)):
        dist = {int(k): Fraction(v) for k, v in out[f"losses_{key}_exact"].items()}
        assert sum(dist.values()) == 1
        assert set(dist) <= set(range(members + 1))


def test_the_source_fight_twelve_orcs_against_eight_knights():
    out = api.run("heroic.engagement", inputs())
    assert out["ok"], out
    exact = {k: Fraction(v) for k, v in out["result"]["outcomes_exact"].items()}
    assert sum(exact.values()) == 1
    # the knights are far better: the orcs break or die far more often than the knights
    assert exact["Orcs broken"] + exact["Orcs wiped out"] > Fraction(9, 10)


def test_the_roll_plays_to_an_outcome_of_the_exact_answer():
    raw = small(wounds="carry")
    keys = set(api.run("heroic.engagement", raw)["result"]["outcomes_exact"])
    for seed in range(15):
        out = api.roll("heroic.engagement", raw, random.Random(seed))
        assert out["ok"], out
        res = out["result"]
        assert res["outcome"] in keys
        assert res["log"] and all(line.startswith("Round ") for line in res["log"])
        assert all(1 <= d["face"] <= 6 for d in res["dice"])
        assert res["summary"].startswith(res["outcome"])


@pytest.mark.parametrize("over,field,words", [
    ({"b_name": "orcs"}, "b_name", "Side B: name"),
    ({"a_damage": "two dice"}, "a_damage", "Side A: damage per hit"),
    ({"a_damage": "12d"}, "a_damage", "from 1 to 10"),
    ({"b_damage": "10d", "b_speed_factor": 1}, "b_damage", "Side B: damage per hit"),
    ({"a_tactic": "retreat"}, "a_tactic", "retreat"),
])
def test_bad_inputs_name_the_field(over, field, words):
    refused("heroic.engagement", inputs(**over), field, words)


def pct(result, name):
    return f"{result['outcomes'][name] * 100:.2f}%"


@pytest.mark.parametrize("wounds,row", [
    ("drop", ["9.20%", "11.27%", "51.64%", "26.25%", "1.65%"]),
    ("carry", ["12.17%", "11.97%", "50.96%", "23.19%", "1.71%"]),
])
def test_the_rulings_table_for_injury_left_over(wounds, row):
    res = api.run("heroic.engagement", small(wounds=wounds))["result"]
    names = ["Guards wiped out", "Guards broken", "Raiders wiped out", "Raiders broken",
             "Both sides break"]
    assert [pct(res, n) for n in names] == row


@pytest.mark.parametrize("over,knights_break,orcs_lost,knights_lost", [
    ({}, "0.17%", 11.48, 0.101),
    ({"on_break": "surrender"}, "0.17%", 8.43, 0.100),
    ({"ties": "simultaneous"}, "0.18%", 11.48, 0.107),
])
def test_the_rulings_figures_for_the_source_fight(over, knights_break, orcs_lost, knights_lost):
    res = api.run("heroic.engagement", inputs(**over))["result"]
    assert pct(res, "Knights broken") == knights_break
    assert round(res["expected_losses_a"], 2) == orcs_lost
    assert round(res["expected_losses_b"], 3) == knights_lost


def test_the_explanation_walks_the_round_and_links_each_rule():
    text = api.run("heroic.engagement", small())["explanation"]
    for link in ("/heroic/#the-round", "/heroic/groups/#numerical-superiority",
                 "/heroic/groups/#the-hit-multiplier", "/heroic/groups/#group-hit-points",
                 "/heroic/morale/#when-morale-is-checked", "/heroic/tactics/#retreat",
                 "/rulings/#the-engagement-injury-left-over"):
        assert f"]({link})" in text, link
    assert "| By round |" in text


# --- defences, attack modifiers and morale modifiers of each side --------------------

def brute_win(a: int, d: int) -> Fraction:
    """Attacker wins a Quick Contest: every pair of 3d6 totals, enumerated."""
    three = [sum(f) for f in itertools.product(range(1, 7), repeat=3)]
    return Fraction(sum(1 for x in three for y in three if (a - x) > (d - y)), 216 * 216)


@pytest.mark.parametrize("defence,expected", [
    ({"b_defense": "skill"}, 12),
    ({"b_defense": "skill", "b_defense_bonus": 2}, 14),
    ({"b_defense": "block", "b_block_skill": 9, "b_defense_bonus": 3}, 12),
    ({"b_defense": "dodge", "b_dodge": 9, "b_defense_bonus": 1}, 14),  # (9 + 1 - 3) x 2
    ({"b_defense": "dodge", "b_dodge": 8, "b_tactic": "defensive"}, 12),  # 10, then +2
])
@pytest.mark.parametrize("modifier", [0, -3, 4])
def test_one_round_against_each_defence_is_the_enumerated_contest(defence, expected, modifier):
    # B (1 HP, cannot hurt A, no morale) falls in round 1 exactly when A wins its contest
    raw = inputs(a_members=1, a_skill=12, a_dr=100, a_morale=False, a_attack_modifier=modifier,
                 b_members=1, b_skill=12, b_hp=1, b_dr=0, b_morale=False, max_rounds=1,
                 **defence)
    out = api.run("heroic.engagement", raw)
    assert out["ok"], out
    assert Fraction(out["result"]["outcomes_exact"]["Knights wiped out"]) \
        == brute_win(12 + modifier, expected)
    assert f"**{expected}**" in out["explanation"]


def exact_of(raw):
    out = api.run("heroic.engagement", raw)
    assert out["ok"], out
    res = out["result"]
    return {k: res[k] for k in res if k.endswith("_exact")}


@pytest.mark.parametrize("one,other", [
    # only the sum of the morale modifiers counts: Cowardice +5 and no retreat -5 cancel
    ({"a_cowardice": 5, "a_cornered": True}, {}),
    ({"b_cowardice": 2, "b_fearlessness": 2}, {}),
    # an attack modifier is the skill raised for attacking alone
    ({"a_skill": 12, "a_attack_modifier": 2, "a_defense": "block", "a_block_skill": 12},
     {"a_skill": 14, "a_defense": "block", "a_block_skill": 12}),
    # a parry with bonuses is a Shield skill of the same total; Dodge converts first
    ({"b_defense": "skill", "b_defense_bonus": 2}, {"b_defense": "block", "b_block_skill": 15}),
    ({"b_defense": "dodge", "b_dodge": 9, "b_defense_bonus": 1},
     {"b_defense": "block", "b_block_skill": 14}),
])
def test_equivalent_setups_give_identical_exact_answers(one, other):
    assert exact_of({**small(), **one}) == exact_of({**small(), **other})


def test_cowardice_makes_breaking_likelier_and_matches_the_enumerated_roll():
    base = api.run("heroic.engagement", small())["result"]
    scared = api.run("heroic.engagement", small(a_cowardice=4))["result"]
    assert scared["outcomes"]["Raiders broken"] > base["outcomes"]["Raiders broken"]
    # one check: 3d6 + modifiers >= 13, every roll enumerated
    f = build(validate(ENGAGEMENT.fields, small(a_cowardice=4, a_fearlessness=1)))
    modifier = model.morale_modifier(f, "a", 12, 4, 10)  # 3 raiders of 4 HP: 2 lost
    assert modifier == 4 - 1 + 5  # Cowardice, Fearlessness, two-thirds of its members lost
    rolls = [sum(t) for t in itertools.product(range(1, 7), repeat=3)]
    assert model.break_ways(f, "a", 12, 4, 10) == sum(1 for t in rolls if t + modifier >= 13)


@pytest.mark.parametrize("over", [
    {"a_defense": "dodge", "a_dodge": 7, "a_cowardice": 3, "b_attack_modifier": -2},
    {"wounds": "carry", "b_defense": "block", "b_block_skill": 11, "b_defense_bonus": 2,
     "a_attack_modifier": 1, "reach_per_defender": 1},
])
def test_dice_played_with_the_new_inputs_agree_with_the_exact_odds(over):
    raw = small(max_rounds=8, **over)
    exact = {k: Fraction(v) for k, v in api.run("heroic.engagement", raw)["result"]
             ["outcomes_exact"].items()}
    trials = 3000
    counts = simulate(raw, trials, seed=29)
    assert set(counts) <= set(exact)
    for name, p in exact.items():
        sd = (float(p) * (1 - float(p)) / trials) ** 0.5
        assert abs(counts.get(name, 0) / trials - float(p)) <= 4.5 * sd + 0.003, name


@pytest.mark.parametrize("over,field,words", [
    ({"a_attack_modifier": 31}, "a_attack_modifier", "Side A: other attack modifiers"),
    ({"b_defense": "parry"}, "b_defense", "Side B: defends with"),
    ({"b_defense": "dodge", "b_dodge": 2}, "b_dodge", "Side B: Dodge"),
    ({"a_defense": "block", "a_block_skill": 41}, "a_block_skill", "Side A: Shield or Cloak"),
    ({"a_defense_bonus": -1}, "a_defense_bonus", "Side A: defence bonuses"),
    ({"b_cowardice": 31}, "b_cowardice", "Side B: Cowardice"),
])
def test_bad_new_inputs_name_the_field(over, field, words):
    refused("heroic.engagement", inputs(**over), field, words)


def test_a_fight_past_the_exact_walks_work_is_simulated_not_refused() -> None:
    """Twelve against thirteen at a round cap of 100 was refused at the Round cap (the
    exact walk's work): the one cascade answers it with a labelled simulation that says
    which walk did not fit and what to lower."""
    got = api.run("heroic.engagement", inputs(**{
        "a_skill": 14, "b_skill": 14, "a_dr": 3, "b_dr": 3, "a_damage": "1d+1",
        "b_damage": "1d+1", "a_hp": 10, "b_hp": 10, "a_members": 12, "b_members": 13,
        "ties": "simultaneous", "max_rounds": 100}), precision="2 points")
    assert got["ok"] and got["result"]["method"] == "simulation"
    why = got["result"]["simulated_because"]
    assert "The exact walk: The work this fight needs is past the limit" in why
    assert "For exact odds, lower the round cap" in why


def test_more_members_than_an_exact_answer_follows_are_simulated() -> None:
    """Twenty orcs against nine knights (180 pairs of member counts, past the 160 the
    exact walk follows in time) were refused at the form: now a labelled, seeded
    simulation, saying why and what to lower for exact odds; played with dice too."""
    raw = inputs(a_members=20, b_members=9)
    reply = api.run("heroic.engagement", raw)
    assert reply["ok"], reply
    got = reply["result"]
    assert got["method"] == "simulation" and got["settled"]
    assert "20 x 9 = 180 pairs of member counts, more than the 160" in got["simulated_because"]
    assert "lower either side's members" in got["simulated_because"]
    assert "**A simulation, not exact odds.**" in reply["explanation"]
    assert api.run("heroic.engagement", raw)["result"] == got  # the same seed
    assert api.roll("heroic.engagement", raw)["ok"]


def test_a_simulated_whole_member_fight_holds_the_exact_odds(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """The simulation of whole members (a partial share dropped after each attack, as the
    exact walk does) against the exact walk of the same small fight: each exact chance
    inside its 95% interval."""
    raw = small(wounds="drop")
    exact = api.run("heroic.engagement", raw)["result"]
    monkeypatch.setattr(model, "MAX_MEMBER_PAIRS", 0)
    got = api.run("heroic.engagement", raw)["result"]
    assert got["method"] == "simulation" and got["trials"] > 2_000
    for name, p in exact["outcomes"].items():  # one never played: none in that many
        low, high = got["intervals"].get(name) or (0.0, solver.wilson(0, got["trials"]).high)
        assert low <= p <= high, (name, p, low, high)


@pytest.mark.parametrize("over", [{}, {"wounds": "carry", "a_members": 5, "b_members": 3},
                                  {"a_members": 20, "b_members": 9}])
def test_a_fight_worked_out_leaves_nothing_behind(over) -> None:
    """What the walk keeps while it works (each attack's injuries, each pool after an
    attack, each end of round) lives with the fight and goes with it: a browser tab works
    out one fight after another for as long as it is open, and kept them all before."""
    from rules_core import cascade

    answers = calc._cascade(validate(ENGAGEMENT.fields, inputs(**over)))
    done = cascade.Refinement(answers, cascade.Precision(0.05)).settle()
    f = answers.fight
    assert isinstance(f, model.Fight) and done.answer is not None
    assert f.memo and done.answer.outcomes  # the walk did keep things while it worked
    gone = weakref.ref(f)
    del f, answers, done
    gc.collect()
    assert gone() is None
