"""Python made lean just before its memory snapshot is taken (the site's first-visit
snapshot in Node, ``calculators/make_snapshot.mjs``, and a browser's own after a normal
start, ``assets/worker.js``): a snapshot is Python's whole memory, and a phone downloads
the site's on its first visit.

:func:`prepare_snapshot` imports everything a request can need (so a restored start needs
neither the standard library's zip nor the Python bundle: the worker does not download
them), drops what no request reads (docstrings, line-number tables and annotations of
the code imported: calculations never read them, and an error is never shown as a
traceback) and the import system's caches of the zips' contents, and adds
:class:`LateFiles`, which downloads both zips the first time an import finds nothing, so
that a module the snapshot lacks still imports.
"""

from __future__ import annotations

import gc
import importlib.machinery
import sys
import types
import zipimport
from typing import Any

#: a code object whose first constant is its docstring (Python 3.14: inspect.CO_HAS_DOCSTRING)
_CO_HAS_DOCSTRING = 0x4000000
#: a built-in type (Py_TPFLAGS_IMMUTABLETYPE): its attributes cannot change
_IMMUTABLE_TYPE = 1 << 8


class LateFiles:
    """A finder placed just after the path finder: the first import that finds nothing
    asks the worker (``tcrLoadRuntimeFiles``, a function of the worker's global scope) to
    download the standard library's zip and the bundle and write them where the path
    expects them, then looks again. Asked once: after that it finds nothing itself."""

    asked = False

    @classmethod
    def find_spec(cls, name: str, path: Any = None, target: Any = None) -> Any:
        if cls.asked:
            return None
        cls.asked = True
        try:
            import js  # the worker's global scope (Pyodide); absent in Node or CPython

            load = getattr(js, "tcrLoadRuntimeFiles", None)
            if load is None or not load(_stdlib_zip()):
                return None
        except Exception:  # noqa: BLE001 - nothing to add: the import fails as it would
            return None
        forget_zips()
        return importlib.machinery.PathFinder.find_spec(name, path, target)


def _stdlib_zip() -> str:
    """The standard library's zip on the path (``/lib/python314.zip``)."""
    return next((p for p in sys.path if p.startswith("/lib/python") and p.endswith(".zip")), "")


def forget_zips() -> None:
    """Drop what the import system knows of the zips' contents: it reads them afresh.
    (Not importlib.invalidate_caches(): it imports importlib.metadata, which reads them.)"""
    sys.path_importer_cache.clear()
    zipimport._zip_directory_cache.clear()  # type: ignore[attr-defined]


def _lean_code(code: types.CodeType, done: dict[int, tuple[types.CodeType, types.CodeType]]) -> types.CodeType:
    """``code`` (and the code inside it) without its docstring and line-number table."""
    if id(code) in done:
        return done[id(code)][1]
    consts = tuple(_lean_code(c, done) if isinstance(c, types.CodeType) else c for c in code.co_consts)
    if code.co_flags & _CO_HAS_DOCSTRING and consts and isinstance(consts[0], str):
        consts = (None, *consts[1:])
    lean = code.replace(co_consts=consts, co_linetable=b"")
    done[id(code)] = (code, lean)  # the old one is kept alive meanwhile: ids stay unique
    return lean


#: where a class or module keeps its annotations (Python 3.14: the function that makes them,
#: and what it made; or, under ``from __future__ import annotations``, the dict itself)
_ANNOTATIONS = ("__annotate_func__", "__annotations_cache__", "__annotate__", "__annotations__")


def _strip() -> None:
    """Docstrings, line-number tables and annotations of every function, class and module,
    gone. Annotations are read when a class is made (dataclasses, NamedTuple, Protocol:
    all made by now); a request never reads them again, and a function without them still
    has its signature (icepool reads the parameters only)."""
    done: dict[int, tuple[types.CodeType, types.CodeType]] = {}
    for obj in gc.get_objects():
        if isinstance(obj, types.FunctionType):
            if sys.version_info >= (3, 14):
                obj.__annotate__ = None  # type: ignore[attr-defined]
            obj.__annotations__ = None  # type: ignore[assignment]  # None: {} when asked
            obj.__code__ = _lean_code(obj.__code__, done)
            obj.__doc__ = None
    for obj in gc.get_objects():
        if isinstance(obj, type | types.ModuleType):
            try:
                obj.__doc__ = None
            except (AttributeError, TypeError):
                pass  # a built-in type's docstring lives in the WebAssembly's data
            if obj is not sys and (isinstance(obj, types.ModuleType) or not obj.__flags__ & _IMMUTABLE_TYPE):
                own = vars(obj)
                for name in _ANNOTATIONS:
                    if name in own:
                        try:
                            delattr(obj, name)
                        except (AttributeError, TypeError):
                            pass
    done.clear()


def prepare_snapshot() -> None:
    """Everything a request needs, imported and read; the rest dropped (see the module)."""
    from calculators import runtime
    from rules_core.sucs import presets

    runtime.prepare()
    presets.presets()  # reads a data file of the bundle, which a restored start lacks
    _strip()
    if LateFiles not in sys.meta_path:
        finders = sys.meta_path
        at = next((i + 1 for i, f in enumerate(finders) if f is importlib.machinery.PathFinder), len(finders))
        finders.insert(at, LateFiles)
    forget_zips()
    gc.collect()
