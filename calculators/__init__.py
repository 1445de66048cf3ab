"""Calculator widgets: the Markdown fence, the shared result renderer, the worker bridge.

``render`` and ``runtime`` run both at build time and inside Pyodide, so this package
imports nothing at load time; ``fence`` and ``hooks`` are build-time only.
"""
