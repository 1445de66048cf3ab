"""The spine in Chromium: a d10 page's calculator computes in Pyodide, agrees with
CPython, restores share links, reports bad input and keeps one runtime across pages."""

from __future__ import annotations

import json

import pytest
from playwright.sync_api import Page

from calculators.pages import THEME_CLASSES
from rules_core import api
from tests.browser.support import (
    RUNTIME_TIMEOUT_MS,
    WASM,
    goes_live_unchanged,
    instant_goto,
    live_run,
    opened,
    prerendered,
    wait_result,
    wait_settled,
    widget,
)

pytestmark = pytest.mark.browser

DIFFICULTY = "gunplay.difficulty"

CASES = [
    {"size": "tiny", "band": "maximum", "target_movement": "fast",
     "shooter_movement": "slow", "stance": "prone", "aim_actions": 2, "environment": 3, "misc": -1},
    {"size": "huge", "effective_range_m": 50, "distance_m": 6.25, "target_movement": "still",
     "shooter_movement": "subtle", "stance": "prone_firing"},
    {"size": "medium", "effective_range_m": 300, "distance_m": 300, "target_movement": "subtle",
     "shooter_movement": "fast", "stance": "kneeling", "aim_actions": 0, "environment": 0, "misc": 4},
]


@pytest.fixture(scope="module")
def difficulty_page(module_page: Page, site) -> Page:  # type: ignore[no-untyped-def]
    return opened(module_page, site, "gunplay/difficulty/")


def test_prerendered_result_is_on_the_page_before_the_runtime(site) -> None:  # type: ignore[no-untyped-def]
    html = prerendered(site, "gunplay/difficulty", DIFFICULTY)
    assert "<dt>Difficulty</dt><dd>14</dd>" in html


def test_widget_goes_live_and_matches_the_build(difficulty_page: Page) -> None:
    root = widget(difficulty_page, DIFFICULTY)
    goes_live_unchanged(difficulty_page, root)
    assert "live" in root.locator(".calc-status").inner_text()


#: every result a widget reports (the calc:result event), from before the page binds them
RESULTS_SEEN = """
window.__results = [];
document.addEventListener('calc:result', (e) => window.__results.push(e.detail), true);
"""


def test_the_starting_inputs_go_live_without_being_worked_out_again(
        difficulty_page: Page, site) -> None:  # type: ignore[no-untyped-def]
    """The page shows the build's result for its starting inputs (the same rules core):
    going live works nothing out again; what the page's actions need from that result is
    on the page; a change, or a link's inputs, is worked out live."""
    page = difficulty_page
    page.add_init_script(RESULTS_SEEN)
    page.goto(site.url + "gunplay/difficulty/")
    root = widget(page, DIFFICULTY)
    assert wait_settled(page, root) == "ready"
    assert page.evaluate("window.__results") == []
    initial = json.loads(root.get_attribute("data-initial") or "{}")
    assert page.evaluate("el => el._result", root.element_handle()) == {
        "dc": api.run(DIFFICULTY, initial)["result"]["dc"]}
    reply = wait_result(page, root, lambda: page.select_option("#calc-difficulty-size", "tiny"))
    assert reply["ok"] and reply["result"]["dc"] == 18
    assert page.evaluate("window.__results.length") == 1
    page.goto(site.url + "gunplay/difficulty/?difficulty.size=tiny")  # a link's inputs
    root = widget(page, DIFFICULTY)
    assert wait_settled(page, root) == "ready"
    page.wait_for_function("() => window.__results.length === 1", timeout=RUNTIME_TIMEOUT_MS)
    assert page.evaluate("window.__results[0].result.dc") == 18
    assert root.locator(".calc-headline dd").first.inner_text() == "18"
    page.goto(site.url + "gunplay/difficulty/")  # the module's page as the next tests expect it
    assert wait_settled(page, widget(page, DIFFICULTY)) == "ready"


@pytest.mark.parametrize("inputs", CASES)
def test_browser_agrees_with_cpython(difficulty_page: Page, inputs: dict) -> None:
    reply = live_run(difficulty_page, DIFFICULTY, inputs)
    expected = api.run(DIFFICULTY, inputs)
    assert reply["ok"] and expected["ok"]
    assert reply["result"] == json.loads(json.dumps(expected["result"]))
    assert reply["explanation"] == expected["explanation"]


def test_changing_an_input_recomputes_and_updates_the_url(difficulty_page: Page) -> None:
    root = widget(difficulty_page, DIFFICULTY)
    reply = wait_result(difficulty_page, root,
                        lambda: difficulty_page.select_option("#calc-difficulty-size", "tiny"))
    assert reply["ok"] and reply["result"]["dc"] == 5 + 12 + 0 + 0 - 1 + 2
    assert root.locator(".calc-headline dd").first.inner_text() == "18"
    assert "difficulty.size=tiny" in difficulty_page.url


def test_share_link_restores_inputs(difficulty_page: Page, site) -> None:  # type: ignore[no-untyped-def]
    difficulty_page.goto(site.url + "gunplay/difficulty/?difficulty.size=large&difficulty.band=close"
                         "&difficulty.target_movement=fast&difficulty.shooter_movement=still"
                         "&difficulty.stance=kneeling&difficulty.aim_actions=1")
    root = widget(difficulty_page, DIFFICULTY)
    assert wait_settled(difficulty_page, root) == "ready"
    assert difficulty_page.locator("#calc-difficulty-size").input_value() == "large"
    assert difficulty_page.locator("#calc-difficulty-distance_m").is_hidden()
    expected = 5 - 12 + 4 - 2 - 2 - 2 + 2  # fields not in the link keep their starting values
    assert root.locator(".calc-headline dd").first.inner_text() == str(expected)


def test_bad_input_shows_a_message_next_to_the_field_and_recovers(difficulty_page: Page, site) -> None:  # type: ignore[no-untyped-def]
    difficulty_page.goto(site.url + "gunplay/difficulty/")
    root = widget(difficulty_page, DIFFICULTY)
    wait_settled(difficulty_page, root)
    reply = wait_result(difficulty_page, root,
                        lambda: difficulty_page.fill("#calc-difficulty-distance_m", "-5"))
    assert not reply["ok"]
    error = root.locator('.calc-field[data-field="distance_m"] .calc-error')
    assert error.is_visible() and "received -5" in error.inner_text()
    assert root.get_attribute("data-status") == "error"
    reply = wait_result(difficulty_page, root,
                        lambda: difficulty_page.fill("#calc-difficulty-distance_m", "400"))
    assert "beyond the weapon's effective range" in error.inner_text()
    reply = wait_result(difficulty_page, root,
                        lambda: difficulty_page.fill("#calc-difficulty-distance_m", "20"))
    assert reply["ok"] and error.is_hidden()
    assert root.get_attribute("data-status") == "ready"
    assert root.locator(".calc-headline dd").first.inner_text() == str(5 + 2 - 1 + 2)  # 20 m of 300 m is close range


def test_hostile_share_link_is_shown_as_text(difficulty_page: Page, site) -> None:  # type: ignore[no-untyped-def]
    payload = '"><img src=x onerror=alert(1)>'
    dialogs: list[str] = []
    difficulty_page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
    difficulty_page.goto(site.url + "gunplay/difficulty/?difficulty.size=" + payload)
    root = widget(difficulty_page, DIFFICULTY)
    wait_settled(difficulty_page, root)
    assert root.get_attribute("data-status") == "error"
    assert payload[:20] in root.locator('.calc-field[data-field="size"] .calc-error').inner_text()
    assert difficulty_page.locator("img[src=x]").count() == 0 and not dialogs


def test_navigation_keeps_one_runtime_and_nothing_leaves_localhost(browser, site) -> None:  # type: ignore[no-untyped-def]
    context = browser.new_context(service_workers="block")
    wasm: list[str] = []
    external: list[str] = []
    errors: list[str] = []
    context.on("request", lambda r: wasm.append(r.url) if r.url.endswith(WASM) else None)
    context.on("request", lambda r: external.append(r.url)
               if not r.url.startswith((site.url, "data:", "blob:")) else None)
    page = context.new_page()
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(site.url + "gunplay/difficulty/")
    assert wait_settled(page, widget(page, DIFFICULTY)) == "ready"
    page.fill("#calc-difficulty-misc", "3")  # focused input, left by the navigation
    instant_goto(page, "../bursts/")
    assert wait_settled(page, widget(page, "gunplay.hit_odds")) == "ready"
    assert "difficulty." not in page.url, "a left page's widget must not write the new URL"
    instant_goto(page, "../difficulty/")
    assert wait_settled(page, widget(page, DIFFICULTY)) == "ready"
    assert len(wasm) == 1, wasm
    assert external == [] and errors == []
    context.close()


def test_rules_page_without_widgets_loads_no_runtime(browser, site) -> None:  # type: ignore[no-untyped-def]
    context = browser.new_context(service_workers="block")
    urls: list[str] = []
    context.on("request", lambda r: urls.append(r.url))
    page = context.new_page()
    page.goto(site.url + "rulings/")
    page.wait_for_load_state("networkidle")
    assert not [u for u in urls if "pyodide" in u or u.endswith(".zip")]
    # nor the widgets' own scripts: the entry module loads them on a page that has one,
    # here one reached by instant navigation, whose widget then goes live
    assert not [u for u in urls if "/widget." in u or "/form." in u], urls
    instant_goto(page, "../gunplay/difficulty/")
    assert wait_settled(page, widget(page, DIFFICULTY)) == "ready"
    assert len([u for u in urls if "/widget." in u]) == 1, urls
    context.close()


#: the theme's sitemap download held back 3 s (the theme asks for it with an XMLHttpRequest)
LATE_SITEMAP = """{
  const { open, send } = XMLHttpRequest.prototype;
  XMLHttpRequest.prototype.open = function (method, url, ...rest) {
    this.__late = String(url).endsWith("/sitemap.xml");
    return open.call(this, method, url, ...rest);
  };
  XMLHttpRequest.prototype.send = function (...body) {
    if (!this.__late) return send.apply(this, body);
    setTimeout(() => send.apply(this, body), 3000);
  };
}"""


def test_the_tests_instant_navigation_waits_for_the_themes_sitemap(browser, site) -> None:  # type: ignore[no-untyped-def]
    """The theme drops a link's click until it has read its sitemap, which a busy machine
    can deliver after the page's load event (a page without widgets reaches it early):
    the tests' instant navigation (support.instant_goto) waits for it, and the theme takes
    the link, with no full load."""
    context = browser.new_context(service_workers="block")
    context.add_init_script(LATE_SITEMAP)
    page = context.new_page()
    page.goto(site.url + "rulings/")
    loads: list[str] = []
    page.on("load", lambda p: loads.append(p.url))
    instant_goto(page, "../glossary/")
    assert page.locator("h1").first.text_content().strip().lower().startswith("glossary")
    assert loads == []
    context.close()


def test_a_widget_whose_scripts_cannot_be_loaded_keeps_its_result_and_says_why(browser, site) -> None:  # type: ignore[no-untyped-def]
    """Offline on a page whose widget scripts were never saved: the prerendered result
    stays, and the status line says what happened and what to do."""
    context = browser.new_context(service_workers="block", bypass_csp=True)
    context.route("**/assets/calculators/widget.*.js", lambda route: route.abort())
    page = context.new_page()
    page.goto(site.url + "gunplay/difficulty/")
    root = widget(page, DIFFICULTY)
    page.wait_for_function("el => el.dataset.status === 'error'", arg=root.element_handle(), timeout=RUNTIME_TIMEOUT_MS)
    assert "could not be loaded" in root.locator(".calc-status").text_content()
    assert root.locator(".calc-result").inner_text().strip()  # the prerendered result is still there
    context.close()


def test_a_tap_at_the_pages_load_event_is_not_lost(browser, site) -> None:  # type: ignore[no-untyped-def]
    """The widgets' module comes with a page that has widgets (from its head), so each
    widget is bound by the page's load event: a reader's tap then is answered, as a
    test's click straight after page.goto is."""
    context = browser.new_context(bypass_csp=True)
    context.add_init_script("""window.addEventListener("load", () => {
      document.querySelector('.calc [data-action="session-log"]').click(); }, { once: true });""")
    page = context.new_page()
    page.goto(site.url + "heroic/morale/")
    page.locator("dialog.calc-log").wait_for(state="visible", timeout=RUNTIME_TIMEOUT_MS)
    context.close()


TYPE_BURST = """([el, texts]) => {
  const input = document.querySelector('#calc-difficulty-misc');
  const root = el;
  root._seen = [];
  root.addEventListener('calc:result', e => root._seen.push(e.detail));
  input.focus();
  for (const text of texts) {  // keystrokes of one typed number, all in one task
    input.value = text;
    input.dispatchEvent(new Event('input', { bubbles: true }));
  }
}"""


@pytest.mark.parametrize(("keys", "final"), [(["-", "-9", "-99", "-999"], -999), (["-", "-1", "-12"], -12)])
def test_a_typed_number_is_computed_once_finished_never_its_prefix(
        difficulty_page: Page, site, keys: list[str], final: int) -> None:  # type: ignore[no-untyped-def]
    difficulty_page.goto(site.url + "gunplay/difficulty/")
    root = widget(difficulty_page, DIFFICULTY)
    assert wait_settled(difficulty_page, root) == "ready"
    difficulty_page.evaluate(TYPE_BURST, [root.element_handle(), keys])
    difficulty_page.wait_for_function("el => el._seen.length > 0 && !el._busy", arg=root.element_handle())
    seen = difficulty_page.evaluate("el => el._seen", root.element_handle())
    assert len(seen) == 1, seen  # "-9" and "-99" were never worked out
    initial = json.loads(root.get_attribute("data-initial") or "{}")
    expected = api.run(DIFFICULTY, {**initial, "misc": final})
    assert seen[0]["ok"] == expected["ok"]
    if expected["ok"]:
        assert seen[0]["result"] == json.loads(json.dumps(expected["result"]))
    else:
        assert str(final) in root.locator('.calc-field[data-field="misc"] .calc-error').inner_text()


def test_a_rules_page_saves_the_site_for_offline_only_when_asked(browser, site) -> None:  # type: ignore[no-untyped-def]
    context = browser.new_context()  # service workers allowed
    urls: list[str] = []
    context.on("request", lambda r: urls.append(r.url))
    page = context.new_page()
    page.goto(site.url + "rulings/")
    # the service worker is registered once the page has settled; nothing else is fetched
    page.wait_for_function("async () => !!(await navigator.serviceWorker.getRegistration())")
    page.evaluate("navigator.serviceWorker.ready.then(() => true)")
    page.wait_for_load_state("networkidle")
    other = site.url + "gunplay/difficulty/"
    assert not page.evaluate("async url => !!(await caches.match(url))", other)
    assert not [u for u in urls if "pyodide" in u or u.endswith(".zip")]
    page.click(".tcr-save-offline")
    page.wait_for_function("async url => !!(await caches.match(url))", arg=other,
                           timeout=RUNTIME_TIMEOUT_MS)
    assert "offline" in page.locator(".tcr-save-offline-note").inner_text()
    context.close()


#: counts the calculations sent to the worker from now on
COUNT_RUNS = """() => {
  window.__runs = 0;
  const send = Worker.prototype.postMessage;
  Worker.prototype.postMessage = function (message, ...rest) {
    if (message && message.op === 'run') window.__runs += 1;
    return send.call(this, message, ...rest);
  };
}"""


def test_a_mistyped_value_put_back_shows_its_result_again_without_working_it_out(
        difficulty_page: Page, site) -> None:  # type: ignore[no-untyped-def]
    """A refused value, then the old one back (or an undo): the result kept on screen under
    the error is current again at once, with no calculation sent to the worker."""
    page = difficulty_page
    page.goto(site.url + "gunplay/difficulty/")
    root = widget(page, DIFFICULTY)
    assert wait_settled(page, root) == "ready"
    page.evaluate(COUNT_RUNS)
    worked = wait_result(page, root, lambda: page.fill("#calc-difficulty-misc", "3"))
    assert worked["ok"] and page.evaluate("window.__runs") == 1
    shown = root.locator(".calc-result").inner_html()
    refused = wait_result(page, root, lambda: page.fill("#calc-difficulty-misc", "9999"))
    assert not refused["ok"] and page.evaluate("window.__runs") == 2
    assert root.locator(".calc-result.calc-stale").count() == 1
    back = wait_result(page, root, lambda: page.fill("#calc-difficulty-misc", "3"))
    assert page.evaluate("window.__runs") == 2, "the kept result is shown, nothing is worked out"
    assert back["ok"] and back["result"] == worked["result"]
    assert root.get_attribute("data-status") == "ready"
    assert root.locator(".calc-result.calc-stale, .calc-error:not([hidden])").count() == 0
    assert root.locator(".calc-result").inner_html() == shown
    # the same from the page's own starting inputs: the build's result is current again
    page.goto(site.url + "gunplay/difficulty/")
    root = widget(page, DIFFICULTY)
    assert wait_settled(page, root) == "ready"
    page.evaluate(COUNT_RUNS)
    initial = json.loads(root.get_attribute("data-initial") or "{}")
    old = page.input_value("#calc-difficulty-misc")
    assert not wait_result(page, root, lambda: page.fill("#calc-difficulty-misc", "9999"))["ok"]
    start = wait_result(page, root, lambda: page.fill("#calc-difficulty-misc", old))
    assert start["ok"] and page.evaluate("window.__runs") == 1
    assert start["result"]["dc"] == api.run(DIFFICULTY, initial)["result"]["dc"]
    assert root.locator(".calc-result.calc-stale, .calc-error:not([hidden])").count() == 0


def test_a_choice_made_is_worked_out_once(difficulty_page: Page, site) -> None:  # type: ignore[no-untyped-def]
    """Choosing in a list or ticking a box fires both an input and a change event: the
    inputs are worked out once, not once for each (an engagement's take seconds). The
    worker is asked once per choice, and once more for a choice taken back."""
    page = difficulty_page
    page.goto(site.url + "gunplay/difficulty/")
    root = widget(page, DIFFICULTY)
    assert wait_settled(page, root) == "ready"
    page.evaluate(COUNT_RUNS)
    old = page.input_value("#calc-difficulty-size")
    new = "tiny" if old != "tiny" else "large"
    chosen = wait_result(page, root, lambda: page.select_option("#calc-difficulty-size", new))
    assert chosen["ok"] and wait_settled(page, root) == "ready"
    assert page.evaluate("window.__runs") == 1
    back = wait_result(page, root, lambda: page.select_option("#calc-difficulty-size", old))
    assert back["ok"] and wait_settled(page, root) == "ready"
    assert page.evaluate("window.__runs") == 2


#: in the page from its start: every change to <html>'s classes made once the body exists
ROOT_CLASS_CHANGES = """{
  window.__rootClassChanges = [];
  new MutationObserver((records) => {
    for (const record of records) {
      if (record.target !== document.documentElement || !document.body) continue;
      window.__rootClassChanges.push([record.oldValue, document.documentElement.className]);
    }
  }).observe(document, { subtree: true, attributes: true, attributeFilter: ["class"], attributeOldValue: true });
}"""


@pytest.mark.parametrize("path", ["gunplay/difficulty/", "rulings/"])
def test_the_theme_changes_no_class_of_the_root_once_the_page_is_there(browser, site, path: str) -> None:  # type: ignore[no-untyped-def]
    """Each such change restyles the whole page while the theme's script starts (pages.THEME_CLASSES):
    the head sets them all, and the theme's start, an instant navigation and the widgets change none."""
    context = browser.new_context()
    page = context.new_page()
    page.add_init_script(ROOT_CLASS_CHANGES)
    page.goto(site.url + path)
    page.wait_for_load_state("load")
    if path.startswith("gunplay"):
        assert wait_settled(page, widget(page, DIFFICULTY)) == "ready"
    instant_goto(page, site.url + "sucs/attacks/")
    page.wait_for_function("() => document.querySelector('.md-search__input') !== null")
    classes = page.evaluate("() => [...document.documentElement.classList]")
    assert set(THEME_CLASSES) <= set(classes) and "no-js" not in classes, classes
    # the theme did start (its instant navigation worked), and left the classes alone
    assert page.evaluate("() => location.pathname").endswith("/sucs/attacks/")
    changes = page.evaluate("() => window.__rootClassChanges")
    # (a change that leaves the same classes, as the theme's own writes do, restyles nothing)
    assert [c for c in changes if sorted((c[0] or "").split()) != sorted(c[1].split())] == [], changes
    context.close()
