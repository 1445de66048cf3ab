"""The post-build step: any generator's output becomes the finished site.

``python -m calculators.build site/`` runs after ``mkdocs build`` or ``zensical build``
(``make site`` does both). It adds what no generator knows about and checks its own
result, failing loudly (exit 1, every problem listed) instead of shipping a broken site:

- the widget assets of ``calculators/assets/``, each named by content hash
  (``calculators/hashed.py``), with every reference to them rewritten;
- the Python bundle (one zip of ``rules_core``, the browser half of ``calculators`` and
  their pure-Python dependencies, named by content hash; ``calculators/bundle.py``), the
  runtime's first-visit snapshot made from it, and the pinned Pyodide runtime with its
  WebAssembly also packed for a first visit;
- in every page: links to the site root (``@@calc-root@@/``, written by the fences) made
  relative to the page, the build id, one Content-Security-Policy meta tag, an accessible
  name for Material's search dialog (``calculators/pages.py``);
- the web app manifest and its icons, so the site installs as an app on a phone
  (``calculators/installable.py``), linked from every page;
- ``sw.js``, the service worker, with a manifest of every file and its hash
  (``calculators/service_worker.py``);

then checks the result (``calculators/verify.py``). Where things go is
``calculators/layout.py``. This step never imports the fences: it runs on any
generator's output.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import shutil
import sys
from pathlib import Path

from calculators import bundle, hashed, installable, pages, service_worker, verify
from calculators.layout import (
    ASSET_DIR,
    ASSETS_SOURCE,
    BUNDLE_PLACEHOLDER,
    PACKED_RUNTIME,
    PACKED_SUFFIX,
    PYODIDE_DIR,
    PYODIDE_FILES,
    PYODIDE_PLACEHOLDER,
    RUNTIME_BYTES_PLACEHOLDER,
    SNAPSHOT_PLACEHOLDER,
    BuildError,
    command,
    snapshot_name,
)


def write_runtime(site_dir: Path) -> str:
    """Copy the Pyodide files (with the packed WebAssembly beside its file), the Python
    bundle and its first-visit snapshot into the built site; the bundle's name."""
    target = site_dir / PYODIDE_DIR / bundle.pyodide_version()
    target.mkdir(parents=True, exist_ok=True)
    for name in PYODIDE_FILES:
        shutil.copy2(bundle.pyodide_dir() / name, target / name)
    for name in PACKED_RUNTIME:  # what a first visit downloads instead (the worker unpacks it)
        (target / (name + PACKED_SUFFIX)).write_bytes(bundle.packed_runtime(name))
    name, data = bundle.bundle()
    out = site_dir / ASSET_DIR
    out.mkdir(parents=True, exist_ok=True)
    (out / name).write_bytes(data)
    shipped, packed = bundle.snapshot()
    (out / shipped).write_bytes(packed)
    return name


def write_assets(site_dir: Path, source: Path) -> dict[str, str]:
    """The widget assets under their hashed names; {asset path: hashed path}.

    The folder is replaced: it belongs to this step, and a second run must give the
    same site as the first."""
    sizes = {"worker.js": {"/*@RUNTIME_SIZES@*/null": json.dumps(bundle.runtime_sizes(), sort_keys=True),
                           "/*@PACKED_RUNTIME@*/null": json.dumps(bundle.packed_runtime_files(), sort_keys=True)}}
    try:
        assets = hashed.hash_assets(source, sizes if (source / "worker.js").is_file() else None)
    except hashed.AssetError as err:
        raise BuildError(str(err)) from err
    out = site_dir / ASSET_DIR
    if out.exists():
        shutil.rmtree(out)
    for new, data in assets.values():
        path = out / new
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)
    return {rel: new for rel, (new, _) in assets.items()}


def build_id(names: dict[str, str], bundle_name: str) -> str:
    """What a page needs to run its widgets, in 12 hex digits: the hashed assets, the
    Python bundle and the Pyodide version. Text-only changes leave it alone."""
    text = "\n".join([*sorted(names.values()), bundle_name, bundle.pyodide_version()])
    return hashlib.sha256(text.encode()).hexdigest()[:12]


def finish(site_dir: Path, assets: Path = ASSETS_SOURCE) -> str:
    """Turn a generator's output into the finished site, then check it. The build id."""
    if not (site_dir / "index.html").is_file():
        raise BuildError(f"{site_dir} has no index.html: build the site first (mkdocs or zensical).")
    bundle.pyodide_version()
    bundle.bundle.cache_clear()  # the sources as they are now, as the generator just saw them
    names = write_assets(site_dir, assets)
    bundle_name = write_runtime(site_dir)
    build = build_id(names, bundle_name)
    names = {**names, **installable.write(site_dir)}  # after the build id: no widget needs them
    pages.process(site_dir, names, build, {
        BUNDLE_PLACEHOLDER: bundle_name, SNAPSHOT_PLACEHOLDER: snapshot_name(bundle_name),
        PYODIDE_PLACEHOLDER: bundle.pyodide_version(),
        RUNTIME_BYTES_PLACEHOLDER: str(bundle.runtime_bytes())})
    service_worker.write(site_dir, build)
    problems = verify.problems(site_dir)
    if problems:
        shown = "\n  ".join(problems[:40])
        more = f"\n  ... and {len(problems) - 40} more" if len(problems) > 40 else ""
        raise BuildError(f"the built site in {site_dir} is broken ({len(problems)} problems):\n  {shown}{more}")
    return build


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m calculators.build",
        description="Finish a site built by MkDocs or Zensical: widget assets, runtime, "
                    "service worker, policy; then check it.")
    parser.add_argument("site_dir", nargs="?", default="site", type=Path)
    parser.add_argument("--assets", type=Path, default=ASSETS_SOURCE,
                        help="the widget assets to publish (default: calculators/assets)")
    args = parser.parse_args(argv)

    def work() -> str:
        build = finish(args.site_dir, args.assets)
        return f"calculators.build: {args.site_dir} finished and checked (build {build})."

    return command("calculators.build", work)


if __name__ == "__main__":
    sys.exit(main())
