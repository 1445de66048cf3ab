"""Calculator of the actions page: SUCS whole engagements (source: SUCS, "Order of Play",
"Actions", the attack paragraph, "Suppressed Units", "Close Combat (melee)")."""

from __future__ import annotations

import random
import re
from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from rules_core import cascade, fight_result, solver
from rules_core.balance.calculator import hands_on_to
from rules_core.calculator import Calculator, Result
from rules_core.dice.distribution import percent
from rules_core.errors import InputError
from rules_core.explain import escape, rule, table
from rules_core.fields import BoolField, ChoiceField, Field, IntField, TextField
from rules_core.messages import describe
from rules_core.sucs import account, quick
from rules_core.sucs import fight as sucs_fight
from rules_core.sucs.fight import Fight
from rules_core.sucs.presets import Preset, presets, slug
from rules_core.sucs.tables import MAX_ROLL_MODIFIER, OUT_OF_COMMAND, SUPPORT_BONUS
from rules_core.sucs.turn import Fighter, Rules

PAGE = "sucs/actions"
MAX_UNITS = 6
#: suppression markers a side's units may start with
MAX_START_MARKERS = 5
SIDES = (("a", "Side A units lost"), ("b", "Side B units lost"))
LABELS = {"side_a": "Side A units", "side_b": "Side B units"}
#: the longest name a side may be given
MAX_NAME = 40
UNIT_RE = re.compile(r"(\d+)/(\d+)(?:x(\d+))?((?:\s+or\s+\d+(?:x\d+)?)*)/(\d+)((?:\s+\S+)*)")
#: other weapons a unit typed here may have (one used a turn)
MAX_ALT_WEAPONS = 2
LIMITS = {"quality": (1, 5), "attack": (0, 20), "units hit": (1, 6), "armor": (0, 20),
          "cover": (0, 6)}
FORMAT_HELP = ("quality/attack/armor for each unit, separated by commas, e.g. 3/1/0, "
               "4/2/1, or a unit's name in the published lists, e.g. light infantry "
               "(TL 5-7/cavalry when several lists have the name); 1x2 for an attack of 1 "
               "on two units (automatic fire); 3 or 1x2 for a unit with a second weapon, one "
               "used a turn; after a space: c1 for cover 1, d for dug in, s for stealth")


def parse_name(name: str, raw: Any) -> str:
    """A side's name, as the figures and the account call it."""
    label = f"Side {name[0].upper()} name"
    if not isinstance(raw, str):
        raise InputError(name, f"{label}: expected text such as Red platoon; received "
                               f"{describe(raw)}.")
    text = " ".join(raw.split())
    if not text:
        raise InputError(name, f"{label}: give the side a name (1 to {MAX_NAME} characters), "
                               "such as Red platoon.")
    return text


def parse_side(name: str, raw: Any) -> tuple[Fighter, ...]:
    """A side's units: quality/attack/armor each, with the extras in :data:`FORMAT_HELP`."""
    label = LABELS[name]
    if not isinstance(raw, str):
        raise InputError(name, f"{label}: expected text such as 3/1/0, 4/2/1; received "
                               f"{describe(raw)}.")
    items = [p.strip() for p in re.split(r"[,;\n]", raw) if p.strip()]
    if not items:
        raise InputError(name, f"{label}: give at least one unit ({FORMAT_HELP}).")
    if len(items) > MAX_UNITS:
        raise InputError(name, f"{label}: at most {MAX_UNITS} units a side; received "
                               f"{len(items)}.")
    side = name[-1].upper()
    return tuple(_unit(name, f"{side}{n}", text) for n, text in enumerate(items, 1))


def _unit(name: str, unit_name: str, text: str) -> Fighter:
    """One unit in notation (its name is then its notation, "3/1/0") or by its name in
    the published lists (:func:`published`), each with the extras of :data:`FORMAT_HELP`."""
    label = LABELS[name]
    said = " ".join(text.split())
    match = UNIT_RE.fullmatch(said)
    if match:
        quality, attack, hits, others, armor, extras = match.groups()
        alternatives = tuple((int(a), int(h or 1)) for a, h in
                             re.findall(r"(\d+)(?:x(\d+))?", others))
        called = said[:len(said) - len(extras)].strip()
    else:
        words = said.split(" ")
        cut = len(words)
        while cut > 1 and re.fullmatch(r"(?i)c\d+|d|s", words[cut - 1]):
            cut -= 1
        preset = published(name, " ".join(words[:cut]), said)
        unit = preset.unit
        quality, attack, hits, armor = (str(unit.quality), str(unit.attack), str(unit.targets),
                                        str(unit.armor))
        # the list's unit fights with every weapon it is priced for
        alternatives = tuple((w.attack, w.targets) for w in unit.alt_weapons)
        extras = " " + " ".join(words[cut:]) + (" s" if unit.stealth else "")
        called = preset.name
    if len(alternatives) > MAX_ALT_WEAPONS:
        raise InputError(name, f"{label}: unit {unit_name} has {len(alternatives) + 1} "
                               f"weapons; at most {MAX_ALT_WEAPONS + 1} (the main one and "
                               f"{MAX_ALT_WEAPONS} others).")
    values = {"quality": int(quality), "attack": int(attack), "units hit": int(hits or 1),
              "armor": int(armor), "cover": 0}
    flags = {"d": False, "s": False}
    for token in extras.split():
        token = token.lower()
        if re.fullmatch(r"c\d+", token):
            values["cover"] = int(token[1:])
        elif token in flags:
            flags[token] = True
        else:
            raise InputError(name, f"{label}: {describe(token)} in unit {unit_name} is not "
                                   "an extra; use c1 (cover 1), d (dug in) or s (stealth).")
    checked = [(what, values[what]) for what in LIMITS]
    for a, h in alternatives:
        checked += [("attack", a), ("units hit", h)]
    for what, value in checked:
        low, high = LIMITS[what]
        if not low <= value <= high:
            raise InputError(name, f"{label}: unit {unit_name}'s {what} must be from {low} "
                                   f"to {high}; received {value}.")
    return Fighter(called, values["quality"], values["attack"], values["units hit"],
                   values["armor"], values["cover"], flags["d"], flags["s"],
                   alt_weapons=alternatives)


def published(name: str, wanted: str, said: str) -> Preset:
    """A unit of the published lists by its name ("light infantry"), or by its list and
    name when several lists have it ("TL 5-7/light infantry", "tl5-7/light-infantry"):
    its attack (main weapon), armor and stealth, at quality 3 as the lists give it."""
    label = LABELS[name]
    key = slug(wanted.split("/")[-1])
    era = slug(wanted.split("/")[0]) if "/" in wanted else ""
    found = [p for p in presets() if slug(p.name) == key
             and (not era or slug(p.list_id) == era or slug(p.list_title).startswith(era))]
    if len(found) == 1:
        return found[0]
    if found:
        raise InputError(name, f"{label}: {describe(wanted)} is in several unit lists; say "
                               "which, as " + " or ".join(f"{list_name(p)}/{p.name}"
                                                          for p in found) + ".")
    raise InputError(name, f"{label}: could not read {describe(said)} as a unit; write "
                           f"{FORMAT_HELP}.")


def list_name(p: Preset) -> str:
    """The list a published unit is in, as a side names it ("TL 5-7")."""
    return p.list_title.removesuffix(" armies")


def weapons_notation(attack: int, targets: int, alternatives: Sequence[tuple[int, int]]) -> str:
    """A unit's weapons as a side writes them: "1x2", "3 or 1x2"."""
    return " or ".join(f"{a}x{h}" if h > 1 else f"{a}" for a, h in ((attack, targets), *alternatives))


def published_picks() -> tuple[tuple[str, tuple[tuple[str, str], ...]], ...]:
    """The published units as a side's pick list, by list: each written as the side field
    reads it (its name without commas, with its list when several lists have one of that
    name) and shown with its numbers at quality 3."""
    everyone = presets()
    named: dict[str, int] = {}
    for p in everyone:
        named[slug(p.name)] = named.get(slug(p.name), 0) + 1
    groups: dict[str, list[tuple[str, str]]] = {}
    for p in everyone:
        name = p.name.replace(",", "")  # "wagon, horse": a comma would part two units
        text = name if named[slug(p.name)] == 1 else f"{list_name(p)}/{name}"
        u = p.unit
        weapons = weapons_notation(u.attack, u.targets, [(w.attack, w.targets) for w in u.alt_weapons])
        numbers = f"{u.quality}/{weapons}/{u.armor}" + (" stealth" if u.stealth else "")
        groups.setdefault(p.list_title, []).append((text, f"{p.name} ({numbers})"))
    return tuple((title, tuple(options)) for title, options in groups.items())


def fighting_numbers(u: Fighter) -> str:
    """A unit's quality, weapon, armor and extras in words."""
    extras = [f"cover {u.cover}"] if u.cover else []
    extras += [f"{u.roll_modifier:+d} to its attack rolls"] * bool(u.roll_modifier)
    extras += ["dug in"] * u.dug_in + ["stealth"] * u.stealthy
    extras += [f"target number +{OUT_OF_COMMAND}, out of command"] * u.out_of_command
    extras += ["one action a turn"] * u.one_action + ["commander"] * u.commander
    extras += [f"+{SUPPORT_BONUS} attack from support"] * u.attack_support
    extras += [f"+{SUPPORT_BONUS} armor from support"] * u.armor_support
    return (f"quality {u.quality}, attack {weapons_notation(u.attack, u.targets, u.alt_weapons)}, "
            f"armor {u.armor}"
            + (f" ({', '.join(extras)})" if extras else ""))


def roll_modifier_field(side: str) -> IntField:
    """A side's situational modifier to every attack roll its units make."""
    return IntField(f"{side}_roll_modifier", f"Side {side.upper()} modifier to attack rolls",
                    default=0, minimum=-MAX_ROLL_MODIFIER, maximum=MAX_ROLL_MODIFIER,
                    help="Added to every 2d6 attack roll and return strike of the side's "
                         f"units (from -{MAX_ROLL_MODIFIER} to +{MAX_ROLL_MODIFIER}), e.g. "
                         "a scenario's or the table's own.")


def order_fields(listed: str) -> tuple[ChoiceField, ChoiceField]:
    """The activation order and the choice of weapon, as the engagement and the army
    battle offer them (``listed``: where the units are listed)."""
    return (
        ChoiceField("order", "Each side activates its units", default="least_suppressed",
                    choices=(("least_suppressed",
                              f"The least suppressed first (kinds in {listed}'s order)"),
                             ("list", f"In {listed}'s order"),
                             ("likeliest", "The likeliest to destroy an enemy first")),
                    help="The source lets each player choose the unit to activate."),
        ChoiceField("weapon_choice", "A unit with more than one weapon uses", default="best",
                    choices=(("best", "The weapon likeliest to destroy the most"),
                             ("fallback", "Its main weapon, another only when the main one "
                                          "cannot hurt any enemy")),
                    help="One weapon a turn (source: Unit Costs); which one is the "
                         "player's choice."),
    )


#: the published units, offered beside each side's units
PICKS = published_picks()

FIELDS: tuple[Field, ...] = (
    TextField("a_name", "Side A name", default="Side A", parse=parse_name,
              placeholder="Red platoon", max_length=MAX_NAME,
              help="What the figures and the played account call side A."),
    TextField("b_name", "Side B name", default="Side B", parse=parse_name,
              placeholder="Blue company", max_length=MAX_NAME,
              help="What they call side B."),
    TextField("side_a", "Side A units", default="3/1/0, 3/1/0, 3/1/0", parse=parse_side,
              placeholder="3/1/0, 4/2/1", help=f"Up to {MAX_UNITS}: {FORMAT_HELP}.",
              picks=PICKS, pick_label="Add a published unit to side A"),
    TextField("side_b", "Side B units", default="4/1x2/0, 3/1/1", parse=parse_side,
              placeholder="3/1/0, 4/2/1", help=f"Up to {MAX_UNITS}, written the same way.",
              picks=PICKS, pick_label="Add a published unit to side B"),
    *(field for side in ("a", "b") for field in (
        BoolField(f"{side}_out_of_command",
                  f"Side {side.upper()} out of its commanders' range "
                  f"(+{OUT_OF_COMMAND} target number)", default=False,
                  help="Beyond every commander's range, or its commanders lost."),
        BoolField(f"{side}_one_action",
                  f"Side {side.upper()} has lost all its commanders (one action a turn)",
                  default=False,
                  help="A suppressed unit can then only reorganize one marker; an unsuppressed "
                       "one attacks. A charge uses the action on the move, so the charging "
                       "attack fails and the units charged strike back."),
        ChoiceField(f"{side}_support", f"Side {side.upper()} support", default="none",
                    choices=(("none", "None"),
                             ("attack", f"+{SUPPORT_BONUS} attack for every unit"),
                             ("armor", f"+{SUPPORT_BONUS} armor for every unit")),
                    help="A support unit's action, taken every turn, counted for the "
                         "whole fight."),
        IntField(f"{side}_markers", f"Side {side.upper()} suppression markers at the start",
                 default=0, minimum=0, maximum=MAX_START_MARKERS,
                 help="Markers on every unit of the side when the fight starts."),
        roll_modifier_field(side),
    )),
    ChoiceField("first", "Who acts first", default="roll",
                choices=(("roll", "Rolled each turn (initiative)"),
                         ("a", "Side A every turn"), ("b", "Side B every turn")),
                help="A charge still puts side A first in the first turn."),
    ChoiceField("mode", "Kind of fight", default="ranged",
                choices=(("ranged", "Exchange of fire"),
                         ("melee", "Close combat: side A charges"))),
    ChoiceField("suppression", "What a suppression marker does", default="reorganize",
                choices=(("reorganize", "It must be reorganized away before the unit attacks"),
                         ("penalty", "-1 per marker on attacks; one reorganized each turn"))),
    ChoiceField("melee_suppressed", "A suppressed unit in close combat", default="attack",
                choices=(("attack", "Reorganizes one marker, then attacks at -1 (as written)"),
                         ("reorganize", "Reorganizes its markers first, as outside melee")),
                help="Only in close combat, under the first reading of a suppression marker."),
    BoolField("hopeless_reorganizes",
              "A suppressed unit whose attack cannot hurt reorganizes again instead",
              default=False, help="The source is silent; off: it attacks anyway."),
    BoolField("two_roll_rule", "Two attack rolls that might have damaged a unit suppress it",
              default=True, help="The Suppressed Units rule; untick to see the fight without it."),
    BoolField("armor_modifies_roll", "Armor also raises the number needed (as written)",
              default=True, help="Untick for the other reading: only cover does."),
    ChoiceField("bonus_over", "+1 damage for beating by 3", default="needed",
                choices=(("needed", "the number needed (after armor and cover)"),
                         ("target_number", "the attacker's own target number"))),
    ChoiceField("ties", "Initiative ties", default="reroll",
                choices=(("reroll", "Roll again"), ("a", "Side A wins ties"),
                         ("b", "Side B wins ties"))),
    *order_fields("the list"),
    fight_result.round_cap_field(20, word=account.TURN),
)


def fight_of(inputs: dict[str, Any], max_work: int | None = None) -> Fight:
    rules = Rules(armor_modifies_roll=inputs["armor_modifies_roll"],
                  bonus_from_target_number=inputs["bonus_over"] == "target_number",
                  suppression=inputs["suppression"], two_roll_rule=inputs["two_roll_rule"],
                  ties=inputs["ties"], melee=inputs["mode"] == "melee",
                  melee_suppressed=inputs["melee_suppressed"],
                  hopeless_reorganizes=inputs["hopeless_reorganizes"], first=inputs["first"],
                  order=inputs["order"], weapon_choice=inputs["weapon_choice"])
    sides = [inputs["side_a"], inputs["side_b"]]
    sides = [tuple(replace(u, out_of_command=inputs[f"{s}_out_of_command"],
                           one_action=inputs[f"{s}_one_action"],
                           attack_support=inputs[f"{s}_support"] == "attack",
                           armor_support=inputs[f"{s}_support"] == "armor",
                           roll_modifier=inputs[f"{s}_roll_modifier"]) for u in units)
             for s, units in zip("ab", sides)]
    return Fight(sides[0], sides[1], rules,
                 max_work=(sucs_fight.limits(inputs["max_rounds"])[0] if max_work is None
                           else max_work),
                 markers=(inputs["a_markers"], inputs["b_markers"]),
                 names=(inputs.get("a_name", "Side A"), inputs.get("b_name", "Side B")))


def named(fight: Fight, result: Result) -> None:
    """The sides' names in the figures: the outcomes, the loss charts' titles."""
    fight_result.rename_outcomes(result, {sucs_fight.A_WINS: f"{fight.names['a']} wins",
                                          sucs_fight.B_WINS: f"{fight.names['b']} wins"})
    result["names"] = dict(fight.names)
    result["chart_titles"] = {f"losses_{s}": f"{fight.names[s]} units lost" for s in "ab"}


def past_limits(fight: Fight, rounds: int, found: sucs_fight.Plan, fit: int = 0) -> str:
    """What to lower for exact odds, for a fight past the exact walk's limit (and too
    large for the pruned walk, which could give its first ``fit`` turns): the round cap
    when at least the first two turns fit either walk, else the units (the side with more
    kinds of unit)."""
    turns = max(found.rounds, fit)
    if turns >= 2:
        return (f"For exact odds, lower the Turn cap to {turns} or less (the first {turns} "
                "turns fit), or put fewer or less varied units in Side A units or Side B units.")
    kinds = {s: len({u.stats for u in fight.units[s]}) for s in ("a", "b")}
    sizes = {s: len(fight.units[s]) for s in ("a", "b")}
    side = max(("a", "b"), key=lambda s: (kinds[s], sizes[s], s == "a"))
    melee = (" or make it an exchange of fire (Kind of fight)" if fight.rules.melee else "")
    return (f"For exact odds, put fewer or less varied units in {LABELS[f'side_{side}']} (or "
            f"in the other side){melee}.")


def _cascade(inputs: dict[str, Any]) -> cascade.Cascade:
    rounds = inputs["max_rounds"]
    turn_work, solver_work = sucs_fight.limits(rounds)
    return sucs_fight.cascade(fight_of(inputs), fight_of(inputs), rounds, turn_work,
                              solver_work, sucs_fight.pruned_limit(rounds), quick.play_quickly)


def _result(inputs: dict[str, Any], refined: cascade.Refinement) -> Result:
    fight = refined.cascade.fight
    assert isinstance(fight, Fight)
    result = fight_result.refined_result(refined, SIDES)
    if result["method"] == "simulation":
        walks = refined.cascade.walker
        assert isinstance(walks, sucs_fight.Walks)
        advice = (past_limits(fight, inputs["max_rounds"], walks.found, walks.fit)
                  if walks.found is not None else "")
        result["simulated_because"] = f"{refined.why_not_exact} {advice}".strip()
    result["units"] = {s: [f"{fight.label(s, i)}: {fighting_numbers(u)}"
                           for i, u in enumerate(fight.units[s])] for s in "ab"}
    result["attack_odds"] = attack_odds(fight)
    named(fight, result)
    return result


ANSWERS = cascade.Sharpened(_cascade, _result)


def _compute(inputs: dict[str, Any]) -> Result:
    """The settled answer (the API's): see :mod:`rules_core.cascade`."""
    return ANSWERS.compute(inputs)


def attack_odds(fight: Fight) -> list[dict[str, Any]]:
    """Each unit's unmodified attack against each enemy: the odds the fight is built on."""
    rows = []
    for side in ("a", "b"):
        enemy = "b" if side == "a" else "a"
        for i in range(len(fight.units[side])):
            for t in range(len(fight.units[enemy])):
                evs, kill, _, threat = fight.odds(side, i, t, 0)
                sup = sum(w for (o, _), w, _ in evs if o == "suppressed") / 6 ** evs[0][2]
                rows.append({"attacker": fight.label(side, i), "target": fight.label(enemy, t),
                             "destroy": float(kill),
                             "destroy_exact": str(kill), "suppress": sup,
                             "might_damage": threat})
    return rows


#: the activation order in words (:attr:`Rules.order`)
ORDER_WORDS = {"least_suppressed": "its units in list order of their kinds, the least "
                                   "suppressed of a kind first",
               "list": "its units in list order, whatever their markers",
               "likeliest": "first the unit likeliest to destroy the enemy it would attack "
                            "(as the turn starts), then the next likeliest"}


def activation_words(fight: Fight) -> str:
    """The activation order, the modifiers to the roll and the choice of weapon, in
    words, with the Rulings page's sections."""
    rules = fight.rules
    text = (f"Each side activates {ORDER_WORDS[rules.order]} ("
            + rule("the order a side activates its units", "rulings",
                   "sucs-the-order-a-side-activates-its-units") + ").")
    mods = sorted({(s, u.roll_modifier) for s in "ab" for u in fight.units[s]
                   if u.roll_modifier})
    if mods:
        text += (" " + " and ".join(f"Side {s.upper()}'s units roll at {m:+d}" for s, m in mods)
                 + " on every attack and return strike ("
                 + rule("a modifier to the attack roll", "rulings",
                        "sucs-a-modifier-to-the-attack-roll") + ").")
    if any(u.alt_weapons for s in "ab" for u in fight.units[s]):
        text += (" A unit with more than one weapon uses one a turn: "
                 + ("the one expected to destroy the most" if rules.weapon_choice == "best"
                    else "its main weapon, another only when the main one cannot hurt any "
                         "enemy standing")
                 + "; it strikes back with its main weapon ("
                 + rule("units with more than one weapon", "rulings",
                        "sucs-units-with-more-than-one-weapon") + ").")
    return text


def _explain(inputs: dict[str, Any], result: Result) -> str:
    fight = fight_of(inputs)
    rules = fight.rules
    units = "; ".join(escape(u) for u in result["units"]["a"] + result["units"]["b"])
    starts = [f"every side {s.upper()} unit starts with {m} suppression "
              f"marker{'s' * (m != 1)}" for s, m in zip("ab", fight.markers) if m]
    text = (f"**The units.** {units}" + (f"; {' and '.join(starts)}" if starts else "")
            + ".\n\n"
            + ("**A turn.** Both sides roll 2d6 for the initiative "
               f"({'ties rolled again' if rules.ties == 'reroll' else f'{escape(fight.names[rules.ties])} wins ties'}); "
               "the winner activates one unit"
               if rules.first == "roll" else
               f"**A turn.** {escape(fight.names[rules.first])} acts first every "
               "turn, as set, and activates one unit")
            + f", then the sides take turns, and the side with more "
            f"units activates the rest at the end "
            f"({rule('order of play', 'sucs', 'order-of-play')}).")
    if rules.melee:
        text += (" The first turn is the charge: side A moved into contact, so it acts first, "
                 "and every enemy it touches may strike back at each charging unit. After "
                 "that, the unit attacked strikes back if it survives. A strike back is not an "
                 "attack; the striker takes a suppression marker for it, and a suppressed unit "
                 "fights at -1 "
                 f"({rule('close combat', PAGE, 'close-combat')}, "
                 f"{rule('who the free strike suppresses', 'rulings', 'sucs-who-the-free-strike-suppresses')}).")
    if rules.suppression == "penalty":
        first = "A suppressed unit reorganizes one marker and attacks with -1 per marker left"
    elif rules.melee and rules.melee_suppressed == "attack":
        first = ("A suppressed unit reorganizes one marker and then attacks, at -1 while it "
                 "still has a marker ("
                 + rule("a suppressed unit in close combat", "rulings",
                        "sucs-a-suppressed-unit-in-close-combat") + ")")
    else:
        first = ("A unit first reorganizes away its suppression markers, up to two; it attacks "
                 "only if it has an action left and no marker")
    if rules.hopeless_reorganizes and (rules.suppression == "penalty" or rules.melee):
        first += (" (it reorganizes a second one instead if that attack could not hurt: "
                  + rule("the ruling", "rulings",
                         "sucs-a-suppressed-unit-whose-attack-cannot-hurt") + ")")
    alone = [s.upper() for s in "ab" if any(u.one_action for u in fight.units[s])]
    if alone:
        first += (". " + " and ".join(f"Side {s}" for s in alone)
                  + (" has" if len(alone) == 1 else " have")
                  + " lost every commander, so each of its units has one action a turn: a "
                    "suppressed unit reorganizes one marker and does not attack, an "
                    "unsuppressed one attacks"
                  + ("; side A's charge spends that action on the move, so the charging "
                     "attack fails and the units charged strike back" if rules.melee
                     and "A" in alone else "")
                  + f" ({rule('commanders', 'sucs/units', 'commanders')}, "
                  + rule("an army without commanders", "rulings", "sucs-an-army-without-commanders")
                  + ")")
    text += ("\n\n**An activation.** " + first + ". "
             + "It attacks the enemy it is most likely to destroy (ties: the one with the "
               "most markers, to concentrate fire); automatic fire takes the next best as well, "
               "a separate roll each. Each attack is the "
             + rule("attack odds calculator's", "sucs/attacks", "attack-odds")
             + " resolution, with every face of the dice counted. "
             + activation_words(fight))
    text += ("\n\n**Suppression.** A unit is marked when damage equal to its armor is "
             "followed by a d6 of 1-3"
             + (", and on every second attack roll it survives that might possibly have "
                "damaged it (a roll that could never reach its armor does not count; a "
                "failed search for a stealthy unit is not a roll)"
                if rules.two_roll_rule else " (the two-roll rule is switched off here)")
             + f" ({rule('suppression', PAGE, 'suppression')}, "
               f"{rule('the two-roll rule', 'rulings', 'sucs-two-attack-rolls-that-might-have-damaged')}).")
    rows = [[r["attacker"], r["target"], percent(r["destroy"]), percent(r["suppress"]),
             "yes" if r["might_damage"] else "no"] for r in result["attack_odds"]]
    text += "\n\n" + table(["Attacker", "Target", "Destroys", "Suppresses",
                            "Roll counts towards suppression"], rows)
    if result.get("method") == "simulation":
        text += "\n\n" + fight_result.simulation_note(result, result["simulated_because"])
    else:
        text += ("\n\n**The walk.** The state between turns is each unit's markers and whether "
                 "one roll towards the next marker has landed; the walk follows every state "
                 f"with its exact chance, turn by turn, up to the turn cap of "
                 f"{inputs['max_rounds']} (at most {result['peak_states']} states were live "
                 "at once).")
    if result.get("error_bound"):
        text += "\n\n" + fight_result.pruned_note(result, sucs_fight.PRUNE_FLOOR)
    text += "\n\n" + fight_result.by_round_table(result, word="turn")
    return text


def _roll(inputs: dict[str, Any], rng: random.Random) -> Result:
    fight = fight_of(inputs)
    played = solver.play(fight, max_rounds=inputs["max_rounds"], rng=rng)
    lost = fight.losses(played.state)
    rounds = played.rounds
    names = fight.names
    outcome = {sucs_fight.A_WINS: f"{names['a']} wins",
               sucs_fight.B_WINS: f"{names['b']} wins"}.get(played.outcome, played.outcome)
    return {"outcome": outcome, "rounds": rounds, "log": played.log,
            "account": played.account, "dice": played.dice, "losses": lost,
            "summary": f"{outcome} after {rounds} turn{'s' * (rounds != 1)}: {names['a']} "
                       f"lost {lost['a']} unit{'s' * (lost['a'] != 1)}, {names['b']} lost "
                       f"{lost['b']}."}


ENGAGEMENT = Calculator(
    name="sucs.engagement",
    title="Whole engagement",
    summary="Exact odds of how a fight between two groups of units ends, turn by turn, with "
            "suppression, reorganizing and close combat.",
    fields=FIELDS,
    compute=_compute,
    sharpen=ANSWERS,
    explain=_explain,
    headline=lambda result: fight_result.headline(result, "turn"),
    charts=fight_result.charts(SIDES, "Units lost", account.TURN),
    roll=_roll,
    roll_label="Play the fight",
    page=PAGE,
    hand_on=hands_on_to("sucs.balance"),
)
