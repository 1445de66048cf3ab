"""Calculators of the firefights page (Part II): the initiative roll-off, the attack and
defence pools of one attack, and cover: creating "In Cover" under the zone's Cover
Rating, and flanking, an attack on the target's cover. The cover and flanking contests
are worked out by :func:`rules_core.cortex.odds.contest_odds` and rolled with the same
rule. The whole firefight is in :mod:`rules_core.cortex.calc_firefights_fight`."""

from __future__ import annotations

import random
from fractions import Fraction
from typing import Any

from rules_core.calculator import Calculator, Chart, Result
from rules_core.cortex.contest import contest_roll, dice_json, outcome_weights, reach_roll, roll_pool, ways
from rules_core.cortex.dice import MAX_POOL, SIZES, DieField, name, names, pool_parser
from rules_core.cortex.inputs import DICE_HELP, RULINGS, pool_field
from rules_core.cortex.odds import at_least, contest_odds
from rules_core.cortex.pools import InjuryRule, Side, Term, attack_terms, defence_terms
from rules_core.cortex.tables import MAX_FIRETEAM, RANGE_LABELS, Range
from rules_core.dice.distribution import percent, to_json
from rules_core.explain import rule, table
from rules_core.fields import BoolField, ChoiceField, TextField

FIREFIGHTS = "cortex/firefights"
#: which page states the rule behind each pool term's anchor
ANCHOR_PAGE = {
    "attack-and-defence-pools": FIREFIGHTS, "distance-penalties": FIREFIGHTS,
    "cover-penalties": FIREFIGHTS, "grouping-combatants": "cortex/enemies",
    "injuries-in-the-pools": "cortex/harm",
}


# --- initiative ---------------------------------------------------------------------

def _totals(pool: list[int]) -> dict[int, Fraction]:
    denominator = ways(pool)
    out: dict[int, Fraction] = {}
    for (total, _, _), w in outcome_weights(pool, 0, 0).items():
        out[total] = out.get(total, 0) + Fraction(w, denominator)
    return out


def _initiative_compute(inputs: dict[str, Any]) -> Result:
    a, b = _totals(inputs["players"]), _totals(inputs["gm"])
    p_a = sum((pa * pb for ta, pa in a.items() for tb, pb in b.items() if ta > tb), Fraction(0))
    p_tie = sum((pa * b.get(ta, 0) for ta, pa in a.items()), Fraction(0))
    p_b = 1 - p_a - p_tie
    first = p_a / (1 - p_tie)
    return {"p_players": float(p_a), "p_players_exact": str(p_a),
            "p_tie": float(p_tie), "p_tie_exact": str(p_tie),
            "p_gm": float(p_b), "p_gm_exact": str(p_b),
            "p_players_choose": float(first), "p_players_choose_exact": str(first)}


def _initiative_explain(inputs: dict[str, Any], result: Result) -> str:
    return (f"Each side rolls its nominee's pool (Approach, Analysis, a Tactics specialization "
            f"if any, assets and circumstances) and compares totals "
            f"({rule('initiative', FIREFIGHTS, 'initiative')}); the higher total chooses which "
            f"side acts first. The source does not settle a tie; here both sides roll again "
            f"([ruling](/rulings/#initiative-ties)), so the players choose "
            f"{percent(result['p_players_choose'])} of the time in the end.")


def _initiative_roll(inputs: dict[str, Any], rng: random.Random) -> Result:
    a, b = roll_pool(inputs["players"], rng), roll_pool(inputs["gm"], rng)
    verdict = ("players choose who goes first" if a.total > b.total else
               "GM chooses who goes first" if b.total > a.total else "tie: roll again")
    return {"dice": dice_json(a, "players") + dice_json(b, "GM"),
            "summary": f"Players {a.total}, GM {b.total}: {verdict}."}


INITIATIVE = Calculator(
    name="cortex.initiative", title="Initiative roll-off",
    summary="Chance that the players' nominee wins the roll to choose who acts first.",
    fields=(pool_field("players", "Players' nominee's pool", "d8 d6 d6",
                       "Approach + Analysis + Tactics specialization + assets. " + DICE_HELP),
            pool_field("gm", "GM's nominee's pool", "d8 d8 d6",
                       "The same traits for the GM's character or unit. " + DICE_HELP)),
    compute=_initiative_compute, explain=_initiative_explain,
    headline=lambda r: [("Players choose (ties rerolled)", percent(r["p_players_choose"])),
                        ("Players win the first roll", percent(r["p_players"])),
                        ("Tie", percent(r["p_tie"]))],
    roll=_initiative_roll, roll_label="Roll for initiative", page=FIREFIGHTS,
)


# --- firefight attack and defence pools ------------------------------------------------

def _side_fields(side: str, kind: str, approach: int, skill: int, quality: str
                 ) -> tuple[Any, ...]:
    title = side.capitalize()
    return (
        ChoiceField(f"{side}_kind", f"{title} is", initial=kind,
                    choices=(("character", "A character"), ("unit", "A unit of combatants"))),
        DieField(f"{side}_approach", f"{title}'s Approach", initial=approach,
                 shown_if=(f"{side}_kind", ("character",))),
        DieField(f"{side}_direct_action", f"{title}'s Direct Action", initial=skill,
                 shown_if=(f"{side}_kind", ("character",))),
        TextField(f"{side}_quality", f"{title}'s quality dice", initial=quality,
                  parse=pool_parser(1, MAX_FIRETEAM), shown_if=(f"{side}_kind", ("unit",)),
                  placeholder="d6 d6 d6", help="One die per member (1 to 6)."),
        TextField(f"{side}_other", f"{title}'s other dice", optional=True,
                  parse=pool_parser(0, 8, empty_ok=True), placeholder="d6",
                  help="Specializations, assets, advantages, grenadier dice (up to 8)."),
    )


FIREFIGHT_FIELDS = (
    *_side_fields("attacker", "character", 8, 10, "d6 d6 d6"),
    *_side_fields("defender", "unit", 6, 6, "d6 d6 d6 d6"),
    ChoiceField("range", "Distance", default="adjacent",
                choices=tuple((r.value, RANGE_LABELS[r]) for r in Range)),
    DieField("cover_rating", "Zone's Cover Rating", optional=True, initial=8, none_label="No cover",
             help="The cover the defender's zone offers."),
    BoolField("exposed", "Defender gets no cover (flanked, or a surveillance drone overhead)",
              default=False),
    DieField("armor", "Defender's armor asset", optional=True, none_label="None"),
    BoolField("marksman", "Attacker's Marksman spends Edge (armor does not count)", default=False),
    TextField("attacker_injuries", "Injury dice on the attacking side", optional=True,
              parse=pool_parser(0, MAX_FIRETEAM, empty_ok=True), placeholder="d6",
              help="They strengthen the defence pool."),
    TextField("defender_injuries", "Injury dice on the defending side", optional=True,
              parse=pool_parser(0, MAX_FIRETEAM, empty_ok=True), placeholder="d6",
              help="They strengthen the attack pool."),
    ChoiceField("injury_rule", "Which injury dice count", default="every",
                choices=(("every", "Every injury die (as written)"),
                         ("highest", "Only the highest (side note)"),
                         ("average", "One die of the average size (side note)"))),
)


def _side(inputs: dict[str, Any], side: str) -> Side:
    other = tuple(inputs[f"{side}_other"] or ())
    if inputs[f"{side}_kind"] == "character":
        return Side(True, inputs[f"{side}_approach"], inputs[f"{side}_direct_action"], (), other)
    return Side(False, quality=tuple(inputs[f"{side}_quality"]), other=other)


def _terms_json(terms: list[Term]) -> list[dict[str, Any]]:
    return [{"die": t.die, "source": t.source,
             "rule": f"/{ANCHOR_PAGE[t.anchor]}/#{t.anchor}"} for t in terms]


def _firefight_compute(inputs: dict[str, Any]) -> Result:
    rule_ = InjuryRule(inputs["injury_rule"])
    attack = attack_terms(_side(inputs, "attacker"), inputs["defender_injuries"] or [], rule_)
    defence = defence_terms(
        _side(inputs, "defender"), Range(inputs["range"]), inputs["cover_rating"],
        inputs["exposed"], inputs["armor"], inputs["marksman"],
        inputs["attacker_injuries"] or [], rule_)
    attack_pool = sorted((t.die for t in attack), reverse=True)
    defence_pool = sorted((t.die for t in defence), reverse=True)
    result: Result = {"attack_pool": attack_pool, "defence_pool": defence_pool,
                      "attack_terms": _terms_json(attack), "defence_terms": _terms_json(defence)}
    if len(attack_pool) <= MAX_POOL and len(defence_pool) <= MAX_POOL:
        p_win = contest_odds(attack_pool, defence_pool).p_win
        result.update(p_win=float(p_win), p_win_exact=str(p_win))
    return result


def _firefight_explain(inputs: dict[str, Any], result: Result) -> str:
    def rows(terms: list[dict[str, Any]]) -> list[list[str]]:
        return [[name(t["die"]), f"[{t['source']}]({t['rule']})"] for t in terms]

    text = ("**Attack pool**\n\n" + table(["Die", "From"], rows(result["attack_terms"]))
            + "\n\n**Defence pool**\n\n" + table(["Die", "From"], rows(result["defence_terms"])))
    if inputs["exposed"] and inputs["cover_rating"]:
        text += (f"\n\nThe defender is flanked or watched by a drone, so the zone's cover adds "
                 f"nothing ({rule('flanking', FIREFIGHTS, 'flanking')}).")
    if "p_win" in result:
        link = (f"/cortex/rolls/?odds.attacker={','.join(map(str, result['attack_pool']))}"
                f"&odds.defender={','.join(map(str, result['defence_pool']))}")
        text += (f"\n\nThe attacker wins {percent(result['p_win'])} of the time. "
                 f"[Open these pools in the attack odds calculator]({link}) for the margin, "
                 f"the effect dice and the members taken out.")
    else:
        text += f"\n\nA pool has more than {MAX_POOL} dice, too many for the exact odds here."
    return text


FIREFIGHT_POOLS = Calculator(
    name="cortex.firefight_pools", title="Attack and defence pools in a firefight",
    summary="Both pools of a Part II attack: traits, range, cover, armor, injuries.",
    fields=FIREFIGHT_FIELDS, compute=_firefight_compute, explain=_firefight_explain,
    headline=lambda r: [("Attack pool", names(r["attack_pool"])),
                        ("Defence pool", names(r["defence_pool"]))]
    + ([("Attacker wins", percent(r["p_win"]))] if "p_win" in r else []),
    page=FIREFIGHTS,
)


# --- creating "In Cover" ----------------------------------------------------------------

def capped(effect: int, rating: int) -> int:
    """The In Cover die an effect die creates: no larger than the Cover Rating."""
    return min(effect, rating)


def _cover_compute(inputs: dict[str, Any]) -> Result:
    rating = inputs["rating"]
    odds = contest_odds(inputs["pool"], inputs["difficulty"])
    asset: dict[int, Fraction] = {0: odds.effect_die.get(0, Fraction(0))}
    for size in SIZES:
        asset.setdefault(capped(size, rating), Fraction(0))
    for size, p in odds.effect_die.items():
        if size:
            asset[capped(size, rating)] += p
    capped_away = sum((p for s, p in odds.effect_die.items() if s > rating), Fraction(0))
    return {"p_win": float(odds.p_win), "p_win_exact": str(odds.p_win),
            "p_capped": float(capped_away), "p_capped_exact": str(capped_away),
            "p_full": float(asset[rating]), "p_full_exact": str(asset[rating]),
            **to_json("in_cover", dict(sorted(asset.items())))}


def _cover_roll(inputs: dict[str, Any], rng: random.Random) -> Result:
    die, dice, text = contest_roll(inputs["pool"], inputs["difficulty"], rng, "Taking cover",
                                   "difficulty")
    if die:
        got = capped(die, inputs["rating"])
        text += (f": In Cover {name(got)}"
                 + (f" (capped at the zone's {name(inputs['rating'])})." if got < die else "."))
    return {"dice": dice, "in_cover": capped(die, inputs["rating"]) if die else 0,
            "summary": text}


IN_COVER = Calculator(
    name="cortex.in_cover", title="Taking cover: the In Cover advantage",
    summary="The In Cover die an action creates, capped at the zone's Cover Rating.",
    fields=(pool_field("pool", "Pool to take cover", "d8 d8 d6"),
            pool_field("difficulty", "Difficulty pool", "d6 d6",
                       "What the GM rolls against the action."),
            DieField("rating", "Zone's Cover Rating", initial=6)),
    compute=_cover_compute,
    explain=lambda i, r: (
        f"Taking cover creates an advantage, usually called In Cover: roll {names(i['pool'])} "
        f"against {names(i['difficulty'])}; a win makes the effect die an In Cover die, but "
        f"never larger than the zone's Cover Rating of {name(i['rating'])} "
        f"({rule('cover and concealment', FIREFIGHTS, 'cover-and-concealment')}; "
        f"[ruling]({RULINGS})). The action wins {percent(r['p_win'])} of the time; "
        f"{percent(r['p_capped'])} of the time the effect die is bigger than the rating and is "
        f"cut down to it. Chart: 0 means the action fails."),
    headline=lambda r: [("Creates In Cover", percent(r["p_win"])),
                        ("At the full Cover Rating", percent(r["p_full"])),
                        ("Cut down by the rating", percent(r["p_capped"]))],
    charts=(Chart("in_cover", "In Cover die created (0: fails)", "In Cover die"),),
    roll=_cover_roll, roll_label="Take cover", page=FIREFIGHTS,
)


# --- flanking ---------------------------------------------------------------------------

def needed(inputs: dict[str, Any]) -> int:
    """The smallest effect die that strips the cover: the cover die itself, or (variant)
    the next size up; 14 (no die) when nothing beats a d12."""
    cover = inputs["cover"]
    if inputs["needs"] == "at_least":
        return cover
    return SIZES[SIZES.index(cover) + 1] if cover < 12 else 14


def _flank_compute(inputs: dict[str, Any]) -> Result:
    odds = contest_odds(inputs["pool"], inputs["defence"])
    p = at_least(inputs["pool"], inputs["defence"], needed(inputs))
    return {"p_win": float(odds.p_win), "p_win_exact": str(odds.p_win),
            "p_flanked": float(p), "p_flanked_exact": str(p),
            **to_json("effect_die", odds.effect_die)}


def _flank_roll(inputs: dict[str, Any], rng: random.Random) -> Result:
    cover = f"against the {name(inputs['cover'])} cover"
    done, dice, text = reach_roll(inputs["pool"], inputs["defence"], rng, "Flanker", "target",
                                  needed(inputs), f"enough {cover}: flanked, the cover is gone",
                                  f"not enough {cover}: the cover holds")
    return {"dice": dice, "flanked": done, "summary": text}


FLANKING = Calculator(
    name="cortex.flanking", title="Flanking: an attack on the target's cover",
    summary="Chance that a flanking action strips the target's cover die.",
    fields=(pool_field("pool", "Flanker's pool", "d8 d8 d6"),
            pool_field("defence", "Target's pool resisting", "d8 d6 d6"),
            DieField("cover", "Target's cover die", initial=6,
                     help="The cover it adds: the lesser of its skill (a unit: its lowest "
                          "quality die) and the zone's Cover Rating."),
            ChoiceField("needs", "Effect die needed", default="at_least",
                        choices=(("at_least", "At least the cover die (site's reading)"),
                                 ("larger", "Larger than the cover die")))),
    compute=_flank_compute,
    explain=lambda i, r: (
        f"Flanking is an action that attacks the target's cover "
        f"({rule('flanking', FIREFIGHTS, 'flanking')}): {names(i['pool'])} against "
        f"{names(i['defence'])}. The flank succeeds when the attack wins with an effect die "
        f"{'at least' if i['needs'] == 'at_least' else 'larger than'} the {name(i['cover'])} "
        f"cover "
        f"([ruling]({RULINGS})), and the cover stays gone until the flanker or the target "
        f"moves. Wins {percent(r['p_win'])}; strips the cover **{percent(r['p_flanked'])}**."),
    headline=lambda r: [("Cover stripped", percent(r["p_flanked"])),
                        ("Wins the contest", percent(r["p_win"]))],
    charts=(Chart("effect_die", "Effect die (0: the flank fails)", "Effect die"),),
    roll=_flank_roll, roll_label="Flank", page=FIREFIGHTS,
)
