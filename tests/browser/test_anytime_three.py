"""A whole fight once refused for its size, on its page (issue 46.6): the 2d6 fight to a
20-space goal for a party of eight with 40 hit points each. Typed into the form, it shows
this fight's first figures with their precision while it still refines, then settles in
place on CPython's figures. At 1366 px."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page

from rules_core import api
from tests.browser.support import wait_settled, widget
from tests.browser.test_anytime import SAMPLER, samples

pytestmark = pytest.mark.browser

BIG = {"goal_spaces": "20", "party_size": "8", "hit_points": "40"}


@pytest.fixture(scope="module")
def page(module_page: Page, site) -> Page:  # type: ignore[no-untyped-def]
    module_page.set_viewport_size({"width": 1366, "height": 900})
    module_page.goto(site.url + "phases/momentum/")
    return module_page


def test_a_fight_once_refused_answers_at_once_then_settles(page: Page) -> None:
    root = widget(page, "phases.engagement")
    assert wait_settled(page, root) == "ready"
    handle = root.element_handle()
    page.evaluate(SAMPLER, handle)
    mark = page.evaluate("() => performance.now()")
    for name, value in BIG.items():
        box = page.locator(f"#calc-engagement-{name}")
        box.fill(value)
        box.dispatch_event("change")
    begun = page.evaluate("([el, t]) => Math.max(...el._inputs.filter(x => x >= t))",
                          [handle, mark])
    # settled: nothing refining, the precision row with no "still refining"
    page.wait_for_function(
        "el => !el.dataset.refining && el.dataset.status === 'ready' && !el._running"
        " && /fights played/.test(el.querySelector('.calc-headline')?.textContent || '')"
        " && !/still refining/.test(el.querySelector('.calc-headline').textContent)",
        arg=handle, timeout=240_000)
    seen = samples(page, root)
    page.evaluate("el => clearInterval(el._sampler)", handle)
    shown = [s for s in seen if s["t"] > begun and not s["working"] and s["head"]]
    first = next(s for s in shown if "fights played" in s["head"])
    print(f"\nfirst figures of the once-refused fight: {first['t'] - begun:.0f} ms after "
          "the change")
    # the first answer is this fight's, with its precision, and it went on refining
    assert "Precision" in first["head"] and "still refining" in first["head"]
    assert "Side worn down" in first["head"]
    # every figure shown after the change is this fight's: simulated, with intervals
    assert all("fights played" in s["head"] for s in shown if s["t"] > first["t"])
    want = api.run("phases.engagement", {k: int(v) for k, v in BIG.items()})
    head = root.locator(".calc-headline").first.text_content() or ""
    for label, value in want["display"]["headline"]:
        assert label in head and value in head, (label, value, head)
    assert "Exact odds" not in head
    assert not page.log.page_errors
