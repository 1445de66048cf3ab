"""Serve a built site on localhost with the MIME types Pyodide needs (.mjs, .wasm), and
the site's own 404 page for an unknown address (as GitHub Pages does).

``python -m calculators.serve [DIR] [--port 8000]``; also used by the tests.
"""

from __future__ import annotations

import argparse
import functools
import http.server
import posixpath
from pathlib import Path
from urllib.parse import unquote, urlsplit


class SiteHandler(http.server.SimpleHTTPRequestHandler):
    """Static files, with module scripts and WebAssembly served as such."""

    extensions_map = {
        **http.server.SimpleHTTPRequestHandler.extensions_map,
        ".mjs": "text/javascript",
        ".js": "text/javascript",
        ".wasm": "application/wasm",
        ".json": "application/json",
        ".zip": "application/zip",
        ".svg": "image/svg+xml",
    }

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
        self.send_response(404, message)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        if self.command == "GET":
            self.wfile.write(body)


class QuietSiteHandler(SiteHandler):
    def log_message(self, format: str, *args: object) -> None:
        pass


def server(directory: str, port: int, quiet: bool = False) -> http.server.ThreadingHTTPServer:
    handler = functools.partial(QuietSiteHandler if quiet else SiteHandler, directory=directory)
    return http.server.ThreadingHTTPServer(("127.0.0.1", port), handler)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
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
    main()
