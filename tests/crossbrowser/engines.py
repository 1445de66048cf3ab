"""Firefox ESR and WebKitGTK (Safari's engine), driven by their standard protocols.

Playwright drives only Chromium here (its own Firefox and WebKit builds cannot be
downloaded), so Debian's real engines are driven instead: Firefox through puppeteer-core
(WebDriver BiDi, ``firefox_driver.mjs``), WebKitGTK through Selenium and WebKitWebDriver
under a virtual X screen. Both offer the same small interface, so each smoke test is
written once and runs in both.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path
from typing import Any, Protocol

ROOT = Path(__file__).resolve().parents[2]
FIREFOX = "/usr/bin/firefox-esr"
WEBKIT_DRIVER = "/usr/bin/WebKitWebDriver"
MINIBROWSER = ("/usr/lib/x86_64-linux-gnu/webkit2gtk-4.1/MiniBrowser",
               "/usr/lib/aarch64-linux-gnu/webkit2gtk-4.1/MiniBrowser")
MISSING = ("{what} is not installed: `make test` installs it as root on Debian "
           "(apt-get install firefox-esr webkit2gtk-driver xvfb); elsewhere install it by hand.")


class Engine(Protocol):
    name: str

    def goto(self, url: str) -> None: ...
    def reload(self) -> None: ...
    def run(self, js: str, arg: Any = None) -> Any: ...
    def errors(self) -> list[str]: ...
    def quit(self) -> None: ...


class EngineError(AssertionError):
    """The page or the driver reported a failure."""


class Firefox:
    """Firefox ESR through ``firefox_driver.mjs`` (one JSON line per command)."""

    name = "firefox"

    def __init__(self) -> None:
        if not Path(FIREFOX).exists():
            raise EngineError(MISSING.format(what="Firefox ESR"))
        if not (ROOT / "node_modules" / "puppeteer-core").exists():
            raise EngineError("puppeteer-core is not installed: run `npm ci` (make test does).")
        self._proc = subprocess.Popen(
            ["node", str(Path(__file__).with_name("firefox_driver.mjs"))],
            cwd=ROOT, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)

    def _call(self, **cmd: Any) -> Any:
        assert self._proc.stdin and self._proc.stdout
        self._proc.stdin.write(json.dumps(cmd) + "\n")
        self._proc.stdin.flush()
        line = self._proc.stdout.readline()
        if not line:
            raise EngineError(f"the Firefox driver stopped (exit {self._proc.poll()})")
        reply = json.loads(line)
        if not reply["ok"]:
            raise EngineError(reply["error"])
        return reply.get("value")

    def goto(self, url: str) -> None:
        self._call(op="goto", url=url)

    def reload(self) -> None:
        self._call(op="reload")

    def run(self, js: str, arg: Any = None) -> Any:
        return self._call(op="run", js=js, arg=arg)

    def errors(self) -> list[str]:
        return list(self._call(op="errors"))

    def quit(self) -> None:
        try:
            self._call(op="quit")
        finally:
            if self._proc.poll() is None:
                self._proc.kill()
            self._proc.wait(timeout=60)


class WebKit:
    """WebKitGTK's MiniBrowser through WebKitWebDriver, on a virtual X screen.

    WebKitWebDriver gives no console log, so page errors are those the page recorded
    (``ERRORS_JS`` installs the recorder after each load)."""

    name = "webkit"

    def __init__(self) -> None:
        from selenium import webdriver
        from selenium.webdriver.webkitgtk.options import Options
        from selenium.webdriver.webkitgtk.service import Service

        browser = next((p for p in MINIBROWSER if Path(p).exists()), None)
        if not Path(WEBKIT_DRIVER).exists() or browser is None or not shutil.which("Xvfb"):
            raise EngineError(MISSING.format(what="WebKitGTK (webkit2gtk-driver) or Xvfb"))
        read, write = os.pipe()
        self._xvfb = subprocess.Popen(
            ["Xvfb", "-displayfd", str(write), "-screen", "0", "1280x900x24", "-nolisten", "tcp"],
            pass_fds=(write,), stderr=subprocess.DEVNULL)
        os.close(write)
        with os.fdopen(read) as pipe:
            display = pipe.readline().strip()
        options = Options()
        options.binary_location = browser
        options.add_argument("--automation")
        service = Service(executable_path=WEBKIT_DRIVER, env={**os.environ, "DISPLAY": f":{display}"})
        self._driver = webdriver.WebKitGTK(options=options, service=service)
        self._driver.set_script_timeout(900)
        self._driver.set_page_load_timeout(300)

    def goto(self, url: str) -> None:
        self._driver.get(url)

    def reload(self) -> None:
        self._driver.refresh()

    def run(self, js: str, arg: Any = None) -> Any:
        reply = self._driver.execute_async_script(
            "const done = arguments[arguments.length - 1];"
            f"Promise.resolve().then(() => ({js})(arguments[0])).then("
            "v => done({ok: true, value: v === undefined ? null : v}),"
            " e => done({ok: false, error: String(e) + ' at ' + location.pathname"
            " + ' ' + String(e && e.stack)}));", arg)
        if not reply["ok"]:
            raise EngineError(reply["error"])
        return reply["value"]

    def errors(self) -> list[str]:
        return []  # no console log over WebKitWebDriver; the page's own record is read instead

    def quit(self) -> None:
        try:
            self._driver.quit()
        finally:
            self._xvfb.terminate()
            self._xvfb.wait(timeout=30)


ENGINES = {"firefox": Firefox, "webkit": WebKit}
