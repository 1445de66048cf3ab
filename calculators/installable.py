"""The site as an app on a phone: the web app manifest and its icons, written by the
post-build step into the widget assets' folder under content-hashed names.

- ``manifest.<hash>.webmanifest``: name, short name, ``start_url`` and ``scope`` relative to
  the manifest (so they hold under a GitHub Pages project path), ``display: standalone``,
  the theme colour and the icons. ``start_url`` is the site root with ``?launch=app``: the
  home page's head script (``calculators/launch_head.js``) sends such a launch to the page
  read last. No ``id``: it would be resolved against the origin, and two copies of the site
  on one origin (``/tcr/`` and ``/tcr-preview/``) would be one app; without it the app is
  named by its ``start_url``, which differs between the copies.
- the icons, drawn here (no image files, no downloads): a reticle on the theme colour, as
  192 and 512 px PNGs for any use (rounded corners), as 192 and 512 px maskable PNGs (the
  drawing inside the central safe circle, the background to the edges) and as a 180 px
  ``apple-touch-icon`` (iOS fills transparency with black, so it is the opaque one).

Every page links the manifest and the touch icon and carries the theme colour
(:func:`head_tags`, added by ``calculators/pages.py``).
"""

from __future__ import annotations

import json
import re
import struct
import zlib
from functools import cache
from pathlib import Path

from calculators import hashed
from calculators.layout import ASSET_DIR, ROOT, BuildError

#: the theme's primary colour (Material's "blue grey", mkdocs.yml palette)
THEME_COLOR = "#546e7a"
BACKGROUND_COLOR = "#ffffff"
SHORT_NAME = "Combat Ref"
#: the query that marks a launch from the home screen (see calculators/launch_head.js)
LAUNCH_QUERY = "launch=app"
#: the manifest's name among the widget assets, before hashing (pages link this name and
#: the page rewriting points it at the hashed file)
MANIFEST = "manifest.webmanifest"
TOUCH_ICON = "icon-apple-touch.png"
#: (file, size, purpose)
ICONS = (("icon-192.png", 192, "any"), ("icon-512.png", 512, "any"),
         ("icon-maskable-192.png", 192, "maskable"), ("icon-maskable-512.png", 512, "maskable"))


def _rgb(color: str) -> tuple[int, int, int]:
    return int(color[1:3], 16), int(color[3:5], 16), int(color[5:7], 16)


def png(width: int, height: int, rows: list[bytes]) -> bytes:
    """An 8-bit RGBA PNG of ``rows`` (each ``4 * width`` bytes), written with zlib."""
    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    raw = b"".join(b"\x00" + row for row in rows)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 6, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(raw, 9)) + chunk(b"IEND", b""))


def _coverage(distance: float) -> float:
    """How much of a pixel a shape covers, from the signed distance (in pixels) of the
    pixel's centre to its edge (negative inside): a one-pixel ramp, for smooth edges."""
    return min(1.0, max(0.0, 0.5 - distance))


@cache  # a test session builds several sites
def icon(size: int, maskable: bool) -> bytes:
    """The site's icon at ``size`` px: a white reticle (a ring, four ticks, a dot) on the
    theme colour. A maskable icon fills the square and keeps the reticle inside the
    central 80 % circle that every mask leaves whole; the other rounds its corners."""
    back = _rgb(THEME_COLOR)
    c = size / 2
    unit = size / 100  # the drawing in hundredths of the icon
    scale = 0.78 if maskable else 1.0
    ring, stroke = 27 * unit * scale, 5.5 * unit * scale
    tick_in, tick_out, dot = 12 * unit * scale, 40 * unit * scale, 6 * unit * scale
    corner = 18 * unit
    half = size // 2  # the drawing is symmetric: one quarter is drawn, then mirrored
    rows = []
    for y in range(half):
        pixels = []
        py = y + 0.5 - c
        for x in range(half):
            px = x + 0.5 - c
            if maskable:
                alpha = 1.0
            else:  # a rounded square: distance to its edge
                qx, qy = abs(px) - (c - corner), abs(py) - (c - corner)
                outside = (max(qx, 0.0) ** 2 + max(qy, 0.0) ** 2) ** 0.5 + min(max(qx, qy), 0.0) - corner
                alpha = _coverage(outside)
            r = (px * px + py * py) ** 0.5
            ink = _coverage(abs(r - ring) - stroke / 2)
            ink = max(ink, _coverage(r - dot))
            along, across = (abs(py), abs(px)) if abs(px) < abs(py) else (abs(px), abs(py))
            if tick_in <= along <= tick_out:
                ink = max(ink, _coverage(across - stroke / 2))
            pixels.append(bytes([*(round(b + (255 - b) * ink) for b in back), round(255 * alpha)]))
        rows.append(b"".join(pixels + pixels[::-1]))
    rows += rows[::-1]
    return png(size, size, rows)


def site_name(config: Path = ROOT / "mkdocs.yml") -> str:
    """The site's name, as mkdocs.yml gives it (both generators read that file)."""
    match = re.search(r"^site_name:\s*(.+?)\s*$", config.read_text(encoding="utf-8"), re.M)
    if not match:
        raise BuildError(f"{config} names no site_name: the app manifest needs the site's name")
    return match.group(1).strip("\"'")


def manifest(icon_names: dict[str, str], name: str, description: str) -> dict[str, object]:
    """The manifest's members; ``icon_names`` maps each icon file to its hashed name (the
    manifest sits beside them, in the widget assets' folder)."""
    root = "../" * ASSET_DIR.count("/") + "../"  # from the assets' folder to the site root
    return {
        "name": name,
        "short_name": SHORT_NAME,
        "description": description,
        "start_url": f"{root}?{LAUNCH_QUERY}",
        "scope": root,
        "display": "standalone",
        "background_color": BACKGROUND_COLOR,
        "theme_color": THEME_COLOR,
        "prefer_related_applications": False,
        "icons": [{"src": icon_names[file], "sizes": f"{size}x{size}", "type": "image/png", "purpose": purpose}
                  for file, size, purpose in ICONS],
    }


def _description(config: Path = ROOT / "mkdocs.yml") -> str:
    match = re.search(r"^site_description:\s*(.+?)\s*$", config.read_text(encoding="utf-8"), re.M)
    return match.group(1).strip("\"'") if match else ""


def write(site_dir: Path) -> dict[str, str]:
    """Write the icons and the manifest into the site; {unhashed name: hashed name}, for
    the page rewriting (names relative to the widget assets' folder)."""
    out = site_dir / ASSET_DIR
    out.mkdir(parents=True, exist_ok=True)
    names: dict[str, str] = {}
    drawn: dict[tuple[int, bool], bytes] = {}
    for file, size, purpose in (*ICONS, (TOUCH_ICON, 180, "maskable")):
        key = (size, purpose == "maskable")
        data = drawn.get(key) or drawn.setdefault(key, icon(size, key[1]))
        names[file] = hashed.hashed_name(file, data)
        (out / names[file]).write_bytes(data)
    text = json.dumps(manifest(names, site_name(), _description()), indent=1) + "\n"
    names[MANIFEST] = hashed.hashed_name(MANIFEST, text.encode())
    (out / names[MANIFEST]).write_text(text, encoding="utf-8")
    return names


def head_tags(root: str) -> str:
    """The tags every page carries in its head, ``root`` being the path from the page to
    the site root (the page rewriting then points the names at the hashed files)."""
    return (f'<link rel="manifest" href="{root}{ASSET_DIR}/{MANIFEST}">'
            f'<link rel="apple-touch-icon" href="{root}{ASSET_DIR}/{TOUCH_ICON}">'
            f'<meta name="theme-color" content="{THEME_COLOR}">')
