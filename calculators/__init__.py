"""Calculator widgets, in layers by when their code runs (imports run downward only;
``tests/test_layers.py`` checks it):

- in the browser and for the build's first paint: ``render`` (result HTML) and
  ``runtime`` (the worker's Python side), shipped in the Python bundle, so this package
  imports nothing at load time;
- shared by the build: ``layout`` (where things go in the site, the marks in its pages,
  ``BuildError``) and ``bundle`` (the Python bundle and the pinned Pyodide);
- inside the generator: ``fence`` (the Markdown fences) and ``glossary``;
- after the generator: ``build`` (the post-build step, with ``hashed``, ``pages``,
  ``service_worker`` and ``verify``), ``generate`` (a generator, then the step) and
  ``serve``.
"""
