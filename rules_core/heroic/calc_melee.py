"""Calculators of the melee page: the attack contest (source: Heroic Combat, Melee
Attacks, Speed Factor, Non-Identical Targets, Multiple Attackers) and staying in the
fight, the HT roll at 0 HP or after a major wound (source: Injuries)."""

from __future__ import annotations

import random
from fractions import Fraction
from typing import Any

import icepool

from rules_core.calculator import Calculator, Chart, Result
from rules_core.dice.distribution import from_icepool, percent, to_json
from rules_core.errors import InputError
from rules_core.explain import rule, signed, table
from rules_core.fields import ChoiceField, IntField
from rules_core.heroic import contest
from rules_core.heroic.groups import hit_multiplier, skill_bonus
from rules_core.heroic.inputs import (
    GROUPS_PAGE,
    MELEE_PAGE,
    SPEED_FACTOR_HELP,
    TACTICS_PAGE,
    check_reach,
    contest_sentence,
    count_field,
    reach_field,
    roll_3d6,
    roll_field,
    skill_field,
    tactic_field,
)
from rules_core.heroic.tables import (
    DEFAULT_SF,
    FREE_ATTACK_MAX_PENALTY,
    HT_ALWAYS_FAILS,
    HT_ALWAYS_SUCCEEDS,
    TACTIC_BY_KEY,
)
from rules_core.messages import count

# --- the melee contest ------------------------------------------------------------

MELEE_FIELDS = (
    skill_field("attacker_skill", "Attacker's skill", 14,
                "The weapon or unarmed skill, before the modifiers below."),
    tactic_field("attacker_tactic", "Attacker's tactic", "Its melee modifier is added to the "
                 "attacker's skill."),
    IntField("attacker_modifier", "Attacker's other modifiers", default=0, minimum=-30,
             maximum=30, help="Posture, situation, visibility, a chosen hit location."),
    count_field("attackers", "Attackers", 1, "Identical attackers able to reach the foe "
                "this round (1 for a single fighter)."),
    count_field("defenders", "Defenders", 1),
    reach_field(),
    ChoiceField("defense", "Defender resists with", default="skill",
                choices=(("skill", "A weapon, unarmed, Shield or Cloak skill"),
                         ("dodge", "Dodge, as (Dodge - 3) x 2"))),
    skill_field("defender_skill", "Defender's skill", 11, shown_if=("defense", ("skill",))),
    IntField("dodge", "Defender's Dodge", initial=8, minimum=3, maximum=30,
             shown_if=("defense", ("dodge",))),
    IntField("defense_bonus", "Defence bonuses", default=0, minimum=0, maximum=20,
             help="Shield DB, Combat Reflexes, Enhanced Defenses; with Dodge they are added "
                  "before the conversion."),
    tactic_field("defender_tactic", "Defender's tactic", "Its defence modifier is added to "
                 "the defender's contest skill."),
    ChoiceField("dodge_tactic", "Tactic's defence modifier with Dodge", default="after",
                choices=(("after", "Added after the (Dodge - 3) x 2 conversion"),
                         ("before", "Added to Dodge before the conversion, like a bonus")),
                shown_if=("defense", ("dodge",)),
                help="The source does not say; see the Rulings page."),
    IntField("move_advantage", "Retreating defender's Basic Move over the attacker's",
             default=0, minimum=0, maximum=50, shown_if=("defender_tactic", ("retreat",)),
             help="A free attack on a retreating foe is at -1 per level, at worst -4."),
    IntField("speed_factor", "Speed Factor (SF)", default=DEFAULT_SF, minimum=1, maximum=20,
             help=SPEED_FACTOR_HELP),
    roll_field("attacker_roll", "Attacker's roll"),
    roll_field("defender_roll", "Defender's roll"),
    IntField("hits_assigned", "Hits already given to other targets", default=0, minimum=0,
             maximum=1000, help="For a further, non-identical target: its contest is at -SF "
                                "per hit already assigned."),
)


def melee_skills(inputs: dict[str, Any]) -> dict[str, Any]:
    """Both sides' effective contest skills and the terms that make them."""
    a_tactic = TACTIC_BY_KEY[inputs["attacker_tactic"]]
    d_tactic = TACTIC_BY_KEY[inputs["defender_tactic"]]
    bonus = skill_bonus(inputs["attackers"], inputs["defenders"])
    a_terms = [("Skill", inputs["attacker_skill"], MELEE_PAGE, "the-attack-contest"),
               (f"Tactic: {a_tactic.name}", a_tactic.melee, TACTICS_PAGE, "the-eight-tactics"),
               (f"Numbers: {inputs['attackers']} against {inputs['defenders']}", bonus,
                GROUPS_PAGE, "numerical-superiority"),
               ("Other modifiers", inputs["attacker_modifier"], MELEE_PAGE, "melee-modifiers")]
    if d_tactic.key == "retreat":
        free = max(FREE_ATTACK_MAX_PENALTY, -inputs["move_advantage"])
        a_terms.append(("Free attack on a faster retreating foe", free, TACTICS_PAGE, "retreat"))
    if inputs["defense"] == "dodge" and inputs["dodge_tactic"] == "before":
        base = contest.dodge_as_skill(inputs["dodge"], inputs["defense_bonus"] + d_tactic.defense)
        d_terms = [(f"(Dodge {inputs['dodge']} + bonuses {inputs['defense_bonus']} + tactic "
                    f"{d_tactic.name} {signed(d_tactic.defense)} - 3) x 2", base,
                    "rulings", "defence-modifiers-and-dodge")]
    elif inputs["defense"] == "dodge":
        base = contest.dodge_as_skill(inputs["dodge"], inputs["defense_bonus"])
        d_terms = [(f"(Dodge {inputs['dodge']} + bonuses {inputs['defense_bonus']} - 3) x 2",
                    base, MELEE_PAGE, "dodge-in-the-contest")]
    else:
        d_terms = [("Skill", inputs["defender_skill"], MELEE_PAGE, "the-attack-contest"),
                   ("Defence bonuses", inputs["defense_bonus"], MELEE_PAGE, "the-attack-contest")]
    if not (inputs["defense"] == "dodge" and inputs["dodge_tactic"] == "before"):
        d_terms.append((f"Tactic: {d_tactic.name}", d_tactic.defense, TACTICS_PAGE,
                        "the-eight-tactics"))
    return {
        "attacker_terms": a_terms,
        "defender_terms": d_terms,
        "attacker": sum(t[1] for t in a_terms),
        "defender": sum(t[1] for t in d_terms),
        "skill_bonus": bonus,
        "hit_multiplier": hit_multiplier(inputs["attackers"]),
    }


def _melee_check(inputs: dict[str, Any]) -> None:
    if TACTIC_BY_KEY[inputs["attacker_tactic"]].melee is None:
        raise InputError("attacker_tactic", "Retreat allows no attacks; pick another tactic "
                                            "for the attacker.")
    check_reach(inputs["attackers"], inputs["defenders"], inputs["reach_per_defender"])
    assigned = inputs["hits_assigned"]
    if not assigned:
        return
    skills = melee_skills(inputs)
    dist = contest.hit_distribution(skills["attacker"], skills["defender"],
                                    inputs["speed_factor"], multiplier=skills["hit_multiplier"],
                                    attacker_roll=inputs["attacker_roll"],
                                    defender_roll=inputs["defender_roll"])
    scored = max(h for h, p in dist.items() if p)
    known = inputs["attacker_roll"] is not None and inputs["defender_roll"] is not None
    if assigned >= scored:
        what = (f"these rolls score {count(scored, 'hit')}" if known
                else f"this contest can score at most {count(scored, 'hit')}")
        allowed = f"from 0 to {scored - 1}" if scored > 0 else "0"
        raise InputError("hits_assigned", f"Hits already given to other targets is {assigned}, "
                                          f"but {what} and a further target needs one left: "
                                          f"allowed {allowed}.")


def _melee_compute(inputs: dict[str, Any]) -> Result:
    skills = melee_skills(inputs)
    sf, mult = inputs["speed_factor"], skills["hit_multiplier"]
    dist = contest.hit_distribution(skills["attacker"], skills["defender"], sf,
                                    multiplier=mult, attacker_roll=inputs["attacker_roll"],
                                    defender_roll=inputs["defender_roll"])
    win = contest.p_win(dist)
    penalty = contest.next_target_penalty(sf, inputs["hits_assigned"])
    result: Result = {
        "attacker_effective": skills["attacker"],
        "defender_effective": skills["defender"],
        "skill_bonus": skills["skill_bonus"],
        "hit_multiplier": mult,
        "p_win": float(win),
        "p_win_exact": str(win),
        **to_json("hits", dist),
        "expected_hits": float(sum(h * p for h, p in dist.items())),
        "next_target_penalty": penalty,
        "next_target_skill": skills["attacker"] + penalty,
    }
    if inputs["attacker_roll"] is not None and inputs["defender_roll"] is not None:
        c = contest.resolve(skills["attacker"], skills["defender"], inputs["attacker_roll"],
                            inputs["defender_roll"], sf, multiplier=mult)
        result["contest"] = {"attacker_margin": c.attacker_margin,
                             "defender_margin": c.defender_margin,
                             "margin_of_victory": c.margin_of_victory,
                             "winner": _winner(c), "hits": c.hits}
    return result


def _winner(c: contest.Contest) -> str:
    if c.attacker_wins:
        return "attacker"
    return "defender" if c.margin_of_victory < 0 else "nobody"


def _terms_table(terms: list[tuple[str, int, str, str]], total: int, who: str) -> str:
    rows = [[rule(label, page, anchor), str(value) if i == 0 else signed(value)]
            for i, (label, value, page, anchor) in enumerate(terms) if value or i == 0]
    rows.append([f"**{who}'s effective skill**", f"**{total}**"])
    return table([who, "Value"], rows)


def _melee_explain(inputs: dict[str, Any], result: Result) -> str:
    skills = melee_skills(inputs)
    sf, mult = inputs["speed_factor"], result["hit_multiplier"]
    parts = [_terms_table(skills["attacker_terms"], skills["attacker"], "Attacker"), "",
             _terms_table(skills["defender_terms"], skills["defender"], "Defender"), "",
             f"Both roll 3d6; each margin is effective skill minus the roll, and the better "
             f"margin wins, even when both fail ({rule('the attack contest', MELEE_PAGE, 'the-attack-contest')}). "
             f"A win scores 1 hit plus 1 per full {sf} points of margin of victory "
             f"({rule('Speed Factor', MELEE_PAGE, 'speed-factor')})."]
    if mult > 1:
        parts.append(f"\n{inputs['attackers']} attackers multiply the hits by **{mult}** "
                     f"({rule('hit multiplier', GROUPS_PAGE, 'the-hit-multiplier')}).")
    parts.append(f"\nThe attacker wins **{percent(result['p_win'])}** of contests "
                 f"(exactly {result['p_win_exact']}).")
    c = result.get("contest")
    if c:
        parts.append(f"\nWith rolls of {inputs['attacker_roll']} and {inputs['defender_roll']}: "
                     f"margins {signed(c['attacker_margin'])} and {signed(c['defender_margin'])}, "
                     f"so {contest_sentence(c)}.")
    if inputs["hits_assigned"]:
        parts.append(f"\nA different, non-identical target after {inputs['hits_assigned']} "
                     f"hit(s) takes a new contest at {signed(result['next_target_penalty'])}: "
                     f"effective skill **{result['next_target_skill']}** "
                     f"({rule('non-identical targets', MELEE_PAGE, 'non-identical-targets')}).")
    return "\n".join(parts)


def _melee_headline(result: Result) -> list[tuple[str, str]]:
    out = [("Attacker wins", percent(result["p_win"])),
           ("Expected hits", f"{result['expected_hits']:.2f}"),
           ("Effective skills", f"{result['attacker_effective']} vs {result['defender_effective']}")]
    if "contest" in result:
        c = result["contest"]
        out.insert(0, ("This contest", f"{count(c['hits'], 'hit')}"
                       if c["hits"] else f"no hits ({c['winner']} ahead)"
                       if c["winner"] != "nobody" else "tie: no hits"))
    return out


def _melee_roll(inputs: dict[str, Any], rng: random.Random) -> Result:
    skills = melee_skills(inputs)
    a_dice, d_dice = roll_3d6(rng), roll_3d6(rng)
    c = contest.resolve(skills["attacker"], skills["defender"], sum(a_dice), sum(d_dice),
                        inputs["speed_factor"], multiplier=skills["hit_multiplier"])
    verdict = {"attacker_margin": c.attacker_margin, "defender_margin": c.defender_margin,
               "margin_of_victory": c.margin_of_victory, "winner": _winner(c), "hits": c.hits}
    sentence = contest_sentence(verdict).replace("**", "")
    return {
        "dice": [{"die": "attacker d6", "face": f} for f in a_dice]
                + [{"die": "defender d6", "face": f} for f in d_dice],
        "contest": verdict,
        "summary": f"Attacker {sum(a_dice)} vs skill {skills['attacker']} "
                   f"({signed(c.attacker_margin)}), defender {sum(d_dice)} vs skill "
                   f"{skills['defender']} ({signed(c.defender_margin)}): {sentence}",
    }


MELEE = Calculator(
    name="heroic.melee",
    title="Melee attack contest",
    summary="Exact chance to win the 3d6 Quick Contest and the distribution of hits.",
    fields=MELEE_FIELDS,
    check=_melee_check,
    compute=_melee_compute,
    explain=_melee_explain,
    headline=_melee_headline,
    charts=(Chart("hits", "Hits delivered", "Hits"),),
    roll=_melee_roll,
    roll_label="Roll the contest",
    page=MELEE_PAGE,
)


# --- the HT roll at 0 HP or after a major wound -------------------------------------------

def ht_success(roll: int, ht: int) -> bool:
    """One HT roll: 3-4 always succeed, 17-18 always fail, otherwise roll <= HT (p. B348)."""
    if roll <= HT_ALWAYS_SUCCEEDS:
        return True
    if roll >= HT_ALWAYS_FAILS:
        return False
    return roll <= ht


def is_major_wound(injury: int, hp: int) -> bool:
    """A single blow's injury of more than half the victim's HP is a major wound."""
    return 2 * injury > hp


def _ht_compute(i: dict[str, Any]) -> Result:
    major = is_major_wound(i["largest_injury"], i["hp"])
    zero = i["current_hp"] <= 0
    ht = i["ht"] + i["ht_modifier"]
    dist = from_icepool((3 @ icepool.d6).map(lambda r: ht_success(r, ht)))
    stays = dist.get(True, Fraction(0))
    return {"major_wound": major, "at_zero": zero, "roll_due": major or zero,
            "effective_ht": ht, "p_stays": float(stays), "p_stays_exact": str(stays),
            "p_out": float(1 - stays), "p_out_exact": str(1 - stays)}


def _ht_check(i: dict[str, Any]) -> None:
    if i["current_hp"] > i["hp"]:
        raise InputError("current_hp", f"Current HP is {i['current_hp']}, more than the "
                                       f"{i['hp']} HP of a healthy fighter.")


def _ht_explain(i: dict[str, Any], r: Result) -> str:
    why = []
    if r["at_zero"]:
        why.append(f"{i['current_hp']} HP is 0 or less")
    if r["major_wound"]:
        why.append(f"a blow of {i['largest_injury']} injury is more than half of "
                   f"{i['hp']} HP, a major wound")
    head = ("A roll is due: " + " and ".join(why) + "." if why
            else "No roll is due: HP above 0 and no blow over half the HP.")
    return (f"{head} ({rule('incapacitation', 'heroic/melee', 'incapacitation')})\n\n"
            f"Roll 3d against HT {r['effective_ht']}: 3 or 4 always succeeds, 17 or 18 always "
            f"fails. On a failure the fighter is out of the fight. Chance to stay in: "
            f"**{percent(r['p_stays'])}** (exactly {r['p_stays_exact']}). A group of "
            f"identical fighters rolls once for all of them.")


def _ht_roll(i: dict[str, Any], rng: random.Random) -> Result:
    ht = i["ht"] + i["ht_modifier"]
    dice = roll_3d6(rng)
    ok = ht_success(sum(dice), ht)
    return {"dice": [{"die": "d6", "face": f} for f in dice], "stays": ok,
            "summary": f"HT {ht}: rolled {sum(dice)}, "
                       + ("stays in the fight" if ok else "out of the fight")}


INCAPACITATION = Calculator(
    name="heroic.incapacitation",
    title="Staying in the fight",
    summary="Whether a HT roll is due (0 HP or a major wound) and the chance to stay in.",
    fields=(IntField("hp", "HP", initial=11, minimum=1, maximum=1000),
            IntField("current_hp", "Current HP", initial=0, minimum=-10_000, maximum=1000),
            IntField("largest_injury", "Largest injury from one blow", default=0, initial=6,
                     minimum=0, maximum=10_000,
                     help="A blow of more than half the HP is a major wound."),
            IntField("ht", "HT", initial=11, minimum=1, maximum=30),
            IntField("ht_modifier", "Modifiers to the HT roll", default=0, minimum=-20,
                     maximum=20, help="Hard to Kill, High Pain Threshold rules of your game...")),
    check=_ht_check,
    compute=_ht_compute,
    explain=_ht_explain,
    headline=lambda r: [("Roll due", "Yes" if r["roll_due"] else "No"),
                        ("Major wound", "Yes" if r["major_wound"] else "No"),
                        ("Stays in", percent(r["p_stays"]))],
    roll=_ht_roll,
    roll_label="Roll HT",
    page=MELEE_PAGE,
)
