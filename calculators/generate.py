"""Build the site with either generator, then finish it with the post-build step.

``python -m calculators.generate [--generator mkdocs|zensical] [--site-url URL] [OUT]``
(``make site``, ``GENERATOR=zensical make site``). The same mkdocs.yml serves both: the
fences are plain Python-Markdown (pymdownx.superfences custom fences) and nothing relies
on MkDocs hooks; ``calculators.build.finish`` does the rest and checks the result.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from calculators.build import finish
from calculators.layout import ASSETS_SOURCE, ROOT, BuildError, command

GENERATORS = ("mkdocs", "zensical")


def _command(generator: str) -> list[str]:
    if generator == "mkdocs":
        return [sys.executable, "-m", "mkdocs", "build", "--strict", "--clean"]
    if generator == "zensical":
        exe = Path(sys.executable).with_name("zensical")
        return [str(exe) if exe.exists() else "zensical", "build", "--strict", "--clean"]
    raise BuildError(f"unknown generator {generator!r}: use one of {', '.join(GENERATORS)}")


def generate(generator: str, out: Path, site_url: str, assets: Path = ASSETS_SOURCE) -> str:
    """Build the site into ``out`` (replaced) for ``site_url`` with the widget assets of
    ``assets``; the build id.

    Zensical writes only inside the project, so it builds into a scratch folder there
    and the result is moved."""
    out = out.resolve()
    inside = out.is_relative_to(ROOT)
    if not inside:
        (ROOT / "build").mkdir(exist_ok=True)
    scratch = Path(tempfile.mkdtemp(prefix=f".{generator}-", dir=ROOT / "build")) if not inside else None
    target = scratch / "site" if scratch else out
    if target.exists():
        shutil.rmtree(target)
    env = {**os.environ, "SITE_URL": site_url, "SITE_DIR": str(target), "NO_MKDOCS_2_WARNING": "1"}
    try:
        proc = subprocess.run(_command(generator), cwd=ROOT, env=env, capture_output=True, text=True)
        if proc.returncode != 0 or not (target / "index.html").is_file():
            raise BuildError(f"{generator} build failed (exit {proc.returncode}):\n{proc.stdout}\n{proc.stderr}")
        if scratch:
            if out.exists():
                shutil.rmtree(out)
            shutil.move(str(target), str(out))
    finally:
        if scratch:
            shutil.rmtree(scratch, ignore_errors=True)
    return finish(out, assets)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m calculators.generate", description=__doc__)
    parser.add_argument("out", nargs="?", default="site", type=Path)
    parser.add_argument("--generator", default=os.environ.get("GENERATOR") or "mkdocs", choices=GENERATORS)
    parser.add_argument("--site-url", default=os.environ.get("SITE_URL") or "http://127.0.0.1:8000/")
    args = parser.parse_args(argv)

    def work() -> str:
        build = generate(args.generator, args.out, args.site_url)
        return f"Built {args.out}/ with {args.generator} for {args.site_url} (build {build}), finished and checked."

    return command("calculators.generate", work)


if __name__ == "__main__":
    sys.exit(main())
