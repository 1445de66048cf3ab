"""At the table, in Chromium: a roll's outcome lands in view beside its button (every
widget that rolls, desktop and phone), every roll goes into one session log kept across
pages and reloads and exported as Markdown and JSON, setups compare side by side (kept in
the link), and the difficulty's DC is handed on to the hit calculators.
One Pyodide load: pages are visited with Material's instant navigation.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from urllib.parse import parse_qs, urlparse

import pytest
from playwright.sync_api import Page

from rules_core import api
from tests.browser.support import (
    RUNTIME_TIMEOUT_MS,
    instant_goto,
    site_pages,
    wait_result,
    wait_settled,
    widget,
)

pytestmark = pytest.mark.browser

SIZES = {"desktop": (1366, 900), "phone": (390, 844)}
SHOTS = Path(__file__).resolve().parents[2] / "test-results" / "screenshots" / "table"

#: the outcome element's box, and whether it lies wholly inside the viewport
IN_VIEW = """el => { const r = el.getBoundingClientRect();
  return {top: r.top, bottom: r.bottom, height: r.height, vh: innerHeight,
          inside: r.height > 0 && r.top >= 0 && r.bottom <= innerHeight && r.left >= 0 && r.right <= innerWidth}; }"""


def _goto(page: Page, site, rel: str) -> None:  # type: ignore[no-untyped-def]
    if page.url.split("#")[0].split("?")[0] != site.url + rel:
        instant_goto(page, site.url + rel)


def _log(page: Page) -> list[dict]:
    """The stored session log (the site is served at the root: its key is scoped to "/")."""
    return page.evaluate("() => JSON.parse(localStorage.getItem('tcr:/:session-log') || '[]')")


@pytest.fixture(scope="module")
def page(module_page: Page, site) -> Page:  # type: ignore[no-untyped-def]
    module_page.goto(site.url)
    module_page.evaluate("() => localStorage.clear()")
    return module_page


def _rolling_widgets(page: Page, site) -> list[tuple[str, int, str]]:  # type: ignore[no-untyped-def]
    """(page, index on the page, calculator) of every widget with a Roll button."""
    found = []
    for rel in site_pages(site, widgets_only=True):
        html = (site.dir / rel / "index.html").read_text(encoding="utf-8")
        names = re.findall(r'<div class="calc" id="[^"]*" data-calculator="([^"]+)"', html)
        seen: dict[str, int] = {}
        for block, name in zip(re.split(r'<div class="calc" id=', html)[1:], names):
            index = seen.get(name, 0)
            seen[name] = index + 1
            if 'data-action="roll"' in block.split('<section class="calc-rolls"')[0]:
                found.append((rel, index, name))
    return found


def test_every_roll_lands_in_view_beside_its_button_and_enters_the_session_log(page: Page, site) -> None:  # type: ignore[no-untyped-def]
    targets = _rolling_widgets(page, site)
    rolling = {n for n in api.names() if api.spec(n)["can_roll"]}
    # every calculator that rolls is placed as a widget (the tracker is an app: tested below)
    assert {name for _, _, name in targets} == rolling - {"phases.tracker"}
    problems = []
    rolls = 0
    for rel, index, name in targets:
        _goto(page, site, rel)
        root = widget(page, name, index)
        assert wait_settled(page, root) == "ready", name
        current = root.locator(".calc-roll-current")
        assert current.get_attribute("aria-live") == "polite"
        for size, (width, height) in SIZES.items():
            page.set_viewport_size({"width": width, "height": height})
            page.evaluate("el => el.querySelector('.calc-roll-current').replaceChildren()", root.element_handle())
            root.locator('[data-action="roll"]').click()
            page.wait_for_function("el => el.querySelector('.calc-roll-current .calc-roll-summary')",
                                   arg=root.element_handle(), timeout=RUNTIME_TIMEOUT_MS)
            rolls += 1
            box = current.evaluate(IN_VIEW)
            if not box["inside"]:
                problems.append(f"{rel} {name} at {size}: outcome at {box}")
            # it sits right under the Roll button, not under the chart
            gap = page.evaluate("""el => el.querySelector('.calc-roll-current').getBoundingClientRect().top
                                   - el.querySelector('[data-action="roll"]').getBoundingClientRect().bottom""",
                                root.element_handle())
            if not 0 <= gap <= 200:
                problems.append(f"{rel} {name} at {size}: outcome {gap}px from the button")
            if size == "phone" and name == "heroic.morale":
                SHOTS.mkdir(parents=True, exist_ok=True)
                page.screenshot(path=str(SHOTS / "morale-roll-phone.png"))
        page.set_viewport_size({"width": 1366, "height": 900})
    assert problems == []
    log = _log(page)
    assert len(log) == rolls
    newest = log[0]
    assert newest["calculator"] == targets[-1][2] and newest["outcome"]
    assert newest["inputs"] and all(len(pair) == 2 for pair in newest["inputs"])
    assert re.match(r"\d{4}-\d\d-\d\dT", newest["time"]) and newest["page"].endswith(targets[-1][0])
    # inputs in words: labels as the form shows them, never internal names
    for entry in log:
        for label, _ in entry["inputs"]:
            assert not re.search(r"\w_\w", label), (entry["calculator"], label)


def test_the_tracker_rolls_into_the_same_log(page: Page, site) -> None:  # type: ignore[no-untyped-def]
    _goto(page, site, "phases/tracker/")
    app = page.locator('.calc-app[data-app="phases_tracker"]')
    wait_settled(page, app)
    before = len(_log(page))
    if app.locator('[data-pt="start"]').count() and app.locator('[data-pt="start"]').is_enabled():
        app.locator('[data-pt="start"]').click()
        page.wait_for_function("el => !el._busy", arg=app.element_handle(), timeout=RUNTIME_TIMEOUT_MS)
    app.locator('[data-pt="roll"]').click()
    page.wait_for_function("el => !el._busy", arg=app.element_handle(), timeout=RUNTIME_TIMEOUT_MS)
    log = _log(page)
    assert len(log) == before + 1 and log[0]["calculator"] == "phases.tracker"


def test_the_session_log_survives_a_reload_and_exports(page: Page, site, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    kept = _log(page)
    assert len(kept) >= 10
    page.goto(site.url + "heroic/morale/")
    root = widget(page, "heroic.morale")
    root.locator('[data-action="session-log"]').click()
    dialog = page.locator("dialog.calc-log")
    dialog.wait_for(state="visible")
    assert dialog.locator(".calc-log-entry").count() == len(kept)
    assert dialog.locator(".calc-log-outcome").first.inner_text() == kept[0]["outcome"]
    with page.expect_download() as info:
        dialog.locator('[data-log="markdown"]').click()
    markdown = Path(info.value.path()).read_text(encoding="utf-8")
    assert markdown.startswith("# Session log")
    assert markdown.count("\n## ") == len(kept)
    assert "- Outcome: **" in markdown and "- Inputs: " in markdown
    with page.expect_download() as info:
        dialog.locator('[data-log="json"]').click()
    assert info.value.suggested_filename.endswith(".json")
    exported = json.loads(Path(info.value.path()).read_text(encoding="utf-8"))
    assert exported["rolls"] == list(reversed(kept))  # oldest first
    # a roll while the log is open appears in it
    dialog.locator('[data-log="close"]').click()
    root.locator('[data-action="roll"]').click()
    page.wait_for_function("n => JSON.parse(localStorage.getItem('tcr:/:session-log')).length === n",
                           arg=len(kept) + 1, timeout=RUNTIME_TIMEOUT_MS)
    root.locator('[data-action="session-log"]').click()
    assert dialog.locator(".calc-log-entry").count() == len(kept) + 1
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / "session-log-desktop.png"))
    # clearing takes two presses
    dialog.locator('[data-log="clear"]').click()
    assert dialog.locator(".calc-log-entry").count() == len(kept) + 1
    dialog.locator('[data-log="clear"]').click()
    assert dialog.locator(".calc-log-entry").count() == 0 and _log(page) == []
    page.keyboard.press("Escape")
    assert not dialog.is_visible()
    # damaged storage reads as an empty log, never an error
    for damaged in ("{not json", json.dumps([{"outcome": 3}, "x", None])):
        page.evaluate("text => localStorage.setItem('tcr:/:session-log', text)", damaged)
        root.locator('[data-action="session-log"]').click()
        assert dialog.locator(".calc-log-entry").count() == 0
        page.keyboard.press("Escape")
    assert page.log.page_errors == []  # type: ignore[attr-defined]


def test_setups_side_by_side_and_kept_in_the_link(page: Page, site) -> None:  # type: ignore[no-untyped-def]
    _goto(page, site, "gunplay/bursts/")
    root = widget(page, "gunplay.hit_odds")
    assert wait_settled(page, root) == "ready"
    wait_result(page, root, lambda: page.fill("#calc-hit-odds-dc", "14"))
    pin = root.locator('[data-action="pin"]')
    wait_result(page, root, lambda: pin.click())
    assert pin.get_attribute("aria-pressed") == "true"
    assert "same as setup A" in root.locator(".calc-compare").inner_text()
    reply = wait_result(page, root, lambda: page.fill("#calc-hit-odds-dc", "18"))
    compare = root.locator(".calc-compare")
    rows = compare.locator(".calc-compare-inputs tbody tr").all_inner_texts()
    assert rows == ["Difficulty (DC)\t14\t18"]
    headline = compare.locator(".calc-compare-headline tbody tr")
    assert headline.count() == len(reply["display"]["headline"])
    assert compare.locator(".calc-cbar").count() == len(reply["result"]["distribution"])
    assert compare.locator(".calc-cbar-a").count() == compare.locator(".calc-cbar-b").count()
    # the current result is below, as without a pinned setup
    assert root.locator(".calc-result > .calc-headline dd").first.inner_text() == reply["display"]["headline"][0][1]
    # the link keeps setup A
    query = parse_qs(urlparse(page.url).query)
    assert json.loads(query["setup-a.hit-odds"][0])["dc"] == 14
    assert query["hit-odds.dc"] == ["18"]
    for size, (width, height) in SIZES.items():
        page.set_viewport_size({"width": width, "height": height})
        compare.scroll_into_view_if_needed()
        SHOTS.mkdir(parents=True, exist_ok=True)
        root.screenshot(path=str(SHOTS / f"compare-{size}.png"))
        assert page.evaluate("() => document.documentElement.scrollWidth - innerWidth") <= 0
    page.set_viewport_size({"width": 1366, "height": 900})
    # a reopened link shows the comparison again
    link = page.url
    instant_goto(page, site.url)
    page.goto(link)
    root = widget(page, "gunplay.hit_odds")
    page.wait_for_function("el => el.querySelector('.calc-compare-inputs') && !el._busy",
                           arg=root.element_handle(), timeout=RUNTIME_TIMEOUT_MS)
    assert root.locator(".calc-compare-inputs tbody tr").all_inner_texts() == ["Difficulty (DC)\t14\t18"]
    # unpinning goes back to the plain result and drops it from the link
    wait_result(page, root, lambda: root.locator('[data-action="pin"]').click())
    assert root.locator(".calc-compare").count() == 0
    assert "setup-a.hit-odds" not in parse_qs(urlparse(page.url).query)


def test_use_this_dc_fills_the_hit_calculators(page: Page, site) -> None:  # type: ignore[no-untyped-def]
    _goto(page, site, "gunplay/difficulty/")
    source = widget(page, "gunplay.difficulty")
    target = widget(page, "gunplay.hit_chance")
    assert wait_settled(page, source) == "ready" and wait_settled(page, target) == "ready"
    dc = wait_result(page, source, lambda: page.fill("#calc-difficulty-misc", "3"))["result"]["dc"]
    reply = wait_result(page, target, lambda: source.locator('[data-action="hand-on"]').click())
    assert reply["ok"] and page.locator("#calc-hit-chance-dc").input_value() == str(dc)
    assert parse_qs(urlparse(page.url).query)["hit-chance.dc"] == [str(dc)]
    # the note names the filled widget (a link to it) and stays in view on a phone
    here = source.locator(".calc-hand-on a").first
    assert here.get_attribute("href") == "#" + (target.get_attribute("id") or "")
    page.set_viewport_size({"width": 390, "height": 844})
    try:
        dc = wait_result(page, source, lambda: page.fill("#calc-difficulty-misc", "4"))["result"]["dc"]
        source.locator('[data-action="hand-on"]').scroll_into_view_if_needed()
        wait_result(page, target, lambda: source.locator('[data-action="hand-on"]').click())
        assert page.locator("#calc-hit-chance-dc").input_value() == str(dc)
        box = source.locator(".calc-hand-on").bounding_box()
        assert box is not None and 0 <= box["y"] and box["y"] + box["height"] <= 844 + 0.5
    finally:
        page.set_viewport_size({"width": 1366, "height": 900})
    # the burst calculator is on another page: a link carries the DC there
    link = source.locator(".calc-hand-on a").last
    assert link.inner_text() == f"Open Hit odds with {dc}" or str(dc) in link.inner_text()
    link.click()
    page.wait_for_url(re.compile(r"gunplay/bursts/"))
    hit = widget(page, "gunplay.hit_odds")
    assert page.locator("#calc-hit-odds-dc").input_value() == str(dc)
    assert wait_settled(page, hit) == "ready"
    assert page.log.page_errors == [] and page.log.console_errors == []  # type: ignore[attr-defined]
