"""MkDocs hooks: ship the widget assets, point rule links at the root, add the runtime."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from mkdocs.exceptions import PluginError
from mkdocs.structure.files import File, Files

from calculators import build
from calculators.fence import ROOT_PLACEHOLDER

ASSETS = Path(__file__).parent / "assets"


def on_config(config: Any) -> Any:
    try:
        build.pyodide_version()
    except build.BuildError as err:
        raise PluginError(str(err)) from err
    return config


def on_files(files: Files, config: Any) -> Files:
    for path in sorted(ASSETS.rglob("*")):
        if path.is_file():
            rel = path.relative_to(ASSETS).as_posix()
            files.append(File.generated(config, f"{build.ASSET_DIR}/{rel}",
                                        abs_src_path=str(path)))
    return files


def on_page_content(html: str, page: Any, config: Any, files: Files) -> str:
    if ROOT_PLACEHOLDER in html:
        root = "../" * page.url.count("/") if config["use_directory_urls"] else \
            "../" * page.file.dest_uri.count("/")
        html = html.replace(ROOT_PLACEHOLDER, root or "./")
    return html


#: Material's search dialog has no accessible name; give it one (axe: aria-dialog-name).
_SEARCH_DIALOG = '<div class="md-search" data-md-component="search" role="dialog">'


def on_post_page(output: str, page: Any, config: Any) -> str:
    return output.replace(_SEARCH_DIALOG, _SEARCH_DIALOG[:-1] + ' aria-label="Search">', 1)


def on_post_build(config: Any) -> None:
    build.write_runtime(Path(config["site_dir"]))
    build.apply_csp(Path(config["site_dir"]))
    build.write_service_worker(Path(config["site_dir"]))
