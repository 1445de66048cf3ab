"""Serve a built site on localhost with the MIME types Pyodide needs (.mjs, .wasm).

``python -m calculators.serve [DIR] [--port 8000]``; also used by the tests.
"""

from __future__ import annotations

import argparse
import functools
import http.server


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
