"""SUCS, the Small Unit Combat System (CC BY-NC 3.0)."""
