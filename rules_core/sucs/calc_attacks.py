"""Calculator of the attacks page: SUCS attack odds (source: SUCS, the attack paragraph
after "Actions", "Unit Quality", "Altitude", "Suppressed Units", "Special rules for
commanders")."""

from __future__ import annotations

import random
from typing import Any

from rules_core.calculator import Calculator, Chart, Result
from rules_core.dice.distribution import percent, to_json
from rules_core.errors import InputError
from rules_core.explain import rule, signed, table
from rules_core.fields import BoolField, ChoiceField, IntField
from rules_core.sucs.attack import (
    OUTCOME_LABELS,
    AttackSpec,
    Resolution,
    equal_armor_faces,
    outcome_distribution,
    resolve,
    stage_distribution,
    two_d6_at_least,
)
from rules_core.sucs.tables import (
    DUG_IN_ARMOR,
    MAX_ROLL_MODIFIER,
    MELEE_PENALTY,
    OUT_OF_COMMAND,
    SUCCESS_BY,
    SUCCESS_DAMAGE,
    SUPPORT_BONUS,
    TERRAIN,
)
from rules_core.sucs.unitfields import QUALITY_FIELD

PAGE = "sucs/attacks"
HILL = "hill"
TERRAIN_COVER = {t.name.lower(): t.cover for t in TERRAIN if t.cover}


def _terrain_cover() -> str:
    """The terrain table's cover in words, the hill left out (its +1 is altitude): "+1
    light forest, broken, buildings, marsh; +2 heavy forest, urban"."""
    by_cover: dict[int, list[str]] = {}
    for t in TERRAIN:
        if t.cover and t.name.lower() != HILL:
            by_cover.setdefault(t.cover, []).append(t.name.lower())
    return "; ".join(f"+{c} {', '.join(names)}" for c, names in sorted(by_cover.items()))


FIELDS = (
    QUALITY_FIELD,
    IntField("target_number", "Target number (instead of quality)", optional=True, minimum=2,
             maximum=12, help="Leave empty to use the quality's target number."),
    IntField("attack", "Attack value", default=1, minimum=0, maximum=20),
    IntField("armor", "Target's armor", default=0, minimum=0, maximum=20),
    IntField("cover", "Target's cover", default=0, minimum=0, maximum=6,
             help=f"From terrain: {_terrain_cover()}."),
    IntField("altitude_above", "Target's altitude above the attacker", default=0, minimum=0,
             maximum=6, help="Each level is +1 cover (a hill is level 1; ground effect defends at 0)."),
    BoolField("dug_in", f"Target dug in or in a fortification (+{DUG_IN_ARMOR} armor)",
              default=False),
    BoolField("armor_support", f"Target has +{SUPPORT_BONUS} armor from a support unit",
              default=False),
    BoolField("attack_support", f"Attacker has +{SUPPORT_BONUS} attack from a support unit",
              default=False),
    BoolField("out_of_command",
              f"Attacker out of its commander's range (+{OUT_OF_COMMAND} target number)",
              default=False),
    BoolField("suppressed_melee", f"Attacker suppressed and in melee (-{MELEE_PENALTY} to the roll)",
              default=False),
    IntField("roll_modifier", "Other modifier to the roll", default=0,
             minimum=-MAX_ROLL_MODIFIER, maximum=MAX_ROLL_MODIFIER),
    BoolField("stealthy", "Target has stealth (must be found first)", default=False),
    ChoiceField("terrain", "Target's terrain", optional=True,
                choices=tuple((t.name.lower(), t.name) for t in TERRAIN if t.cover),
                none_label="Not given: use the cover typed",
                help=f"Sets the cover from the terrain table; a hill gives its +{TERRAIN_COVER[HILL]} as altitude."),
    BoolField("armor_modifies_roll", "Armor also raises the number needed (as written)",
              default=True, help="Untick for the other reading: only cover and altitude do."),
    ChoiceField("bonus_over", f"+{SUCCESS_DAMAGE} damage for beating by {SUCCESS_BY}",
                default="needed",
                choices=(("needed", "the number needed (after armor and cover)"),
                         ("target_number", "the attacker's own target number"))),
    IntField("spot_2d6", "Spotting roll (2d6 total)", optional=True, minimum=2, maximum=12,
             shown_if=("stealthy", (True,))),
    IntField("roll_2d6", "Attack roll (2d6 total)", optional=True, minimum=2, maximum=12,
             help="Enter the table's dice to see what they do."),
    IntField("damage_d6", "Damage d6 (only when damage equals armor)", optional=True, minimum=1,
             maximum=6),
)

SPEC_KEYS = ("quality", "target_number", "attack", "armor", "cover", "altitude_above", "dug_in",
             "armor_support", "attack_support", "out_of_command", "suppressed_melee",
             "roll_modifier", "stealthy", "armor_modifies_roll")

STAGE_TEXT = {
    "not_found": "the stealthy target was not found",
    "miss": "the attack missed",
    "under_armor": "it hit, but the damage is below the armor: no effect",
    "equal_armor": "the damage equals the armor: the d6 decides",
    "over_armor": "the damage beats the armor: destroyed",
}



def spec_of(inputs: dict[str, Any]) -> AttackSpec:
    values = {k: inputs[k] for k in SPEC_KEYS}
    terrain = inputs.get("terrain")
    if terrain == HILL:
        values["altitude_above"] += TERRAIN_COVER[HILL]  # the hill is altitude 1
    elif terrain is not None:
        values["cover"] += TERRAIN_COVER[terrain]
    values["bonus_from_target_number"] = inputs.get("bonus_over") == "target_number"
    return AttackSpec(**values)


def _check(inputs: dict[str, Any]) -> None:
    """Impossible states (source: Terrain Types and Effects; the attack paragraph)."""
    if inputs["damage_d6"] is not None and inputs["roll_2d6"] is None:
        raise InputError("damage_d6", "Damage d6: the d6 is rolled only after an attack roll "
                                      f"that hit; received {inputs['damage_d6']} with no Attack "
                                      "roll (2d6 total). Enter the attack roll (2 to 12) first, "
                                      "or leave the d6 empty.")
    terrain = inputs["terrain"]
    if terrain is not None and inputs["cover"]:
        what = (f"a hill gives its +{TERRAIN_COVER[HILL]} as altitude" if terrain == HILL else
                f"{terrain} already gives +{TERRAIN_COVER[terrain]} cover")
        raise InputError("cover", f"Target's cover: {what} (Target's terrain), and only one "
                                  "terrain effect applies at a time; received cover "
                                  f"{inputs['cover']}. Leave Target's cover at 0, or set "
                                  "Target's terrain to \"Not given\".")
    if terrain == HILL and inputs["altitude_above"]:
        raise InputError("altitude_above", "Target's altitude above the attacker: the hill "
                                           "(Target's terrain) is already its altitude level; "
                                           f"received {inputs['altitude_above']} more. Allowed "
                                           "with a hill: 0; for a unit higher than the hill "
                                           "leave Target's terrain empty and count the levels "
                                           "here.")


def _given(spec: AttackSpec, inputs: dict[str, Any]) -> dict[str, Any] | None:
    if inputs["roll_2d6"] is None and not (spec.stealthy and inputs["spot_2d6"] is not None):
        return None
    if spec.stealthy and inputs["spot_2d6"] is None:
        return {"outcome": None, "text": "Enter the spotting roll first: the target is stealthy."}
    if inputs["roll_2d6"] is None:
        found = inputs["spot_2d6"] >= spec.base_tn
        return {"outcome": None if found else "no_effect",
                "text": "Found: now enter the attack roll." if found else STAGE_TEXT["not_found"]}
    res = resolve(spec, inputs["roll_2d6"], inputs["damage_d6"] or 1, inputs["spot_2d6"])
    if res.d6_used and inputs["damage_d6"] is None:
        return {"outcome": None, "damage": res.damage,
                "text": f"{res.damage} damage equals the armor: roll the d6 "
                        f"({equal_armor_faces()})."}
    return {"outcome": res.outcome, "damage": res.damage, "margin": res.margin,
            "text": describe_resolution(res)}


def describe_resolution(res: Resolution) -> str:
    """One phrase for what the dice did."""
    if res.stage == "equal_armor":
        return (f"hit for {res.damage} damage, equal to the armor; the d6 makes it "
                f"{OUTCOME_LABELS[res.outcome].lower()}")
    if res.stage == "under_armor":
        return f"hit for {res.damage} damage, below the armor: no effect"
    if res.stage == "over_armor":
        return f"hit for {res.damage} damage, more than the armor: destroyed"
    return STAGE_TEXT[res.stage]


def _compute(inputs: dict[str, Any]) -> Result:
    spec = spec_of(inputs)
    dist = outcome_distribution(spec)
    stages = stage_distribution(spec)
    hit = sum((p for s, p in stages.items() if s not in ("miss", "not_found")), 0)
    result: Result = {
        **to_json("outcomes", {OUTCOME_LABELS[o]: p for o, p in dist.items()}),
        "p_destroyed": float(dist["destroyed"]), "p_destroyed_exact": str(dist["destroyed"]),
        "p_suppressed": float(dist["suppressed"]), "p_suppressed_exact": str(dist["suppressed"]),
        "p_no_effect": float(dist["no_effect"]), "p_no_effect_exact": str(dist["no_effect"]),
        "p_hit": float(hit), "p_hit_exact": str(hit),
        "target_number": spec.base_tn, "defence": spec.defence, "needed": spec.needed,
        "roll_bonus": spec.roll_bonus, "damage": spec.damage,
        "effective_armor": spec.effective_armor,
    }
    given = _given(spec, inputs)
    if given is not None:
        result["given"] = given
    return result


def _explain(inputs: dict[str, Any], result: Result) -> str:
    spec = spec_of(inputs)
    rows = [["Attacker's target number", str(spec.own_tn)]]
    if spec.out_of_command:
        rows.append(["Out of command range", signed(spec.command)])
    if spec.armor_modifies_roll:
        rows.append(["Target's armor (with dug in and support)", signed(spec.effective_armor)])
    rows += [["Cover", signed(spec.cover)], ["Altitude above the attacker", signed(spec.altitude_above)]]
    if spec.roll_bonus:
        rows.append(["Modifier on the roll (moves the other way)", signed(-spec.roll_bonus)])
    need = spec.needed - spec.roll_bonus
    rows.append(["**2d6 needed**", f"**{need}**"])
    text = table(["Step", "Number"], rows)
    reading = ("armor counts in the number needed as the text says" if spec.armor_modifies_roll
               else "only cover and altitude raise the number needed (the variant reading)")
    text += (f"\n\nHere {reading} ({rule('the two readings', PAGE, 'does-armor-also-modify-the-roll')}). "
             f"Chance to hit: {percent(result['p_hit'])} ({result['p_hit_exact']}).")
    text += (f"\n\nA hit does {spec.damage} damage, {spec.damage + SUCCESS_DAMAGE} when the "
             f"dice show {need + SUCCESS_BY} or more. Against armor {spec.effective_armor}: more "
             f"destroys, equal means a d6 ({equal_armor_faces()}), less does nothing "
             f"({rule('damage against armor', PAGE, 'damage-against-armor')}).")
    if spec.stealthy:
        text += (f"\n\nThe target is stealthy: a first 2d6 roll of {spec.base_tn}+ "
                 f"({percent(two_d6_at_least(spec.base_tn))}) must find it "
                 f"({rule('stealth', PAGE, 'stealthy-targets')}).")
    if need > 12:
        text += "\n\nNo 2d6 roll reaches that number: this attack cannot succeed."
    if "given" in result:
        text += f"\n\n**Your dice:** {result['given']['text']}."
    return text


def _headline(result: Result) -> list[tuple[str, str]]:
    out = [("Destroyed", percent(result["p_destroyed"])),
           ("Suppressed", percent(result["p_suppressed"])),
           ("No effect", percent(result["p_no_effect"]))]
    given = result.get("given")
    if given and given.get("outcome"):
        out.insert(0, ("Your dice", OUTCOME_LABELS[given["outcome"]]))
    return out


def _roll(inputs: dict[str, Any], rng: random.Random) -> Result:
    spec = spec_of(inputs)
    dice: list[dict[str, Any]] = []
    spot = None
    if spec.stealthy:
        faces = [rng.randint(1, 6), rng.randint(1, 6)]
        dice += [{"die": "d6", "face": f} for f in faces]
        spot = sum(faces)
    faces = [rng.randint(1, 6), rng.randint(1, 6)]
    d6 = rng.randint(1, 6)
    res = resolve(spec, sum(faces), d6, spot)
    if res.stage != "not_found":
        dice += [{"die": "d6", "face": f} for f in faces]
    if res.d6_used:
        dice.append({"die": "d6", "face": d6})
    parts = []
    if spot is not None:
        parts.append(f"spot {spot} vs {spec.base_tn}")
    if res.stage != "not_found":
        parts.append(f"attack {sum(faces)}{signed(spec.roll_bonus) if spec.roll_bonus else ''} "
                     f"vs {spec.needed}")
    if res.d6_used:
        parts.append(f"d6 {d6}")
    return {"dice": dice, "outcome": res.outcome, "stage": res.stage, "damage": res.damage,
            "summary": ", ".join(parts) + f": {OUTCOME_LABELS[res.outcome]} "
                                          f"({describe_resolution(res)})"}


ATTACK = Calculator(
    name="sucs.attack",
    title="Attack odds",
    summary="Exact chances that one attack destroys, suppresses or does nothing to a unit.",
    fields=FIELDS,
    compute=_compute,
    explain=_explain,
    headline=_headline,
    charts=(Chart("outcomes", "What one attack does", "Outcome", ordered=False),),
    check=_check,
    roll=_roll,
    roll_label="Roll the attack",
    page=PAGE,
)
