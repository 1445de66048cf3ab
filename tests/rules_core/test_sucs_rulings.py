"""SUCS rulings, impossible states and the table-side helpers (issue 18): every number
the Rulings page quotes, computed by the core and checked against enumeration or by
hand."""

from __future__ import annotations

import itertools
from fractions import Fraction

import pytest

from rules_core import api
from rules_core.sucs.attack import AttackSpec, outcome_distribution
from rules_core.sucs.fight import initiative
from rules_core.sucs.turn import Rules
from tests.rules_core.support import refused

FACES = range(1, 7)


def enumerate_attack(tn: int, attack: int, armor: int, from_tn: bool, armor_in_roll: bool = True):
    """The attack written out face by face, with the +3 counted either way."""
    need = tn + (armor if armor_in_roll else 0)
    counts = {"destroyed": 0, "suppressed": 0, "no_effect": 0}
    for a, b, d in itertools.product(FACES, FACES, FACES):
        roll = a + b
        if roll < need:
            counts["no_effect"] += 1
            continue
        dmg = attack + (roll - (tn if from_tn else need) >= 3)
        key = "destroyed" if dmg > armor else "no_effect" if dmg < armor else \
            ("destroyed" if d >= 4 else "suppressed")
        counts[key] += 1
    return {k: Fraction(v, 216) for k, v in counts.items()}


@pytest.mark.parametrize("attack,armor", [(a, r) for a in range(4) for r in range(5)])
@pytest.mark.parametrize("from_tn", [False, True])
def test_plus_three_both_readings_match_enumeration(attack, armor, from_tn) -> None:
    spec = AttackSpec(attack=attack, armor=armor, bonus_from_target_number=from_tn)
    assert outcome_distribution(spec) == enumerate_attack(8, attack, armor, from_tn)


def test_ruling_numbers_attack_1_against_armor_2() -> None:
    default = outcome_distribution(AttackSpec(attack=1, armor=2))
    assert default["destroyed"] == 0 and default["suppressed"] == 0
    for spec in (AttackSpec(attack=1, armor=2, armor_modifies_roll=False),
                 AttackSpec(attack=1, armor=2, bonus_from_target_number=True)):
        dist = outcome_distribution(spec)
        assert dist["destroyed"] == dist["suppressed"] == Fraction(1, 24)


def test_ruling_numbers_beating_by_3() -> None:
    assert outcome_distribution(AttackSpec(attack=2, armor=2)) == {
        "destroyed": Fraction(1, 12), "suppressed": Fraction(1, 12), "no_effect": Fraction(5, 6)}
    assert outcome_distribution(AttackSpec(attack=2, armor=2, bonus_from_target_number=True)) == {
        "destroyed": Fraction(1, 8), "suppressed": Fraction(1, 24), "no_effect": Fraction(5, 6)}
    response = api.run("sucs.attack", {"attack": 2, "armor": 2, "cover": 0,
                                       "bonus_over": "target_number"})
    assert response["result"]["p_destroyed_exact"] == "1/8"


def test_initiative_ties() -> None:
    ties = sum(1 for a, b, c, d in itertools.product(FACES, repeat=4) if a + b == c + d)
    assert Fraction(ties, 6**4) == Fraction(73, 648)
    assert dict(initiative(Rules(ties="a")))["a"] == (1 - Fraction(ties, 6**4)) / 2 + \
        Fraction(ties, 6**4) == Fraction(721, 1296)
    assert dict(initiative(Rules(ties="b")))["a"] == Fraction(575, 1296)
    assert dict(initiative(Rules(ties="reroll")))["a"] == Fraction(1, 2)
    mirror = {"side_a": "3/1/0", "side_b": "3/1/0"}
    reroll = api.run("sucs.engagement", mirror)["result"]["outcomes"]
    favoured = api.run("sucs.engagement", {**mirror, "ties": "a"})["result"]["outcomes"]
    assert round(reroll["Side A wins"], 3) == 0.5 and round(favoured["Side A wins"], 3) == 0.515


def test_light_forest_both_readings() -> None:
    hexes = api.run("sucs.movement", {"route": "light forest 6"})["result"]
    cost = api.run("sucs.movement", {"route": "light forest 6", "light_forest": "cost"})["result"]
    assert (hexes["hexes_in_one_move_exact"], hexes["total_inches_exact"]) == ("4", "9")
    assert (cost["hexes_in_one_move_exact"], cost["total_inches_exact"]) == ("9/2", "8")


def test_engagement_readings_quoted_on_the_rulings_page() -> None:
    def a_wins(**kw):
        p = api.run("sucs.engagement", kw)["result"]["outcomes"]["Side A wins"]
        return f"{p * 100:.1f}%"
    assert a_wins() == "41.8%"
    assert a_wins(two_roll_rule=False) == "41.0%"
    assert a_wins(suppression="penalty") == "41.0%"


def _chances(**inputs) -> tuple[str, ...]:
    out = api.run("sucs.engagement", inputs)["result"]["outcomes"]
    return tuple(f"{out[k] * 100:.2f}%" for k in ("Side A wins", "Side B wins"))


def test_a_suppressed_unit_in_close_combat_both_readings() -> None:
    charge = {"side_a": "3/1/0, 3/1/0", "side_b": "4/1/1", "mode": "melee", "max_rounds": 10}
    assert _chances(**charge)[0] == "36.27%"
    assert _chances(**charge, melee_suppressed="reorganize")[0] == "38.28%"


def test_an_army_without_commanders_as_quoted() -> None:
    fire = {"side_a": "3/1/0, 3/1/0", "side_b": "4/1/1", "max_rounds": 10}
    assert _chances(**fire)[0] == "46.37%"
    assert _chances(**fire, b_one_action=True)[0] == "69.64%"
    assert _chances(**fire, mode="melee")[0] == "36.27%"
    assert _chances(**fire, mode="melee", a_one_action=True)[0] == "11.02%"


def test_a_suppressed_unit_whose_attack_cannot_hurt_both_readings() -> None:
    mirror = {"side_a": "3/2/2 c2", "side_b": "3/2/2 c2", "mode": "melee", "max_rounds": 10}
    # each needs a 12: at -1 no roll can hurt
    assert outcome_distribution(AttackSpec(attack=2, armor=2, cover=2, roll_modifier=-1))[
        "no_effect"] == 1
    assert _chances(**mirror) == ("14.70%", "15.69%")
    assert _chances(**mirror, hopeless_reorganizes=True) == ("14.72%", "15.40%")


# ---- impossible states ---------------------------------------------------------------

@pytest.mark.parametrize("inputs,field,words", [
    ({"damage_d6": 3}, "damage_d6", "Damage d6"),
    ({"terrain": "hill", "cover": 1}, "cover", "a hill gives its +1 as altitude"),
    ({"terrain": "hill", "cover": 0, "altitude_above": 1}, "altitude_above", "Allowed with a hill: 0"),
    ({"terrain": "light forest", "cover": 1}, "cover", "Target's cover"),
    ({"terrain": "swamp", "cover": 0}, "terrain", "must be one of"),
])
def test_attack_refuses_impossible_states(inputs, field, words) -> None:
    refused("sucs.attack", inputs, field, words)


def test_attack_terrain_sets_cover_or_altitude() -> None:
    hill = api.run("sucs.attack", {"terrain": "hill", "cover": 0, "attack": 2, "armor": 1})
    typed = api.run("sucs.attack", {"cover": 0, "altitude_above": 1, "attack": 2, "armor": 1})
    assert hill["result"]["outcomes_exact"] == typed["result"]["outcomes_exact"]
    assert hill["result"]["needed"] == 10
    urban = api.run("sucs.attack", {"terrain": "urban", "cover": 0})["result"]
    assert urban["needed"] == 8 + 2


def test_unit_cost_prices_illegal_units_and_says_why() -> None:
    response = api.run("sucs.unit_cost", {"altitude": "1", "mobility": "ground", "speed": 0,
                                          "must_move": True, "commander": True, "range": 6})
    assert response["ok"]
    result = response["result"]
    assert result["cost"] > 0
    text = " ".join(result["warnings"])
    assert "ground unit at altitude 1" in text
    assert "must move every turn but has speed 0" in text
    assert "commander without the reorganize support action" in text
    assert len(result["warnings"]) == 3
    assert "Not a legal unit" in response["explanation"]
    assert api.run("sucs.unit_cost", {})["result"]["warnings"] == []


# ---- helpers -------------------------------------------------------------------------

@pytest.mark.parametrize("inputs,in_range,counted,melee,cover", [
    ({}, False, "15", False, 1),                                         # the page's example
    ({"range": 15}, True, "15", False, 1),
    ({"range": 18, "min_range": True, "target_altitude": "0", "distance": 5}, False, "5", False, 0),
    ({"range": 18, "min_range": True, "target_altitude": "0", "distance": 6}, True, "6", False, 0),
    ({"attacker_altitude": "0.5", "target_altitude": "0", "distance": 2}, False, "14", False, 0),
    ({"attacker_altitude": "0", "target_altitude": "0.5", "distance": 2}, True, "2", False, 0),
    ({"attacker_altitude": "0", "target_altitude": "0.5", "distance": 0}, True, "0", True, 0),
    ({"range": 0, "target_altitude": "0", "distance": 0}, False, "0", True, 0),
    ({"attacker_altitude": "2", "target_altitude": "0", "distance": 1, "range": 30}, True, "25",
     False, 0),
])
def test_reach(inputs, in_range, counted, melee, cover) -> None:
    result = api.run("sucs.reach", inputs)["result"]
    assert result["in_range"] is in_range
    assert result["counted_distance_exact"] == counted
    assert result["close_combat"] is melee
    assert result["cover_from_altitude"] == cover


def test_movement_worked_example_and_terrain_limits() -> None:
    result = api.run("sucs.movement", {})["result"]
    assert result["total_inches_exact"] == "7" and result["moves"] == 2
    assert result["hexes_in_one_move_exact"] == "25/3"
    blocked = api.run("sucs.movement", {"route": "road 2, heavy forest 1", "kind": "vehicle"})
    assert blocked["result"]["blocked"] and "closed" in blocked["explanation"]
    hover = api.run("sucs.movement", {"route": "river 3", "kind": "hover"})["result"]
    assert hover["total_inches_exact"] == "3"
    wet = api.run("sucs.movement", {"route": "water 2", "kind": "foot"})["result"]
    assert wet["blocked"]
    swim = api.run("sucs.movement", {"route": "water 2, river 3", "amphibious": True})["result"]
    assert swim["total_inches_exact"] == "5"
    back = api.run("sucs.movement", {"route": "clear 3", "speed": 6, "withdraw": True})["result"]
    assert back["hexes_in_one_move_exact"] == "3" and back["total_inches_exact"] == "2"


@pytest.mark.parametrize("route,words", [("road", "could not read"), ("lava 3", "could not read"),
                                         ("road 0", "1 to 200"), ("", "1 to 20")])
def test_movement_route_messages(route, words) -> None:
    response = api.run("sucs.movement", {"route": route})
    assert response["error"]["field"] == "route" and words in response["error"]["message"]
    assert response["error"]["message"].startswith("Route")


def test_tech_adjustment() -> None:
    result = api.run("sucs.tech_adjust", {"attack": 1, "armor": 1, "attack_bonus": 2,
                                          "armor_bonus": 1})["result"]
    assert (result["attack"], result["armor"]) == (3, 2)
    assert result["cost_after"] - result["cost_before"] == 4 * 2 + 4 * 1
    row = result["attacking"][2]
    assert Fraction(row["after_exact"]) == outcome_distribution(
        AttackSpec(attack=3, armor=2))["destroyed"]
    assert Fraction(result["defending"][1]["after_exact"]) == outcome_distribution(
        AttackSpec(attack=1, armor=2))["destroyed"]
    bad = api.run("sucs.tech_adjust", {"attack_bonus": 4})
    assert bad["error"]["field"] == "attack_bonus"
