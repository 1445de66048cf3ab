"""Serve a built site on localhost as a static host (GitHub Pages) does, so that what we
measure locally is what users get:

- the MIME types Pyodide needs (``.mjs``, ``.wasm``), text served as UTF-8;
- gzip (``Content-Encoding: gzip``, ``Vary: Accept-Encoding``) for text, WebAssembly and
  any file that shrinks by at least a tenth, when the browser accepts it; compressed once
  per file version and kept on disk, so a file object is always what is sent;
- cache lifetimes: a year and ``immutable`` for files named by their content (the widget
  assets, the Python bundle, the versioned Pyodide folder, Material's fingerprinted
  files), ``no-cache`` for pages, ``sw.js`` and the search index (always revalidated,
  with an ``ETag``), ten minutes for the rest (GitHub Pages' lifetime for everything);
- the site's own 404 page for an unknown address, and no directory listings;
- HTTP/1.1 with persistent connections (a host serves HTTP/2; HTTP/1.0 would make the
  browser and Lighthouse open a new connection for every file).

``python -m calculators.serve [DIR] [--port 8000]``; also used by the tests and benchmarks.
"""

from __future__ import annotations

import argparse
import atexit
import functools
import gzip
import hashlib
import http.server
import os
import posixpath
import shutil
import sys
import tempfile
import threading
from pathlib import Path
from typing import Any, BinaryIO
from urllib.parse import unquote, urlsplit

from calculators.layout import immutable

#: a year: files whose name changes with their content never need asking about again
IMMUTABLE = "public, max-age=31536000, immutable"
#: pages and the service worker: always revalidated (a deploy shows at once)
REVALIDATE = "no-cache"
#: everything else, as GitHub Pages sends it
SHORT = "public, max-age=600"
#: compressed whatever the saving (text and WebAssembly); other types only when it helps
ALWAYS_COMPRESSED = (".html", ".css", ".js", ".mjs", ".json", ".map", ".svg", ".xml",
                     ".txt", ".md", ".wasm", ".webmanifest", ".ico")
#: never worth trying: formats that are compressed already
NEVER_COMPRESSED = (".png", ".jpg", ".jpeg", ".gif", ".webp", ".avif", ".woff", ".woff2",
                    ".gz", ".br", ".zst", ".mp4", ".webm")
#: a file outside ALWAYS_COMPRESSED is sent compressed only below this share of its size
WORTHWHILE = 0.9


def cache_control(rel: str) -> str:
    """The ``Cache-Control`` for a site file (``rel``: its path from the site root)."""
    if rel.endswith(".html") or rel == "sw.js" or rel.startswith("search/"):
        return REVALIDATE
    if immutable(rel):
        return IMMUTABLE
    return SHORT


def accepts_gzip(header: str | None) -> bool:
    """Whether an ``Accept-Encoding`` header allows gzip (``gzip;q=0`` refuses it)."""
    for item in (header or "").split(","):
        name, _, params = item.strip().partition(";")
        if name.strip().lower() in ("gzip", "*"):
            q = params.strip().lower()
            return not (q.startswith("q=") and float(q[2:] or 0) == 0)
    return False


class GzipStore:
    """Gzipped copies of the site's files, made on first request and kept in a temporary
    folder for the server's life (keyed by path, size and modification time, so a
    rebuilt file is compressed again). ``None`` for a file not worth compressing."""

    def __init__(self) -> None:
        self._dir = Path(tempfile.mkdtemp(prefix="tcr-serve-gzip-"))
        atexit.register(shutil.rmtree, self._dir, True)
        self._known: dict[tuple[str, int, int], Path | None] = {}
        self._lock = threading.Lock()
        self._locks: dict[tuple[str, int, int], threading.Lock] = {}

    def compressed(self, path: str, stat: os.stat_result) -> Path | None:
        key = (path, stat.st_size, stat.st_mtime_ns)
        if key in self._known:
            return self._known[key]
        with self._lock:
            lock = self._locks.setdefault(key, threading.Lock())
        with lock:  # one compression per file, however many requests arrive together
            if key not in self._known:
                self._known[key] = self._compress(path, stat)
        return self._known[key]

    def _compress(self, path: str, stat: os.stat_result) -> Path | None:
        lower = path.lower()
        if lower.endswith(NEVER_COMPRESSED) or stat.st_size < 256:
            return None
        data = Path(path).read_bytes()
        packed = gzip.compress(data, compresslevel=6, mtime=0)
        if not lower.endswith(ALWAYS_COMPRESSED) and len(packed) > WORTHWHILE * len(data):
            return None
        if len(packed) >= len(data):
            return None
        name = hashlib.sha256(f"{path}\0{stat.st_size}\0{stat.st_mtime_ns}".encode()).hexdigest()
        out = self._dir / f"{name}.gz"
        out.write_bytes(packed)
        return out

    def warm(self, directory: str) -> None:
        """Compress every file now (a benchmark should not time the first compression)."""
        for path in sorted(Path(directory).rglob("*")):
            if path.is_file():
                self.compressed(str(path), path.stat())


class SiteHandler(http.server.SimpleHTTPRequestHandler):
    """Static files as a static host serves them (see the module's docstring)."""

    extensions_map = {
        **http.server.SimpleHTTPRequestHandler.extensions_map,
        ".html": "text/html; charset=utf-8",
        ".css": "text/css; charset=utf-8",
        ".mjs": "text/javascript; charset=utf-8",
        ".js": "text/javascript; charset=utf-8",
        ".wasm": "application/wasm",
        ".json": "application/json; charset=utf-8",
        ".map": "application/json; charset=utf-8",
        ".txt": "text/plain; charset=utf-8",
        ".xml": "application/xml; charset=utf-8",
        ".zip": "application/zip",
        ".svg": "image/svg+xml",
    }
    gzip_store: GzipStore = GzipStore()
    #: persistent connections, as every real host keeps them (each response has a length)
    protocol_version = "HTTP/1.1"

    def _relative(self, path: str) -> str:
        return Path(path).resolve().relative_to(Path(self.directory).resolve()).as_posix()

    def _etag(self, stat: os.stat_result, encoded: bool) -> str:
        return f'"{stat.st_mtime_ns:x}-{stat.st_size:x}{"-gz" if encoded else ""}"'

    def _not_modified(self, etag: str) -> bool:
        wanted = self.headers.get("If-None-Match")
        if not wanted:
            return False
        tags = {t.strip().removeprefix("W/") for t in wanted.split(",")}
        return "*" in tags or etag in tags

    def send_head(self) -> BinaryIO | None:  # type: ignore[override]
        """Headers for GET and HEAD; the open file to send, or None (all sent already)."""
        path = self.translate_path(self.path)
        if os.path.isdir(path):
            parts = urlsplit(self.path)
            if not parts.path.endswith("/"):
                self.send_response(301)
                self.send_header("Location", parts._replace(path=parts.path + "/").geturl())
                self.send_header("Content-Length", "0")
                self.end_headers()
                return None
            path = os.path.join(path, "index.html")
        if path.endswith("/") or not os.path.isfile(path):
            self.send_error(404, "File not found")
            return None
        stat = os.stat(path)
        compressed = self.gzip_store.compressed(path, stat)
        packed = compressed if accepts_gzip(self.headers.get("Accept-Encoding")) else None
        etag = self._etag(stat, packed is not None)
        common = {"Cache-Control": cache_control(self._relative(path)), "ETag": etag,
                  "Last-Modified": self.date_time_string(int(stat.st_mtime))}
        if compressed is not None:
            common["Vary"] = "Accept-Encoding"
        if self._not_modified(etag):
            self.send_response(304)
            for name, value in common.items():
                self.send_header(name, value)
            self.end_headers()
            return None
        try:
            f = open(packed or path, "rb")  # noqa: SIM115 - the caller closes it
        except OSError:
            self.send_error(404, "File not found")
            return None
        self.send_response(200)
        self.send_header("Content-Type", self.guess_type(path))
        self.send_header("Content-Length", str(os.fstat(f.fileno()).st_size))
        if packed is not None:
            self.send_header("Content-Encoding", "gzip")
        for name, value in common.items():
            self.send_header(name, value)
        self.end_headers()
        return f

    def _not_found_page(self) -> Path | None:
        """The 404.html nearest the requested address (a site may live in a subfolder)."""
        base = Path(self.directory).resolve()
        parts = [p for p in posixpath.normpath(unquote(urlsplit(self.path).path)).split("/") if p not in ("", ".", "..")]
        for depth in range(len(parts), -1, -1):
            page = base.joinpath(*parts[:depth], "404.html")
            if page.is_file():
                return page
        return None

    def send_error(self, code: int, message: str | None = None, explain: str | None = None) -> None:
        page = self._not_found_page() if code == 404 and self.command in ("GET", "HEAD") else None
        if page is None:
            super().send_error(code, message, explain)
            return
        body = page.read_bytes()
        encoded = accepts_gzip(self.headers.get("Accept-Encoding"))
        if encoded:
            body = gzip.compress(body, mtime=0)
        self.send_response(404, message)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Cache-Control", REVALIDATE)
        self.send_header("Vary", "Accept-Encoding")
        if encoded:
            self.send_header("Content-Encoding", "gzip")
        self.end_headers()
        if self.command == "GET":
            self.wfile.write(body)


class QuietSiteHandler(SiteHandler):
    def log_message(self, format: str, *args: object) -> None:
        pass


class SiteServer(http.server.ThreadingHTTPServer):
    """A thread per connection; a visitor who hangs up mid-answer is not an error."""

    daemon_threads = True

    def handle_error(self, request: Any, client_address: Any) -> None:
        # A browser drops a download it no longer needs (a page left, a cancelled fetch):
        # nothing to report. Anything else is printed with its traceback, as before.
        if isinstance(sys.exc_info()[1], ConnectionError):
            return
        super().handle_error(request, client_address)


def server(directory: str, port: int, quiet: bool = False,
           handler: type[SiteHandler] | None = None) -> SiteServer:
    """A threaded server of ``directory`` on 127.0.0.1:``port`` (not started)."""
    cls = handler or (QuietSiteHandler if quiet else SiteHandler)
    return SiteServer(("127.0.0.1", port), functools.partial(cls, directory=directory))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("directory", nargs="?", default="site")
    parser.add_argument("--port", type=int, default=8000)
    args = parser.parse_args()
    httpd = server(args.directory, args.port)
    print(f"Serving {args.directory}/ at http://127.0.0.1:{args.port}/ (Ctrl+C to stop)")
    try:
        httpd.serve_forever()
    except KeyboardInterrupt:
        pass


if __name__ == "__main__":
    # the package's module, so that its class attributes are the ones the tests see
    from calculators.serve import main as _main

    _main()
