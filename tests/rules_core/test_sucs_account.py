"""The account of a SUCS fight played with real dice (issue 43.1): every action names its
side and its unit, one line each, with its own dice; turns are blocks with the state after
them; the same words in the structured account, the text copy and the session log."""

from __future__ import annotations

import json
import random
import re
from typing import Any

from calculators.render import roll_html, roll_record
from rules_core import api

LIGHT = {"quality": 3, "attack": 1, "armor": 0}
OFFICER = {"quality": 3, "attack": 1, "armor": 1, "commander": True, "range": 12}


def army(name: str, *lines: tuple[str, int, dict[str, Any]]) -> str:
    return json.dumps({"format": "sucs-roster", "version": 1, "name": name, "points_limit": 0,
                       "units": [{"name": n, "count": c, "stats": s} for n, c, s in lines]})


#: two rosters with the same kinds of unit
RED = army("Red platoon", ("light infantry", 2, LIGHT), ("officer", 1, OFFICER))
BLUE = army("Blue company", ("light infantry", 2, LIGHT), ("officer", 1, OFFICER))
UNITS = {f"{side} {unit}" for side in ("Red platoon", "Blue company")
         for unit in ("light infantry 1", "light infantry 2", "officer")}
ATTACK = re.compile(r"^(?P<who>.+?) fires at (?P<target>.+?): (?:attack roll (?P<total>\d+) "
                    r"against (?P<needed>\d+) needed)(?:, damage equal to armor, d6 (?P<d6>\d))?"
                    r": (?P<result>destroyed|suppressed|no effect)")


def played(seed: int) -> dict[str, Any]:
    reply = api.roll("sucs.roster_battle", {"roster_a": RED, "roster_b": BLUE, "turns": 4},
                     random.Random(seed))
    assert reply["ok"], reply
    return reply


def test_seeded_battle_is_told_action_by_action_with_sides_and_dice() -> None:
    reply = played(7)
    result = reply["result"]
    told = result["account"]
    assert [b["heading"] for b in told] == [f"Turn {n}" for n in range(1, result["rounds"] + 1)]
    first = told[0]["actions"]
    # the seeded first turn, word for word
    assert first[0] == {
        "side": "", "who": "", "rolls": [{"what": "Red platoon", "faces": [3, 2]},
                                         {"what": "Blue company", "faces": [4, 6]}],
        "words": "Initiative, 2d6 each: Red platoon 5, Blue company 10: Blue company acts first."}
    assert first[1] == {
        "side": "b", "who": "Blue company light infantry 1",
        "rolls": [{"what": "attack roll 2d6", "faces": [1, 1]}],
        "words": "Blue company light infantry 1 fires at Red platoon light infantry 1: attack "
                 "roll 2 against 8 needed: no effect (the first roll that might have damaged "
                 "it: one more suppresses it)."}
    assert told[0]["after"] == ("After turn 1: Red platoon: 3 of 3 left, 1 suppressed: light "
                                "infantry 1 (1 marker); Blue company: 3 of 3 left, 1 suppressed: "
                                "light infantry 1 (1 marker).")
    attacks = 0
    for block in told:
        for action in block["actions"]:
            if action["side"] == "":
                assert action["words"].startswith(("Initiative", "Red platoon acts first",
                                                   "Blue company acts first"))
                continue
            attacks += 1
            own = "Red platoon" if action["side"] == "a" else "Blue company"
            # the side and the unit, numbered among its kind, open every line
            assert action["who"] in UNITS and action["who"].startswith(own)
            assert action["words"].startswith(action["who"] + " ")
            found = ATTACK.match(action["words"])
            if found is None:
                assert re.fullmatch(r".+ reorganizes: \d suppression markers? removed\.",
                                    action["words"])
                assert action["rolls"] == []
                continue
            assert found["target"] in UNITS and not found["target"].startswith(own)
            # each die sits with its roll, and the roll's total is its dice's
            rolls = {r["what"]: r["faces"] for r in action["rolls"]}
            assert sum(rolls["attack roll 2d6"]) == int(found["total"])
            assert ("d6 (damage equal to armor)" in rolls) == (found["d6"] is not None)
            if found["d6"]:
                assert rolls["d6 (damage equal to armor)"] == [int(found["d6"])]
    assert attacks >= 10
    # the time word is the source's "turn", never "round"
    assert not any(re.search(r"\bround\b", line, re.I) for line in result["log"])


def test_text_copy_session_log_and_page_share_one_wording() -> None:
    reply = played(7)
    result = reply["result"]
    lines = result["log"]
    expected: list[str] = []
    for block in result["account"]:
        expected.append(block["heading"])
        for action in block["actions"]:
            dice = "; ".join(f"{r['what']}: {', '.join(map(str, r['faces']))}"
                             for r in action["rolls"])
            expected.append(action["words"] + (f" [{dice}]" if dice else ""))
        expected.append(block["after"])
    assert lines == expected
    assert lines[2].endswith("[attack roll 2d6: 1, 1]")
    record = roll_record(api.spec("sucs.roster_battle"), {"turns": 4}, reply)
    assert record["account"] == lines
    html = roll_html(reply)
    assert html.count('class="calc-turn"') == result["rounds"]
    assert html.count('<li class="calc-action calc-side-b">') == sum(
        a["side"] == "b" for b in result["account"] for a in b["actions"])
    assert '<span class="calc-roll-what">attack roll 2d6:</span>' in html
    assert "Copy the account as text" in html and "Side A" not in html


def test_the_engagement_names_its_sides_and_takes_units_by_name() -> None:
    inputs = {"a_name": "  Red   platoon ", "b_name": "Blue company",
              "side_a": "TL 5-7/light infantry, tl5-7/light-infantry", "side_b": "3/1/0, 3/1/0 c1",
              "max_rounds": 3}
    reply = api.roll("sucs.engagement", inputs, random.Random(1))
    assert reply["ok"], reply
    whos = {a["who"] for b in reply["result"]["account"] for a in b["actions"] if a["who"]}
    assert whos <= {"Red platoon light infantry 1", "Red platoon light infantry 2",
                    "Blue company 3/1/0 no. 1", "Blue company 3/1/0 no. 2"}
    assert reply["result"]["summary"].startswith(("Red platoon wins", "Blue company wins",
                                                  "Still fighting"))
    odds = api.run("sucs.engagement", inputs)
    assert set(odds["result"]["outcomes"]) >= {"Red platoon wins", "Blue company wins"}
    assert [c["title"] for c in odds["display"]["charts"]][1:] == [
        "Turn the fight ends in", "Red platoon units lost", "Blue company units lost"]
    assert "By turn" in odds["explanation"] and "By round" not in odds["explanation"]


def test_names_and_units_by_name_are_refused_in_the_fields_terms() -> None:
    for over, field, words in (
            ({"a_name": "   "}, "a_name", "Side A name: give the side a name"),
            ({"b_name": "x" * 41}, "b_name", "Side B name is too long (41 characters); at most 40"),
            ({"side_a": "light infantry"}, "side_a",
             "is in several unit lists; say which, as TL 5-7/light infantry or "
             "TL 12-15/light infantry"),
            ({"side_b": "dragon"}, "side_b", 'Side B units: could not read the text "dragon"')):
        reply = api.run("sucs.engagement", {"max_rounds": 3, **over})
        assert not reply["ok"] and reply["error"]["field"] == field
        assert words in reply["error"]["message"], reply["error"]["message"]


def test_two_rosters_of_the_same_name_are_told_apart() -> None:
    reply = api.roll("sucs.roster_battle", {"roster_a": RED, "roster_b": RED, "turns": 4},
                     random.Random(2))
    assert reply["ok"], reply
    whos = {a["who"] for b in reply["result"]["account"] for a in b["actions"] if a["who"]}
    assert any(w.startswith("Red platoon (side A) ") for w in whos)
    assert any(w.startswith("Red platoon (side B) ") for w in whos)


def test_every_published_unit_can_be_picked_for_a_side_and_reads_back_as_that_unit() -> None:
    """The pick list beside each side's units offers every unit of the published lists,
    grouped by list, each written as the field reads it (with its list where several lists
    share the name): each pick, added to a side, is that list's unit with the numbers the
    pick shows."""
    from rules_core.sucs import calc_actions_fight as calc
    from rules_core.sucs.presets import presets
    form = {f["name"]: f for f in api.spec("sucs.engagement")["fields"]}
    assert form["side_a"]["picks"] == form["side_b"]["picks"]
    assert "side A" in form["side_a"]["pick_label"] and "side B" in form["side_b"]["pick_label"]
    groups = form["side_a"]["picks"]
    offered = [(group, text, label) for group, options in groups for text, label in options]
    assert len(offered) == len(presets())
    assert [g for g, _ in groups] == list(dict.fromkeys(p.list_title for p in presets()))
    for (group, text, label), preset in zip(offered, presets()):
        fighter, = calc.parse_side("side_a", text)
        unit = preset.unit
        assert group == preset.list_title and fighter.name == preset.name
        assert (fighter.quality, fighter.attack, fighter.targets, fighter.armor,
                fighter.stealthy) == (unit.quality, unit.attack, unit.targets, unit.armor,
                                      unit.stealth)
        numbers = label[label.index("(") + 1:label.rindex(")")]
        assert numbers.startswith(f"{unit.quality}/{unit.attack}") and label.startswith(preset.name)
    assert api.run("sucs.engagement", {"side_a": ", ".join(t for _, t, _ in offered[:6]),
                                       "max_rounds": 3})["ok"]
