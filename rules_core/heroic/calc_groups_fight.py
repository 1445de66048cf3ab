"""The groups page's engagement: two groups fighting round by round until one is wiped out
or breaks (source: Heroic Combat, the round sequence, Multiple Attackers, Morale). The
page's other calculators are in :mod:`rules_core.heroic.calc_groups`."""

from __future__ import annotations

import random
from fractions import Fraction
from typing import Any

from rules_core import cascade, fight_result, solver
from rules_core.balance.calculator import hands_on_to
from rules_core.calculator import Calculator, Result
from rules_core.errors import InputError
from rules_core.explain import rule, signed, table
from rules_core.fields import BoolField, ChoiceField, IntField, NumberField, TextField
from rules_core.heroic import contest, quick
from rules_core.heroic import fight as model
from rules_core.heroic.damage import damage_parser
from rules_core.heroic.inputs import GROUPS_PAGE, multiplier_fraction, reach_field
from rules_core.heroic.tables import DEFAULT_SF, TACTIC_BY_KEY, TACTICS
from rules_core.messages import count, describe

MAX_MEMBERS = 40
#: damage dice one attack may roll at most (hits x dice per hit) for an exact answer
MAX_DAMAGE_DICE = 240
ATTACK_TACTICS = tuple((t.key, t.name) for t in TACTICS if t.melee is not None)


def _name_parser(label: str):
    def parse(field: str, raw: Any) -> str:
        if not isinstance(raw, str) or not raw.strip():
            raise InputError(field, f"{label}: give the side a short name, received "
                                    f"{describe(raw)}.")
        if len(raw.strip()) > 24:
            raise InputError(field, f"{label}: at most 24 characters, received "
                                    f"{len(raw.strip())}.")
        return raw.strip()
    return parse


def side_fields(key: str, title: str, init: dict[str, Any]) -> tuple[Any, ...]:
    """The inputs of one side, named ``<key>_...`` and labelled "<title> ..."."""
    return (
        TextField(f"{key}_name", f"{title}: name", initial=init["name"], default=init["name"],
                  parse=_name_parser(f"{title}: name")),
        IntField(f"{key}_members", f"{title}: members", initial=init["members"], minimum=1,
                 maximum=MAX_MEMBERS),
        IntField(f"{key}_skill", f"{title}: combat skill", initial=init["skill"], minimum=3,
                 maximum=40, help="Used to attack, and to defend unless another defence is "
                                  "chosen below."),
        IntField(f"{key}_attack_modifier", f"{title}: other attack modifiers", default=0,
                 minimum=-30, maximum=30,
                 help="Weapon quality, posture, darkness, a chosen hit location: added to "
                      "the attack skill every round."),
        ChoiceField(f"{key}_defense", f"{title}: defends with", default="skill",
                    choices=(("skill", "Its combat skill (a parry)"),
                             ("block", "A Shield or Cloak skill"),
                             ("dodge", "Dodge, as (Dodge + bonuses - 3) x 2"))),
        IntField(f"{key}_block_skill", f"{title}: Shield or Cloak skill", initial=12,
                 minimum=3, maximum=40, shown_if=(f"{key}_defense", ("block",))),
        IntField(f"{key}_dodge", f"{title}: Dodge", initial=8, minimum=3, maximum=30,
                 shown_if=(f"{key}_defense", ("dodge",))),
        IntField(f"{key}_defense_bonus", f"{title}: defence bonuses", default=0, minimum=0,
                 maximum=20,
                 help="Shield or cloak DB, Combat Reflexes, Enhanced Defenses: added to the "
                      "defence skill, or to Dodge before it is converted."),
        ChoiceField(f"{key}_tactic", f"{title}: tactic", default="balanced",
                    choices=ATTACK_TACTICS,
                    help="Kept every round: its melee modifier to attack, its defence "
                         "modifier to defend."),
        IntField(f"{key}_speed_factor", f"{title}: Speed Factor", default=DEFAULT_SF,
                 minimum=1, maximum=20),
        IntField(f"{key}_hp", f"{title}: HP each", initial=init["hp"], minimum=1, maximum=100),
        IntField(f"{key}_dr", f"{title}: DR", initial=init["dr"], default=0, minimum=0,
                 maximum=100),
        TextField(f"{key}_damage", f"{title}: damage per hit", initial=init["damage"],
                  parse=damage_parser(f"{title}: damage per hit"), placeholder="2d, 1d+2"),
        NumberField(f"{key}_wounding", f"{title}: wounding multiplier", default=1,
                    initial=init["wounding"], minimum=0, maximum=10, exclusive_minimum=True,
                    help="Of the damage this side deals: x1.5 cutting, x2 impaling..."),
        IntField(f"{key}_frontage", f"{title}: most fighting at once", optional=True,
                 minimum=1, maximum=MAX_MEMBERS,
                 help="Frontage and formation: the most who can strike in a round (empty: "
                      "all of them)."),
        BoolField(f"{key}_morale", f"{title}: checks morale", default=True,
                  help="Player characters never check morale."),
        IntField(f"{key}_fearlessness", f"{title}: Fearlessness", default=0, minimum=0,
                 maximum=30),
        IntField(f"{key}_cowardice", f"{title}: Cowardice, its Fright Check penalty",
                 default=0, minimum=0, maximum=30,
                 help="The size of the penalty (4 for -4), added to every morale roll; 0 "
                      "without Cowardice."),
        BoolField(f"{key}_cornered", f"{title}: cannot retreat, no quarter", default=False),
    )


ORCS = {"name": "Orcs", "members": 12, "skill": 10, "hp": 12, "dr": 2, "damage": "2d",
        "wounding": 1.5}
KNIGHTS = {"name": "Knights", "members": 8, "skill": 16, "hp": 11, "dr": 6, "damage": "1d+2",
           "wounding": 1.5}

FIELDS = (
    *side_fields("a", "Side A", ORCS),
    *side_fields("b", "Side B", KNIGHTS),
    ChoiceField("wounds", "Injury left over", default="drop",
                choices=(("drop", "Whole members only: a wound short of a full share is not "
                                  "carried into the next round"),
                         ("carry", "Carried in the pool: every point counts (slower; "
                                   "a few members a side)"))),
    ChoiceField("ties", "Initiative ties", default="reroll",
                choices=(("reroll", "Roll again"), ("simultaneous", "Both sides act at once"))),
    ChoiceField("on_break", "A side that breaks", default="flee",
                choices=(("flee", "Flees: the other side gets its free attack"),
                         ("surrender", "Surrenders: the fight simply ends"))),
    reach_field(),
    fight_result.round_cap_field(),
)


def defence_skill(inputs: dict[str, Any], k: str) -> int | None:
    """A side's contest defence before its tactic (source: Ranged Attacks step 3, the
    defences and bonuses; None: its combat skill with no bonus). Bonuses are added to a
    Shield or Cloak skill, and to Dodge before the (Dodge - 3) x 2 conversion; the
    tactic's modifier comes after it (see the Rulings page)."""
    bonus = inputs[f"{k}_defense_bonus"]
    if inputs[f"{k}_defense"] == "dodge":
        return contest.dodge_as_skill(inputs[f"{k}_dodge"], bonus)
    if inputs[f"{k}_defense"] == "block":
        return inputs[f"{k}_block_skill"] + bonus
    return None if not bonus else inputs[f"{k}_skill"] + bonus


def build(inputs: dict[str, Any]) -> model.Fight:
    """The fight the inputs describe."""
    def side(k: str) -> model.Side:
        return model.Side(
            name=inputs[f"{k}_name"], members=inputs[f"{k}_members"],
            skill=inputs[f"{k}_skill"], tactic=inputs[f"{k}_tactic"],
            speed_factor=inputs[f"{k}_speed_factor"], hp=inputs[f"{k}_hp"],
            dr=inputs[f"{k}_dr"], damage=inputs[f"{k}_damage"],
            wounding=multiplier_fraction(inputs[f"{k}_wounding"]),
            frontage=inputs[f"{k}_frontage"], checks_morale=inputs[f"{k}_morale"],
            fearlessness=inputs[f"{k}_fearlessness"], cornered=inputs[f"{k}_cornered"],
            cowardice=inputs[f"{k}_cowardice"],
            attack_modifier=inputs[f"{k}_attack_modifier"],
            defence=defence_skill(inputs, k))
    rules = model.Rules(carry_wounds=inputs["wounds"] == "carry", ties=inputs["ties"],
                        on_break=inputs["on_break"], reach=inputs["reach_per_defender"])
    return model.Fight(side("a"), side("b"), rules)


def _check(inputs: dict[str, Any]) -> None:
    if inputs["a_name"].casefold() == inputs["b_name"].casefold():
        raise InputError("b_name", f'Side B: name is "{inputs["b_name"]}", the same as side '
                                   f"A's; give the two sides different names.")
    f = build(inputs)
    for key, title in (("a", "Side A"), ("b", "Side B")):
        att, dfd = f.side(key), f.side("b" if key == "a" else "a")
        most = 0
        for foes in range(1, dfd.members + 1):
            attack, defence, mult = model.contest_skills(att, dfd, att.members, foes, True,
                                                        f.rules.reach)
            most = max(most, (1 + max(0, attack - defence + 15) // att.speed_factor) * mult)
        if most * att.damage.dice > MAX_DAMAGE_DICE:
            raise InputError(f"{key}_damage", f"{title}: damage per hit: one attack could score "
                                              f"up to {most} hits of {att.damage}, "
                                              f"{most * att.damage.dice} dice, past the limit of "
                                              f"{MAX_DAMAGE_DICE} for an exact answer; lower the "
                                              f"dice, the skill gap or the members, or raise the "
                                              f"Speed Factor.")


def carry_pairs(inputs: dict[str, Any]) -> int:
    """The pairs of HP totals carried wounds may have to follow
    (:func:`rules_core.heroic.fight.carry_pairs`, from the form's inputs)."""
    return inputs["a_members"] * inputs["a_hp"] * inputs["b_members"] * inputs["b_hp"]


def pruned_budget(max_rounds: int) -> int:
    """:data:`model.MAX_PRUNED_WORK` up to 20 rounds, growing to three times it at 100."""
    return solver.scaled_budget(model.MAX_PRUNED_WORK, max_rounds)


def _cascade(inputs: dict[str, Any]) -> cascade.Cascade:
    return model.cascade(build(inputs), inputs["max_rounds"], quick.play_quickly)


def _advice(inputs: dict[str, Any]) -> str:
    """What to lower for exact odds."""
    if inputs["a_members"] * inputs["b_members"] > model.MAX_MEMBER_PAIRS:
        return ("For exact odds, lower either side's members (Side A: members x Side B: "
                f"members at most {model.MAX_MEMBER_PAIRS}; 12 against 13 still fits).")
    return ("For exact odds, lower the round cap, the members or the HP of either side, or "
            "keep whole members only (Injury left over).")


def _result(inputs: dict[str, Any], refined: cascade.Refinement) -> Result:
    f = refined.cascade.fight
    assert isinstance(f, model.Fight)
    out = fight_result.refined_result(refined, _sides(f))
    out["sides"] = {"a": f.a.name, "b": f.b.name}
    fight_result.add_summed(out, {model.BEATEN.format(side.name): (
        model.WIPED.format(side.name), model.BREAKS.format(side.name)) for side in (f.a, f.b)})
    if out["method"] == "simulation":
        out["simulated_because"] = f"{refined.why_not_exact} {_advice(inputs)}"
    return out


ANSWERS = cascade.Sharpened(_cascade, _result)


def _compute(inputs: dict[str, Any]) -> Result:
    """The settled answer (the API's): see :mod:`rules_core.cascade`."""
    return ANSWERS.compute(inputs)


def _sides(f: model.Fight) -> tuple[tuple[str, str], ...]:
    return (("a", f"{f.a.name} lost"), ("b", f"{f.b.name} lost"))


DEFENCE_WORDS = {"skill": "combat skill", "block": "Shield or Cloak skill", "dodge": "Dodge"}


def _defence_text(inputs: dict[str, Any], k: str, tactic: int) -> str:
    bonus, kind = inputs[f"{k}_defense_bonus"], inputs[f"{k}_defense"]
    if kind == "dodge":
        base = contest.dodge_as_skill(inputs[f"{k}_dodge"], bonus)
        text = f"(Dodge {inputs[f'{k}_dodge']} + {bonus} - 3) x 2 = {base}"
    else:
        raw = inputs[f"{k}_skill"] if kind == "skill" else inputs[f"{k}_block_skill"]
        base = raw + bonus
        text = f"{DEFENCE_WORDS[kind]} {raw}" + (f" + bonuses {bonus}" if bonus else "")
    return f"{text}, tactic {signed(tactic)}: **{base + tactic}**"


def sides_table(inputs: dict[str, Any], f: model.Fight) -> str:
    """Each side's attack and defence before the numbers, and its standing morale
    modifiers, as the whole fight uses them."""
    rows = []
    for k, side in (("a", f.a), ("b", f.b)):
        tactic = TACTIC_BY_KEY[side.tactic]
        attack = side.skill + side.attack_modifier + (tactic.melee or 0)
        morale_mods = [f"Fearlessness {signed(-side.fearlessness)}"] if side.fearlessness else []
        if side.cowardice:
            morale_mods.append(f"Cowardice {signed(side.cowardice)}")
        if side.cornered:
            morale_mods.append("cannot retreat -5")
        rows.append([
            side.name,
            f"skill {side.skill}" + (f", other {signed(side.attack_modifier)}"
                                     if side.attack_modifier else "")
            + f", {tactic.name} {signed(tactic.melee or 0)}: **{attack}**",
            _defence_text(inputs, k, tactic.defense),
            (", ".join(morale_mods) or "none") if side.checks_morale else "never checks",
        ])
    return table(["Side", "Attack before the numbers bonus", "Defence in the contest",
                  "Standing morale modifiers"], rows)


def _explain(inputs: dict[str, Any], result: Result) -> str:
    f = build(inputs)
    a, b = f.a, f.b
    carry = f.rules.carry_wounds
    lines = [
        f"**{a.name}** ({a.members} x {a.hp} HP = {a.full_hp}) against **{b.name}** "
        f"({b.members} x {b.hp} HP = {b.full_hp}), played round by round as a chain "
        f"of states: the state is each side's pooled HP"
        + ("" if carry else ", kept in whole members") + ".",
        "",
        sides_table(inputs, f),
        "",
        f"Dodge counts as (Dodge + bonuses - 3) x 2 "
        f"({rule('dodge in the contest', 'heroic/melee', 'dodge-in-the-contest')}); the "
        f"tactic's defence modifier comes after "
        f"({rule('ruling', 'rulings/', 'defence-modifiers-and-dodge')}).",
        "",
        "Every round:",
        "",
        f"1. **Initiative**: each side rolls 1d and the higher acts first "
        f"({rule('the round', 'heroic/', 'the-round')}); a tie is "
        + ("rolled again, so each side leads half the time." if f.rules.ties == "reroll"
           else "a round in which both sides strike at once (1 chance in 6)."),
        f"2. **The first side attacks** with everyone standing, at most the frontage and at "
        f"most {f.rules.reach} around each foe still up (the rest wait their turn): one "
        f"Quick Contest with the skill bonus of the current numbers and the hit multiplier "
        f"of the attackers ({rule('numerical superiority', GROUPS_PAGE, 'numerical-superiority')}, "
        f"{rule('hit multiplier', GROUPS_PAGE, 'the-hit-multiplier')}); each hit's damage is pooled, "
        f"DR comes off once per hit and the rest is multiplied "
        f"({rule('group hit points', GROUPS_PAGE, 'group-hit-points')}).",
        "3. **The second side strikes back** with whoever it still has standing.",
        "4. **Members down** are the full shares of HP the pool has lost"
        + (", and a partial share stays with the wounded member into later rounds."
           if carry else "; what is left short of a full share is not carried over "
           f"({rule('ruling', 'rulings/', 'the-engagement-injury-left-over')})."),
        f"5. **Morale**: a side that has lost a third of its members, and lost someone this "
        f"round, rolls 3d plus its modifiers and breaks on 13 or more "
        f"({rule('morale', 'heroic/morale', 'when-morale-is-checked')}). A side that breaks "
        + ("flees, and the other side gets one free attack on it as it retreats at -4 "
           f"defence ({rule('retreat', 'heroic/tactics', 'retreat')})."
           if f.rules.on_break == "flee" else "surrenders and the fight ends."),
        "",
        f"The fight ends when a side is wiped out or breaks; one still going after "
        f"{inputs['max_rounds']} rounds is reported as \"{solver.STILL_FIGHTING}\". "
        + (fight_result.simulation_note(result, result["simulated_because"])
           if result.get("method") == "simulation" else
           fight_result.pruned_note(result, solver.PRUNE_FLOOR) if "error_bound" in result
           else f"Every chance below is exact (the chain followed at most "
                f"{result['peak_states']} live states in a round)."),
        "",
        fight_result.by_round_table(result),
    ]
    return "\n".join(lines)


def _roll(inputs: dict[str, Any], rng: random.Random) -> Result:
    f = build(inputs)
    played = solver.play(f, max_rounds=inputs["max_rounds"], rng=rng)
    lost = f.losses(played.state)
    return {
        "outcome": played.outcome,
        "rounds": played.rounds,
        "losses": lost,
        "log": played.log,
        "dice": played.dice,
        "summary": f"{played.outcome} after {count(played.rounds, 'round')}: "
                   f"{f.a.name} lost {lost['a']}, {f.b.name} lost {lost['b']}.",
    }


ENGAGEMENT = Calculator(
    name="heroic.engagement",
    title="Two groups fight it out",
    summary="Exact odds of how a group fight ends and when: numbers, pooled HP, morale.",
    fields=FIELDS,
    check=_check,
    compute=_compute,
    sharpen=ANSWERS,
    explain=_explain,
    headline=fight_result.headline,
    charts=fight_result.charts((("a", "Side A's losses"), ("b", "Side B's losses")), "Members lost"),
    roll=_roll,
    roll_label="Play the fight",
    page=GROUPS_PAGE,
    hand_on=hands_on_to("heroic.balance"),
)


def expected(result: Result, key: str) -> Fraction:
    """Expected members lost by a side, exactly."""
    return sum((int(k) * Fraction(v) for k, v in result[f"losses_{key}_exact"].items()),
               Fraction(0))
