"""Calculator of the ranged page: a ranged attack (source: Heroic Combat, Ranged Attacks)."""

from __future__ import annotations

import random
from typing import Any

from rules_core.calculator import Calculator, Chart, Result
from rules_core.dice.distribution import percent, to_json
from rules_core.errors import InputError
from rules_core.explain import rule, signed, table
from rules_core.fields import BoolField, ChoiceField, IntField, NumberField
from rules_core.heroic import contest
from rules_core.heroic.inputs import (
    RANGED_PAGE,
    contest_sentence,
    roll_3d6,
    roll_field,
    skill_field,
    tactic_field,
)
from rules_core.heroic.ranged import P_STRAY_ROLL, range_band, shots_allowed, skill_terms
from rules_core.heroic.tables import DEFAULT_SF, STRAY_ROLL_MAX, TACTIC_BY_KEY, TACTICS

MOVING_TACTICS = tuple(t.key for t in TACTICS if t.ranged_moving)

FIELDS = (
    skill_field("attacker_skill", "Shooter's weapon skill", 14),
    ChoiceField("reload", "Weapon's reload time", default="fast",
                choices=(("fast", "2 seconds or less (bows, slings, thrown weapons)"),
                         ("slow", "Longer (crossbows, firearms that reload slowly)"))),
    tactic_field("tactic", "Shooter's tactic", "Sets the ranged modifier and, for fast "
                 "weapons, the number of shots."),
    BoolField("fast_draw", "Made a Fast-Draw roll at the start of the turn", default=False),
    IntField("acc", "Weapon's Accuracy (Acc)", default=0, initial=2, minimum=0, maximum=20,
             shown_if=("tactic", ("aimed_shooting",))),
    BoolField("moved_far", "Moved more than Move x 2 yards this round", default=False,
              shown_if=("tactic", MOVING_TACTICS)),
    IntField("bulk", "Weapon's Bulk", default=0, initial=-6, minimum=-20, maximum=0,
             help="Used at close range and when moving far (a negative number, e.g. -6)."),
    IntField("shots_at_target", "Shots at this target", default=1, initial=2, minimum=1,
             maximum=4, help="Each shot after the first gives +2; the hits cannot exceed it."),
    IntField("group_size", "Identical foes in the target group", default=1, minimum=1,
             maximum=100_000, help="1 for a single chosen target; 5 or more gives a bonus."),
    NumberField("distance_yd", "Distance", initial=15, minimum=0, maximum=1_000_000,
                unit="yards"),
    BoolField("into_melee", "Target is locked in melee", default=False),
    IntField("bystander_defense", "Defence of the other fighters in that melee",
             default=10, minimum=0, maximum=60, shown_if=("into_melee", (True,)),
             help="Their contest skill, for a stray hit when the shot misses."),
    IntField("other_modifier", "Other modifiers", default=0, minimum=-30, maximum=30,
             help="Hit location, visibility, cover and the rest of the usual ranged modifiers."),
    ChoiceField("defense", "Target resists with", default="dodge",
                choices=(("dodge", "Dodge, as (Dodge - 3) x 2"),
                         ("parry_missile", "Parry Missile Weapons, as (skill - 3) x 2"),
                         ("skill", "Shield skill"))),
    IntField("dodge", "Target's Dodge", initial=8, minimum=3, maximum=30,
             shown_if=("defense", ("dodge",))),
    IntField("parry_missile", "Target's Parry Missile Weapons", initial=12, minimum=3,
             maximum=40, shown_if=("defense", ("parry_missile",))),
    skill_field("defender_skill", "Target's Shield skill", 12, shown_if=("defense", ("skill",))),
    IntField("defense_bonus", "Defence bonuses", default=0, minimum=0, maximum=20,
             help="Shield DB, Combat Reflexes, Enhanced Defenses (added before the x 2)."),
    tactic_field("defender_tactic", "Target's tactic", "Its defence modifier applies."),
    ChoiceField("dodge_tactic", "Tactic's defence modifier with the conversion", default="after",
                choices=(("after", "Added after the (x - 3) x 2 conversion"),
                         ("before", "Added before the conversion, like a bonus")),
                shown_if=("defense", ("dodge", "parry_missile")),
                help="The source does not say; see the Rulings page."),
    IntField("speed_factor", "Speed Factor (SF)", default=DEFAULT_SF, minimum=1, maximum=20),
    roll_field("attacker_roll", "Shooter's roll"),
    roll_field("defender_roll", "Target's roll"),
)


def _shots(inputs: dict[str, Any]) -> int:
    return shots_allowed(TACTIC_BY_KEY[inputs["tactic"]], inputs["reload"] == "fast",
                         inputs["fast_draw"])


def _check(inputs: dict[str, Any]) -> None:
    tactic = TACTIC_BY_KEY[inputs["tactic"]]
    if tactic.ranged is None:
        raise InputError("tactic", f"{tactic.name} allows no attacks; pick another tactic.")
    allowed = _shots(inputs)
    if inputs["shots_at_target"] > allowed:
        raise InputError("shots_at_target", f"is {inputs['shots_at_target']}, but this weapon "
                                            f"under {tactic.name} fires at most {allowed} "
                                            f"shot(s) this round.")


def _defender(inputs: dict[str, Any]) -> tuple[str, int]:
    d_tactic = TACTIC_BY_KEY[inputs["defender_tactic"]]
    kind, bonus = inputs["defense"], inputs["defense_bonus"]
    if kind == "skill":
        label, base = f"Shield {inputs['defender_skill']} + bonuses {bonus}", \
            inputs["defender_skill"] + bonus
    else:
        name = "Dodge" if kind == "dodge" else "Parry Missile Weapons"
        if inputs["dodge_tactic"] == "before":
            return (f"({name} {inputs[kind]} + bonuses {bonus} + {d_tactic.name} "
                    f"{signed(d_tactic.defense)} - 3) x 2",
                    contest.dodge_as_skill(inputs[kind], bonus + d_tactic.defense))
        label = f"({name} {inputs[kind]} + bonuses {bonus} - 3) x 2"
        base = contest.dodge_as_skill(inputs[kind], bonus)
    return f"{label}, {d_tactic.name} {signed(d_tactic.defense)}", base + d_tactic.defense


def _terms(inputs: dict[str, Any]) -> list[Any]:
    return skill_terms(
        inputs["attacker_skill"], TACTIC_BY_KEY[inputs["tactic"]],
        moved_far=bool(inputs["moved_far"]), bulk=inputs["bulk"], acc=inputs["acc"] or 0,
        shots_at_target=inputs["shots_at_target"], group_size=inputs["group_size"],
        distance_yd=inputs["distance_yd"], into_melee=inputs["into_melee"],
        other=inputs["other_modifier"])


def _compute(inputs: dict[str, Any]) -> Result:
    terms = _terms(inputs)
    attacker = sum(t.value for t in terms)
    defender_label, defender = _defender(inputs)
    cap, sf = inputs["shots_at_target"], inputs["speed_factor"]
    dist = contest.hit_distribution(attacker, defender, sf, cap=cap,
                                    attacker_roll=inputs["attacker_roll"],
                                    defender_roll=inputs["defender_roll"])
    win = contest.p_win(dist)
    key, name, penalty = range_band(inputs["distance_yd"])
    result: Result = {
        "shots_allowed": _shots(inputs),
        "range_band": key,
        "range_penalty": penalty if penalty is not None else min(0, inputs["bulk"]),
        "attacker_effective": attacker,
        "defender_effective": defender,
        "modifiers": [{"label": t.label, "value": t.value, "rule": f"/{RANGED_PAGE}/#{t.anchor}"}
                      for t in terms],
        "p_win": float(win),
        "p_win_exact": str(win),
        **to_json("hits", dist),
        "expected_hits": float(sum(h * p for h, p in dist.items())),
    }
    if inputs["into_melee"]:
        stray_win = contest.p_win(contest.hit_distribution(
            attacker, inputs["bystander_defense"], sf, cap=1))
        given_miss = P_STRAY_ROLL * stray_win
        stray = (1 - win) * given_miss
        result.update(p_stray=float(stray), p_stray_exact=str(stray),
                      p_stray_given_miss=float(given_miss),
                      p_stray_given_miss_exact=str(given_miss))
    if inputs["attacker_roll"] is not None and inputs["defender_roll"] is not None:
        c = contest.resolve(attacker, defender, inputs["attacker_roll"], inputs["defender_roll"],
                            sf, cap=cap)
        result["contest"] = _verdict(c)
    return result


def _verdict(c: contest.Contest) -> dict[str, Any]:
    winner = "attacker" if c.attacker_wins else "defender" if c.margin_of_victory < 0 else "nobody"
    return {"attacker_margin": c.attacker_margin, "defender_margin": c.defender_margin,
            "margin_of_victory": c.margin_of_victory, "winner": winner, "hits": c.hits}


def _explain(inputs: dict[str, Any], result: Result) -> str:
    tactic = TACTIC_BY_KEY[inputs["tactic"]]
    rows = [[f"[{m['label']}]({m['rule']})", str(m["value"]) if i == 0 else signed(m["value"])]
            for i, m in enumerate(result["modifiers"])]
    rows.append(["**Shooter's effective skill**", f"**{result['attacker_effective']}**"])
    defender_label, _ = _defender(inputs)
    parts = [
        f"A {'fast' if inputs['reload'] == 'fast' else 'slow'}-reloading weapon under "
        f"{tactic.name}{' with Fast-Draw' if inputs['fast_draw'] and inputs['reload'] == 'fast' else ''} "
        f"fires up to **{result['shots_allowed']}** shot(s) this round "
        f"({rule('shots per round', RANGED_PAGE, 'shots-per-round')}).", "",
        table(["Shooter", "Value"], rows), "",
        f"The target resists with {defender_label}: effective **{result['defender_effective']}**.",
        f"\nA win scores 1 hit plus 1 per full {inputs['speed_factor']} of margin, at most "
        f"{inputs['shots_at_target']} (one per projectile) "
        f"({rule('resolving the shot', RANGED_PAGE, 'resolving-the-shot')}). The shooter wins "
        f"**{percent(result['p_win'])}** of contests.",
    ]
    if "p_stray" in result:
        parts.append(f"\nOn a miss into a melee, 3d of {STRAY_ROLL_MAX} or less (3/8) sends the "
                     f"shot at another fighter, hit if the shooter wins a contest against "
                     f"{inputs['bystander_defense']}: {percent(result['p_stray_given_miss'])} of "
                     f"misses, **{percent(result['p_stray'])}** of all shots "
                     f"({rule('firing into a melee', RANGED_PAGE, 'firing-into-a-melee')}).")
    if "contest" in result:
        c = result["contest"]
        parts.append(f"\nWith rolls of {inputs['attacker_roll']} and {inputs['defender_roll']}: "
                     f"margins {signed(c['attacker_margin'])} and {signed(c['defender_margin'])}, "
                     f"so {contest_sentence(c)}.")
    return "\n".join(parts)


def _headline(result: Result) -> list[tuple[str, str]]:
    out = [("Shots allowed", str(result["shots_allowed"])),
           ("Effective skill", f"{result['attacker_effective']} vs {result['defender_effective']}"),
           ("At least one hit", percent(result["p_win"])),
           ("Expected hits", f"{result['expected_hits']:.2f}")]
    if "p_stray" in result:
        out.append(("Stray hit on another fighter", percent(result["p_stray"])))
    return out


def _roll(inputs: dict[str, Any], rng: random.Random) -> Result:
    terms = _terms(inputs)
    attacker = sum(t.value for t in terms)
    _, defender = _defender(inputs)
    a_dice, d_dice = roll_3d6(rng), roll_3d6(rng)
    c = contest.resolve(attacker, defender, sum(a_dice), sum(d_dice), inputs["speed_factor"],
                        cap=inputs["shots_at_target"])
    dice = ([{"die": "shooter d6", "face": f} for f in a_dice]
            + [{"die": "target d6", "face": f} for f in d_dice])
    verdict = _verdict(c)
    summary = (f"Shooter {sum(a_dice)} vs {attacker}, target {sum(d_dice)} vs {defender}: "
               + contest_sentence(verdict).replace("**", ""))
    result: Result = {"contest": verdict, "stray_hit": False}
    if inputs["into_melee"] and not c.attacker_wins:
        stray_dice = roll_3d6(rng)
        dice += [{"die": "stray d6", "face": f} for f in stray_dice]
        if sum(stray_dice) <= STRAY_ROLL_MAX:
            s_a, s_d = roll_3d6(rng), roll_3d6(rng)
            dice += ([{"die": "shooter d6", "face": f} for f in s_a]
                     + [{"die": "bystander d6", "face": f} for f in s_d])
            stray = contest.resolve(attacker, inputs["bystander_defense"], sum(s_a), sum(s_d),
                                    inputs["speed_factor"], cap=1)
            result["stray_hit"] = stray.attacker_wins
            summary += (f"; stray roll {sum(stray_dice)}, contest {sum(s_a)} vs {sum(s_d)}: "
                        + ("a stray hit on another fighter" if stray.attacker_wins
                           else "no stray hit"))
        else:
            summary += f"; stray roll {sum(stray_dice)}: the shot goes nowhere"
    return {**result, "dice": dice, "summary": summary}


RANGED = Calculator(
    name="heroic.ranged",
    title="Ranged attack",
    summary="Shots allowed, the shooter's effective skill, exact hits and the stray-hit chance.",
    fields=FIELDS,
    check=_check,
    compute=_compute,
    explain=_explain,
    headline=_headline,
    charts=(Chart("hits", "Hits on the target", "Hits"),),
    roll=_roll,
    roll_label="Shoot",
    page=RANGED_PAGE,
)
