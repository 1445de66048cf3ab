"""``calculators.serve`` answers as a static host does: gzip when the browser accepts it
(with ``Vary``), a year and ``immutable`` for content-named files, ``no-cache`` for pages
and the service worker, revalidation by ``ETag``, the site's 404 page. Real HTTP requests
to the real server: on a small hand-made site, and on the built site."""

from __future__ import annotations

import gzip
import http.client
import os
import re
import socket
import struct
import threading
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urlsplit

import pytest

from calculators import serve
from tests.conftest import _free_port, served

PAGE = "<!doctype html><html><head><meta charset='utf-8'><title>t</title></head><body>" + "words " * 400
SCRIPT = "export const x = 1;\n" * 300
WASM = bytes(range(256)) * 40 + b"\0" * 20_000  # compresses well, as Pyodide's does
NOISE = os.urandom(8_000)  # does not compress


@pytest.fixture(scope="module")
def tiny_site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Path, int]]:
    root = tmp_path_factory.mktemp("tiny-site")
    files = {
        "index.html": PAGE,
        "404.html": "<!doctype html><title>Not here</title><p>Page not found " + "x" * 300,
        "sw.js": SCRIPT,
        "guide/index.html": PAGE,
        "assets/calculators/calculators.0123456789ab.js": SCRIPT,
        "assets/calculators/python-0123456789ab.zip": NOISE,
        "assets/pyodide/0.0.1/pyodide.asm.wasm": WASM,
        "assets/stylesheets/main.0123abcd.min.css": "body { color: red; }\n" * 50,
        "assets/javascripts/tcr-tables.js": SCRIPT,
        "search/search_index.json": '{"docs": []}' + " " * 500,
        "empty-folder/.keep": "",
    }
    for rel, content in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(content if isinstance(content, bytes) else content.encode())
    port = _free_port()
    with served(root, port):
        yield root, port


def get(port: int, path: str, headers: dict[str, str] | None = None,
        method: str = "GET") -> tuple[int, dict[str, str], bytes]:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    try:
        conn.request(method, path, headers=headers or {})
        response = conn.getresponse()
        body = response.read()
        return response.status, {k.lower(): v for k, v in response.getheaders()}, body
    finally:
        conn.close()


GZIP = {"Accept-Encoding": "gzip, deflate, br"}


@pytest.mark.parametrize("path, source", [
    ("/", "index.html"),
    ("/guide/", "guide/index.html"),
    ("/sw.js", "sw.js"),
    ("/assets/calculators/calculators.0123456789ab.js", "assets/calculators/calculators.0123456789ab.js"),
    ("/assets/pyodide/0.0.1/pyodide.asm.wasm", "assets/pyodide/0.0.1/pyodide.asm.wasm"),
    ("/search/search_index.json", "search/search_index.json"),
])
def test_text_and_webassembly_are_gzipped_for_a_browser_that_accepts_it(tiny_site, path, source) -> None:  # type: ignore[no-untyped-def]
    root, port = tiny_site
    status, headers, body = get(port, path, GZIP)
    original = (root / source).read_bytes()
    assert status == 200
    assert headers["content-encoding"] == "gzip"
    assert headers["vary"] == "Accept-Encoding"
    assert int(headers["content-length"]) == len(body) < len(original)
    assert gzip.decompress(body) == original


def test_nothing_is_gzipped_for_a_client_that_does_not_ask(tiny_site) -> None:  # type: ignore[no-untyped-def]
    root, port = tiny_site
    for headers in ({}, {"Accept-Encoding": "identity"}, {"Accept-Encoding": "gzip;q=0, br"}):
        status, got, body = get(port, "/", headers)
        assert status == 200
        assert "content-encoding" not in got
        assert got["vary"] == "Accept-Encoding"  # a cache must still tell the two apart
        assert body == (root / "index.html").read_bytes()
        assert int(got["content-length"]) == len(body)


def test_a_file_that_does_not_shrink_is_sent_as_it_is(tiny_site) -> None:  # type: ignore[no-untyped-def]
    root, port = tiny_site
    status, headers, body = get(port, "/assets/calculators/python-0123456789ab.zip", GZIP)
    assert status == 200
    assert "content-encoding" not in headers and "vary" not in headers
    assert headers["content-type"] == "application/zip"
    assert body == NOISE


@pytest.mark.parametrize("path, lifetime", [
    ("/", "no-cache"),
    ("/guide/", "no-cache"),
    ("/sw.js", "no-cache"),
    ("/search/search_index.json", "no-cache"),
    ("/assets/calculators/calculators.0123456789ab.js", "public, max-age=31536000, immutable"),
    ("/assets/calculators/python-0123456789ab.zip", "public, max-age=31536000, immutable"),
    ("/assets/pyodide/0.0.1/pyodide.asm.wasm", "public, max-age=31536000, immutable"),
    ("/assets/stylesheets/main.0123abcd.min.css", "public, max-age=31536000, immutable"),
    ("/assets/javascripts/tcr-tables.js", "public, max-age=600"),
])
def test_cache_lifetimes_follow_whether_the_name_carries_the_content(tiny_site, path, lifetime) -> None:  # type: ignore[no-untyped-def]
    _, port = tiny_site
    for headers in (GZIP, {}):
        status, got, _ = get(port, path, headers)
        assert status == 200
        assert got["cache-control"] == lifetime


def test_types_are_what_the_browser_needs(tiny_site) -> None:  # type: ignore[no-untyped-def]
    _, port = tiny_site
    expected = {"/": "text/html; charset=utf-8", "/sw.js": "text/javascript; charset=utf-8",
                "/assets/pyodide/0.0.1/pyodide.asm.wasm": "application/wasm",
                "/search/search_index.json": "application/json; charset=utf-8",
                "/assets/stylesheets/main.0123abcd.min.css": "text/css; charset=utf-8"}
    for path, kind in expected.items():
        assert get(port, path, GZIP)[1]["content-type"] == kind


def test_a_known_etag_gets_not_modified_and_the_two_encodings_have_their_own(tiny_site) -> None:  # type: ignore[no-untyped-def]
    _, port = tiny_site
    _, zipped, _ = get(port, "/", GZIP)
    _, plain, _ = get(port, "/", {})
    assert zipped["etag"] != plain["etag"]
    status, headers, body = get(port, "/", {**GZIP, "If-None-Match": zipped["etag"]})
    assert (status, body) == (304, b"")
    assert headers["etag"] == zipped["etag"] and headers["cache-control"] == "no-cache"
    assert get(port, "/", {**GZIP, "If-None-Match": plain["etag"]})[0] == 200


def test_head_sends_the_headers_of_get_without_a_body(tiny_site) -> None:  # type: ignore[no-untyped-def]
    _, port = tiny_site
    _, got, body = get(port, "/sw.js", GZIP)
    status, head, nobody = get(port, "/sw.js", GZIP, method="HEAD")
    assert (status, nobody) == (200, b"")
    for name in ("content-length", "content-encoding", "content-type", "cache-control", "etag", "vary"):
        assert head[name] == got[name]
    assert int(head["content-length"]) == len(body)


def test_unknown_addresses_get_the_sites_404_page_and_folders_are_not_listed(tiny_site) -> None:  # type: ignore[no-untyped-def]
    root, port = tiny_site
    for path in ("/no/such/page/", "/empty-folder/"):
        status, headers, body = get(port, path, GZIP)
        assert status == 404
        assert headers["cache-control"] == "no-cache"
        assert gzip.decompress(body) == (root / "404.html").read_bytes()
    status, headers, body = get(port, "/no/such/page/", {})
    assert status == 404 and b"Page not found" in body
    status, headers, _ = get(port, "/guide", GZIP)
    assert status == 301 and headers["location"] == "/guide/"


def test_a_rebuilt_file_is_compressed_again(tiny_site) -> None:  # type: ignore[no-untyped-def]
    root, port = tiny_site
    page = root / "guide" / "index.html"
    before = get(port, "/guide/", GZIP)
    page.write_text(PAGE + "<p>new paragraph</p>", encoding="utf-8")
    stat = page.stat()
    os.utime(page, ns=(stat.st_atime_ns, stat.st_mtime_ns + 1_000_000_000))
    after = get(port, "/guide/", GZIP)
    assert after[1]["etag"] != before[1]["etag"]
    assert gzip.decompress(after[2]).endswith(b"<p>new paragraph</p>")


def test_accept_encoding_parsing() -> None:
    assert serve.accepts_gzip("gzip, deflate, br, zstd")
    assert serve.accepts_gzip("br;q=1.0, gzip;q=0.8")
    assert serve.accepts_gzip("*")
    assert not serve.accepts_gzip("gzip;q=0")
    assert not serve.accepts_gzip("br, deflate")
    assert not serve.accepts_gzip(None)


# ---- the real built site -----------------------------------------------------------


@pytest.mark.site
def test_the_built_site_is_served_compressed_and_cached_as_a_static_host_would(site) -> None:  # type: ignore[no-untyped-def]
    port = urlsplit(site.url).port
    page = site.dir / "gunplay" / "difficulty" / "index.html"
    html = page.read_text(encoding="utf-8")
    status, headers, body = get(port, "/gunplay/difficulty/", GZIP)
    assert status == 200 and headers["cache-control"] == "no-cache"
    assert gzip.decompress(body) == page.read_bytes()
    assert len(body) < page.stat().st_size / 3
    # every widget asset and Material file the page names is kept for good
    named = re.findall(r'(?:src|href)="(?:\.\./)+(assets/[^"]+\.(?:js|css))"', html)
    assert any(n.startswith("assets/calculators/calculators.") for n in named), named
    for rel in named:
        status, headers, _ = get(port, "/" + rel, GZIP)
        assert status == 200, rel
        expected = serve.SHORT if rel == "assets/javascripts/tcr-tables.js" else serve.IMMUTABLE
        assert headers["cache-control"] == expected, rel
        assert headers["content-encoding"] == "gzip", rel
    wasm = next(site.dir.glob("assets/pyodide/*/pyodide.asm.wasm"))
    rel = wasm.relative_to(site.dir).as_posix()
    status, headers, body = get(port, "/" + rel, GZIP)
    assert status == 200 and headers["cache-control"] == serve.IMMUTABLE
    assert headers["content-type"] == "application/wasm" and headers["content-encoding"] == "gzip"
    assert gzip.decompress(body) == wasm.read_bytes()
    assert get(port, "/sw.js", GZIP)[1]["cache-control"] == "no-cache"


def test_a_visitor_who_hangs_up_mid_download_is_not_reported_as_an_error(tmp_path: Path, capfd) -> None:  # type: ignore[no-untyped-def]
    """A browser drops downloads it no longer needs (a page left, a cancelled fetch): the
    server goes on quietly, with no traceback in the output of `make serve` or a test run."""
    (tmp_path / "big.gz").write_bytes(bytes(32 * 1024 * 1024))  # sent as it is (.gz)
    httpd = serve.server(str(tmp_path), _free_port(), quiet=True)
    httpd.daemon_threads = False  # so that closing the server waits for the handler
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    try:
        client = socket.create_connection(httpd.server_address, timeout=30)
        client.sendall(b"GET /big.gz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        assert client.recv(65536).startswith(b"HTTP/1.1 200")
        # hang up at once, resetting the connection (as a cancelled download does)
        client.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        client.close()
        assert get(httpd.server_address[1], "/big.gz", method="HEAD")[0] == 200  # still serving
    finally:
        httpd.shutdown()
        httpd.server_close()  # waits for the dropped download's handler to end
    assert "Traceback" not in capfd.readouterr().err
