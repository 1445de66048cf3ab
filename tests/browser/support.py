"""Helpers for browser tests: wait for widgets, navigate without reloading Pyodide."""

from __future__ import annotations

import time
from typing import Any

from playwright.sync_api import Locator, Page

RUNTIME_TIMEOUT_MS = 120_000  # Pyodide's first start on a busy 2-core machine


def site_pages(site, widgets_only: bool = False) -> list[str]:  # type: ignore[no-untyped-def]
    """Every page of the built site as a path relative to its root ("" for the home
    page, "gunplay/bursts/"), optionally only those with a calculator or an app."""
    pages = []
    for path in sorted(site.dir.rglob("index.html")):
        rel = path.parent.relative_to(site.dir).as_posix()
        if rel.startswith(("assets/", "search/")):
            continue
        if widgets_only:
            text = path.read_text(encoding="utf-8")
            if "data-calculator=" not in text and 'class="calc-app"' not in text:
                continue
        pages.append("" if rel == "." else rel + "/")
    return pages


def widget(page: Page, calculator: str, index: int = 0) -> Locator:
    return page.locator(f'.calc[data-calculator="{calculator}"]').nth(index)


def wait_settled(page: Page, root: Locator, timeout: int = RUNTIME_TIMEOUT_MS) -> str:
    """Wait until a widget or app is neither loading nor busy; return its status."""
    handle = root.element_handle()
    page.wait_for_function(
        "el => el.dataset.status !== 'loading' && el.dataset.status !== 'prerendered' && !el._busy",
        arg=handle, timeout=timeout,
    )
    return root.get_attribute("data-status") or ""


def wait_result(page: Page, root: Locator, change: Any) -> dict:
    """Run ``change()`` and return the next computed reply (the ``calc:result`` event)."""
    handle = root.element_handle()
    page.evaluate(
        "el => { el._lastReply = null; el.addEventListener('calc:result',"
        " e => { el._lastReply = e.detail; }, { once: false }); }",
        handle,
    )
    change()
    page.wait_for_function("el => el._lastReply && !el._busy", arg=handle,
                           timeout=RUNTIME_TIMEOUT_MS)
    return page.evaluate("el => el._lastReply", handle)


def live_run(page: Page, name: str, inputs: dict) -> dict:
    """``api.run`` in the page's own worker, through the module the site loaded."""
    return page.evaluate(
        """async ([name, inputs]) => {
             const url = [...document.scripts].find(s => s.src.includes('/assets/calculators/calculators.')).src;
             const bridge = (await import(url)).bridge;
             const root = document.querySelector('.calc[data-calculator], .calc-app');
             return bridge.run(root, name, inputs);
           }""",
        [name, inputs],
    )


def instant_goto(page: Page, path: str) -> None:
    """Follow a link the way a reader does: Material's instant navigation keeps the
    JavaScript context (and so the one Pyodide worker) alive. ``path`` is resolved
    against the current page, as the site's own links are. Returns once Material has
    swapped in the new page (its ``document$`` emitted it)."""
    page.evaluate(
        """path => {
             window.__navDone = false;
             let armed = false;  // document$ replays the current page on subscribe
             const sub = document$.subscribe(() => {
               if (armed) { window.__navDone = true; sub.unsubscribe(); }
             });
             armed = true;
             const a = document.createElement('a');
             a.href = path; a.textContent = 'go';
             document.querySelector('.md-content').append(a);
             a.click();
           }""",
        path,
    )
    page.wait_for_function("() => window.__navDone === true")


def sw_manifest(site_dir) -> dict:  # type: ignore[no-untyped-def]
    """The manifest the post-build step wrote into the site's service worker."""
    import json
    import re

    text = (site_dir / "sw.js").read_text(encoding="utf-8")
    return json.loads(re.search(r"const MANIFEST = (\{.*?\});\n", text, re.S).group(1))  # type: ignore[union-attr]


def wait_offline_copy(page: Page, site_dir, base_url: str) -> None:  # type: ignore[no-untyped-def]
    """Until the service worker of the site at ``base_url`` holds every file of the build
    in ``site_dir`` (pages and assets fetched ahead, the runtime kept on first use), each
    with the content hash the manifest lists."""
    files = sw_manifest(site_dir)["files"]
    # polled from here: a predicate that returns a promise would count as true at once
    missing_js = """async ([base, files]) => {
             const scope = new URL(base).pathname;
             const have = new Map();
             for (const name of ['files', 'pages']) {
               const cache = await caches.open(`tcr:${scope}:${name}`);
               for (const request of await cache.keys()) {
                 have.set(request.url, (await cache.match(request)).headers.get('x-tcr-hash'));
               }
             }
             return Object.entries(files).filter(([url, hash]) => have.get(new URL(url, base).href) !== hash)
               .map(([url]) => url);
           }"""
    deadline = time.monotonic() + RUNTIME_TIMEOUT_MS / 1000
    missing = page.evaluate(missing_js, [base_url, files])
    while missing and time.monotonic() < deadline:
        page.wait_for_timeout(500)
        missing = page.evaluate(missing_js, [base_url, files])
    assert not missing, f"the offline copy lacks {len(missing)} files, e.g. {missing[:5]}"
