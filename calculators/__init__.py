"""Calculator widgets: the Markdown fence, the shared result renderer, the worker bridge.

``render`` and ``runtime`` run both at build time and inside Pyodide, so this package
imports nothing at load time; ``fence``, ``build`` and the post-build modules are
build-time only.
"""
