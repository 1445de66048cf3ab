"""Setups side by side, the session log's roll record, hand-on and the calculator list:
the Python halves (rendered in calculators/, sent by the worker)."""

from __future__ import annotations

import json
import re
from html import escape

from calculators import runtime
from calculators.fence import (
    ADDS_TO_ROSTER,
    ROSTER_APP,
    app_pages,
    format_calculator_list,
    format_rules_table,
    hand_on,
    placements,
    roster_adds,
)
from calculators.render import compare_html, headline_change, inputs_in_words, roll_record
from rules_core import api
from rules_core.catalog import SYSTEMS

HIT = {"dc": 16, "bonus": 3, "rounds": 3, "recoil": 2}


def _handle(op: str, name: str, inputs: object) -> dict:
    return json.loads(runtime.handle(json.dumps({"op": op, "name": name, "inputs": inputs, "uid": "w"})))


def test_headline_change_reads_numbers_percentages_and_words() -> None:
    assert headline_change("45.2%", "48.3%") == "+3.1 points"
    assert headline_change("48.3%", "45.2%") == "−3.1 points"
    assert headline_change("2", "1") == "−1"
    assert headline_change("1.35 hits", "1.50 hits") == "+0.15 hits"
    assert headline_change("d8", "d10") == "changed"
    assert headline_change("12.0%", "12.0%") == "same"
    assert headline_change("3", "3 rounds") == "changed"


def test_compare_reply_has_the_current_result_and_setup_a_beside_it() -> None:
    pinned = {**HIT, "dc": 14}
    reply = _handle("compare", "gunplay.hit_odds", {"setup": HIT, "pinned": pinned})
    plain = _handle("run", "gunplay.hit_odds", HIT)
    assert reply["ok"] and reply["result"] == plain["result"]
    html = reply["html"]
    assert html.startswith('<section class="calc-compare"') and html.endswith(plain["html"])
    # the input that differs, in words, and nothing else
    rows = re.findall(r'<table class="calc-odds calc-compare-inputs">.*?</table>', html)[0]
    assert rows.count('<th scope="row">') == 1 and ">Difficulty (DC)</th><td>14</td><td>16</td>" in rows
    # every headline figure of both setups, with its change
    a = api.run("gunplay.hit_odds", pinned)["display"]["headline"]
    b = plain["display"]["headline"]
    for (label, va), (_, vb) in zip(a, b):
        assert f'<th scope="row">{label}</th><td>{va}</td><td>{vb}</td>' \
               f'<td class="calc-change">{headline_change(va, vb)}</td>' in html
    # both distributions on one chart: two bars per outcome
    outcomes = len(plain["result"]["distribution"])
    assert html.count('class="calc-cbar"') == outcomes
    assert html.count("calc-cbar-a") == html.count("calc-cbar-b") == outcomes


def test_compare_same_inputs_says_so_and_a_broken_pin_keeps_the_result() -> None:
    same = _handle("compare", "gunplay.hit_odds", {"setup": HIT, "pinned": HIT})
    assert "same as setup A" in same["html"] and "same</td>" in same["html"]
    broken = _handle("compare", "gunplay.hit_odds", {"setup": HIT, "pinned": {"dc": "abc"}})
    assert broken["ok"] and broken["html"].startswith('<p class="calc-compare-broken">Setup A cannot')
    assert _handle("compare", "gunplay.hit_odds", {"setup": HIT})["ok"] is False


def test_compare_html_escapes_what_it_is_given() -> None:
    spec = {"name": "x.y", "title": "T", "fields": [{"name": "a", "label": "<b>A</b>", "kind": "text"}]}
    resp = {"display": {"headline": [["<i>", "1"]], "charts": []}, "result": {}}
    html = compare_html(spec, {"a": "<script>"}, resp, {"a": "x"}, resp)
    assert "<script>" not in html and "<b>" not in html and "&lt;script&gt;" in html


def test_a_roll_reply_carries_its_session_log_entry_in_words() -> None:
    inputs = api.spec("heroic.morale")["initial"]
    reply = _handle("roll", "heroic.morale", inputs)
    log = reply["log"]
    assert log["calculator"] == "heroic.morale" and log["title"] == "Morale roller"
    assert log["outcome"] == reply["result"]["summary"]
    assert [d["face"] for d in log["dice"]] == [str(d["face"]) for d in reply["result"]["dice"]]
    labels = [f["label"] for f in api.spec("heroic.morale")["fields"] if f["name"] in inputs]
    assert [k for k, _ in log["inputs"]] == labels
    # choices by their label, tick boxes as yes / no, never internal names
    words = dict(log["inputs"])
    assert words["Who checks"] == "A group"
    assert words["Cannot retreat, and the enemy takes no surrender"] == "no"
    assert not any(re.search(r"[a-z]_[a-z]", v) for _, v in log["inputs"])


def test_inputs_in_words_follow_the_form() -> None:
    spec = api.spec("gunplay.difficulty")
    words = inputs_in_words(spec, spec["initial"])
    assert len(words) == len(spec["initial"])
    assert all(label and value for label, value in words)
    assert roll_record(spec, spec["initial"], {"result": {"summary": "s"}})["outcome"] == "s"


def test_hand_on_targets_are_where_the_pages_put_them() -> None:
    where = placements()
    spec = hand_on("gunplay.difficulty", api.spec)
    assert spec is not None and spec["key"] == "dc"
    assert "dc" in api.run("gunplay.difficulty", api.spec("gunplay.difficulty")["initial"])["result"]
    for target in spec["targets"]:
        assert where[target["calculator"]] == (target["page"], target["uid"])
        assert target["field"] in [f["name"] for f in api.spec(target["calculator"])["fields"]]
    assert hand_on("gunplay.hit_odds", api.spec) is None


def test_units_go_to_the_army_builder_from_the_cost_builder_and_every_published_row() -> None:
    from rules_core.catalog import rules_tables
    from rules_core.sucs.presets import presets

    assert app_pages()[ROSTER_APP] == "sucs/roster/" and roster_adds() == "sucs/roster/?add="
    # the cost builder's result is a unit the roster takes (its stats)
    for name in ADDS_TO_ROSTER:
        stats = api.run(name, api.spec(name)["initial"])["result"]["stats"]
        assert set(stats) == {f["name"] for f in api.spec("sucs.unit_cost")["fields"]}
    links: list[str] = []
    for name in rules_tables():
        if name.startswith("sucs.units_"):
            html = format_rules_table(name, "", "", {}, None)
            links += re.findall(r'href="@@calc-root@@/sucs/roster/\?add=([^"]+)"', html)
            assert html.count("<tr>") - 1 == html.count('class="add-to-roster"')
    # every published unit, each once, by its id
    assert sorted(links) == sorted(p.id for p in presets())


def test_calculator_list_links_every_placed_calculator_of_a_system() -> None:
    where = placements()
    for system in SYSTEMS:
        html = format_calculator_list(system, "", "", {}, None)
        names = [n for n in api.names() if n.startswith(system + ".") and n in where]
        assert html.count("<tr><td><a ") == len(names) >= 1
        for name in names:
            page, uid = where[name]
            title = escape(api.spec(name)["title"]).replace("&#x27;", "&#39;")
            assert f'href="@@calc-root@@/{page}#calc-{uid}">{title}</a>' in html


def test_the_morale_break_zone_is_marked_on_the_chart_and_in_the_table() -> None:
    from calculators.render import response_html
    from rules_core.heroic.morale import MORALE_BREAK

    response = api.run("heroic.morale", api.spec("heroic.morale")["initial"])
    html = response_html(response, "/", "m")
    totals = [int(t) for t in response["result"]["totals"]]
    breaking = [t for t in totals if t >= MORALE_BREAK]
    assert breaking and len(breaking) < len(totals)
    assert html.count("calc-bar-zone") == 3 * len(breaking)  # in each of the three views
    assert html.count('<tr class="calc-row-zone">') == len(breaking)
    assert f"{MORALE_BREAK} or more: breaks" in html
    for t in breaking:
        assert f'<tr class="calc-row-zone"><th scope="row">{t}</th>' in html
