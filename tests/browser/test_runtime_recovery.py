"""The runtime as a reader sees it: download progress, a result marked pending while the
runtime loads, a plain message and Retry when a file fails, recovery by itself when the
browser is back online, and a worker that hangs or fails mid-calculation replaced.

Each test uses a fresh profile (no snapshot, nothing cached) so the load really happens."""

from __future__ import annotations

import json
import re
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, Route

from calculators import serve
from calculators.layout import PACKED_SUFFIX
from calculators.serve import QuietSiteHandler
from rules_core import api
from tests.browser.support import ENTRY_MODULE_URL, RUNTIME_TIMEOUT_MS, wait_result, wait_settled, widget
from tests.conftest import _free_port

pytestmark = pytest.mark.browser

PAGE = "gunplay/difficulty/"
DIFFICULTY = "gunplay.difficulty"
#: a file every start downloads (a start from the site's snapshot downloads no bundle): the
#: WebAssembly, packed on a first visit
BUNDLE = re.compile(r".*/assets/pyodide/[^/]+/pyodide\.asm\.wasm(?:" + re.escape(PACKED_SUFFIX) + ")?$")
PYODIDE = "**/assets/pyodide/**"

RECORD_STATUS = """
window.__statuses = []; window.__sawBar = false;
new MutationObserver(() => {
  const s = document.querySelector('.calc-status');
  if (s && window.__statuses[window.__statuses.length - 1] !== s.textContent)
    window.__statuses.push(s.textContent);
  if (document.querySelector('.calc-progress')) window.__sawBar = true;
}).observe(document, { subtree: true, childList: true, characterData: true, attributes: true });
"""

#: internal words a reader must never see in a runtime message
INTERNAL = re.compile(r"https?://|\.zip|\.wasm|\.mjs|Error\b|TypeError|HTTP|LoadFailure|python-[0-9a-f]")


@pytest.fixture()
def fresh(browser: Browser, site) -> Iterator[tuple[BrowserContext, Page]]:  # type: ignore[no-untyped-def]
    context = browser.new_context(base_url=site.url, service_workers="block")
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.errors = errors  # type: ignore[attr-defined]
    yield context, page
    context.close()


def hold_runtime(context: BrowserContext, page: Page) -> list[Route]:
    """Hold the WebAssembly's download (the runtime stays loading) until :func:`release`;
    the watchdog waits meanwhile."""
    held: list[Route] = []
    context.route(BUNDLE, lambda route: held.append(route))
    page.add_init_script("window.TCR_RUNTIME_LIMITS = { stall: 3600000 };")
    return held


def release(page: Page, held: list[Route]) -> None:
    """Let the held download through once the page has asked for it."""
    while not held:
        page.wait_for_timeout(50)
    held[0].continue_()


def headline(page: Page) -> str:
    return widget(page, DIFFICULTY).locator(".calc-headline").inner_text()


def test_progress_is_shown_while_the_runtime_downloads(fresh) -> None:  # type: ignore[no-untyped-def]
    context, page = fresh
    moved: dict[str, int] = {}  # the runtime's files as the server sent them (compressed)
    context.on("response", lambda r: moved.update({r.url: int(r.headers.get("content-length") or 0)})
               if re.search(r"/assets/pyodide/.*\.(wasm|json|zip)$|" + re.escape(PACKED_SUFFIX) + r"$|python-[0-9a-f]+\.zip$", r.url)
               else None)
    page.add_init_script(RECORD_STATUS)
    page.goto(PAGE)
    root = widget(page, DIFFICULTY)
    assert wait_settled(page, root) == "ready"
    statuses = page.evaluate("window.__statuses")
    progress = [s for s in statuses if re.search(r"\d+\.\d of \d+\.\d MB \(\d+%\)", s)]
    assert progress, statuses
    assert any("(100%)" in s for s in progress) or any("Starting the calculator" in s for s in statuses)
    # the test server compresses the runtime (as GitHub Pages does): the total is the bytes
    # really moved (the build's figure, then the worker's own), never 100% early
    total = f"{int(root.get_attribute('data-runtime-bytes') or 0) / 1e6:.1f}"
    assert int(root.get_attribute("data-runtime-bytes") or 0) == sum(moved.values()), moved
    figures = [re.search(r"(\d+\.\d) of (\d+\.\d) MB \((\d+)%\)", s).groups() for s in progress]  # type: ignore[union-attr]
    assert {t for _, t, _ in figures} == {total}, (total, progress)
    percents = [int(p) for _, _, p in figures]
    assert percents == sorted(percents) and percents[-1] <= 100, progress
    assert page.evaluate("window.__sawBar")
    assert root.locator(".calc-progress").count() == 0  # gone once live


def test_a_change_before_the_runtime_is_ready_is_pending_then_computed(fresh) -> None:  # type: ignore[no-untyped-def]
    context, page = fresh
    held = hold_runtime(context, page)
    page.goto(PAGE)
    root = widget(page, DIFFICULTY)
    prerendered = headline(page)
    page.wait_for_function("() => document.documentElement.dataset.runtime === 'loading'")
    results: list[dict] = []
    page.expose_function("onResult", lambda reply: results.append(reply))
    page.evaluate("el => el.addEventListener('calc:result', e => window.onResult(e.detail))",
                  root.element_handle())
    page.fill("#calc-difficulty-misc", "2")
    page.fill("#calc-difficulty-misc", "5")
    page.dispatch_event("#calc-difficulty-misc", "change")
    assert root.get_attribute("data-pending") == "true"
    assert root.locator(".calc-result.calc-pending").count() == 1
    assert "as soon as the calculator is ready" in root.locator(".calc-status").inner_text()
    assert headline(page) == prerendered  # the old number stays, marked as not current
    release(page, held)
    assert wait_settled(page, root) == "ready"
    assert root.get_attribute("data-pending") is None
    assert root.locator(".calc-pending").count() == 0
    inputs = {**json.loads(root.get_attribute("data-initial") or "{}"), "misc": 5}
    expected = api.run(DIFFICULTY, inputs)
    # only the latest inputs were worked out, once
    assert len(results) == 1 and results[0]["result"] == json.loads(json.dumps(expected["result"]))
    assert page.errors == []  # type: ignore[attr-defined]


#: in the page: every animation that runs for as long as it is left: its name, length (ms)
#: and the timing of each keyframe
ENDLESS_ANIMATIONS = """() => document.getAnimations()
  .filter((a) => a.playState === "running" && a.effect.getComputedTiming().iterations === Infinity)
  .map((a) => ({ name: a.animationName || a.id, duration: a.effect.getComputedTiming().duration,
                 easings: a.effect.getKeyframes().map((k) => k.easing) }))"""


def test_while_the_runtime_loads_its_mark_blinks_and_nothing_repaints_every_frame(fresh) -> None:  # type: ignore[no-untyped-def]
    """The loading mark blinks in steps (two a second) instead of fading: a fade repaints
    every frame for as long as Python starts, and in WebKitGTK those software-rendered
    repaints took a core from the start (a first visit about twice bare Pyodide's)."""
    context, page = fresh
    held = hold_runtime(context, page)
    page.goto(PAGE)
    page.wait_for_function("() => document.documentElement.dataset.runtime === 'loading'")
    endless = page.evaluate(ENDLESS_ANIMATIONS)
    assert [a["name"] for a in endless] == ["calc-pulse"] * len(endless) and endless, endless
    for animation in endless:
        for easing in animation["easings"]:
            steps = re.fullmatch(r"steps\((\d+)(?:, *[a-z-]+)?\)", easing)
            assert steps, (animation, "a smooth easing repaints every frame")
            assert int(steps.group(1)) * 1000 / animation["duration"] <= 2, animation
    release(page, held)
    assert wait_settled(page, widget(page, DIFFICULTY)) == "ready"
    assert page.evaluate(ENDLESS_ANIMATIONS) == []  # nothing left running once live


def _in_view(page: Page, locator) -> bool:  # type: ignore[no-untyped-def]
    box = locator.bounding_box()
    height = page.viewport_size["height"]  # type: ignore[index]
    return box is not None and box["height"] > 0 and 0 <= box["y"] and box["y"] + box["height"] <= height + 0.5


def test_on_a_phone_an_edit_while_loading_shows_as_waiting_where_the_reader_looks(fresh) -> None:  # type: ignore[no-untyped-def]
    """A phone, a first visit, the runtime held back: the summary in view while editing
    says the change waits (never the old figure as if current), a roll pressed early says
    at its button that it will roll, and both resolve once the calculator is up."""
    context, page = fresh
    held = hold_runtime(context, page)
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto(PAGE)
    root = widget(page, "gunplay.hit_chance")
    page.wait_for_function("() => document.documentElement.dataset.runtime === 'loading'")
    field = page.locator("#calc-hit-chance-dc")
    old = root.locator(".calc-result > .calc-headline dd").first.inner_text()
    field.focus()
    field.scroll_into_view_if_needed()
    sticky = root.locator(".calc-sticky")
    assert old in sticky.inner_text()  # the build's figure, for the inputs shown
    field.fill("19")
    assert root.get_attribute("data-pending") == "true"
    assert sticky.is_visible() and _in_view(page, sticky)
    text = sticky.inner_text()
    assert "Waiting for the calculator" in text and old not in text, text
    # a roll pressed now says so under its button, in view
    button = root.locator('[data-action="roll"]')
    button.click()
    note = root.locator(".calc-roll-current")
    assert "as soon as the calculator is ready" in note.inner_text()
    assert _in_view(page, note)
    button.click()  # pressed again while waiting: still one roll
    release(page, held)
    page.wait_for_function("el => !el.dataset.rollWaiting && !el.dataset.pending && el.dataset.status === 'ready'",
                           arg=root.element_handle(), timeout=RUNTIME_TIMEOUT_MS)
    assert wait_settled(page, root) == "ready"
    assert root.locator(".calc-roll-note").count() == 0
    assert root.locator(".calc-roll-current .calc-roll-dice").count() == 1
    assert root.locator(".calc-history-count").inner_text() == "1"
    field.focus()
    figure = root.locator(".calc-result > .calc-headline dd").first.inner_text()
    assert figure != old  # DC 19 is harder than the page's starting DC
    assert figure in sticky.inner_text() and "Waiting" not in sticky.inner_text()
    assert page.errors == []  # type: ignore[attr-defined]


def test_a_share_link_shows_the_build_result_as_waiting_until_worked_out(fresh) -> None:  # type: ignore[no-untyped-def]
    context, page = fresh
    held = hold_runtime(context, page)
    page.goto(PAGE + "?hit-chance.dc=19")
    root = widget(page, "gunplay.hit_chance")
    page.wait_for_function("el => el.dataset.pending === 'true'", arg=root.element_handle())
    assert root.locator(".calc-result.calc-pending").count() == 1
    release(page, held)
    assert wait_settled(page, root) == "ready"
    assert root.get_attribute("data-pending") is None
    assert root.locator(".calc-result.calc-pending").count() == 0
    assert "19" in root.locator(".calc-result").inner_text()


def test_a_blocked_bundle_shows_a_plain_message_and_retry_recovers(fresh) -> None:  # type: ignore[no-untyped-def]
    context, page = fresh
    context.route(BUNDLE, lambda route: route.fulfill(status=503, body="unavailable"))
    page.goto(PAGE)
    root = widget(page, DIFFICULTY)
    prerendered = headline(page)
    page.wait_for_function("el => el.dataset.status === 'error'", arg=root.element_handle(),
                           timeout=RUNTIME_TIMEOUT_MS)
    message = root.locator(".calc-status").inner_text()
    assert "unavailable" in message and "worked out when the page was built" in message
    assert not INTERNAL.search(message), message
    assert headline(page) == prerendered
    retry = root.locator("button.calc-retry")
    assert retry.is_visible()
    context.unroute(BUNDLE)
    retry.click()
    assert wait_settled(page, root) == "ready"
    assert "live" in root.locator(".calc-status").inner_text()
    assert root.locator("button.calc-retry").count() == 0
    reply = wait_result(page, root, lambda: page.fill("#calc-difficulty-misc", "3"))
    assert reply["ok"]
    assert page.errors == []  # type: ignore[attr-defined]


class _Packed(QuietSiteHandler):
    """The site, with the packed WebAssembly (a first visit's download) sent as :attr:`how`
    says: "cut" (its full length announced, half of it sent, then the connection closed: a
    connection lost mid-download), "damaged" (its frame's header, then as many bytes that
    are no Zstandard blocks), or "" (as it is)."""

    how = ""

    def do_GET(self) -> None:
        if not self.how or not self.path.split("?")[0].endswith(".wasm" + PACKED_SUFFIX):
            super().do_GET()
            return
        data = Path(self.translate_path(self.path)).read_bytes()
        if self.how == "damaged":
            data = data[:32] + bytes([0xFF]) * (len(data) - 32)
        self.send_response(200)
        self.send_header("Content-Type", "application/octet-stream")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data[: len(data) // 2] if self.how == "cut" else data)
        self.close_connection = True


@pytest.mark.parametrize(("how", "said"), [("cut", "did not download completely"), ("damaged", "failed to start")])
def test_a_packed_webassembly_cut_off_or_damaged_fails_the_start_plainly_and_retry_recovers(
        browser: Browser, site, how: str, said: str) -> None:  # type: ignore[no-untyped-def]
    """A first visit's WebAssembly comes packed and is unpacked as it arrives: a download
    cut off mid-way, or bytes that do not unpack, fail the start as a cut or broken file
    does (never a start that waits for ever), with the plain message and Retry."""
    port = _free_port()
    server = serve.server(str(site.dir), port, handler=_Packed)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    _Packed.how = how
    context = browser.new_context(base_url=f"http://127.0.0.1:{port}/", service_workers="block")
    try:
        page = context.new_page()
        page.goto(PAGE)
        root = widget(page, DIFFICULTY)
        page.wait_for_function("el => el.dataset.status === 'error'", arg=root.element_handle(),
                               timeout=RUNTIME_TIMEOUT_MS)
        message = root.locator(".calc-status").inner_text()
        assert said in message and not INTERNAL.search(message), message
        _Packed.how = ""
        root.locator("button.calc-retry").click()
        assert wait_settled(page, root) == "ready"
        assert "live" in root.locator(".calc-status").inner_text()
    finally:
        _Packed.how = ""
        context.close()
        server.shutdown()
        server.server_close()


def test_an_app_whose_start_failed_starts_after_retry_without_a_reload(fresh) -> None:  # type: ignore[no-untyped-def]
    """The tracker and the army builder need the runtime to start: after Retry they start
    for real (their buttons work), not only their status line."""
    context, page = fresh
    for path, click, items in (("phases/tracker/", ('[data-pt="start"]', '[data-pt="roll"]'), ".pt-log > li"),
                               ("sucs/roster/", ('[data-sucs="add"]',), ".sucs-lines > li")):
        context.route(BUNDLE, lambda route: route.fulfill(status=503, body="unavailable"))
        page.goto(path)
        app = page.locator(".calc-app[data-app]")
        page.wait_for_function("el => el.dataset.status === 'error'", arg=app.element_handle(),
                               timeout=RUNTIME_TIMEOUT_MS)
        assert not INTERNAL.search(app.locator(".calc-status").inner_text())
        context.unroute(BUNDLE)
        app.locator("button.calc-retry").click()
        assert wait_settled(page, app) == "ready", path
        before = app.locator(items).count()
        for selector in click:
            if app.locator(selector).is_visible():
                app.locator(selector).click()
                wait_settled(page, app)
        page.wait_for_function("([el, sel, n]) => el.querySelectorAll(sel).length > n",
                               arg=[app.element_handle(), items, before], timeout=RUNTIME_TIMEOUT_MS)
        assert app.get_attribute("data-status") == "ready", path
    assert page.errors == []  # type: ignore[attr-defined]


def test_offline_then_back_online_recovers_by_itself(fresh) -> None:  # type: ignore[no-untyped-def]
    context, page = fresh
    context.route(PYODIDE, lambda route: route.abort("internetdisconnected"))
    page.goto(PAGE)
    root = widget(page, DIFFICULTY)
    page.wait_for_function("el => el.dataset.status === 'error'", arg=root.element_handle(),
                           timeout=RUNTIME_TIMEOUT_MS)
    message = root.locator(".calc-status").inner_text()
    assert "offline" in message and not INTERNAL.search(message), message
    context.set_offline(True)
    context.unroute(PYODIDE)
    context.set_offline(False)  # the page's "online" event: no click, no reload
    assert wait_settled(page, root) == "ready"
    assert "live" in root.locator(".calc-status").inner_text()
    assert page.errors == []  # type: ignore[attr-defined]


def test_a_hung_or_failed_worker_is_replaced_and_the_reader_told(fresh) -> None:  # type: ignore[no-untyped-def]
    _, page = fresh
    page.goto("cortex/rolls/")
    root = widget(page, "cortex.odds")
    assert wait_settled(page, root) == "ready"
    first = page.evaluate(f"async () => {{ const m = await import({ENTRY_MODULE_URL});"
                          " window.__bridge = m.bridge; return !!m.bridge.worker(); }")
    assert first
    # every status line the widget shows, kept: on a busy machine the replacement can go
    # live, and its line be replaced, between two looks at the page
    page.evaluate("""el => { const line = el.querySelector('.calc-status');
        window.__said = [line.textContent];
        new MutationObserver(() => window.__said.push(line.textContent))
          .observe(line, { subtree: true, childList: true, characterData: true }); }""",
                  root.element_handle())
    # A calculation that outlives the hang limit: the worker is ended and replaced.
    page.evaluate("window.TCR_RUNTIME_LIMITS = { hang: 1 }")
    page.fill("#calc-odds-attacker", "d12 d10 d8 d6 d4 d12 d10 d8")
    page.wait_for_function("() => window.__said.some(t => t.includes('restarted'))",
                           timeout=RUNTIME_TIMEOUT_MS)
    said = [t for t in page.evaluate("window.__said") if "restarted" in t]
    assert "stopped responding" in said[0], said
    page.evaluate("window.TCR_RUNTIME_LIMITS = {}")
    page.wait_for_function("() => document.documentElement.dataset.runtime === 'ready'",
                           timeout=RUNTIME_TIMEOUT_MS)
    reply = wait_result(page, root, lambda: page.fill("#calc-odds-attacker", "d8 d8 d6"))
    assert reply["ok"] and root.get_attribute("data-status") == "ready"
    # The worker fails outright (the browser's error event on it): replaced the same way.
    page.evaluate("""() => { window.__old = window.__bridge.worker();
        window.__said = [];
        window.__old.dispatchEvent(new ErrorEvent('error', { message: 'worker failed' })); }""")
    assert any("restarted" in t for t in page.evaluate("window.__said"))
    page.wait_for_function("() => document.documentElement.dataset.runtime === 'ready'"
                           " && window.__bridge.worker() && window.__bridge.worker() !== window.__old",
                           timeout=RUNTIME_TIMEOUT_MS)
    reply = wait_result(page, root, lambda: page.fill("#calc-odds-attacker", "d6 d6"))
    assert reply["ok"] and root.get_attribute("data-status") == "ready"
    assert page.errors == []  # type: ignore[attr-defined]
