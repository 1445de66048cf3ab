"""Offline after the first visit: the service worker serves pages and the runtime,
calculators still compute with the network off, an unknown address gets the site's own
404 page, and a download cancelled by a reload is never kept half-done."""

from __future__ import annotations

import threading
import time

import pytest

from calculators import serve
from calculators.layout import PACKED_SUFFIX
from calculators.serve import QuietSiteHandler
from tests.browser.support import (
    RUNTIME_TIMEOUT_MS,
    WASM,
    search_site,
    wait_offline_copy,
    wait_settled,
    widget,
)
from tests.conftest import _free_port, served

pytestmark = pytest.mark.browser


def test_site_and_calculators_work_offline_after_first_visit(browser, site) -> None:  # type: ignore[no-untyped-def]
    context = browser.new_context()
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    # reload while the runtime is still downloading: the cancelled fetch is handled and
    # nothing half-downloaded is kept (the copy below is checked file by file, by hash).
    # Listened for from before the visit: on a busy machine the download can begin before
    # the page's load is reported (a listener added after goto then waited in vain).
    with page.expect_request(lambda r: r.url.endswith(WASM), timeout=RUNTIME_TIMEOUT_MS):
        page.goto(site.url + "gunplay/difficulty/")
    page.reload()
    assert wait_settled(page, widget(page, "gunplay.difficulty")) == "ready"
    wait_offline_copy(page, site.dir, site.url)

    context.set_offline(True)
    page.goto(site.url + "gunplay/bursts/")  # a full load, served by the service worker
    root = widget(page, "gunplay.hit_odds")
    assert wait_settled(page, root) == "ready"
    assert "live" in root.locator(".calc-status").inner_text()
    page.goto(site.url + "rulings/")
    assert page.locator("h1").first.inner_text().startswith("Rulings and errata")
    # an address the site does not have: its own 404 page, not the browser's error page
    response = page.goto(site.url + "no/such/page/")
    assert response is not None and response.status == 404
    assert "404" in page.locator("article, .md-content").first.inner_text()
    assert errors == []
    context.close()


def test_a_page_visited_once_works_offline_though_the_site_was_not_saved(browser, site) -> None:  # type: ignore[no-untyped-def]
    """On a Save-Data connection the whole site is never fetched ahead: the page read, what
    it loaded and the runtime are kept all the same, and the page opens offline with no
    error (Material reads the search index and the sitemap on every load)."""
    context = browser.new_context()
    context.add_init_script("Object.defineProperty(navigator, 'connection', { value: { saveData: true } });")
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(site.url + "gunplay/difficulty/")
    assert wait_settled(page, widget(page, "gunplay.difficulty")) == "ready"
    held_js = """async () => {
      const urls = [];
      for (const name of await caches.keys())
        for (const r of await (await caches.open(name)).keys()) urls.push(r.url);
      return urls;
    }"""
    wanted = [site.url + "gunplay/difficulty/", site.url + "search/search_index.json", site.url + "sitemap.xml"]
    # polled from here: a predicate that returns a promise would count as true at once
    deadline = time.monotonic() + RUNTIME_TIMEOUT_MS / 1000
    held = page.evaluate(held_js)
    while not (all(u in held for u in wanted) and any(u.endswith(".wasm") for u in held)) \
            and time.monotonic() < deadline:
        page.wait_for_timeout(500)
        held = page.evaluate(held_js)
    assert all(u in held for u in wanted), held
    assert site.url + "rulings/" not in held  # nothing fetched ahead over Save-Data
    context.set_offline(True)
    page.reload()
    root = widget(page, "gunplay.difficulty")
    assert wait_settled(page, root) == "ready"
    # the site's search answers offline (its index was kept with the page)
    search_site(page)
    assert errors == []
    context.close()


#: waits (in the page) until the service worker holds ``key`` in any of its caches
PAGE_KEPT_JS = """async (key) => {
  const deadline = Date.now() + 120000;
  while (Date.now() < deadline) {
    for (const name of await caches.keys()) if (await (await caches.open(name)).match(key)) return true;
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  return false;
}"""


def test_a_page_is_kept_only_once_what_it_loaded_is_kept(browser, site) -> None:  # type: ignore[no-untyped-def]
    """A reader who loses the network the moment a page is kept for offline use still gets
    a working page offline: its scripts and styles were kept before it (a page kept first
    would open offline inert, its scripts missing)."""
    down = threading.Event()

    class Cuttable(QuietSiteHandler):
        def do_GET(self) -> None:
            if self.headers.get("Sec-Fetch-Dest") == "empty" and self.headers.get("If-None-Match"):
                time.sleep(1)  # a slow network for the service worker's checks of kept files
            if down.is_set():  # the network is gone: the connection closes with no answer
                self.close_connection = True
                return
            super().do_GET()

    port = _free_port()
    url = f"http://127.0.0.1:{port}/"
    server = serve.server(str(site.dir), port, handler=Cuttable)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    context = browser.new_context()
    try:
        page = context.new_page()
        page.goto(url + "rulings/")
        assert page.evaluate(PAGE_KEPT_JS, url + "rulings/")
        down.set()
        failed: list[str] = []
        page.on("requestfailed", lambda r: failed.append(r.url))
        page.reload()
        page.locator(".tcr-save-offline").wait_for(timeout=RUNTIME_TIMEOUT_MS)  # our scripts ran
        assert page.locator("h1").first.inner_text().startswith("Rulings and errata")
        search_site(page)  # the search index was kept too
        assert failed == []
    finally:
        context.close()
        down.clear()
        server.shutdown()
        server.server_close()


#: the number of pages the service worker has kept, ``visited`` left out
KEPT_PAGES_JS = """async ([base, visited]) => {
  const cache = await caches.open(`tcr:${new URL(base).pathname}:pages`);
  return (await cache.keys()).filter((r) => r.url.endsWith('/') && !visited.includes(r.url)).length;
}"""

#: a page that says it has settled only when the test lets it (the service worker is real)
HOLD_SETTLED_JS = """
window.__tcrSettleLater = true;
const send = ServiceWorker.prototype.postMessage;
ServiceWorker.prototype.postMessage = function (message, ...rest) {
  if (message === 'settled' && window.__tcrSettleLater) return;
  return send.call(this, message, ...rest);
};"""


@pytest.mark.parametrize("ends", ["settles", "closes"])
def test_saving_ahead_gives_way_to_a_page_that_is_starting(browser, site, ends: str) -> None:  # type: ignore[no-untyped-def]
    """A reload or a new tab starts its calculators with nothing fetched ahead beside it:
    the service worker's saving in the background waits while a page starts, and goes on
    once that page says it has settled, or is closed."""
    context = browser.new_context()
    try:
        page = context.new_page()
        page.goto(site.url + "credits/")
        page.evaluate("navigator.serviceWorker.ready.then(() => true)")
        starting = context.new_page()
        starting.add_init_script(HOLD_SETTLED_JS)
        starting.goto(site.url + "glossary/")  # a navigation the service worker answers
        assert starting.evaluate("Boolean(navigator.serviceWorker.controller)")
        # the pages read, and the home page kept with them (where the installed app starts)
        visited = [site.url + "credits/", site.url + "glossary/", site.url]
        # what "Save for offline" asks for: the whole site, fetched ahead
        page.evaluate("navigator.serviceWorker.ready.then((r) => r.active.postMessage('precache'))")
        page.wait_for_timeout(3000)  # one file is fetched and kept in well under a second
        assert page.evaluate(KEPT_PAGES_JS, [site.url, visited]) == 0
        if ends == "settles":
            starting.evaluate("""() => { window.__tcrSettleLater = false;
              return navigator.serviceWorker.ready.then((r) => r.active.postMessage('settled')); }""")
        else:
            starting.close()
        # well before the hold's own limit (30 s from the navigation)
        deadline = time.monotonic() + 20
        kept = page.evaluate(KEPT_PAGES_JS, [site.url, visited])
        while not kept and time.monotonic() < deadline:
            page.wait_for_timeout(250)
            kept = page.evaluate(KEPT_PAGES_JS, [site.url, visited])
        assert kept > 0
    finally:
        context.close()


def test_loads_the_browser_makes_ahead_are_left_to_it(browser, site) -> None:  # type: ignore[no-untyped-def]
    """A page's own request goes through the service worker; a load the browser makes ahead
    of need (a no-cors request for no destination: Firefox fetches every page's
    ``<link rel="next">`` so, and ``<link rel="prefetch">``) is left to the browser: one that
    Firefox dropped while the worker answered it was reported in the page's console as the
    worker's error (a CI run of the Firefox smoke test)."""
    context = browser.new_context()
    try:
        page = context.new_page()
        page.goto(site.url + "rulings/")
        page.evaluate("async () => { await navigator.serviceWorker.ready; while (!navigator.serviceWorker.controller) await new Promise((r) => setTimeout(r, 100)); }")
        answered: dict[str, bool] = {}
        page.on("response", lambda r: answered.__setitem__(r.url, r.from_service_worker))
        own, ahead, linked = (site.url + p for p in ("glossary/", "quick-reference/", "quick-reference/heroic/"))
        with page.expect_response(linked):
            page.evaluate("""async ([own, ahead, linked]) => {
              await fetch(own);
              await fetch(ahead, { mode: "no-cors" });
              const link = Object.assign(document.createElement("link"), { rel: "prefetch", href: linked });
              document.head.append(link);
            }""", [own, ahead, linked])
        assert answered == {own: True, ahead: False, linked: False}, answered
    finally:
        context.close()


#: the start-up steps the page's worker reported (client.js runtime.timings): "wasmPacked"
#: when it downloaded the WebAssembly packed and unpacked it as it came
START_STEPS_JS = """async () => {
  const url = performance.getEntriesByType('resource').map((e) => e.name)
    .find((u) => /\\/assets\\/calculators\\/client\\.[0-9a-f]+\\.js$/.test(u));
  return (await import(url)).runtime.timings;
}"""


def test_a_first_visit_downloads_the_webassembly_packed_and_then_never_again(browser, site) -> None:  # type: ignore[no-untyped-def]
    """A first visit downloads Pyodide's WebAssembly packed (a fifth fewer bytes than the
    host's gzip), never the file itself: the worker keeps what it unpacked where the service
    worker keeps the runtime, with the hash the manifest lists, so neither the service
    worker's keeping of the runtime nor the return visit downloads it again; the return visit
    compiles the kept file, which the worker reads from Cache Storage."""
    asked: list[str] = []

    class Counting(QuietSiteHandler):
        def do_GET(self) -> None:
            asked.append(self.path.split("?")[0])
            super().do_GET()

    port = _free_port()
    url = f"http://127.0.0.1:{port}/"
    with served(site.dir, port, Counting):
        context = browser.new_context()
        try:
            page = context.new_page()
            page.goto(url + "gunplay/difficulty/")
            assert wait_settled(page, widget(page, "gunplay.difficulty")) == "ready"
            assert "wasmPacked" in page.evaluate(START_STEPS_JS)
            (wasm,) = [p for p in asked if p.endswith(WASM)]
            assert wasm.endswith(".wasm" + PACKED_SUFFIX), asked
            # the runtime kept for the next visit (and the whole site: the hashes the manifest
            # lists, the unpacked WebAssembly's included), with no second download
            wait_offline_copy(page, site.dir, url)
            assert [p for p in asked if p.endswith(WASM)] == [wasm]
            asked.clear()
            page.reload()
            assert wait_settled(page, widget(page, "gunplay.difficulty")) == "ready"
            steps = page.evaluate(START_STEPS_JS)
            assert "wasmPacked" not in steps and "wasmCompiled" in steps, steps
            assert [p for p in asked if p.endswith(WASM)] == []
            assert page.evaluate("document.documentElement.dataset.runtimeStart") in ("snapshot", "shipped")
        finally:
            context.close()
