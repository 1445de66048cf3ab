"""Make it a fair fight: for a whole fight, the value of one input that gives an outcome
the chance wanted (:mod:`rules_core.balance.search`, the search; :mod:`rules_core.balance.
calculator`, the ``<system>.balance`` calculators built on it)."""
