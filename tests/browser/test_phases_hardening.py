"""The action dice tracker never loses a saved fight, in Chromium with real localStorage:
a full store (a plain warning, export, and every step saved once there is room), two tabs
(one tab's steps reach the other; a race is asked about and both fights are kept), damaged
values (wrong types, keys from a newer version, ``__proto__``, a newer format, nesting
100,000 deep) and a long history (only the kept length is read and drawn); the unscoped
key of earlier versions is moved under the site's own name."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page

from rules_core import api
from tests.browser.support import (
    FULL_STORAGE,
    download,
    guarded_page,
    put_storage,
    two_tabs_at,
    wait_app_ready,
)

pytestmark = pytest.mark.browser

APP = '.calc-app[data-app="phases_tracker"]'
KEY = "tcr:/:phases-tracker:v1"
KEPT = "tcr:/:phases-tracker:kept:"
def settle(page: Page) -> None:
    wait_app_ready(page, APP)


def act(page: Page, action: str) -> None:
    page.locator(f'{APP} [data-pt="{action}"]').click()
    settle(page)


def stored(page: Page) -> dict | None:
    raw = page.evaluate(f"() => localStorage.getItem('{KEY}')")
    return None if raw is None else json.loads(raw)


def kept(page: Page) -> list[str]:
    return page.evaluate(f"""() => Object.keys(localStorage).filter(k => k.startsWith('{KEPT}'))
        .sort().map(k => localStorage.getItem(k))""")


def log_count(page: Page) -> int:
    return page.locator(f"{APP} .pt-log li").count()


def fight(steps: int) -> list[dict]:
    """A real fight of `steps` steps, as the tracker saves it."""
    history = []
    state = None
    events = [{"type": "start", "offense_dice": 5, "defence_dice": 5}] + \
        [{"type": "adjust", "change": 1}] * (steps - 1)
    for event in events:
        reply = api.run("phases.tracker", {"state": state, "event": event} if state else {"event": event})
        state = reply["result"]["state"]
        report = reply["result"]["report"]
        history.append({"state": state, "view": reply["result"]["view"], "text": report["text"],
                        "round": report["round"], "phase": report["phase"]})
    return history


@pytest.fixture(scope="module")
def tracker(module_page: Page, site) -> Page:  # type: ignore[no-untyped-def]
    module_page.goto(site.url + "phases/tracker/")
    settle(module_page)
    return module_page


def reopen(page: Page, items: dict[str, str]) -> None:
    put_storage(page, items)
    page.reload()
    settle(page)


# ---- damaged, newer and hostile saved fights ------------------------------------------------

def test_keys_from_a_newer_version_and_proto_keys_are_tolerated(tracker: Page) -> None:
    page = tracker
    history = fight(3)
    for step in history:
        step["state"]["morale"] = 4  # a key a newer version might add
        step["mood"] = "grim"
    text = json.dumps({"version": 1, "history": history, "notes": "from a newer page"})
    text = text.replace('{"state": {', '{"__proto__": {"polluted": 1}, "state": {"__proto__": {"polluted": 2}, ', 1)
    reopen(page, {KEY: text})
    assert log_count(page) == 3 and kept(page) == []
    assert page.locator(f"{APP} .pt-notice").is_hidden()
    assert not page.evaluate("() => ({}).polluted")
    act(page, "roll")
    assert len(stored(page)["history"]) == 4  # type: ignore[index]


def test_a_wrong_typed_value_drops_only_that_step_and_keeps_a_copy(tracker: Page) -> None:
    page = tracker
    history = fight(4)
    history[-1]["state"]["dice_left"] = "lots"
    text = json.dumps({"version": 1, "history": history})
    reopen(page, {KEY: text})
    assert log_count(page) == 3  # back to the last step the rules engine accepts
    assert kept(page) == [text]
    assert "kept aside" in page.locator(f"{APP} .pt-notice").inner_text()
    assert page.locator(f"{APP} .pt-kept li").count() == 1


def test_a_newer_format_is_read_and_kept(tracker: Page) -> None:
    page = tracker
    text = json.dumps({"version": 2, "history": fight(2)})
    reopen(page, {KEY: text})
    assert log_count(page) == 2 and kept(page) == [text]
    assert "newer version" in page.locator(f"{APP} .pt-notice").inner_text()


def test_nesting_100000_deep_is_kept_aside_and_the_tracker_works(tracker: Page) -> None:
    page = tracker
    deep = '{"version": 1, "history": ' + "[" * 100_000 + "]" * 100_000 + "}"
    reopen(page, {KEY: deep})
    assert kept(page) == [deep]
    assert "nested more than" in page.locator(f"{APP} .pt-notice").inner_text()
    act(page, "start")
    assert log_count(page) == 1 and len(stored(page)["history"]) == 1  # type: ignore[index]


def test_a_long_history_is_read_and_drawn_at_its_kept_length(tracker: Page) -> None:
    page = tracker
    history = fight(3)
    filler = {"state": {}, "view": {}, "text": "x"}
    long = {"version": 1, "history": [filler] * 20_000 + history}
    text = json.dumps(long, separators=(",", ":"))
    reopen(page, {KEY: text})
    assert log_count(page) == 300
    assert page.locator(f"{APP} .pt-round").inner_text() == str(history[-1]["view"]["round"])


def test_the_unscoped_key_of_earlier_versions_is_moved(tracker: Page) -> None:
    page = tracker
    text = json.dumps({"version": 1, "history": fight(2)})
    reopen(page, {"phases-tracker:v1": text})
    assert log_count(page) == 2
    assert page.evaluate("() => localStorage.getItem('phases-tracker:v1')") is None
    assert stored(page) == json.loads(text)


def test_new_fight_keeps_the_old_one_aside_and_a_file_brings_it_back(tracker: Page, tmp_path: Path) -> None:
    page = tracker
    reopen(page, {KEY: json.dumps({"version": 1, "history": fight(3)})})
    path = download(page, page.locator(f'{APP} .pt-controls [data-pt="export"]'),
                    tmp_path / "fight.json")
    act(page, "new")
    assert page.locator(f"{APP} .pt-board").is_hidden() and len(kept(page)) == 1
    assert log_count(page) == 0  # nothing of the old fight stays behind in the hidden board
    page.set_input_files(f"{APP} .pt-import", str(path))
    # the board shows again once the file's fight is loaded and saved
    page.locator(f"{APP} .pt-board").wait_for(state="visible")
    settle(page)
    assert log_count(page) == 3
    assert "The fight from fight.json is loaded." in page.locator(f"{APP} .calc-status").inner_text()
    assert len(stored(page)["history"]) == 3  # type: ignore[index]


# ---- a full store ------------------------------------------------------------------------------

def test_full_storage_warns_and_saves_every_step_once_there_is_room(
        browser: Browser, site, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    with guarded_page(browser, site, "phases/tracker/", APP, FULL_STORAGE) as (page, errors):
        act(page, "start")
        problem = page.locator(f"{APP} .pt-save-problem")
        assert problem.is_visible() and "NOT saved" in problem.inner_text()
        assert "kept" not in page.locator(f"{APP} .calc-status").inner_text()  # no false promise
        for _ in range(4):
            act(page, "roll")
        assert log_count(page) == 5 and stored(page) is None
        path = download(page, page.locator(f'{APP} .pt-controls [data-pt="export"]'),
                        tmp_path / "fight.json")
        assert len(json.loads(path.read_text())["history"]) == 5
        page.evaluate("() => { window.__storageFull = false; }")
        act(page, "roll")
        assert not problem.is_visible()
        assert "Saved again" in page.locator(f"{APP} .pt-notice").inner_text()
        assert len(stored(page)["history"]) == 6  # type: ignore[index]
        page.reload()
        settle(page)
        assert log_count(page) == 6
        assert not errors


# ---- two tabs ---------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def two_tabs(browser: Browser, site) -> Iterator[tuple[Page, Page, list[str]]]:  # type: ignore[no-untyped-def]
    with two_tabs_at(browser, site, "phases/tracker/", APP) as tabs:
        yield tabs


def test_steps_in_one_tab_reach_the_other(two_tabs) -> None:  # type: ignore[no-untyped-def]
    a, b, errors = two_tabs
    act(a, "start")
    act(a, "roll")
    act(a, "roll")
    b.wait_for_function(f"() => document.querySelectorAll('{APP} .pt-log li').length === 3")
    settle(b)
    act(b, "roll")  # B goes on from A's fight
    a.wait_for_function(f"() => document.querySelectorAll('{APP} .pt-log li').length === 4")
    settle(a)
    assert len(stored(a)["history"]) == 4  # type: ignore[index]
    assert not errors


def test_a_race_between_tabs_asks_and_keeps_both_fights(two_tabs) -> None:  # type: ignore[no-untyped-def]
    a, b, errors = two_tabs
    settle(a)
    settle(b)
    # a save B has not heard of yet (written from B's own page, which gets no event)
    elsewhere = b.evaluate(f"""() => {{ const s = JSON.parse(localStorage.getItem('{KEY}'));
        s.history.push({{ ...s.history[s.history.length - 1], text: 'Saved elsewhere' }});
        const text = JSON.stringify(s); localStorage.setItem('{KEY}', text); return text; }}""")
    b.locator(f'{APP} [data-pt="roll"]').click()
    dialog = b.locator(".pt-ask[open]")
    dialog.wait_for()
    assert "changed in another tab" in dialog.inner_text()
    assert b.evaluate(f"() => localStorage.getItem('{KEY}')") == elsewhere  # nothing overwritten
    dialog.get_by_role("button", name="Keep this tab's fight").click()
    settle(b)
    assert elsewhere in kept(b)  # the other fight is kept aside, not lost
    mine = stored(b)
    assert len(mine["history"]) == 5 and mine["history"][-1]["text"] != "Saved elsewhere"  # type: ignore[index]
    assert not errors


def test_a_reload_while_asked_about_another_tabs_fight_keeps_a_copy(two_tabs) -> None:  # type: ignore[no-untyped-def]
    """Tab B is reloaded while it asks which fight to keep: B's fight (with its last
    step) is kept aside, the other tab's save is untouched, and B says so after the reload."""
    a, b, errors = two_tabs
    settle(a)
    if stored(a) is None:  # run alone: a fight of the two tabs first
        act(a, "start")
        b.wait_for_function(f"() => document.querySelectorAll('{APP} .pt-log li').length === 1")
    settle(b)
    elsewhere = b.evaluate(f"""() => {{ const s = JSON.parse(localStorage.getItem('{KEY}'));
        s.history.push({{ ...s.history[s.history.length - 1], text: 'Saved in the other tab' }});
        const text = JSON.stringify(s); localStorage.setItem('{KEY}', text); return text; }}""")
    before = len(kept(b))
    b.locator(f'{APP} [data-pt="roll"]').click()
    b.locator(".pt-ask[open]").wait_for()
    mine = len(json.loads(elsewhere)["history"])  # B's steps: the same count, its own roll last
    b.reload()
    settle(b)
    copies = [json.loads(text) for text in kept(b)]
    assert len(copies) == before + 1
    # B's fight as B had it: its own roll last, not the other tab's step
    ours = [c for c in copies if c["history"][-1]["text"] != "Saved in the other tab"
            and len(c["history"]) == mine]
    assert ours, [len(c["history"]) for c in copies]
    assert b.evaluate(f"() => localStorage.getItem('{KEY}')") == elsewhere  # the other tab's save, untouched
    notice = b.locator(f"{APP} .pt-notice").inner_text()
    assert "reloaded" in notice and "kept aside" in notice
    assert not b.locator(".pt-ask[open]").count()
    assert not errors


def test_undo_onto_a_step_the_rules_engine_refuses_keeps_a_copy(tracker: Page) -> None:
    """Undo back onto a damaged step: the step is dropped (back to the last one the rules
    engine accepts), and the fight as it was before is kept aside, not lost."""
    page = tracker
    history = fight(4)
    history[2]["state"]["dice_left"] = "lots"  # the step before the last
    reopen(page, {KEY: json.dumps({"version": 1, "history": history})})
    assert log_count(page) == 4 and kept(page) == []
    act(page, "undo")
    assert log_count(page) == 2  # the undone step, then the refused one
    copies = [json.loads(text) for text in kept(page)]
    assert len(copies) == 1 and copies[0]["history"] == json.loads(json.dumps(history[:3]))
    assert "kept aside" in page.locator(f"{APP} .pt-notice").inner_text()
    assert page.locator(f"{APP} .pt-kept li").count() == 1
    assert len(stored(page)["history"]) == 2  # type: ignore[index]
