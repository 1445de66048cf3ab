"""The post-build step (``python -m calculators.build``): on the real built site, every
page carries the policy and the widget assets under hashed names; on small hand-made
sites, it fails loudly (exit 1, the problem named) instead of shipping a broken site."""

from __future__ import annotations

import gzip
import hashlib
import io
import json
import re
import shutil
import subprocess
import sys
import time
import zipfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
import zstandard

from calculators import build, bundle, hashed, layout, verify
from calculators.layout import ROOT_PLACEHOLDER

pytestmark = pytest.mark.site

ROOT = Path(__file__).resolve().parents[2]
POLICY = re.compile(r'<meta http-equiv="Content-Security-Policy" content="([^"]+)">')


def test_every_built_page_has_the_policy_in_its_head_before_any_script(site) -> None:  # type: ignore[no-untyped-def]
    html_pages = sorted(site.dir.rglob("*.html"))
    assert len(html_pages) >= 40
    policies = set()
    for path in html_pages:
        text = path.read_text(encoding="utf-8")
        found = POLICY.findall(text)
        assert len(found) == 1, path
        head = text[: text.index("</head>")]
        assert head.index("Content-Security-Policy") < head.find("<script") or "<script" not in head, path
        policies.add(found[0])
    assert len(policies) == 1
    policy = policies.pop()
    assert "default-src 'self'" in policy and "object-src 'none'" in policy
    assert "'unsafe-inline'" not in policy.split("script-src", 1)[1].split(";", 1)[0]
    # the page that writes about the policy has it too (it used to be skipped)
    assert POLICY.search((site.dir / "architecture" / "index.html").read_text(encoding="utf-8"))


def test_only_pages_that_run_the_runtime_can_start_it_from_their_head(site) -> None:  # type: ignore[no-untyped-def]
    """The head's early start (pages.RUNTIME_HEAD) is on every page with a widget or an
    app, after the build id it checks, and on no other page (a rules page starts no worker)."""
    runs = quiet = 0
    for path in sorted(site.dir.rglob("*.html")):
        text = path.read_text(encoding="utf-8")
        head = text[: text.index("</head>")]
        if 'data-bundle="' in text:
            runs += 1
            assert head.count('<meta name="tcr-runtime"') == 1 and head.count("__tcrEarlyWorker") == 1, path
            assert head.index('name="tcr-build"') < head.index("__tcrEarlyWorker"), path
        else:
            quiet += 1
            assert "tcr-runtime" not in text and "__tcrEarlyWorker" not in text, path
    assert runs >= 8 and quiet >= 10


def test_every_widget_asset_is_named_by_content_hash_and_referenced_so(site) -> None:  # type: ignore[no-untyped-def]
    assets = site.dir / layout.ASSET_DIR
    for path in assets.rglob("*"):
        if path.is_file() and not path.name.startswith("python-"):
            match = hashed.HASHED_NAME.match(path.name)
            assert match, path
            # the name's hash is the file's own content hash
            assert hashed.hashed_name(path.name.replace(path.name, hashed.unhashed(path.name)),
                                      path.read_bytes()) == path.name
    text = (site.dir / "gunplay" / "bursts" / "index.html").read_text(encoding="utf-8")
    assert re.search(r'src="\.\./\.\./assets/calculators/calculators\.[0-9a-f]{12}\.js"', text)
    assert "assets/calculators/calculators.js" not in text
    assert verify.problems(site.dir) == []


def test_a_module_hash_covers_the_hashed_names_it_imports(tmp_path: Path) -> None:
    (tmp_path / "apps").mkdir()
    (tmp_path / "leaf.js").write_text("export const x = 1;\n")
    (tmp_path / "apps" / "app.js").write_text('import { x } from "../leaf.js";\nexport { x };\n')
    (tmp_path / "main.js").write_text(
        'import "./leaf.js";\nconst w = new URL("apps/app.js", import.meta.url);\n'
        'const d = () => import("./apps/app.js");\n')
    first = hashed.hash_assets(tmp_path)
    main = first["main.js"][1].decode()
    assert f'import "./{first["leaf.js"][0]}"' in main
    assert f'new URL("{first["apps/app.js"][0]}", import.meta.url)' in main
    assert f'import("./{first["apps/app.js"][0]}")' in main
    assert f'from "../{first["leaf.js"][0]}"' in first["apps/app.js"][1].decode()
    (tmp_path / "leaf.js").write_text("export const x = 2;\n")
    second = hashed.hash_assets(tmp_path)
    # a changed leaf renames itself and every module that imports it, directly or not
    assert all(first[rel][0] != second[rel][0] for rel in ("leaf.js", "apps/app.js", "main.js"))
    (tmp_path / "apps" / "app.js").write_text('import "../main.js";\n')
    with pytest.raises(hashed.AssetError, match="cycle"):
        hashed.hash_assets(tmp_path)
    (tmp_path / "apps" / "app.js").write_text('import "./gone.js";\n')
    with pytest.raises(hashed.AssetError, match="apps/gone.js"):
        hashed.hash_assets(tmp_path)


PAGE = """<!doctype html><html><head><meta charset="utf-8"><title>t</title>
<meta http-equiv="Content-Security-Policy" content="default-src *">
<script>var inline = 1;</script></head><body>
<p>Writing about Content-Security-Policy does not exempt a page.</p>
<a href="@@calc-root@@/other/">link</a>
<div class="calc" data-calculator="gunplay.difficulty" data-status="prerendered" data-bundle="@@calc-bundle@@" data-snapshot="@@calc-snapshot@@" data-pyodide="@@calc-pyodide@@" data-runtime-bytes="@@calc-runtime-bytes@@"></div>
<script src="ROOTassets/calculators/calculators.js" type="module"></script>
<link rel="stylesheet" href="ROOTassets/calculators/calculators.css">
</body></html>"""


def _tiny_site(where: Path) -> Path:
    """A two-page site as a generator writes it (before the post-build step: the runtime
    named by the fences' placeholders)."""
    for rel, root in (("index.html", ""), ("a/b/index.html", "../../")):
        path = where / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(PAGE.replace("ROOT", root), encoding="utf-8")
    return where


def _run_step(site_dir: Path, *extra: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "calculators.build", str(site_dir), *extra],
                          cwd=ROOT, capture_output=True, text=True)


def test_the_step_finishes_any_generators_pages_and_is_repeatable(tmp_path: Path) -> None:
    site_dir = _tiny_site(tmp_path / "site")
    proc = _run_step(site_dir)
    assert proc.returncode == 0, proc.stderr
    deep = (site_dir / "a" / "b" / "index.html").read_text(encoding="utf-8")
    assert ROOT_PLACEHOLDER not in deep and 'href="../../other/"' in deep
    assert 'href="./other/"' in (site_dir / "index.html").read_text(encoding="utf-8")
    assert len(POLICY.findall(deep)) == 1 and "default-src *" not in deep
    assert re.search(r'src="\.\./\.\./assets/calculators/calculators\.[0-9a-f]{12}\.js"', deep)
    assert re.search(r'data-build="[0-9a-f]{12}"', deep)
    # the runtime the fences named by placeholders is filled in
    assert f'data-bundle="{bundle.bundle()[0]}"' in deep
    assert f'data-pyodide="{bundle.pyodide_version()}"' in deep
    assert f'data-runtime-bytes="{bundle.runtime_bytes()}"' in deep
    assert not any(p in deep for p in layout.RUNTIME_PLACEHOLDERS)
    # the page runs the runtime: its head can start it early, and says where the site's root is
    # (and, on a first visit too, with what the worker's start message needs: the worker's
    # hashed script from the root, the page's Pyodide version, bundle and snapshot)
    meta = re.findall(r'<meta name="tcr-runtime" content="\.\./\.\./" data-worker="([^"]*)" '
                      r'data-pyodide="([^"]*)" data-python="([^"]*)" data-snapshot="([^"]*)">', deep)
    shipped = layout.snapshot_name(bundle.bundle()[0])
    assert f'data-snapshot="{shipped}"' in deep
    assert meta == [(meta[0][0], bundle.pyodide_version(), bundle.bundle()[0], shipped)]
    assert deep.count("__tcrEarlyWorker") == 1
    assert re.fullmatch(r"assets/calculators/worker\.[0-9a-f]{12}\.js", meta[0][0])
    assert (site_dir / meta[0][0]).is_file()
    assert (site_dir / "sw.js").is_file()
    # the widgets' module comes with a page that has widgets, right after the entry module
    # (module scripts run in the page's order: after the theme's deferred bundle)
    assert len(re.findall(r'calculators\.[0-9a-f]{12}\.js" type="module"></script><script '
                          r'src="\.\./\.\./assets/calculators/widgetpage\.[0-9a-f]{12}\.js" type="module"></script>',
                          deep)) == 1
    assert deep.count("widgetpage.") == 1
    before = {p: p.read_bytes() for p in sorted(site_dir.rglob("*")) if p.is_file()}
    assert _run_step(site_dir).returncode == 0
    after = {p: p.read_bytes() for p in sorted(site_dir.rglob("*")) if p.is_file()}
    assert after == before


def test_a_page_without_widgets_gets_neither_the_runtime_nor_the_widgets_module(tmp_path: Path) -> None:
    site_dir = _tiny_site(tmp_path / "site")
    rules = site_dir / "rules" / "index.html"
    rules.parent.mkdir()
    rules.write_text(re.sub(r'<div class="calc".*?</div>\n', "", PAGE.replace("ROOT", "../")), encoding="utf-8")
    build.finish(site_dir)
    text = rules.read_text(encoding="utf-8")
    assert re.search(r'src="\.\./assets/calculators/calculators\.[0-9a-f]{12}\.js"', text)
    assert "widgetpage" not in text and "tcr-runtime" not in text
    assert verify.problems(site_dir) == []
    # and the check names a page with widgets that lacks it
    index = site_dir / "index.html"
    index.write_text(re.sub(r'<script src="[^"]*widgetpage[^"]*" type="module"></script>', "",
                            index.read_text(encoding="utf-8")), encoding="utf-8")
    assert any(f"does not load {layout.ASSET_DIR}/{layout.WIDGET_ENTRY}" in p for p in verify.problems(site_dir))


def test_the_step_fails_loudly_when_a_widget_module_is_missing(tmp_path: Path) -> None:
    site_dir = _tiny_site(tmp_path / "site")
    assets = tmp_path / "assets"
    shutil.copytree(ROOT / "calculators" / "assets", assets)
    (assets / "widgetpage.js").unlink()  # the page names it; no module imports it
    proc = _run_step(site_dir, "--assets", str(assets))
    assert proc.returncode == 1
    assert "FAILED" in proc.stderr and "assets/calculators/widgetpage.js" in proc.stderr


def test_the_step_fails_loudly_on_a_module_importing_a_missing_file(tmp_path: Path) -> None:
    site_dir = _tiny_site(tmp_path / "site")
    assets = tmp_path / "assets"
    shutil.copytree(ROOT / "calculators" / "assets", assets)
    (assets / "update.js").unlink()  # calculators.js imports it
    proc = _run_step(site_dir, "--assets", str(assets))
    assert proc.returncode == 1 and "calculators.js refers to update.js" in proc.stderr


def test_the_check_names_every_kind_of_broken_site(tmp_path: Path) -> None:
    site_dir = _tiny_site(tmp_path / "site")
    build.finish(site_dir)
    assert verify.problems(site_dir) == []
    index = site_dir / "index.html"
    text = index.read_text(encoding="utf-8")
    # what a Zensical build looks like without the step: a swallowed fence, a placeholder,
    # no policy, unhashed assets, and a widget whose bundle is missing
    broken = layout.CSP_TAG.sub("", text).replace("</body>", (
        f'<p><code>calculator\ngunplay.nope</code></p><a href="{ROOT_PLACEHOLDER}x/">x</a></body>'))
    broken = re.sub(r"calculators\.[0-9a-f]{12}\.js", "calculators.js", broken)
    index.write_text(broken, encoding="utf-8")
    for bundle_file in (site_dir / layout.ASSET_DIR).glob("python-*.zip"):
        bundle_file.unlink()
    found = "\n".join(verify.problems(site_dir))
    for expected in ("left as code", "placeholder", "0 Content-Security-Policy", "names a file the site does not have",
                     "Python bundle", "does not load"):
        assert expected in found, (expected, found)


def test_the_check_names_a_missing_first_visit_snapshot(tmp_path: Path) -> None:
    site_dir = _tiny_site(tmp_path / "site")
    build.finish(site_dir)
    shipped = list((site_dir / layout.ASSET_DIR).glob("python-*" + layout.SNAPSHOT_SUFFIX))
    bundles = list((site_dir / layout.ASSET_DIR).glob("python-*.zip"))
    assert [p.name for p in shipped] == [layout.snapshot_name(b.name) for b in bundles]
    # every widget names it, as the build named it: the page scripts never derive its name
    index = site_dir / "index.html"
    text = index.read_text(encoding="utf-8")
    assert f'data-snapshot="{shipped[0].name}"' in text
    index.write_text(text.replace(f'data-snapshot="{shipped[0].name}"', 'data-snapshot="other.snapshot.zst"'),
                     encoding="utf-8")
    assert any("names the first-visit snapshot 'other.snapshot.zst'" in p for p in verify.problems(site_dir))
    index.write_text(text, encoding="utf-8")
    shipped[0].unlink()
    assert any("first-visit snapshot" in p for p in verify.problems(site_dir))


def test_the_snapshots_name_is_written_once() -> None:
    """Only layout.snapshot_name says how the snapshot's name is made; the pages, their
    scripts and the service worker are told it by the build."""
    suffix = layout.SNAPSHOT_SUFFIX
    sources = [p for p in (layout.ROOT / "calculators").rglob("*")
               if p.suffix in (".py", ".js", ".mjs", ".template", ".j2") and "vendor" not in p.parts]
    naming = sorted(p.relative_to(layout.ROOT).as_posix() for p in sources if suffix in p.read_text(encoding="utf-8"))
    assert naming == ["calculators/layout.py"]


def test_the_first_visit_snapshot_is_pyodides_memory_and_no_file_is_fetched_ahead(site) -> None:  # type: ignore[no-untyped-def]
    """The site's snapshot (Zstandard) unpacks to a Pyodide memory snapshot (its header's second word
    is the header's length, as worker.js reads it), bigger than Pyodide's starting memory;
    the service worker neither fetches it ahead nor keeps it (the worker keeps it unpacked)."""
    (shipped,) = (site.dir / layout.ASSET_DIR).glob("python-*" + layout.SNAPSHOT_SUFFIX)
    packed = shipped.read_bytes()
    memory = zstandard.ZstdDecompressor().decompress(packed)
    header = int.from_bytes(memory[4:8], "little")
    assert 8 < header < 1 << 20 and len(memory) - header > 30 * 2**20
    # one Zstandard frame that says its size, in a window the worker's decoder moves cheaply;
    # well under what gzip, which browsers unpack themselves, would make of it (the first
    # visit's bytes: issue 44)
    frame = zstandard.get_frame_parameters(packed)
    assert frame.content_size == len(memory) and frame.window_size <= 1 << bundle.PACK_WINDOW_LOG
    assert len(packed) < 0.85 * len(gzip.compress(memory, compresslevel=9, mtime=0))
    text = (site.dir / "sw.js").read_text(encoding="utf-8")
    manifest = json.loads(re.search(r"const MANIFEST = (\{.*?\});\n", text, re.S).group(1))  # type: ignore[union-attr]
    listed = [u for key in ("files", "runtime", "immutable") for u in manifest[key]]
    assert shipped.name.endswith(manifest["packed_suffix"]) and manifest["packed_suffix"] == layout.PACKED_SUFFIX
    assert not [u for u in listed if u.endswith(manifest["packed_suffix"])]
    assert "if (key.endsWith(MANIFEST.packed_suffix)) return;" in text


def test_the_webassembly_is_also_shipped_packed_and_never_kept_packed(site) -> None:  # type: ignore[no-untyped-def]
    """Beside Pyodide's WebAssembly, the build ships it packed (what a first visit downloads,
    about a fifth fewer bytes than the host's gzip): one Zstandard frame that states its size,
    in the window the worker's decoder moves cheaply, unpacking to the file byte for byte;
    the worker is told its name and the file's hash (the one the service worker's manifest
    lists, which the worker checks before it keeps what it unpacked). The service worker
    neither lists, fetches ahead nor keeps the packed file; the file itself stays listed."""
    (folder,) = (site.dir / layout.PYODIDE_DIR).iterdir()
    wasm = (folder / "pyodide.asm.wasm").read_bytes()
    packed = (folder / ("pyodide.asm.wasm" + layout.PACKED_SUFFIX)).read_bytes()
    frame = zstandard.get_frame_parameters(packed)
    assert frame.content_size == len(wasm) and frame.window_size <= 1 << bundle.PACK_WINDOW_LOG
    assert zstandard.ZstdDecompressor().decompress(packed) == wasm
    assert len(packed) < 0.85 * len(gzip.compress(wasm, compresslevel=6, mtime=0))
    text = (site.dir / "sw.js").read_text(encoding="utf-8")
    manifest = json.loads(re.search(r"const MANIFEST = (\{.*?\});\n", text, re.S).group(1))  # type: ignore[union-attr]
    listed = [u for key in ("files", "runtime", "immutable") for u in manifest[key]]
    assert not [u for u in listed if u.endswith(layout.PACKED_SUFFIX)]
    plain = f"{layout.PYODIDE_DIR}/{folder.name}/pyodide.asm.wasm"
    assert plain in manifest["runtime"] and manifest["files"][plain] == hashlib.sha256(wasm).hexdigest()[:16]
    (worker,) = (site.dir / layout.ASSET_DIR).glob("worker.*.js")
    told = json.loads(re.search(r"const PACKED = (\{.*?\});\n", worker.read_text(encoding="utf-8")).group(1))  # type: ignore[union-attr]
    assert told == {"pyodide.asm.wasm": {"packed": "pyodide.asm.wasm" + layout.PACKED_SUFFIX,
                                         "hash": manifest["files"][plain]}}
    # the progress bar's first total counts it packed, as it moves
    sizes = bundle.runtime_sizes()
    assert sizes["pyodide.asm.wasm" + layout.PACKED_SUFFIX] == (len(packed), len(packed))
    assert bundle.runtime_bytes() == len(packed) + sizes["pyodide-lock.json"][1] + len(bundle.snapshot()[1])


def test_the_check_names_a_packed_file_that_does_not_unpack_to_its_file(tmp_path: Path) -> None:
    site_dir = _tiny_site(tmp_path / "site")
    build.finish(site_dir)
    assert verify.packed_problems(site_dir) == []
    (folder,) = (site_dir / layout.PYODIDE_DIR).iterdir()
    packed = folder / ("pyodide.asm.wasm" + layout.PACKED_SUFFIX)
    whole = packed.read_bytes()
    other = zstandard.ZstdCompressor(level=1).compress((folder / "pyodide.asm.wasm").read_bytes()[:-1] + b"\x01")
    for damaged, said in ((whole[: len(whole) // 2], "not a whole Zstandard frame"),
                          (other, "does not unpack to pyodide.asm.wasm byte for byte"),
                          (bundle.pack(b"wasm"), "its frame states 4 bytes")):
        packed.write_bytes(damaged)
        assert any(said in p for p in verify.problems(site_dir)), said
    packed.unlink()
    assert any("missing" in p for p in verify.packed_problems(site_dir))


def test_the_service_worker_lists_every_file_with_its_hash(site) -> None:  # type: ignore[no-untyped-def]
    text = (site.dir / "sw.js").read_text(encoding="utf-8")
    manifest = json.loads(re.search(r"const MANIFEST = (\{.*?\});\n", text, re.S).group(1))  # type: ignore[union-attr]
    assert manifest["build"] == re.search(r'name="tcr-build" content="([0-9a-f]+)"',  # type: ignore[union-attr]
                                          (site.dir / "index.html").read_text(encoding="utf-8")).group(1)
    assert "404.html" in manifest["files"] and "./" in manifest["files"]
    # kept on first use: what every start downloads (a start from the snapshot needs neither
    # the standard library nor the bundle: they are saved with the rest of the site)
    runtime = {u.rsplit("/", 1)[-1] for u in manifest["runtime"]}
    assert runtime == {"pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "pyodide-lock.json"}
    late = [u for u in manifest["files"] if u.endswith(("python_stdlib.zip", ".zip"))]
    assert len(late) == 2 and set(late) <= set(manifest["immutable"])
    assert set(manifest["runtime"]) <= set(manifest["immutable"])
    assert all(u.startswith("assets/") for u in manifest["immutable"])


def test_compiling_the_bundle_without_node_says_what_to_install(monkeypatch: pytest.MonkeyPatch) -> None:
    source = b"not yet compiled: " + str(id(object())).encode()
    monkeypatch.setattr(bundle.shutil, "which", lambda name: None)
    with pytest.raises(layout.BuildError, match="needs Node.js"):
        bundle.compiled(source)


def test_a_compiled_bundle_is_kept_and_reused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every build of the same sources (the generator's process, the step's) names the same
    bundle: the compiled zip is kept by its source's hash and read back."""
    monkeypatch.setattr(bundle, "COMPILED", tmp_path)
    source = io.BytesIO()  # a zip of one source file
    with zipfile.ZipFile(source, "w") as archive:
        archive.writestr("m.py", "X = 1\n")
    first = bundle.compiled(source.getvalue())
    assert [p.suffix for p in tmp_path.iterdir() if not p.name.startswith(".")] == [".zip"]
    monkeypatch.setattr(bundle.shutil, "which", lambda name: None)  # no Node: only the kept copy can answer
    assert bundle.compiled(source.getvalue()) == first
    (kept,) = tmp_path.glob("*.zip")
    assert zipfile.ZipFile(kept).namelist() == ["m.pyc"]


def test_a_kept_file_is_made_once_when_two_builds_ask_at_once(tmp_path: Path) -> None:
    """Two builds at once (the test processes of a fresh clone) get the same kept file: one
    makes it while the other waits, so neither names or ships a copy of its own (a
    snapshot made twice differs in its bytes). Older files beyond the kept count go."""
    made: list[int] = []

    def make(tmp: Path) -> Path:
        made.append(len(made))
        time.sleep(0.3)  # long enough for the other to arrive meanwhile
        out = tmp / "out"
        out.write_bytes(f"made by call {len(made)}".encode())
        return out

    for old in range(3):
        (tmp_path / f"old-{old}.gz").write_bytes(b"old")
    with ThreadPoolExecutor(2) as pool:
        got = list(pool.map(lambda _: bundle._kept(tmp_path, "new.gz", 2, make), range(2)))
    assert made == [0] and got == [b"made by call 1"] * 2
    assert len([p for p in tmp_path.iterdir() if p.is_file() and not p.name.startswith(".")]) == 2
    assert (tmp_path / "new.gz").read_bytes() == b"made by call 1"


#: restores the site's snapshot in Node as worker.js does (unpacked in chunks by the page's own
#: module, assets/unpack.js; the memory's first part XORed back
#: with a new instance's, calculators/make_snapshot.mjs), with an empty standard library and
#: no bundle written, answers requests (a JSON file of them), then imports a module the
#: snapshot lacks: the first time with no loader (it must fail cleanly), then with one
#: that writes the zips
RESTORE_IN_NODE = r"""
import fs from "node:fs";
process.argv[1] = "./this.program";
const [dir, snap, bundle, stdlib, empty, request, decoder] = process.argv.slice(2);
// unpacked as the worker does (fetchShipped): the page's own module, fed as the bytes arrive
const { unpackFrame } = await import(decoder);
const packed = new Uint8Array(fs.readFileSync(snap));
let at = 0;
const chunks = new ReadableStream({ pull(controller) {
  if (at >= packed.length) controller.close();
  else controller.enqueue(packed.slice(at, at += 65536));
} });
const bytes = await unpackFrame(chunks.getReader(), snap);
const start = new DataView(bytes.buffer, bytes.byteOffset, 8).getUint32(4, true);
const native = WebAssembly.instantiate.bind(WebAssembly);
WebAssembly.instantiate = (...args) => native(...args).then((made) => {
  const memory = Object.values(made.instance.exports).find((e) => e instanceof WebAssembly.Memory);
  const missing = Math.ceil((bytes.length - start - memory.buffer.byteLength) / 65536);
  if (missing > 0) memory.grow(missing);
  const fresh = new Uint8Array(memory.buffer);
  const base = made.instance.exports.__heap_base.value;
  for (let i = 0; i < base; i++) bytes[start + i] ^= fresh[i];
  return made;
});
const { loadPyodide } = await import(dir + "/pyodide.mjs");
const py = await loadPyodide({ indexURL: dir + "/", packages: [], _loadSnapshot: bytes, stdLibURL: empty });
const runtime = py.pyimport("calculators.runtime");
runtime.restored();
const requests = JSON.parse(fs.readFileSync(request, "utf8"));
const out = { replies: requests.map((r) => JSON.parse(runtime.handle(JSON.stringify(r)))) };
// what lean.py dropped: the functions and classes of the rules that still carry annotations
// or a docstring
out.kept = py.runPython(`import gc, types
[getattr(o, "__qualname__", "?") for o in gc.get_objects()
 if isinstance(o, (types.FunctionType, type)) and getattr(o, "__module__", "").startswith("rules_core")
 and (o.__doc__ or (o.__annotations__ if isinstance(o, types.FunctionType) else o.__dict__.get("__annotations__")))][:5]`).toJs();
const tryImport = () => { try { return py.runPython("import colorsys; colorsys.rgb_to_hls(1, 0, 0)[0]"); } catch (err) { return String(err).split("\n").filter(Boolean).pop(); } };
out.without = tryImport();
py.runPython("import calculators.lean as lean; lean.LateFiles.asked = False");
globalThis.tcrLoadRuntimeFiles = (path) => {
  out.asked = path;
  py.FS.writeFile(path, new Uint8Array(fs.readFileSync(stdlib)));
  py.FS.writeFile("/home/pyodide/rules-bundle.zip", new Uint8Array(fs.readFileSync(bundle)));
  return true;
};
out.with = tryImport();
console.log(JSON.stringify(out));
"""


def test_the_sites_snapshot_restores_without_the_zips_and_fetches_them_for_a_module_it_lacks(tmp_path: Path) -> None:
    """The site's snapshot holds every module a request needs, and what lean.py dropped
    from it (docstrings, line-number tables, annotations) no calculator misses: restored
    with an empty standard library and no bundle, every calculator answers its page's
    first request as CPython does (its result, and its figures drawn as HTML), and a roll;
    a module it lacks fails cleanly (no stale zip directory in the memory) until the
    worker's loader can write the zips, and then imports."""
    from rules_core import api

    name, data = bundle.bundle()
    shipped, packed = bundle.snapshot()
    (tmp_path / name).write_bytes(data)
    (tmp_path / shipped).write_bytes(packed)
    (tmp_path / "empty.zip").write_bytes(b"PK\x05\x06" + bytes(18))
    script = tmp_path / "restore.mjs"
    script.write_text(RESTORE_IN_NODE, encoding="utf-8")
    calculators = [(n, api.spec(n)["initial"]) for n in api.names()]
    requests = [{"op": "run", "name": n, "inputs": inputs, "uid": "c"} for n, inputs in calculators]
    requests.append({"op": "roll", "name": "gunplay.hit_chance", "inputs": api.spec("gunplay.hit_chance")["initial"]})
    (tmp_path / "requests.json").write_text(json.dumps(requests), encoding="utf-8")
    proc = subprocess.run(["node", str(script), str(bundle.pyodide_dir()), str(tmp_path / shipped),
                           str(tmp_path / name), str(bundle.pyodide_dir() / "python_stdlib.zip"),
                           str(tmp_path / "empty.zip"), str(tmp_path / "requests.json"),
                           (layout.ASSETS_SOURCE / "unpack.js").as_uri()],
                          capture_output=True, text=True, timeout=900)
    assert proc.returncode == 0, proc.stderr[-2000:]
    out = json.loads(proc.stdout.strip().splitlines()[-1])
    *replies, rolled = out["replies"]
    for (calc, inputs), reply in zip(calculators, replies, strict=True):
        assert reply["ok"] and reply["html"], (calc, reply)
        assert reply["result"] == json.loads(json.dumps(api.run(calc, inputs)["result"])), calc
    assert rolled["ok"] and rolled["html"] and rolled["log"], rolled
    assert out["kept"] == []
    assert out["without"] == "ModuleNotFoundError: No module named 'colorsys'"
    assert out["asked"] == "/lib/python314.zip" and out["with"] == 0.0
