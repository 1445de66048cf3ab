"""Every widget and app on every page of the built site, visited the way a reader does
(instant navigation, one Pyodide for the whole crawl): each goes live, shows the same
figures as CPython, has every input labelled, reports an out-of-range input next to its
field and recovers. New calculators are covered as soon as a page uses them.

Each widget is taken by one script in the page (:data:`WIDGET`), which acts as a reader
does (types into a box, leaves it) and waits for states, never for durations, and returns
what it saw; the assertions are made here on that record. (One browser call a widget,
not one a step: the steps' round trips were most of the crawl's time.)"""

from __future__ import annotations

import pytest
from playwright.sync_api import Page

from rules_core import api
from tests.browser.support import RUNTIME_TIMEOUT_MS, instant_goto, site_pages, wait_settled

pytestmark = pytest.mark.browser

#: the typed inputs of a widget that a bad value is typed into
TYPED = ('.calc-field[data-kind="int"]:not([hidden]) input, '
         '.calc-field[data-kind="number"]:not([hidden]) input, '
         '.calc-field[data-kind="text"]:not([hidden]) input')
#: the value typed into a text box: markup that would run if the page ever wrote it as HTML
HOSTILE = '<img src=x onerror="window.__pwned=1"> d13 ' * 3

#: One widget (the ``index``-th calculator of the page): waits until it is live, then
#: reads its status, inputs and headline, each input's label (a pick list beside a field:
#: its own name and prompt) and, with ``bad``, for each typed input in turn: the reply to a
#: refused value typed in and the box left (a number box: one over its maximum; a text
#: box: ``hostile``), what the widget then shows, and the same after the old value is put
#: back. Each control is found afresh for each step, as a reader's eye does.
WIDGET = """async ([index, bad, hostile, typed, timeout]) => {
  const end = () => Date.now() + timeout;
  const until = async (cond, what) => {
    const stop = end();
    while (!cond()) {
      if (Date.now() > stop) throw new Error(`${location.pathname}: timed out waiting for ${what}`);
      await new Promise((r) => setTimeout(r, 10));
    }
  };
  const root = document.querySelectorAll('.calc[data-calculator]')[index];
  const name = root.dataset.calculator;
  const headline = () => [...root.querySelectorAll('.calc-result .calc-headline > div')]
    .map((d) => [d.querySelector('dt').textContent, d.querySelector('dd').textContent]);
  await until(() => !['loading', 'prerendered'].includes(root.dataset.status) && !root._busy,
              `${name} to go live`);
  const out = { name, status: root.dataset.status, initial: JSON.parse(root.dataset.initial),
                headline: headline(), labels: [], picks: [], typed: [] };
  for (const control of root.querySelectorAll('.calc-field input, .calc-field select:not(.calc-pick)')) {
    out.labels.push([control.id, root.querySelectorAll(`label[for="${control.id}"]`).length]);
  }
  for (const pick of root.querySelectorAll('.calc-field select.calc-pick')) {
    out.picks.push([pick.getAttribute('aria-label'), pick.querySelector('option').textContent]);
  }
  // a finished edit (typed, then the box left) is worked out at once; the pause kept for
  // typing is tested in test_foundation.py
  const edit = async (i, value) => {
    const control = root.querySelectorAll(typed)[i];
    let reply = null;
    const seen = (e) => { reply = e.detail; };
    root.addEventListener('calc:result', seen);
    control.focus();
    control.value = value;
    control.dispatchEvent(new Event('input', { bubbles: true, composed: true }));
    control.dispatchEvent(new Event('change', { bubbles: true, cancelable: true, composed: true }));
    try {
      await until(() => reply && !root._busy, `${name}: the reply to ${control.name} = ${value.slice(0, 20)}`);
    } finally {
      root.removeEventListener('calc:result', seen);
    }
    return reply;
  };
  const count = bad ? root.querySelectorAll(typed).length : 0;
  for (let i = 0; i < count; i++) {
    const control = root.querySelectorAll(typed)[i];
    const field = control.name;
    const old = control.value;
    if (control.type === 'number' && control.getAttribute('max') === null) {
      throw new Error(`${name}: the number box ${field} has no maximum`);
    }
    const value = control.type === 'number' ? String(Math.trunc(Number(control.getAttribute('max'))) + 1) : hostile;
    const step = { field, value, reply: await edit(i, value) };
    step.injected = document.querySelectorAll('img[src=x]').length;
    const errors = root.querySelectorAll(`.calc-field[data-field="${field}"] .calc-error`);
    step.errors = errors.length;
    step.errorShown = errors.length > 0 && errors[0].checkVisibility({ visibilityProperty: true })
      && errors[0].getBoundingClientRect().width > 0 && errors[0].innerText.trim() !== '';
    step.status = root.dataset.status;
    step.back = await edit(i, old);
    step.statusBack = root.dataset.status;
    step.leftover = root.querySelectorAll('.calc-result.calc-stale, .calc-error:not([hidden])').length;
    step.headlineBack = headline();
    out.typed.push(step);
  }
  return out;
}"""


def _visit(page: Page, site, path: str) -> None:  # type: ignore[no-untyped-def]
    if page.url.startswith(site.url):
        instant_goto(page, path)
    else:
        page.goto(site.url + path.lstrip("/"))


def test_the_site_has_widget_pages(site) -> None:  # type: ignore[no-untyped-def]
    assert "gunplay/difficulty/" in site_pages(site, widgets_only=True)


def test_every_widget_goes_live_agrees_with_cpython_and_refuses_bad_input(
        module_page: Page, site) -> None:  # type: ignore[no-untyped-def]
    check_every_widget(module_page, site, bad_inputs=True)


def check_every_widget(page: Page, site, *, bad_inputs: bool) -> None:  # type: ignore[no-untyped-def]
    """The crawl; ``bad_inputs`` also types a refused value into every typed input and
    puts the old one back (the longest part: each restore recomputes the widget)."""
    checked = typed = 0
    for path in ["/" + rel for rel in site_pages(site, widgets_only=True)]:
        _visit(page, site, path)
        for index in range(page.locator(".calc[data-calculator]").count()):
            seen = page.evaluate(WIDGET, [index, bad_inputs, HOSTILE, TYPED, RUNTIME_TIMEOUT_MS])
            where = f"{path} {seen['name']}"
            assert seen["status"] == "ready", where
            expected = api.run(seen["name"], seen["initial"])
            assert expected["ok"], (where, seen["initial"], expected)
            assert seen["headline"] == expected["display"]["headline"], where
            # every input has a visible label tied to it; a pick list beside a field is
            # named by its own prompt, which it shows until something is picked
            for control_id, labels in seen["labels"]:
                assert control_id and labels == 1, (where, control_id)
            for label, prompt in seen["picks"]:
                assert label == prompt.rstrip("…") and prompt, where
            # every typed input: a bad value gets a message next to its field, then recovers
            for step in seen["typed"]:
                field, reply = step["field"], step["reply"]
                assert step["injected"] == 0, where
                if not reply["ok"]:
                    assert reply["error"]["field"].split(".")[0] == field, (where, field, reply)
                    assert step["errors"] == 1 and step["errorShown"], (where, field)
                    assert step["status"] == "error", where
                    typed += 1
                assert step["back"]["ok"] and step["statusBack"] == "ready", (where, field)
                # the old value back: its result (kept on screen under the error) is current again
                assert step["leftover"] == 0, (where, field)
                assert step["headlineBack"] == expected["display"]["headline"], (where, field)
            checked += 1
        for index in range(page.locator(".calc-app[data-app]").count()):
            root = page.locator(".calc-app[data-app]").nth(index)
            assert wait_settled(page, root) == "ready", f"{path} {root.get_attribute('data-app')}"
            checked += 1
    assert checked >= len(api.names()) // 2
    assert typed >= checked or not bad_inputs, "most widgets have typed inputs, and each bad one is refused"
    assert page.evaluate("() => window.__pwned === undefined")
    assert page.log.wasm_fetches == 1, "Pyodide must load once for the whole visit"
    assert page.log.external_requests == []
    assert page.log.console_errors == [] and page.log.page_errors == []
