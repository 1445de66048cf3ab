"""What the post-build step changes in every built page (any generator's HTML).

- ``@@calc-root@@/`` (written by the fences for links to other pages) becomes the
  relative path from the page to the site root, worked out from the page's own path;
- every ``src``/``href``/``data-module`` naming a widget asset points at its hashed name;
- the build id goes in a ``<meta name="tcr-build">`` and on every widget (``data-build``),
  so a page's JavaScript can tell a page of another build (``assets/update.js``);
- one Content-Security-Policy meta tag, whatever the page says (an old one is replaced);
- the web app manifest, the touch icon and the theme colour (``calculators/installable.py``)
  in every page's head, and in the home page's the script that sends a launch from the
  home screen on to the page read last (``calculators/launch_head.js``);
- Material's search dialog gets an accessible name if it has none;
- the header's light/dark switch is run by ``calculators/palette_body.js``, inline right
  after it, instead of the theme's palette component (:func:`palette_switch`);
- a table the theme wraps as the page starts gets a wrapper of its own first
  (:func:`wrap_tables`).
"""

from __future__ import annotations

import base64
import hashlib
import html
import re
from collections.abc import Mapping
from pathlib import Path

from calculators import hashed, installable
from calculators.layout import (
    ASSET_DIR,
    BUILD_TAG,
    CSP_TAG,
    ENTRY,
    HEAD_END,
    ROOT_PLACEHOLDER,
    WIDGET_ENTRY,
    BuildError,
)

# Every inline script, data blocks included: Material's instant navigation re-creates the
# script elements of the page it swaps in, and the browser checks those against the policy.
INLINE_SCRIPT = re.compile(r"<script(?![^>]*\bsrc=)[^>]*>(.*?)</script>", re.S | re.I)
#: the tags :data:`~calculators.layout.CSP_TAG` and :data:`~calculators.layout.BUILD_TAG` find
CSP_META = '<meta http-equiv="Content-Security-Policy" content="{}">'
BUILD_META = '<meta name="tcr-build" content="{}">'


def _inline_script(name: str) -> str:
    """The script ``calculators/<name>`` for a page's inline ``<script>``: its comment lines
    left out (the page carries the code; the file keeps the reasons)."""
    return "\n".join(line for line in Path(__file__).with_name(name).read_text(encoding="utf-8").splitlines()
                     if not line.lstrip().startswith("//"))


#: In the head of a page whose widgets or apps run the runtime: the site's root, and the
#: script of calculators/runtime_head.js (its comment lines left out), run before anything
#: else on the page loads. On a return visit whose browser keeps this build's runtime
#: snapshot, it starts the worker at once (nothing to download): client.js keeps what it
#: needs (``keepEarlyStart``: the worker's script and start message, under the key
#: ``scopedKey("runtime-early")`` of site.js) and takes the worker over
#: (``adoptEarlyWorker``) or, if it differs from the page's, ends it. And it holds the
#: theme's search worker back until the calculators are live. A page swapped in by instant
#: navigation never runs it (the runtime is under way by then). On a first visit it starts
#: the worker too, at the page's first paint, with the start message client.js would write, from the meta
#: tag's ``data-worker`` (the worker's hashed script from the site's root),
#: ``data-pyodide``, ``data-python`` and ``data-snapshot`` (the bundle and its snapshot:
#: the page's widgets' own).
RUNTIME_HEAD_SCRIPT = _inline_script("runtime_head.js")
RUNTIME_HEAD = ('<meta name="tcr-runtime" content="{root}" data-worker="{worker}" data-pyodide="{pyodide}" '
                'data-python="{bundle}" data-snapshot="{snapshot}"><script>{script}</script>')
_PYODIDE_ATTR = re.compile(r'\sdata-pyodide="([^"]*)"')
_BUNDLE_ATTR = re.compile(r'\sdata-bundle="([^"]*)"')
_SNAPSHOT_ATTR = re.compile(r'\sdata-snapshot="([^"]*)"')
#: the tags of RUNTIME_HEAD as a page carries them after an earlier run of this step
_RUNTIME_HEAD_TAGS = re.compile(r'<meta name="tcr-runtime"[^<>]*><script>.*?</script>', re.S)
#: the entry module's tag (the theme writes it from extra_javascript; hashed after a run of
#: this step), and the widgets' entry module's tag this step puts right after it on a page
#: with widgets or apps: module scripts run in the page's order, so both run after the
#: theme's deferred bundle, whose ``document$`` calculators.js subscribes to
_ENTRY_TAG = re.compile(r'<script\b[^<>]*?\bsrc="([^"<>]*?)' + re.escape(ENTRY.removesuffix(".js"))
                        + r'(?:\.[0-9a-f]+)?\.js"[^<>]*></script>')
_WIDGET_ENTRY_TAG = re.compile(r'<script\b[^<>]*?\bsrc="[^"<>]*?' + re.escape(WIDGET_ENTRY.removesuffix(".js"))
                               + r'(?:\.[0-9a-f]+)?\.js"[^<>]*></script>')

#: In the home page's head (the manifest's start_url): calculators/launch_head.js, its
#: comment lines left out.
LAUNCH_HEAD = "<script data-tcr-launch>{}</script>".format(_inline_script("launch_head.js"))
#: The classes Material's script gives ``<html>`` as it starts: ``no-js`` becomes ``js``,
#: and its focus-visible polyfill adds ``js-focus-visible``. Once the body is there, each
#: change to them restyles the whole page (a class change on the root reaches every
#: element): a whole-page restyle inside the theme's long start-up task, on every page.
#: Set in the head, before the body exists, they cost nothing, and the theme's own writes
#: change nothing (tests/browser/test_foundation.py checks the theme adds no other class).
THEME_CLASSES = ("js", "js-focus-visible")
CLASSES_HEAD = ("<script data-tcr-classes>document.documentElement.classList.remove(\"no-js\");"
                "document.documentElement.classList.add({})</script>").format(
                    ", ".join(f'"{name}"' for name in THEME_CLASSES))
_CLASSES_TAG = re.compile(r"<script data-tcr-classes>.*?</script>", re.S)
#: Material's instant navigation, as it starts, makes every relative ``href`` and ``src`` of
#: the page absolute (so that the head's tags compare equal from page to page). For a
#: stylesheet's ``<link>`` that means a reload: the browser parses the sheet again and
#: restyles the whole page, inside the theme's long start-up task (about 170 ms of a phone's
#: CPU on a calculator page). Done at the end of the head, before the body exists, it costs
#: a second parse of the sheets and no more, and the theme finds nothing left to change in
#: the head (tests/browser/test_theme_start.py checks the sheets are not loaded again).
LINKS_HEAD = ('<script data-tcr-links>for(const link of document.head.querySelectorAll("link[href]"))'
              r'if(!/^(?:[a-z]+:)?\/\//i.test(link.getAttribute("href")))link.setAttribute("href",link.href)</script>')
_LINKS_TAG = re.compile(r"<script data-tcr-links>.*?</script>", re.S)
#: the tags this step adds to make the site installable, as an earlier run left them
_INSTALL_TAGS = re.compile(r'<link rel="manifest"[^<>]*><link rel="apple-touch-icon"[^<>]*>'
                           r'<meta name="theme-color"[^<>]*>|<script data-tcr-launch>.*?</script>', re.S)
#: a reference to the widget assets from the site's base path (the 404 page's, which is
#: served at any depth)
_ABSOLUTE_ASSET = re.compile(r"""\b(?:src|href)=["']?(/[^"'\s>]*?)""" + re.escape(ASSET_DIR) + "/")
# A link to the site root as a widget writes it; Zensical takes the placeholder for a link
# relative to the page's source file and puts "../" in front, which the root replaces too
_ROOT_LINK = re.compile(r"(?:\.\./)*" + re.escape(ROOT_PLACEHOLDER))
_CHARSET = re.compile(r"""<meta\s+charset=["']?utf-8["']?\s*/?>""", re.I)
_HEAD = re.compile(r"<head(?:\s[^>]*)?>", re.I)
_WIDGET_BUNDLE = re.compile(r"""(<[a-z]+\s[^<>]*?)(?:\sdata-build="[0-9a-f]*")?(\sdata-bundle=")""")
_SEARCH_DIALOG = re.compile(r'(<div class="md-search" data-md-component="search" role="dialog")(?![^>]*aria-label)')
# The theme names each section's navigation landmark after the section's toggle, a label
# holding only an icon: every section's <nav> has the same empty name (axe:
# landmark-unique). Each is named after its section's link text instead, as its pages
# ("d10 ranged combat pages": a page's table of contents names its own landmarks after
# its headings, which may be a section's name).
_SECTION_TOGGLE = re.compile(r'<span class="md-ellipsis">\s*([^<]*?)\s*</span>\s*</a>\s*'
                             r'<label class="md-nav__link[^"]*" for="(__nav_[0-9_]+)" id="(__nav_[0-9_]+_label)"')


def name_section_navs(text: str) -> str:
    """Each section's <nav> named after the section's pages (see ``_SECTION_TOGGLE``)."""
    for match in _SECTION_TOGGLE.finditer(text):
        name = html.escape(html.unescape(match.group(1)), quote=True)
        text = text.replace(f'aria-labelledby="{match.group(3)}"', f'aria-label="{name} pages"')
    return text


#: The header's light/dark switch as the theme writes it (``data-md-component="palette"``,
#: which mounts its palette component), or as an earlier run of this step left it
#: (``data-tcr-palette``, with :data:`PALETTE_SCRIPT` after the header), and the rest of
#: the header.
_PALETTE_FORM = re.compile(r'(<form class="md-header__option") (?:data-md-component="palette"|data-tcr-palette)>'
                           r'(.*?</form>)(.*?</header>)(?:<script data-tcr-palette>.*?</script>)?', re.S)
#: calculators/palette_body.js, its comment lines left out, in the tag that follows the header
PALETTE_SCRIPT = "<script data-tcr-palette>{}</script>".format(_inline_script("palette_body.js"))


#: the switch's first button (the theme hides them all until its script shows one)
_FIRST_BUTTON = re.compile(r"<label\b[^<>]*>")
_HIDDEN = re.compile(r"\s+hidden(?=[\s/>])")


def palette_switch(text: str) -> str:
    """The switch no longer names the theme's palette component, and :data:`PALETTE_SCRIPT`
    follows the header: the scheme is set while the page is parsed, not by the theme's
    start-up task once the whole page is there (palette_body.js says what that cost).

    After the header, not inside it: the browser may draw what it has parsed when a script
    has run, and a header drawn without its search box would be pushed aside when the box
    came (a layout shift). For the same reason the first scheme's button is shown as built
    (the theme hides them all until its script shows one); the other scheme's button takes
    the same place. A page without the switch is returned as it is."""
    def switch(match: re.Match[str]) -> str:
        form = _FIRST_BUTTON.sub(lambda label: _HIDDEN.sub("", label.group(0)), match.group(2), count=1)
        return f"{match.group(1)} data-tcr-palette>{form}{match.group(3)}" + PALETTE_SCRIPT
    return _PALETTE_FORM.sub(switch, text)


#: a table with no attribute (the theme wraps each ``table:not([class])`` in its scroll box
#: as the page starts), and the opening ``<div>`` that may hold it alone already
_BARE_TABLE = re.compile(r"(<div\b[^<>]*>\s*)?<table>(.*?)</table>", re.S)
TABLE_WRAP = '<div class="tcr-table">'


def wrap_tables(text: str) -> str:
    """Each table the theme will wrap, in a ``<div>`` of its own unless it opens one already.
    The theme takes the table out of its parent and puts its scroll box there; one of its
    rules styles the element after a table (``table:not([class]) + *``), so the browser
    restyles the whole of that parent: the whole article for a table of the page's text (a
    whole-page restyle at the end of the theme's start-up, measured on a calculator page
    with a phone's CPU). In a wrapper of its own, only the wrapper is restyled. The wrapper
    has no style: the page looks the same, before the theme's script as after it."""
    def wrap(match: re.Match[str]) -> str:
        if match.group(1):
            return match.group(0)
        return f"{TABLE_WRAP}<table>{match.group(2)}</table></div>"
    return _BARE_TABLE.sub(wrap, text)


#: a heading's permanent link as the table of contents extension writes it, named by its title
_PERMALINK = re.compile(r'(<a class="headerlink" href="[^"]*") title="([^"]*)"')


def name_permalinks(text: str) -> str:
    """Each heading's permanent link is named by ``aria-label``, not ``title``: the theme
    mounts a tooltip component for every titled element of the text as the page starts
    (about a dozen observers each, on the main thread of a phone, for a pilcrow on every
    heading). A screen reader now says the link's title, "Permanent link", where it said the
    pilcrow it shows."""
    return _PERMALINK.sub(r'\1 aria-label="\2"', text)


def content_security_policy(script_hashes: list[str]) -> str:
    """As strict as Material allows: nothing from other origins; scripts only from the
    site or the exact inline snippets Material writes (by hash); WebAssembly allowed."""
    scripts = " ".join(f"'sha256-{h}'" for h in script_hashes)
    return "; ".join([
        "default-src 'self'",
        f"script-src 'self' 'wasm-unsafe-eval' {scripts}".strip(),
        "style-src 'self' 'unsafe-inline'",  # Material sets style attributes
        "img-src 'self' data:",
        "font-src 'self' data:",
        "connect-src 'self'",
        "worker-src 'self'",
        "object-src 'none'",
        "base-uri 'self'",
        "form-action 'none'",
    ])


def relative_root(rel: str) -> str:
    """From a built page (``gunplay/bursts/index.html``) to the site root (``../../``)."""
    depth = rel.count("/")
    return "../" * depth or "./"


def page_root(text: str, rel: str) -> str:
    """The path from a page to the site root: relative (``../../``), or the base path
    (``/tcr/``) for a page whose links to the assets are absolute (the 404 page)."""
    match = _ABSOLUTE_ASSET.search(text)
    return match.group(1) if match else relative_root(rel)


def _head_insert(text: str, tags: str, rel: str) -> str:
    """``tags`` right after the charset declaration (else the head's opening tag)."""
    for pattern in (_CHARSET, _HEAD):
        match = pattern.search(text)
        if match:
            return text[: match.end()] + tags + text[match.end():]
    raise BuildError(f"{rel}: no <head> to put the security policy in")


def runtime_head(text: str, rel: str, worker: str) -> str:
    """The head tags of :data:`RUNTIME_HEAD` for a page whose widgets or apps run the
    runtime ("" for any other page); ``worker``: the worker's script (hashed) from the
    site's root."""
    # a widget or app names the runtime's bundle (the element the build id is added to)
    if not _WIDGET_BUNDLE.search(text):
        return ""
    found = {name: attr.search(text) for name, attr in
             (("pyodide", _PYODIDE_ATTR), ("bundle", _BUNDLE_ATTR), ("snapshot", _SNAPSHOT_ATTR))}
    return RUNTIME_HEAD.format(root=relative_root(rel), script=RUNTIME_HEAD_SCRIPT, worker=html.escape(worker),
                               **{name: html.escape(match.group(1) if match else "") for name, match in found.items()})


def process(site_dir: Path, names: dict[str, str], build: str,
            runtime: Mapping[str, str]) -> str:
    """Rewrite every page of ``site_dir``; the policy they all carry. ``runtime`` maps
    each runtime placeholder the fences wrote (:data:`RUNTIME_PLACEHOLDERS`) to its value
    (the bundle's name, the Pyodide version, the runtime's bytes).

    One policy everywhere (the union of all pages' inline-script hashes), because with
    instant navigation the first page's policy governs the whole visit."""

    def lookup(rel: str) -> str | None:
        return names.get(rel) or names.get(hashed.unhashed(rel))

    pages = sorted(site_dir.rglob("*.html"))
    texts: dict[Path, str] = {}
    missing: list[str] = []
    script_hashes: set[str] = set()
    for page in pages:
        rel = page.relative_to(site_dir).as_posix()
        text = page.read_text(encoding="utf-8")
        for placeholder, value in runtime.items():
            text = text.replace(placeholder, value)
        text = _RUNTIME_HEAD_TAGS.sub("", _ROOT_LINK.sub(relative_root(rel), text))
        text = _LINKS_TAG.sub("", _CLASSES_TAG.sub("", _INSTALL_TAGS.sub("", text)))
        early = runtime_head(text, rel, f"{ASSET_DIR}/{lookup('worker.js') or 'worker.js'}")
        text = _WIDGET_ENTRY_TAG.sub("", text)
        if early:
            text = _head_insert(text, early, rel)
            text = _ENTRY_TAG.sub(lambda m: m.group(0) + f'<script src="{m.group(1)}{WIDGET_ENTRY}" type="module"></script>',
                                  text, count=1)
        text = _head_insert(text, CLASSES_HEAD + installable.head_tags(page_root(text, rel))
                            + (LAUNCH_HEAD if rel == "index.html" else ""), rel)
        found: list[str] = []
        text = hashed.rewrite_page_references(text, ASSET_DIR, lookup, found)
        missing += [f"{rel}: {name}" for name in found if not name.endswith(".zip")]
        text = _WIDGET_BUNDLE.sub(rf'\1 data-build="{build}"\2', text)
        text = _SEARCH_DIALOG.sub(r'\1 aria-label="Search"', text, count=1)
        text = name_permalinks(name_section_navs(text))
        text = wrap_tables(palette_switch(text))
        text = HEAD_END.sub(lambda m: LINKS_HEAD + m.group(0), text, count=1)
        text = CSP_TAG.sub("", BUILD_TAG.sub("", text))
        for body in INLINE_SCRIPT.findall(text):
            digest = hashlib.sha256(body.encode("utf-8")).digest()
            script_hashes.add(base64.b64encode(digest).decode())
        texts[page] = text
    if missing:
        raise BuildError("pages name widget assets that do not exist: " + ", ".join(missing[:20]))
    policy = content_security_policy(sorted(script_hashes))
    tags = CSP_META.format(policy) + BUILD_META.format(build)
    for page, text in texts.items():
        page.write_text(_head_insert(text, tags, page.relative_to(site_dir).as_posix()), encoding="utf-8")
    return policy
