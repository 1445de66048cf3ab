"""Answers that sharpen, as a GM sees them: the army battle between two large rosters
shows this battle's first figures with their precision, then sharpens them in place;
no sample of the page ever shows another setup's figures; Stop halts the refinement and
Keep refining goes on; a change during refinement starts over for the new rosters; and
another calculation in the same worker is answered while a battle refines. At 390 px
and 1366 px, with both cores kept busy."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterator

import pytest
from playwright.sync_api import Locator, Page

from rules_core import api
from rules_core.sucs import roster
from tests.browser.support import bridge_call, live_run, wait_settled, widget
from tests.rules_core.test_sucs_engagement_budget import PROBE

pytestmark = pytest.mark.browser

RIFLES = {"quality": 3, "attack": 1, "armor": 0}
VETERANS = {"quality": 4, "attack": 2, "armor": 1}
GUNNERS = {"quality": 3, "attack": 1, "targets": 2, "armor": 0}


def army(name: str, units: list[tuple[str, int, dict]]) -> str:
    return json.dumps({**roster.blank(name, 0), "units": [
        {"name": n, "count": c, "preset": None, "stats": stats} for n, c, stats in units]})


RED = army("Red platoon", [("Rifle squad", 14, RIFLES), ("Gun team", 6, GUNNERS)])
BLUE = army("Blue company", [("Veterans", 12, VETERANS), ("Rifle squad", 8, RIFLES)])
GREEN = army("Green section", [("Veterans", 10, VETERANS), ("Gun team", 10, GUNNERS)])

#: records, every 40 ms, what the battle widget shows: whether its figures are set
#: aside, the headline's text and the status line
SAMPLER = """el => {
  el._samples = [];
  el._inputs = [];
  el.addEventListener('input', () => el._inputs.push(performance.now()), true);
  el._sampler = setInterval(() => {
    const result = el.querySelector('.calc-result');
    const head = el.querySelector('.calc-headline');
    el._samples.push({ t: performance.now(), working: result.classList.contains('calc-working'),
      head: head ? head.textContent : '', status: el.querySelector('.calc-status').textContent,
      refining: Boolean(el.dataset.refining) });
  }, 40);
}"""


@pytest.fixture(scope="module")
def busy() -> Iterator[None]:
    """Both cores kept busy for the module, as on a shared CI machine."""
    spinners = [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(2)]
    try:
        yield
    finally:
        for spinner in spinners:
            spinner.kill()


@pytest.fixture(scope="module")
def page(module_page: Page, site, busy) -> Page:  # type: ignore[no-untyped-def]
    module_page.goto(site.url + "sucs/roster/")
    return module_page


def samples(page: Page, root: Locator) -> list[dict]:
    return page.evaluate("el => el._samples", root.element_handle())


def set_rosters(root: Locator, a: str, b: str) -> None:
    for name, value in (("roster_a", a), ("roster_b", b)):
        box = root.locator(f'.calc-field[data-field="{name}"] input').first
        box.fill(value)
        box.dispatch_event("change")


def names_shown(head: str, a: str, b: str) -> bool:
    return f"{a}: points lost on average".lower() in head.lower() and \
        f"{b}: points lost on average".lower() in head.lower()


@pytest.mark.parametrize("width, height", [(390, 844), (1366, 900)])
def test_a_large_battle_sharpens_in_place_and_never_shows_another_setups_figures(
        page: Page, width: int, height: int) -> None:
    root = widget(page, "sucs.roster_battle")
    assert wait_settled(page, root) == "ready"
    page.set_viewport_size({"width": width, "height": height})
    try:
        handle = root.element_handle()
        page.evaluate(SAMPLER, handle)
        mark = page.evaluate("() => performance.now()")
        set_rosters(root, RED, BLUE)
        # the moment the form held the new battle (its last roster typed in)
        begun = page.evaluate("([el, t]) => Math.max(...el._inputs.filter(x => x >= t))",
                              [handle, mark])
        # this battle's first figures, with their precision, while it still refines
        page.wait_for_function(
            "el => el.dataset.refining && el.querySelector('.calc-headline')"
            " && el.querySelector('.calc-headline').textContent.includes('Blue company')",
            arg=handle, timeout=120_000)
        first = next(s for s in samples(page, root)
                     if s["t"] > begun and not s["working"] and "Blue company" in s["head"])
        print(f"\nfirst figures of the 20 v 20 battle at {width} px: "
              f"{first['t'] - begun:.0f} ms after the change (both cores busy)")
        assert "fights played" in first["head"] and "still refining" in first["head"]
        headline = root.locator(".calc-headline").first
        # the headline in view (it is replaced with every newer answer: read it at once)
        top = page.evaluate("el => { const h = el.querySelector('.calc-headline');"
                            " h.scrollIntoView({ block: 'nearest' });"
                            " return h.getBoundingClientRect().top; }", handle)
        assert 0 <= top < height
        # it sharpens: more fights played in a later answer
        played = page.evaluate(
            "el => el.querySelector('.calc-headline').textContent.match(/([\\d,]+) fights played/)[1]",
            handle)
        page.wait_for_function(
            "([el, n]) => { const m = el.querySelector('.calc-headline').textContent"
            ".match(/([\\d,]+) fights played/); return m && m[1] !== n; }",
            arg=[handle, played], timeout=60_000)
        # Stop: refining halts, the figures stay, and Keep refining is offered
        root.locator('[data-action="stop-refining"]').click()
        page.wait_for_function("el => !el.dataset.refining && el.dataset.status === 'ready'"
                               " && !el._running", arg=handle, timeout=60_000)
        stopped = headline.text_content()
        assert "Stopped:" in root.locator(".calc-status").inner_text()
        keep = root.locator('[data-action="keep-refining"]')
        assert keep.is_visible()
        page.wait_for_timeout(1000)
        assert headline.text_content() == stopped  # nothing moved on while stopped
        keep.click()
        page.wait_for_function(
            "([el, was]) => el.querySelector('.calc-headline').textContent !== was",
            arg=[handle, stopped], timeout=60_000)
        # another calculation in the same worker is answered while the battle refines
        if page.evaluate("el => Boolean(el.dataset.refining)", handle):
            other = live_run(page, "gunplay.hit_odds", api.spec("gunplay.hit_odds")["initial"])
            assert other["ok"]
            assert page.evaluate("el => Boolean(el.dataset.refining) || !el._running", handle)
        # a change during refinement starts over for the new rosters
        mark = page.evaluate("() => performance.now()")
        set_rosters(root, RED, GREEN)
        changed = page.evaluate("([el, t]) => Math.max(...el._inputs.filter(x => x >= t))",
                                [handle, mark])
        page.wait_for_function(
            "el => el.querySelector('.calc-headline')"
            " && el.querySelector('.calc-headline').textContent.includes('Green section')"
            " && !el.querySelector('.calc-result').classList.contains('calc-working')",
            arg=handle, timeout=120_000)
        # stopped, unless it has settled already
        page.evaluate("el => { const b = el.querySelector('[data-action=\"stop-refining\"]');"
                      " if (!b.hidden) b.click(); }", handle)
        page.wait_for_function("el => !el._running", arg=handle, timeout=60_000)
        seen = samples(page, root)
        page.evaluate("el => clearInterval(el._sampler)", handle)
        # at no sample after the first change were another setup's figures in view: either
        # set aside (working) or this battle's own, named in the headline
        for s in seen:
            if s["t"] <= begun or s["working"] or not s["head"]:
                continue
            if s["t"] < changed:
                assert names_shown(s["head"], "Red platoon", "Blue company"), s
            elif "Blue company" in s["head"]:
                # the old battle's last answer may still be in view for the instant
                # between the change and its being set aside, never after the new one
                assert not any(o["t"] < s["t"] and "Green section" in o["head"]
                               and not o["working"] for o in seen), s
        after = [s for s in seen if s["t"] > changed + 400 and not s["working"] and s["head"]]
        assert after and all("Green section" in s["head"] for s in after)
        assert not page.log.page_errors
    finally:
        page.set_viewport_size({"width": 1280, "height": 900})


#: in the page: Red platoon's roster put in (a finished edit: its battle is worked out), then
#: at once another roster typed into the other box, a key every 100 ms until Red platoon's
#: answer has landed; every change to the result is noted, with whether typing went on
TYPING_OVER_AN_ANSWER = """([el, a, b]) => new Promise((resolve) => {
  const result = el.querySelector('.calc-result');
  const seen = [];
  let typing = true;
  new MutationObserver(() => {
    const head = result.querySelector('.calc-headline');
    seen.push({ typing, working: result.classList.contains('calc-working'), head: head ? head.textContent : '' });
  }).observe(result, { childList: true, subtree: true, attributes: true, attributeFilter: ['class'] });
  const box = (name) => el.querySelector(`.calc-field[data-field="${name}"] input`);
  const first = box('roster_a');
  first.value = a;
  first.dispatchEvent(new Event('input', { bubbles: true }));
  first.dispatchEvent(new Event('change', { bubbles: true }));
  const other = box('roster_b');
  other.value = b;
  const key = () => other.dispatchEvent(new Event('input', { bubbles: true }));
  key();
  const timer = setInterval(() => {
    if (seen.some((s) => s.typing && s.head.includes('Red platoon'))) {
      clearInterval(timer);
      typing = false;
      el._seen = seen;
      resolve();
    } else key();
  }, 100);
})"""


def test_an_answer_that_lands_while_the_next_roster_is_typed_comes_set_aside(page: Page) -> None:
    """A whole fight's answer reaching the page while the other roster is being typed (the
    typing's pause not over) answers inputs no longer on screen: it is set aside, never
    shown as the answer to the rosters in view; the typed roster's fight then replaces it."""
    root = widget(page, "sucs.roster_battle")
    assert wait_settled(page, root) == "ready"
    # (not the next test's battle: that one must be worked out afresh)
    small_a = army("Red platoon", [("Rifle squad", 3, RIFLES)])
    small_b = army("Blue company", [("Veterans", 1, VETERANS)])
    handle = root.element_handle()
    page.evaluate(TYPING_OVER_AN_ANSWER, [handle, small_a, small_b])
    landed = [s for s in page.evaluate("el => el._seen", handle) if s["typing"] and "Red platoon" in s["head"]]
    assert landed and all(s["working"] for s in landed), landed
    page.wait_for_function(
        "el => !el._running && el.querySelector('.calc-headline').textContent.includes('Blue company')"
        " && !el.querySelector('.calc-result').classList.contains('calc-working')",
        arg=handle, timeout=180_000)
    assert names_shown(root.locator(".calc-headline").first.text_content() or "", "Red platoon", "Blue company")
    assert not page.log.page_errors


def test_a_battle_the_exact_walk_answers_settles_on_cpythons_exact_odds(page: Page) -> None:
    """A battle small enough for the exact walk ends refined to CPython's exact answer,
    with nothing left to refine (no Stop, no Keep refining)."""
    root = widget(page, "sucs.roster_battle")
    small_a = army("Red platoon", [("Rifle squad", 2, RIFLES)])
    small_b = army("Blue company", [("Veterans", 2, VETERANS)])
    handle = root.element_handle()
    page.evaluate("el => { el._lastReply = null; el.addEventListener('calc:result',"
                  " e => { el._lastReply = e.detail; }); }", handle)
    set_rosters(root, small_a, small_b)
    page.wait_for_function("el => el._lastReply && !el._running && !el.dataset.refining"
                           " && el._lastReply.result.names.b === 'Blue company'",
                           arg=handle, timeout=180_000)
    got = page.evaluate("el => el._lastReply", handle)
    want = api.run("sucs.roster_battle", {"roster_a": small_a, "roster_b": small_b})["result"]
    assert want["method"] == "exact" and got["result"]["method"] == "exact"
    assert got["result"]["outcomes_exact"] == want["outcomes_exact"]
    assert got["result"]["precision"] == "exact"
    assert root.locator('[data-action="stop-refining"]').is_hidden()
    assert root.locator('[data-action="keep-refining"]').is_hidden()


def test_a_stop_asked_before_the_fight_reached_the_worker_still_stops_it(page: Page) -> None:
    """A Stop given in the same moment as the fight it stops (the request still waiting to
    be sent to the worker) is not lost: the fight answers at once, stopped, rather than
    refining to its end while the widget's newer inputs wait behind it."""
    wait_settled(page, widget(page, "sucs.roster_battle"))
    got = bridge_call(page, """const asker = {dataset: {uid: 'stopped-at-once'}};
        let partials = 0;
        const answered = bridge.refine(asker, 'sucs.engagement', arg, () => { partials += 1; });
        bridge.stop(asker);
        const reply = await answered;
        return {reply: reply && {stopped: Boolean(reply.stopped), method: reply.result && reply.result.method},
                partials};""", PROBE)
    # stopped before its first answer (null), or with the one it had, marked stopped
    assert got["reply"] is None or got["reply"]["stopped"], got
    assert got["partials"] <= 1, got
