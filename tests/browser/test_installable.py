"""The site as an app on a phone: every page links a web app manifest that has what an
install needs (names, start_url and scope inside the site, standalone display, PNG icons
of 192 and 512 px for any use and maskable, the theme colour), under a GitHub Pages
project path as at the root. Chromium's own view is asked too (the DevTools protocol's
manifest, its parse errors and the list of reasons the page cannot be installed: empty),
and the app is really installed and launched in standalone display with the server gone:
the service worker answers the start page, which goes on to the page read last.

Lighthouse 12 no longer audits installability (its PWA category is gone), so these are
the checks its audits made, and Chromium's own."""

from __future__ import annotations

import http.server
import json
import re
import struct
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urljoin

import pytest

from calculators import serve
from tests.browser.support import sw_manifest
from tests.conftest import BuiltSite, _free_port, build_site

pytestmark = pytest.mark.browser

#: the base path of the copy built as a GitHub Pages project site
BASE = "tcr/"
_MANIFEST_LINK = re.compile(r'<link rel="manifest" href="([^"]+)">')
_TOUCH_ICON = re.compile(r'<link rel="apple-touch-icon" href="([^"]+)">')
_THEME = re.compile(r'<meta name="theme-color" content="([^"]+)">')


@pytest.fixture(scope="module")
def project_site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[BuiltSite, http.server.ThreadingHTTPServer]]:
    """The site built for ``http://127.0.0.1:<port>/tcr/`` and served there (the folder
    above it is the server's root); the server is handed out so a test can take it down."""
    port = _free_port()
    root = tmp_path_factory.mktemp("project-site")
    build_site("mkdocs", root / BASE, f"http://127.0.0.1:{port}/{BASE}")
    server = serve.server(str(root), port, quiet=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield BuiltSite(root / BASE, f"http://127.0.0.1:{port}/{BASE}"), server
    server.shutdown()
    server.server_close()


def png_size(path: Path) -> tuple[int, int]:
    """Width and height from a PNG's header (signature, then the IHDR chunk)."""
    head = path.read_bytes()[:24]
    assert head[:8] == b"\x89PNG\r\n\x1a\n" and head[12:16] == b"IHDR", f"{path.name} is not a PNG"
    width, height = struct.unpack(">II", head[16:24])
    return width, height


def _site_file(site: BuiltSite, url: str) -> Path:
    assert url.startswith(site.url), f"{url} is outside the site {site.url}"
    rel = url[len(site.url):].split("?")[0].split("#")[0]
    return site.dir / (rel + "index.html" if rel.endswith("/") or not rel else rel)


def check_manifest(site: BuiltSite) -> None:
    """What the installability audit asked for, read from the built files."""
    pages = sorted(site.dir.rglob("*.html"))
    manifests: set[str] = set()
    themes: set[str] = set()
    for page in pages:
        rel = page.relative_to(site.dir).as_posix()
        text = page.read_text(encoding="utf-8")
        head = text[: text.index("</head>")]
        links = _MANIFEST_LINK.findall(head)
        assert len(links) == 1, f"{rel}: {len(links)} manifest links"
        # the 404 page is served at any address: its links start at the base path
        page_url = site.url + "no/such/page/" if rel == "404.html" else site.url + rel
        manifests.add(urljoin(page_url, links[0]))
        touch = _TOUCH_ICON.findall(head)
        assert len(touch) == 1 and png_size(_site_file(site, urljoin(page_url, touch[0]))) == (180, 180), rel
        themes.update(_THEME.findall(head))
    assert len(manifests) == 1, manifests  # one manifest, the same from every page
    url = manifests.pop()
    data = json.loads(_site_file(site, url).read_text(encoding="utf-8"))
    assert data["name"] == "Tactical Combat Reference" and 0 < len(data["short_name"]) <= 12
    start, scope = urljoin(url, data["start_url"]), urljoin(url, data["scope"])
    assert scope == site.url and start.startswith(scope), (start, scope)
    assert _site_file(site, start) == site.dir / "index.html"
    assert data["display"] == "standalone"
    assert data.get("prefer_related_applications") is not True
    assert "id" not in data  # resolved against the origin: two copies would be one app
    assert themes == {data["theme_color"]} and re.fullmatch(r"#[0-9a-f]{6}", data["theme_color"])
    found = set()
    for entry in data["icons"]:
        icon = _site_file(site, urljoin(url, entry["src"]))
        width, height = png_size(icon)
        assert entry["type"] == "image/png" and entry["sizes"] == f"{width}x{height}", entry
        found.add((width, entry.get("purpose", "any")))
    assert {(192, "any"), (512, "any"), (192, "maskable"), (512, "maskable")} <= found
    # in the service worker's list of files, so the offline copy has them
    listed = sw_manifest(site.dir)["files"]
    for entry in [url, *(urljoin(url, i["src"]) for i in data["icons"])]:
        assert entry[len(site.url):] in listed, entry


def test_every_page_links_a_manifest_an_install_accepts(site) -> None:  # type: ignore[no-untyped-def]
    check_manifest(site)


def test_the_manifest_holds_under_a_project_path(project_site) -> None:  # type: ignore[no-untyped-def]
    check_manifest(project_site[0])


def test_a_zensical_build_links_the_same_manifest(zensical_site) -> None:  # type: ignore[no-untyped-def]
    check_manifest(zensical_site)


#: waits (in the page) until the service worker holds every one of ``keys``
KEPT_JS = """async (keys) => {
  const deadline = Date.now() + 120000;
  while (Date.now() < deadline) {
    let all = true;
    for (const key of keys) {
      let hit = false;
      for (const name of await caches.keys()) if (await (await caches.open(name)).match(key)) hit = true;
      all = all && hit;
    }
    if (all) return true;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return false;
}"""


def test_installed_app_opens_offline_on_the_page_read_last(  # type: ignore[no-untyped-def]
        browser_type, browser_type_launch_args, project_site, tmp_path: Path) -> None:
    site, server = project_site
    # a profile of its own: Chromium installs nothing from an incognito context
    context = browser_type.launch_persistent_context(str(tmp_path / "profile"), **browser_type_launch_args)
    try:
        page = context.pages[0] if context.pages else context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto(site.url)
        page.evaluate("navigator.serviceWorker.ready.then(() => true)")
        cdp = context.new_cdp_session(page)
        manifest = cdp.send("Page.getAppManifest")
        assert manifest["url"].startswith(site.url + "assets/calculators/manifest.")
        assert manifest["errors"] == [], manifest["errors"]
        deadline, reasons = time.monotonic() + 60, ["not asked yet"]
        while reasons and time.monotonic() < deadline:  # the icons download meanwhile
            reasons = cdp.send("Page.getInstallabilityErrors")["installabilityErrors"]
            if reasons:
                page.wait_for_timeout(500)
        assert reasons == [], reasons
        app_id = cdp.send("Page.getAppId")["appId"]
        assert app_id == site.url + "?launch=app"

        # read a page (in a plain tab): it is remembered and, with the home page, kept offline
        page.goto(site.url + "rulings/#rulings-and-errata")
        assert page.evaluate(KEPT_JS, [site.url, site.url + "rulings/"])
        # a plain tab opened at the start address stays on the home page
        page.goto(site.url + "?launch=app")
        assert page.url == site.url
        page.goto(site.url + "rulings/#rulings-and-errata")
        # an address the site does not have is never the page to open on
        assert page.goto(site.url + "no/such/page/").status == 404  # type: ignore[union-attr]
        assert page.evaluate("Object.keys(localStorage).filter((k) => k.endsWith(':last-page'))"
                             ".map((k) => localStorage.getItem(k))") == ["rulings/#rulings-and-errata"]

        cdp.send("PWA.install", {"manifestId": app_id})
        cdp.send("PWA.changeAppUserSettings", {"manifestId": app_id, "displayMode": "standalone"})
        server.shutdown()  # offline: nothing answers but the service worker
        server.server_close()
        with context.expect_page(timeout=30_000) as launched:
            cdp.send("PWA.launch", {"manifestId": app_id})
        app = launched.value
        app.wait_for_url(site.url + "rulings/#rulings-and-errata", timeout=30_000)
        app.wait_for_load_state()
        assert app.evaluate("matchMedia('(display-mode: standalone)').matches")
        assert app.evaluate("Boolean(navigator.serviceWorker.controller)")
        assert app.locator("h1").first.inner_text().startswith("Rulings and errata")
        assert errors == []
    finally:
        context.close()
