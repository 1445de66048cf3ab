"""Rules core: the five combat subsystems as pure Python.

Runs unchanged in CPython (tests, site build, command line) and in the browser under
Pyodide. Never imports ``js``, ``pyodide``, ``mkdocs`` or ``jinja2``.
"""

__version__ = "0.1.0"
