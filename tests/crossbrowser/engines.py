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
import re
import shutil
import subprocess
import tempfile
import threading
import time
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
    #: what the test is doing (page, widget, step): said if the page dies
    where: str

    def goto(self, url: str) -> None: ...
    def reload(self) -> None: ...
    def run(self, js: str, arg: Any = None) -> Any: ...
    def errors(self) -> list[str]: ...
    def quit(self) -> None: ...


class EngineError(AssertionError):
    """The page or the driver reported a failure."""


class PageCrashed(EngineError):
    """The browser's page died under the test (its content process crashed, was killed or
    hung, or the browser itself went away): the message says what the harness saw.
    ``kind`` is the verdict (:meth:`ProcessWatch.verdict`)."""

    def __init__(self, message: str, kind: str) -> None:
        super().__init__(message)
        self.kind = kind


#: what each verdict means, said first in the report
VERDICTS = {
    "crash": "its content process crashed: it went away with no sign of running out of memory",
    "memory": "its content process was killed for its memory",
    "browser": "the browser itself went away",
    "hang": "its content process is still there but stopped answering (a hang)",
    "killed": "the browser ended its content process (the release log says why)",
    # WebKitGTK runs a page's service worker in the page's own web process; a service worker
    # that does not stop in time when WebKit ends it (a fetch it did not answer within
    # WebKit's limit, a missed heartbeat) makes that process exit, page and all
    "service worker": ("its web process exited because the page's service worker did not stop when "
                       "WebKit ended it (the release log says which event timed out)"),
}
#: content processes (WebKit's web process, Firefox's content processes) and browsers, by
#: their process names (the kernel's first 15 characters)
CONTENT = ("WebKitWebProces", "Isolated Web Co", "Web Content", "WebExtensions")
BROWSERS = ("MiniBrowser", "firefox-esr", "firefox")
MEMORY_KILL = re.compile(r"out of memory|oom-kill|oom_reaper|Unable to shrink memory footprint|"
                         r"exceeded (its )?memory limit|ExceededMemoryLimit", re.I)


def _short(value: Any, limit: int = 600) -> str:
    text = json.dumps(value, default=str) if not isinstance(value, str) else value
    return text if len(text) <= limit else text[:limit] + f"... ({len(text)} characters)"


def _tail(path: Path, lines: int = 40) -> str:
    try:
        text = path.read_text(errors="replace").splitlines()
    except OSError as err:
        return f"(unreadable: {err})"
    text = [line for line in text if not line.startswith("Unknown logging channel")]
    return "\n".join(text[-lines:]) or "(empty)"


def _kernel_log(since: float, pids: set[int]) -> list[str]:
    """Kernel messages since ``since`` (seconds since boot) about these processes or about
    memory: a fatal signal (segfault, trap), the OOM killer. Empty where dmesg is closed."""
    try:
        out = subprocess.run(["dmesg"], capture_output=True, text=True, timeout=10).stdout
    except (OSError, subprocess.SubprocessError):
        return []
    found = []
    for line in out.splitlines():
        stamp = re.match(r"\[\s*(\d+\.\d+)\]", line)
        if not stamp or float(stamp.group(1)) < since:
            continue
        if (any(f"[{pid}]" in line or f"pid={pid}" in line or f"({pid})" in line for pid in pids)
                or re.search(r"oom|out of memory|segfault|traps:|WebKit|MiniBrowser", line, re.I)):
            found.append(line)
    return found


class JournalTap:
    """WebKitGTK (as Debian builds it) writes its release log, which says why a web
    process ended ("processDidTerminateOrFailedToLaunch: reason=Crash", or
    ExceededMemoryLimit, ExceededCPULimit...), to the systemd journal, and only for the
    channels named in ``WEBKIT_DEBUG``. Where no journald runs (a container, this test
    machine), this stands in for it: it listens on the journal's socket for the session
    and keeps what arrives. Where journald runs, its entries are read with journalctl."""

    SOCKET = "/run/systemd/journal/socket"
    TELLING = re.compile(r"reason=|timeoutTimerFired|HeartBeat|[Tt]erminat|[Kk]ill|[Cc]rash|[Ff]ail|[Mm]emory")

    def __init__(self) -> None:
        import socket

        self.lines: list[str] = []
        self._started = time.time()
        self._sock: Any = None
        if Path(self.SOCKET).exists():
            try:  # a journald (or another session's stand-in) has it: journalctl reads it
                with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as probe:
                    probe.connect(self.SOCKET)
                return
            except ConnectionRefusedError:  # left by a session that was killed
                Path(self.SOCKET).unlink(missing_ok=True)
            except OSError:
                return
        try:
            Path(self.SOCKET).parent.mkdir(parents=True, exist_ok=True)
            sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_PASSCRED, 1)
            sock.bind(self.SOCKET)
            os.chmod(self.SOCKET, 0o666)
        except OSError:
            return  # not ours to take: the report says how to read the log instead
        self._sock = sock
        threading.Thread(target=self._listen, daemon=True).start()

    def _listen(self) -> None:
        import socket
        import struct

        while self._sock is not None:
            try:
                data, ancillary, _, _ = self._sock.recvmsg(1 << 20, socket.CMSG_SPACE(12))
            except OSError:
                return
            pid = next((struct.unpack("iII", value[:12])[0] for _, kind, value in ancillary
                        if kind == socket.SCM_CREDENTIALS), "?")
            fields: dict[str, str] = {}
            at = 0
            while (end := data.find(b"\n", at)) >= 0:
                line = data[at:end]
                if b"=" in line:  # KEY=value
                    key, _, value = line.partition(b"=")
                    at = end + 1
                else:  # KEY, a 64-bit length, the value
                    size = struct.unpack("<Q", data[end + 1:end + 9])[0]
                    key, value = line, data[end + 9:end + 9 + size]
                    at = end + 9 + size + 1
                fields[key.decode(errors="replace")] = value.decode(errors="replace")
            self.lines.append(f"{time.strftime('%H:%M:%S')} [{pid}] {fields.get('MESSAGE', '')}")

    def tail(self, count: int = 25) -> str:
        if self._sock is not None:
            keep = [line for line in self.lines if "canTerminateAuxiliaryProcess" not in line]
            # what says why a process or a worker ended, from the whole session, then the tail
            telling = [line for line in keep[:-count] if self.TELLING.search(line)]
            return "\n".join(telling + keep[-count:]) or "(nothing)"
        if shutil.which("journalctl"):
            try:
                out = subprocess.run(
                    ["journalctl", "-q", "--no-pager", "-o", "short-precise", f"--since=@{int(self._started)}",
                     "_COMM=MiniBrowser", "_COMM=WebKitWebProces", "_COMM=WebKitNetworkPr"],
                    capture_output=True, text=True, timeout=30)
                return "\n".join(out.stdout.splitlines()[-count:]) or (
                    f"(journalctl has nothing for this session {out.stderr.strip()}: the journal's "
                    f"socket belongs to another program, perhaps another session's stand-in)")
            except (OSError, subprocess.SubprocessError) as err:
                return f"(journalctl failed: {err})"
        return f"(in the systemd journal, which is not readable here: {self.SOCKET} is not ours)"

    def close(self) -> None:
        sock, self._sock = self._sock, None
        if sock is not None:
            sock.close()
            Path(self.SOCKET).unlink(missing_ok=True)


def _uptime() -> float:
    return float(Path("/proc/uptime").read_text().split()[0])


class ProcessWatch:
    """Samples a browser's process tree (every process under ``root``) twice a second:
    each process's memory (resident now and its peak), when it went away, and the
    machine's lowest available memory; ``report`` says it when a page dies."""

    def __init__(self, root: int, interval: float = 0.5) -> None:
        self.root = root
        self.started = _uptime()
        self.seen: dict[int, dict[str, Any]] = {}
        self.min_available_mb: int | None = None
        self._stop = threading.Event()
        self._lock = threading.Lock()
        self._thread = threading.Thread(target=self._loop, args=(interval,), daemon=True)
        self._thread.start()

    def _tree(self) -> dict[int, str]:
        parents: dict[int, int] = {}
        names: dict[int, str] = {}
        for entry in Path("/proc").iterdir():
            if not entry.name.isdigit():
                continue
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            name = stat[stat.index("(") + 1:stat.rindex(")")]
            parents[int(entry.name)] = int(stat[stat.rindex(")") + 2:].split()[1])
            names[int(entry.name)] = name
        tree = {}
        for pid in names:
            up = pid
            while up in parents and up != self.root and up > 1:
                up = parents[up]
            if up == self.root:
                tree[pid] = names[pid]
        return tree

    @staticmethod
    def _status(pid: int) -> dict[str, str]:
        fields = {}
        try:
            for line in Path(f"/proc/{pid}/status").read_text().splitlines():
                key, _, value = line.partition(":")
                fields[key] = value.strip()
        except OSError:
            pass
        return fields

    def sample(self) -> None:
        now = time.monotonic()
        tree = self._tree()
        with self._lock:
            for pid, name in tree.items():
                status = self._status(pid)
                if "VmRSS" not in status:  # gone, or going: its last figures stand
                    continue
                info = self.seen.setdefault(pid, {"name": name, "first": now, "gone": None})
                info["rss_mb"] = int(status.get("VmRSS", "0 kB").split()[0]) // 1024
                info["peak_mb"] = int(status.get("VmHWM", "0 kB").split()[0]) // 1024
                info["state"] = status.get("State", "?")
                info["last"] = now
            for pid, info in self.seen.items():
                if info["gone"] is None and pid not in tree:
                    info["gone"] = now
            try:
                for line in Path("/proc/meminfo").read_text().splitlines():
                    if line.startswith("MemAvailable:"):
                        available = int(line.split()[1]) // 1024
                        if self.min_available_mb is None or available < self.min_available_mb:
                            self.min_available_mb = available
            except OSError:
                pass

    def _loop(self, interval: float) -> None:
        while not self._stop.wait(interval):
            try:
                self.sample()
            except Exception:  # noqa: BLE001 - a sample that fails is only a gap
                continue

    def gone_since(self, since: float) -> list[int]:
        """Processes of the tree that went away after ``since`` (time.monotonic)."""
        with self._lock:
            return [pid for pid, info in self.seen.items() if info["gone"] and info["gone"] >= since]

    def report(self, since: float) -> str:
        self.sample()
        lines = []
        with self._lock:
            for pid, info in sorted(self.seen.items()):
                if info["gone"]:
                    when = f"went away {info['gone'] - since:+.1f} s from the command's start"
                else:
                    when = f"still running (state {info.get('state', '?')})"
                lines.append(f"  {info['name']} {pid}: {when}; memory {info.get('rss_mb', '?')} MB "
                             f"when last seen, peak {info.get('peak_mb', '?')} MB")
            pids = set(self.seen)
        lines.append(f"  machine: lowest available memory seen {self.min_available_mb} MB")
        kernel = _kernel_log(self.started, pids)
        lines.append("  kernel log: " + ("\n    ".join([""] + kernel) if kernel else "nothing about them"))
        return "\n".join(lines)

    def verdict(self, since: float, log: Path, journal: str = "") -> str:
        """Why the page died, from the processes, the kernel's log and the engine's own
        (``journal``: WebKit's release log): one of ``VERDICTS``."""
        self.sample()
        with self._lock:
            gone = {info["name"] for info in self.seen.values() if info["gone"] and info["gone"] >= since}
            pids = set(self.seen)
        try:
            own = log.read_text(errors="replace")
        except OSError:
            own = ""
        if "killing the service worker process" in journal:
            return "service worker"
        reason = re.findall(r"processDidTerminateOrFailedToLaunch: reason=(\w+)", journal)
        if reason and reason[-1] != "Crash":
            return {"ExceededMemoryLimit": "memory"}.get(reason[-1], "killed")
        if MEMORY_KILL.search(own) or any(MEMORY_KILL.search(line) for line in _kernel_log(self.started, pids)):
            return "memory"
        # the browser gone takes its content processes with it: that is the browser's end
        if gone & set(BROWSERS):
            return "browser"
        if gone & set(CONTENT):
            return "crash"
        return "hang"

    @property
    def running(self) -> bool:
        return not self._stop.is_set()

    def stop(self) -> None:
        self._stop.set()
        self._thread.join(timeout=5)


class Firefox:
    """Firefox ESR through ``firefox_driver.mjs`` (one JSON line per command). Firefox's
    output goes to a log file and its processes are watched, as WebKit's are: a page or a
    browser that dies fails the test with :class:`PageCrashed` saying what happened."""

    name = "firefox"
    #: what puppeteer says when the page or the browser under it went away
    DIED = re.compile(r"Target closed|Session closed|has been closed|crash|disconnected|"
                      r"Connection closed|no such frame|discarded", re.I)

    def __init__(self) -> None:
        if not Path(FIREFOX).exists():
            raise EngineError(MISSING.format(what="Firefox ESR"))
        if not (ROOT / "node_modules" / "puppeteer-core").exists():
            raise EngineError("puppeteer-core is not installed: run `npm ci` (make test does).")
        self.where = "starting"
        self._last: Any = None
        self._crash: PageCrashed | None = None
        fd, log = tempfile.mkstemp(prefix="firefox-", suffix=".log")
        self.log = Path(log)
        self._proc = subprocess.Popen(
            ["node", str(Path(__file__).with_name("firefox_driver.mjs"))],
            cwd=ROOT, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=fd, text=True)
        os.close(fd)
        self._watch = ProcessWatch(self._proc.pid)

    def _died(self, what: str, said: str, started: float) -> PageCrashed:
        time.sleep(1)  # let the log and the kernel catch up with the process's end
        code = self._proc.poll()
        driver = ("running" if code is None else
                  f"killed by signal {-code}" if code < 0 else f"exited with status {code}")
        kind = self._watch.verdict(started, self.log)
        self._crash = PageCrashed(
            f"firefox: the page died ({VERDICTS[kind]}) while {self.where} ({what})\n"
            f"  the driver said: {said}\n  the driver (node, puppeteer-core): {driver}\n"
            f"  the last script result before it: {_short(self._last)}\n"
            f"{self._watch.report(started)}\n"
            f"  Firefox's log ({self.log}), last lines:\n{_tail(self.log)}", kind)
        return self._crash

    def _call(self, **cmd: Any) -> Any:
        assert self._proc.stdin and self._proc.stdout
        what = f"{cmd['op']} {_short(cmd.get('url') or cmd.get('arg') or '', 120)}"
        if self._crash is not None:
            raise PageCrashed(f"{self._crash} (and now: {what})", self._crash.kind)
        started = time.monotonic()
        try:
            self._proc.stdin.write(json.dumps(cmd) + "\n")
            self._proc.stdin.flush()
            line = self._proc.stdout.readline()
        except OSError as err:
            raise self._died(what, f"the driver's pipe broke ({err})", started) from err
        if not line:
            raise self._died(what, "nothing: the driver stopped", started)
        reply = json.loads(line)
        if not reply["ok"]:
            if self.DIED.search(reply["error"]) or self._watch.gone_since(started):
                raise self._died(what, reply["error"], started)
            raise EngineError(reply["error"])
        self._last = reply.get("value")
        return reply.get("value")

    def goto(self, url: str) -> None:
        self._call(op="goto", url=url)

    def reload(self) -> None:
        self._call(op="reload")

    def run(self, js: str, arg: Any = None) -> Any:
        return self._call(op="run", js=js, arg=arg)

    #: what Firefox says when a download a service worker answered is cut off because the
    #: page or worker that asked went away (a reload on the army builder, once in a CI run;
    #: which download is not known: likely the search index, which the theme's worker starts
    #: reading as the runtime is ready):
    #: Firefox's copy of the body fails and its message names no address. Not the page's
    #: failure; the service worker failing a request it handles names the request's address.
    CUT_OFF = "Failed to load ‘’. A ServiceWorker intercepted the request and encountered an unexpected error."

    def errors(self) -> list[str]:
        return [error for error in self._call(op="errors") if error != self.CUT_OFF]

    def quit(self) -> None:
        if self._proc.poll() is not None and not self._watch.running:
            return  # quit already
        try:
            if self._crash is None:
                self._call(op="quit")
        finally:
            if self._proc.poll() is None:
                self._proc.kill()
            self._proc.wait(timeout=60)
            self._watch.stop()
            if self._crash is None:
                self.log.unlink(missing_ok=True)  # kept after a crash: the report names it


class WebKit:
    """WebKitGTK's MiniBrowser through WebKitWebDriver, on a virtual X screen.

    WebKitWebDriver gives no console log, so page errors are those the page recorded
    (``ERRORS_JS`` installs the recorder after each load). WebKit's own output (the
    driver's, MiniBrowser's and its web process's; MiniBrowser does not write the page's
    console for an automation session) goes to a log file, and the browser's processes
    are watched. When the page dies, WebKitWebDriver answers the script in flight with
    "Could not parse script result" (the empty reply of a web process that went away)
    and then "session deleted because of page crash or hang"; the test fails with
    :class:`PageCrashed` saying what happened instead."""

    name = "webkit"

    def __init__(self) -> None:
        from selenium import webdriver
        from selenium.webdriver.webkitgtk.options import Options
        from selenium.webdriver.webkitgtk.service import Service

        browser = next((p for p in MINIBROWSER if Path(p).exists()), None)
        if not Path(WEBKIT_DRIVER).exists() or browser is None or not shutil.which("Xvfb"):
            raise EngineError(MISSING.format(what="WebKitGTK (webkit2gtk-driver) or Xvfb"))
        self.where = "starting"
        self._last: Any = None
        self._crash: PageCrashed | None = None
        read, write = os.pipe()
        self._xvfb = subprocess.Popen(
            ["Xvfb", "-displayfd", str(write), "-screen", "0", "1280x900x24", "-nolisten", "tcp"],
            pass_fds=(write,), stderr=subprocess.DEVNULL)
        os.close(write)
        with os.fdopen(read) as pipe:
            display = pipe.readline().strip()
        fd, log = tempfile.mkstemp(prefix="webkit-", suffix=".log")
        os.close(fd)
        self.log = Path(log)
        options = Options()
        options.binary_location = browser
        options.add_argument("--automation")
        self._journal = JournalTap()
        service = Service(executable_path=WEBKIT_DRIVER, log_output=log, env={
            # the release log's channels that say why a web process ended (see JournalTap)
            "WEBKIT_DEBUG": "Process,ProcessSwapping,ServiceWorker,MemoryPressure",
            **os.environ, "DISPLAY": f":{display}"})
        self._driver = webdriver.WebKitGTK(options=options, service=service)
        assert service.process is not None
        self._watch = ProcessWatch(service.process.pid)
        self._driver.set_script_timeout(900)
        self._driver.set_page_load_timeout(300)

    def _command(self, what: str, call: Any) -> Any:
        from selenium.common.exceptions import InvalidSessionIdException, WebDriverException

        if self._crash is not None:  # the page died earlier in this session: say so again
            raise PageCrashed(f"{self._crash} (and now: {what})", self._crash.kind)
        started = time.monotonic()
        try:
            return call()
        except WebDriverException as err:
            said = (err.msg or str(err)).strip()
            gone = self._watch.gone_since(started)
            if not (gone or isinstance(err, InvalidSessionIdException)
                    or "Could not parse script result" in said or "page crash or hang" in said):
                raise
            time.sleep(1)  # let the log and the kernel catch up with the process's end
            kind = self._watch.verdict(started, self.log, self._journal.tail(200))
            self._crash = PageCrashed(
                f"webkit: the page died ({VERDICTS[kind]}) while {self.where} ({what})\n"
                f"  WebKitWebDriver said: {type(err).__name__}: {said}\n"
                f"  the last script result before it: {_short(self._last)}\n"
                f"{self._watch.report(started)}\n"
                f"  WebKit's output ({self.log}), last lines:\n{_tail(self.log)}\n"
                f"  WebKit's release log (the journal), last lines:\n{self._journal.tail()}", kind)
            raise self._crash from err

    def goto(self, url: str) -> None:
        self._command(f"loading {url}", lambda: self._driver.get(url))

    def reload(self) -> None:
        self._command("reloading", self._driver.refresh)

    def run(self, js: str, arg: Any = None) -> Any:
        reply = self._command(f"running {js.split(chr(10))[0][:60]} with {_short(arg, 120)}",
                              lambda: self._driver.execute_async_script(
            "const done = arguments[arguments.length - 1];"
            f"Promise.resolve().then(() => ({js})(arguments[0])).then("
            "v => done({ok: true, value: v === undefined ? null : v}),"
            " e => done({ok: false, error: String(e) + ' at ' + location.pathname"
            " + ' ' + String(e && e.stack)}));", arg))
        if not reply["ok"]:
            raise EngineError(reply["error"])
        self._last = reply["value"]
        return reply["value"]

    def errors(self) -> list[str]:
        return []  # no console log over WebKitWebDriver; the page's own record is read instead

    def quit(self) -> None:
        if not self._watch.running:
            return  # quit already
        try:
            self._driver.quit()
        except Exception:  # noqa: BLE001 - a browser whose page died may not answer quit
            if self._crash is None:
                raise
        finally:
            self._watch.stop()
            self._journal.close()
            self._xvfb.terminate()
            self._xvfb.wait(timeout=30)
            if self._crash is None:
                self.log.unlink(missing_ok=True)  # kept after a crash: the report names it


ENGINES = {"firefox": Firefox, "webkit": WebKit}
