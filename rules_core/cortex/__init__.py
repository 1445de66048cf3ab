"""Cortex Prime Small Unit Combat (Parts I and II)."""
