"""Make it a fair fight in Chromium at 390 px (issue 45): from the Heroic whole fight with
the source's knights, "Make it even" hands the fight to the finder, which searches the
number of orcs in Pyodide, showing its curve as it sharpens; the settled answer is
CPython's; the chart shows the chance against the orcs with the line wanted; and "Use
this fight" fills the whole fight with the number found, which then gives the chance the
finder claimed."""

from __future__ import annotations

import json
from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, Page

from rules_core import api
from tests.browser.conftest import logged_page
from tests.browser.support import wait_result, wait_settled, widget

pytestmark = pytest.mark.browser

#: records, every 40 ms, whether the finder shows a curve while it is still searching
SAMPLER = """el => {
  el._samples = [];
  el._sampler = setInterval(() => {
    el._samples.push({ refining: Boolean(el.dataset.refining),
      curve: el.querySelectorAll('[data-chart="curve"] .calc-view-exactly .calc-bar').length,
      status: el.querySelector('.calc-status').textContent });
  }, 40);
}"""


@pytest.fixture(scope="module")
def phone(browser: Browser, site) -> Iterator[Page]:  # type: ignore[no-untyped-def]
    with logged_page(browser, site) as page:
        page.set_viewport_size({"width": 390, "height": 844})
        page.goto(site.url + "heroic/groups/")
        yield page


def test_make_it_even_finds_the_orcs_and_use_this_fight_fills_the_whole_fight(phone: Page) -> None:
    page = phone
    fight, finder = widget(page, "heroic.engagement"), widget(page, "heroic.balance")
    assert wait_settled(page, fight) == "ready" and wait_settled(page, finder) == "ready"
    # the GM starts from twenty orcs against the source's eight knights
    wait_result(page, fight, lambda: fight.locator('[name="a_members"]').fill("20"))
    handed = {**api.spec("heroic.engagement")["initial"], "a_members": 20}
    expected = api.run("heroic.balance", {"fight": json.dumps(handed), "vary": "a_members",
                                          "outcome": "b", "wanted": "even"})
    assert expected["ok"]
    page.evaluate(SAMPLER, finder.element_handle())
    button = fight.locator('button[data-action="hand-on"]')
    assert button.text_content() == "Make it even"
    reply = wait_result(page, finder, lambda: button.click())
    samples = page.evaluate("el => { clearInterval(el._sampler); return el._samples; }",
                            finder.element_handle())
    assert reply["ok"], reply
    assert json.loads(page.locator(f'#{finder.get_attribute("id")}-fight').input_value()) == handed
    found = reply["result"]
    assert found == json.loads(json.dumps(expected["result"]))
    # a first curve was on screen while the search still went on, said as such
    assert any(s["refining"] and s["curve"] >= 2 and "Sharpening" in s["status"] for s in samples)
    # the number of orcs found, its chance and the neighbours, in the headline on screen
    terms = [t.strip() for t in finder.locator(".calc-headline dt").all_text_contents()]
    values = [v.strip() for v in finder.locator(".calc-headline dd").all_text_contents()]
    head = dict(zip(terms, values))
    assert head["Side A: members"] == str(found["value"])
    assert f"At {found['value'] - 1}" in head and f"At {found['value'] + 1}" in head
    # the chart: a bar for each number of orcs tried, the wanted chance as a line in each
    chart = finder.locator('[data-chart="curve"]')
    assert chart.is_visible()
    bars = chart.locator(".calc-view-exactly .calc-bar")
    assert bars.count() == len(found["curve"])
    assert chart.locator(".calc-bar-line").first.is_visible()
    assert "chance wanted, 50.0%" in chart.text_content()
    assert page.evaluate("() => document.documentElement.scrollWidth") <= 390
    # Use this fight: the whole fight now has the orcs found, and gives the claimed chance
    use = finder.locator('button[data-action="hand-on"]')
    assert use.text_content() == "Use this fight"
    settled = wait_result(page, fight, lambda: use.click())
    assert fight.locator('[name="a_members"]').input_value() == str(found["value"])
    assert settled["ok"]
    check = found["check"]
    assert check["outcome"] == "Orcs beaten"
    chance = settled["result"]["summed"][check["outcome"]]
    assert abs(chance - check["chance"]) <= check["precision"]
    assert not page.log.page_errors and not page.log.console_errors  # type: ignore[attr-defined]
