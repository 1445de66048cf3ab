"""GURPS Heroic Combat data (source: "Heroic Combat: Iteration 1").

Everything numeric the rules use lives here as data, citing the part of the source it
comes from; the site renders its reference tables from these values. The source lost the
names of the eight combat tactics in extraction: the names below are the project's (see
the Rulings and errata page, "Names of the combat tactics").
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from fractions import Fraction

#: Length of a round in seconds (source: round sequence and its note on 20 seconds).
ROUND_SECONDS = 20

#: Default Speed Factor, and the one for unwieldy weapons (source: Speed Factor).
DEFAULT_SF = 4
UNWIELDY_SF = 6


@dataclass(frozen=True)
class Tactic:
    """One combat tactic (source: Combat Tactics, the eight stat blocks in order).

    ``melee``/``ranged`` are ``None`` when the tactic allows no attacks of that kind.
    ``ranged_moving`` is True when moving more than Move x 2 yards costs the worse of
    -2 or the weapon's Bulk on ranged attacks; ``ranged_adds_acc`` marks the tactic whose
    ranged bonus is +2 plus the weapon's Accuracy.
    """

    key: str
    name: str
    movement: str
    move_multiple: int
    melee: int | None
    ranged: int | None
    defense: int
    ranged_moving: bool = False
    ranged_adds_acc: bool = False
    note: str = ""


TACTICS: tuple[Tactic, ...] = (
    Tactic("charge", "Charge", "Up to Move x 10, only straight at the enemy", 10, 4, 0, -4),
    Tactic("offensive", "Offensive", "Up to Move x 5", 5, 2, 0, -2, ranged_moving=True),
    Tactic("balanced", "Balanced", "Up to Move x 5", 5, 0, 0, 0, ranged_moving=True),
    Tactic("defensive", "Defensive", "Up to Move x 4", 4, -2, -2, 2, ranged_moving=True),
    Tactic("all_out_defensive", "All-Out Defensive",
           "Up to Move x 3 (Move x 2 when withdrawing)", 3, -4, -4, 4, ranged_moving=True,
           note="The only tactic that allows a withdrawal from melee without a free attack."),
    Tactic("aimed_shooting", "Aimed Shooting", "Move x 2", 2, -2, 2, -2, ranged_adds_acc=True,
           note="Fast-reloading weapons fire at most 2 shots (3 with a Fast-Draw success)."),
    Tactic("hold_position", "Hold Position", "Up to Move x 1", 1, 0, 0, 2),
    Tactic("retreat", "Retreat", "Up to Move x 10, only away from the enemy", 10, None, None, -4,
           note="No attacks, and no actions taken in place of attacking or moving. Leaving a "
                "melee gives each foe you were locked with a free attack."),
)

TACTIC_BY_KEY: dict[str, Tactic] = {t.key: t for t in TACTICS}


# --- numerical superiority (source: Multiple Attackers, step 2) -------------------------

#: Skill bonus by attackers : defenders. Each row is (upper limit of the ratio, bonus);
#: a ratio belongs to the first row whose limit it does not exceed ("up to 1:1", ">1:1 to
#: 1.5:1", ...). Past 7:1 the bonus is +16.
RATIO_BONUS: tuple[tuple[Fraction, int], ...] = (
    (Fraction(1), 0),
    (Fraction(3, 2), 2),
    (Fraction(2), 4),
    (Fraction(3), 6),
    (Fraction(4), 8),
    (Fraction(5), 10),
    (Fraction(6), 12),
    (Fraction(7), 14),
)
RATIO_BONUS_MAX = 16

#: Hit multiplier bands as printed: (last attacker count of the band, multiplier).
#: The source calls the table open-ended: it is the Size and Speed/Range Table (p. B550)
#: read with attackers for yards, so the bands continue 31-50 x8, 51-70 x9, 71-100 x10...
PRINTED_MULTIPLIER: tuple[tuple[int, int], ...] = (
    (2, 1), (3, 1), (5, 2), (7, 3), (10, 4), (15, 5), (20, 6), (30, 7),
)

#: The Size and Speed/Range progression of linear measurements: 1, 1.5, 2, 3, 5, 7 then x10.
_PROGRESSION = (Fraction(1), Fraction(3, 2), Fraction(2), Fraction(3), Fraction(5), Fraction(7))


def multiplier_band_tops() -> Iterator[int]:
    """Upper attacker counts of the x1, x2, x3... bands: 3, 5, 7, 10, 15, 20, 30, 50, 70..."""
    decade = 1
    while True:
        for mantissa in _PROGRESSION:
            value = mantissa * decade
            if value >= 3:
                yield int(value)
        decade *= 10


# --- ranged attacks (source: Ranged Attacks) --------------------------------------------

#: Most shots per round by reload class (source: step 1, Determine the number of shots).
SHOTS_FAST_RELOAD = 3
SHOTS_FAST_RELOAD_AIMED = 2
FAST_DRAW_EXTRA_SHOT = 1
SHOTS_SLOW_RELOAD = 1

#: Bonus per shot after the first at the same target (source: step 2, Declare the targets).
EXTRA_SHOT_BONUS = 2

#: Bonus for firing at a group of identical foes: (smallest group size, bonus), capped at +4.
GROUP_BONUS: tuple[tuple[int, int], ...] = ((5, 1), (9, 2), (13, 3), (17, 4))

#: Penalty for firing at a target locked in melee, and the 3d roll for a stray hit.
INTO_MELEE_PENALTY = -4
STRAY_ROLL_MAX = 9

#: Range bands (source: Range penalties, after GURPS Action 2): key, name, last yard
#: (None: no upper end), penalty (None: the weapon's Bulk applies instead).
RANGE_BANDS: tuple[tuple[str, str, int | None, int | None], ...] = (
    ("close", "Close (melee range)", 2, None),
    ("short", "Short", 20, -3),
    ("medium", "Medium", 100, -7),
    ("long", "Long", 500, -11),
    ("extreme", "Extreme", None, -15),
)

#: Worst penalty a free attack on a retreating foe takes for his higher Basic Move
#: (source: Retreat).
FREE_ATTACK_MAX_PENALTY = -4


# --- morale (source: Morale) ------------------------------------------------------------

#: A morale roll of this total or more means the side flees or surrenders.
MORALE_BREAK = 13

#: Modifiers of the morale roll (source: Morale, the list of modifiers).
MORALE_HP_HALF = 2
MORALE_HP_TWO_THIRDS = 5
MORALE_LOST_HALF = 2
MORALE_LOST_TWO_THIRDS = 5
MORALE_OUTNUMBER = -2
MORALE_OUTNUMBER_DOUBLE = -5
MORALE_CORNERED = -5
MORALE_FEARLESSNESS_PER_LEVEL = -1

#: Fatigue is assessed at the end of every third round (source: Fatigue), each time as for
#: fighting a whole battle (p. B426): 1 FP plus the encumbrance level (0 None ... 4
#: Extra-Heavy), plus the heat cost.
FATIGUE_EVERY = 3
ENCUMBRANCE = ("None", "Light", "Medium", "Heavy", "Extra-Heavy")
FATIGUE_HEAT: dict[str, tuple[str, int]] = {
    "normal": ("Not hot", 0),
    "hot": ("A hot day", 1),
    "hot_heavy": ("A hot day, in plate, an overcoat or the like", 2),
}

# --- incapacitation (source: Injuries; success rolls, p. B348) ----------------------------

#: A HT roll of this or less always succeeds, of this or more always fails.
HT_ALWAYS_SUCCEEDS = 4
HT_ALWAYS_FAILS = 17

#: Most attackers the site lets reach one defender in melee by default: the six hexes
#: around a figure (a ruling; the source asks for a limit without giving one). The
#: calculators take another number for a large foe, up to REACH_PER_DEFENDER_LIMIT.
MAX_REACH_PER_DEFENDER = 6
REACH_PER_DEFENDER_LIMIT = 60


# --- actions (source: Actions) ----------------------------------------------------------

#: Action classes: key -> (name, seconds).
ACTION_CLASSES: dict[str, tuple[str, str]] = {
    "short": ("Short", "1-2 seconds"),
    "medium": ("Medium", "3-4 seconds"),
    "long": ("Long", "5-10 seconds"),
}

#: Actions that cost nothing when they come with an attack with the same weapon (source:
#: Actions, the exceptions): they are part of that attack.
PART_OF_ATTACK: dict[str, str] = {
    "reload_2": "reloading a weapon of 2 seconds or less between its shots",
    "ready_unwieldy": "readying an unwieldy weapon after its own attack",
    "grip": "choosing grip and reach as the attack starts",
}

#: Attack penalty when an action is squeezed into an attack.
ACTION_IN_ATTACK_PENALTY = -6

#: The source's list of typical actions: key -> (label, class).
ACTIONS: dict[str, tuple[str, str]] = {
    "ready_belt": ("Ready an item from a belt, pocket, scabbard or back sling", "short"),
    "door": ("Open or close a door", "short"),
    "draw": ("Draw or sheathe a weapon", "short"),
    "hand_item": ("Pass an item to, or take one from, someone within reach", "short"),
    "ready_light_shield": ("Ready a cloak or shield of DB 0-2", "short"),
    "ready_unready": ("Ready a weapon left unready by an attack or a critical miss", "short"),
    "posture": ("Change posture by one step", "short"),
    "open_box": ("Open an unlocked box, case or pack", "short"),
    "read_note": ("Read a note of about a sentence", "short"),
    "potion": ("Swallow a pill or potion already in hand", "short"),
    "light": ("Light a candle, fuse, match, torch or the like already in hand", "short"),
    "pocket": ("Drop a small item into a pocket", "short"),
    "reload_2": ("Reload a weapon that takes up to 2 seconds", "short"),
    "ready_unwieldy": ("Ready an unwieldy weapon again after attacking with it", "short"),
    "grip": ("Change grip or reach", "short"),
    "ready_heavy_shield": ("Ready a shield of DB 3-4", "medium"),
    "pick_up": ("Pick something up from the ground while standing, and straighten up", "medium"),
    "lift_heavy": ("Pick up a heavy object in both hands (up to 8 x Basic Lift)", "medium"),
    "reload_4": ("Reload a weapon that takes up to 4 seconds", "medium"),
    "find_item": ("Find a loose, unhidden item in a box, case or pack", "long"),
    "reload_10": ("Reload a weapon that takes up to 10 seconds", "long"),
    "wait": ("Wait for a stated trigger", "long"),
}
