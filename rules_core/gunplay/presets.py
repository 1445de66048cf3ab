"""Example effective ranges for common kinds of weapon.

These are NOT rules data: the d10 ranged combat text gives no weapon list. Only two
figures come from it, as assumptions in its examples (a Glock 17 pistol at 50 m in
"Range", a rifle at 300 m in "Determining Difficulty"); the rest are round numbers chosen
by this site so a player can try the range bands quickly. A game's own weapon
statistics always win.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class WeaponExample:
    """A labelled example weapon with an assumed effective range in metres."""

    key: str
    kind: str
    effective_range_m: int
    from_rules: bool  # True when the source's own example uses this figure

    @property
    def label(self) -> str:
        note = ", as in the rules' example" if self.from_rules else ""
        return f"Example: {self.kind}, {self.effective_range_m} m{note}"


#: Example weapons, nearest first. Keys are stable (they appear in share links).
EXAMPLES: tuple[WeaponExample, ...] = (
    WeaponExample("shotgun", "shotgun", 40, False),
    WeaponExample("pistol", "pistol (Glock 17)", 50, True),
    WeaponExample("smg", "submachine gun", 100, False),
    WeaponExample("rifle", "rifle", 300, True),
    WeaponExample("marksman_rifle", "marksman rifle", 600, False),
    WeaponExample("machine_gun", "general-purpose machine gun", 800, False),
)

BY_KEY: dict[str, WeaponExample] = {w.key: w for w in EXAMPLES}

#: the choice value meaning "type the effective range yourself"
CUSTOM = "custom"
