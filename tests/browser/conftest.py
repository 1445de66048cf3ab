"""Browser fixtures: system Chromium when present, else Playwright's own; never a skip.

Each test module gets one page (so Pyodide loads once per module); it records console
errors, page errors and any request that tries to leave localhost (those are blocked).
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from urllib.parse import urlparse

import pytest
from playwright.sync_api import Browser, Page

from tests.browser.support import WASM

SYSTEM_CHROMIUM = ("/usr/bin/chromium", "/usr/bin/chromium-browser")
NO_BROWSER = (
    "No Chromium for the browser tests. On Debian/Ubuntu install it with "
    "`sudo apt-get install chromium` (make test does this when run as root); elsewhere run "
    "`.venv/bin/python -m playwright install chromium`."
)


def system_chromium() -> str | None:
    for path in SYSTEM_CHROMIUM:
        if Path(path).exists():
            return path
    return shutil.which("chromium")


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args: dict) -> dict:
    """pytest-playwright's launch arguments, pointed at the system Chromium if any."""
    args = {**browser_type_launch_args, "headless": True}
    flags = ["--disable-background-networking", "--disable-component-update",
             "--disable-sync", "--no-first-run", "--disable-default-apps"]
    if hasattr(os, "geteuid") and os.geteuid() == 0:
        flags.append("--no-sandbox")
    args["args"] = [*args.get("args", []), *flags]
    chromium = system_chromium()
    if chromium:
        args["executable_path"] = chromium
    return args


def launched(launch_browser) -> Iterator[Browser]:  # type: ignore[no-untyped-def]
    """A new browser from pytest-playwright's ``launch_browser`` (any launch failure made a
    clear one), closed afterwards: the body of a ``browser`` fixture, whatever its scope."""
    try:
        browser = launch_browser()
    except Exception as err:  # noqa: BLE001 - turn any launch failure into a clear failure
        pytest.fail(f"{NO_BROWSER}\n(launch error: {err})")
    yield browser
    browser.close()


@pytest.fixture(scope="session")
def browser(launch_browser) -> Iterator[Browser]:  # type: ignore[no-untyped-def]
    yield from launched(launch_browser)


class PageLog:
    """What went wrong on a page: console errors, page errors, requests off localhost."""

    def __init__(self) -> None:
        self.console_errors: list[str] = []
        self.page_errors: list[str] = []
        self.external_requests: list[str] = []
        self.failed_requests: list[str] = []
        self.wasm_fetches = 0

    def clear(self) -> None:
        self.__init__()


@contextmanager
def logged_page(browser: Browser, site) -> Iterator[Page]:  # type: ignore[no-untyped-def]
    """A page on ``site`` with ``page.log`` recording problems; service workers blocked
    so every request is seen (test_offline.py and test_deploy.py have their own)."""
    context = browser.new_context(base_url=site.url, viewport={"width": 1280, "height": 900},
                                  service_workers="block")
    host = urlparse(site.url).netloc
    log = PageLog()

    def guard(route) -> None:  # type: ignore[no-untyped-def]
        url = route.request.url
        if urlparse(url).netloc != host and not url.startswith(("data:", "blob:")):
            log.external_requests.append(url)
            route.abort()
        else:
            if url.endswith(WASM):
                log.wasm_fetches += 1
            route.continue_()

    context.route("**/*", guard)
    page = context.new_page()
    page.on("console", lambda m: log.console_errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: log.page_errors.append(str(e)))
    page.on("requestfailed", lambda r: log.failed_requests.append(r.url))
    page.log = log  # type: ignore[attr-defined]
    try:
        yield page
    finally:
        context.close()


@pytest.fixture(scope="module")
def module_page(browser: Browser, site) -> Iterator[Page]:  # type: ignore[no-untyped-def]
    """One page per test module, with ``page.log`` recording problems."""
    with logged_page(browser, site) as page:
        yield page
