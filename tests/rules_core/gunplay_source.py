"""The d10 source's size x range table, transcribed once by hand, independently of
``rules_core.gunplay.tables``, so the tests compare the core against the source."""

SOURCE_TABLE = {
    "tiny": (3, 6, 12, 18),
    "small": (2, 4, 8, 12),
    "medium": (1, 2, 4, 6),
    "large": (-12, -8, -4, -2),
    "huge": (-18, -12, -6, -3),
}
BANDS = ("close", "medium", "far", "maximum")
