"""Whole SUCS fights played quickly, for a simulation of thousands of them: the same turn
as :func:`rules_core.sucs.turn.turn` walks (initiative, activations in turn, reorganizing,
the choice of targets, attacks, the two-roll rule, return strikes in melee, a side's loss
of its commanders), on plain lists of small integers that are reset, not rebuilt, for
each fight.

Each unit is one integer while the fight is played: -1 when destroyed, else
``2 * markers + rolls survived towards the next marker`` (0 or 1), so a unit's place among
identical units (the most markers first, then a roll towards the next) is the order of its
integer, and a roll that might possibly have damaged it adds exactly 1 (the second of two
turns into a marker).

Every attack is drawn at its exact chance: its outcomes are the fight's own exact odds
(:meth:`rules_core.sucs.fight.Fight.odds`, every face of the dice counted), merged into
what they do to the unit hit and kept as a cumulative table of whole numbers, once per
attacker, target, modifier and command for the fight; a uniform whole number below the
table's total (random bits, redrawn when past it: no rounding) picks the outcome with one
bisection, or, for a unit acting straight away (no marker left, one weapon, not in
contact), by looking up the outcome of each number the bits may give (the same numbers,
the same outcomes). The initiative roll is drawn the same way from its exact chance.

Whom a unit aims at is kept per enemy kind as units change (the unit of the kind with the
most markers, then a roll towards the next, then the lowest place), so a turn's attack
costs about the same whatever the number of units.

The tests check this against the exact turn walk (:meth:`Fight.step`) on small fights
under every reading (tests/rules_core/test_sucs_quick.py).
"""

from __future__ import annotations

import random
from bisect import bisect_right
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from rules_core.sucs.turn import choose_attack, penalty, queues, reorganized

if TYPE_CHECKING:
    from rules_core.sucs.fight import Fight, Round
    from rules_core.sucs.turn import State

#: what an attack's outcome does to the unit hit, as the turn's ``apply_hit`` reads it
NOTHING, NEAR, SUPPRESSED, DESTROYED = 0, 1, 2, 3

#: a destroyed unit's place in a turn's queue: after every unit standing
DEAD = 1 << 512
#: one attack's table: (bits to draw, total, cumulative ways of each effect, the effect of
#: an attack, the effect of a return strike (which never counts towards the two rolls),
#: whether it can hurt at all)
Drawable = tuple[int, int, tuple[int, ...], tuple[int, ...], tuple[int, ...], bool]
#: a unit's aim at one modifier: (the enemies in blocks of equal standing, its table on
#: each enemy, the blocks as the enemy's kinds or None)
Aim = tuple[list[list[int]], list[Drawable], "list[int] | None"]
#: a unit's aim when it acts straight away: (the enemy's kinds in the order aimed at, its
#: attack on each enemy as (bits to draw, the effect of each number drawn, -1 past the
#: table's total), the units one attack may hit)
Straight = tuple[list[int], list[tuple[int, list[int]]], int]
#: the most bits an attack's table is drawn with by a lookup of each number (6^5 ways, a
#: stealthy target's, take 13)
LOOKUP_BITS = 16

#: one fight played: (max rounds, generator) -> (the end state, turns played)
Player = Callable[[int, random.Random], "tuple[Round, int]"]


def drawable(fight: Fight, side: str, i: int, t: int, bonus: int, lost: bool,
             weapon: int = 0) -> Drawable:
    """Unit ``side`` i's attack on enemy t with its weapon ``weapon`` as a table to draw
    from: the exact odds' events (ways out of every face of the dice) merged by what they
    do to the target."""
    events, _kill, hurt, threat = fight.odds(side, i, t, bonus, lost, weapon)
    counted = threat and fight.rules.two_roll_rule
    ways: dict[int, int] = {}
    for (outcome, rolled), w, _sixes in events:
        effect = (DESTROYED if outcome == "destroyed" else SUPPRESSED if outcome == "suppressed"
                  else NEAR if rolled and counted else NOTHING)
        ways[effect] = ways.get(effect, 0) + w
    total = sum(ways.values())
    effects = sorted(ways)
    cumulative, acc = [], 0
    for e in effects:
        acc += ways[e]
        cumulative.append(acc)
    return (total.bit_length(), total, tuple(cumulative), tuple(effects),
            tuple(NOTHING if e == NEAR else e for e in effects), hurt)


def player(fight: Fight) -> Player:
    """The fight's quick player, made once and kept on the fight with its tables."""
    known: Player | None = getattr(fight, "quick_player", None)
    if known is None:
        known = _make_player(fight)
        fight.quick_player = known  # type: ignore[attr-defined]
    return known


def _make_player(fight: Fight) -> Player:  # noqa: C901 (one turn, kept in one place for speed)
    rules = fight.rules
    melee = rules.melee
    hopeless = rules.hopeless_reorganizes
    likeliest = rules.targeting == "likeliest"
    # a turn's queue in another order than the least suppressed first, and a unit with a
    # choice of weapons, are found by the turn walk's own functions on the state as
    # tuples (:func:`queues`, :func:`choose_attack`): off the path of the default order and
    # of units with one weapon
    own_order = rules.order != "least_suppressed"
    names = ("a", "b")
    units = [fight.units["a"], fight.units["b"]]
    sizes = [len(u) for u in units]
    armed = [[bool(u.alt_weapons) for u in units[s]] for s in (0, 1)]
    acts_once = [[u.one_action for u in units[s]] for s in (0, 1)]
    aims = [[u.targets for u in units[s]] for s in (0, 1)]
    leaders = [[i for i, u in enumerate(units[s]) if u.commander] for s in (0, 1)]
    is_leader = [[u.commander for u in units[s]] for s in (0, 1)]
    # a side with no commander to lose is leaderless from the start, or never
    never_led = [not leaders[s] and rules.no_commander == "leaderless" for s in (0, 1)]
    start = [[2 * fight.markers[s]] * sizes[s] for s in (0, 1)]
    # a turn's queue: units standing sorted by (kind's rank, their integer, place); each
    # unit's place in it is kept as one whole number in that order, the place in the low
    # bits (a unit's integer changed by d changes it by d << place_bits), DEAD when destroyed
    place_bits = max(sizes).bit_length()
    place_mask = (1 << place_bits) - 1
    start_order = [[(fight.group_rank(names[s], i) << (place_bits + 40))
                    + (start[s][i] << place_bits) + i for i in range(sizes[s])] for s in (0, 1)]
    # each side's kinds of interchangeable units, in the order of their rank, and each
    # unit's kind
    group_of = [[fight.group_rank(names[s], i) for i in range(sizes[s])] for s in (0, 1)]
    members: list[list[list[int]]] = [[[] for _ in range(max(group_of[s]) + 1)]
                                      for s in (0, 1)]
    for s in (0, 1):
        for i in range(sizes[s]):
            members[s][group_of[s][i]].append(i)
    # 2 * markers + acting once -> (markers reorganized away, attacks after)
    reorganize: dict[int, tuple[int, bool]] = {}

    # an attack's odds read only the two units' numbers (:meth:`Fight.spec`): units with
    # the same numbers share their aims and tables
    kind = [[u.stats for u in units[s]] for s in (0, 1)]
    # per side, per unit: {2 * modifier + lost: its aim}; an aim is (the enemies in blocks
    # of equal standing, the table of its attack on each enemy, and the blocks as the
    # enemy's kinds (:data:`best`) when each block is a whole kind, else None)
    shared: dict[Any, dict[int, Aim]] = {}
    aimed = [[shared.setdefault((s, k), {}) for k in kind[s]] for s in (0, 1)]
    made: dict[Any, Drawable] = {}

    def aim(s: int, i: int, bonus: int, lost: bool) -> Aim:
        """Unit ``s`` i's targets in blocks (:func:`rules_core.sucs.turn.choose_targets`:
        the likeliest to destroy, then the order of kinds; within a block the most markers,
        then the lowest place), its attack's table on each, at this modifier, and the
        blocks' kinds (None when a block is not a whole kind)."""
        key = 2 * bonus + lost
        known = aimed[s][i].get(key)
        if known is None:
            e = 1 - s
            tabs = []
            for t in range(sizes[e]):
                k = (s, kind[s][i], kind[e][t], key)
                tab = made.get(k)
                if tab is None:
                    tab = made[k] = drawable(fight, names[s], i, t, bonus, lost)
                tabs.append(tab)

            def rank_of(t: int) -> tuple[Any, int]:
                kill = fight.odds(names[s], i, t, bonus, lost)[1] if likeliest else 0
                return (-kill, fight.group_rank(names[e], t))
            blocks: list[list[int]] = []
            last = None
            for t in sorted(range(sizes[e]), key=lambda t: (rank_of(t), t)):
                if rank_of(t) != last:
                    blocks.append([])
                    last = rank_of(t)
                blocks[-1].append(t)
            kinds: list[int] | None = [group_of[e][block[0]] for block in blocks]
            if any(block != members[e][g] for block, g in zip(blocks, kinds or ())):
                kinds = None
            known = aimed[s][i][key] = (blocks, tabs, kinds)
        return known

    def first_of(n: int) -> tuple[bool, tuple[int, int, int]]:
        """Turn ``n``'s charge, and who acts first: (the side always, or -1; side A's ways
        out of the whole)."""
        charge, firsts = fight.openings(n)
        if len(firsts) == 1:
            return charge, (names.index(firsts[0][0]), 0, 1)
        chance = dict(firsts)["a"]
        return charge, (-1, chance.numerator, chance.denominator)

    # the later turns' opening, and the first turn's (a melee's charge)
    openings = (first_of(2), first_of(1))

    # the fight being played: each unit's integer, units standing, commanders standing and
    # whether the side has lost them all, per side (reset for each fight, not rebuilt)
    st = [start[0][:], start[1][:]]
    peek = [st[0].__getitem__, st[1].__getitem__]
    order = [start_order[0][:], start_order[1][:]]
    alive = [0, 0]
    chiefs = [0, 0]
    lost_now = [False, False]
    # per side, per kind: the unit of that kind an enemy aims at (the most markers, then
    # a roll towards the next, then the lowest place; -1 when none stands), kept as units
    # change (:func:`raised`, :func:`lowered`)
    start_best = [[g[0] for g in members[s]] for s in (0, 1)]
    best = [start_best[0][:], start_best[1][:]]

    def raised(e: int, t: int) -> None:
        """Unit ``e`` t standing has gained markers or a roll: the one aimed at of its kind?"""
        bst, them = best[e], st[e]
        g = group_of[e][t]
        b = bst[g]
        if b != t and (them[t] > them[b] or them[t] == them[b] and t < b):
            bst[g] = t

    def lowered(e: int, t: int) -> None:
        """Unit ``e`` t has lost markers, or been destroyed: its kind's one aimed at anew
        if it was that one."""
        g = group_of[e][t]
        if best[e][g] == t:
            group, them = members[e][g], st[e]
            b = max(group, key=them.__getitem__) if len(group) > 1 else t
            best[e][g] = b if them[b] >= 0 else -1

    def hit(e: int, t: int, tab: Drawable, counts: bool, getrandbits: Callable[[int], int]
            ) -> None:
        """An attack (``counts``) or a return strike on unit ``e`` t, drawn."""
        bits, total, cumulative, on_attack, on_strike, _ = tab
        r = getrandbits(bits)
        while r >= total:
            r = getrandbits(bits)
        effect = (on_attack if counts else on_strike)[bisect_right(cumulative, r)]
        if effect == DESTROYED:
            destroyed(e, t)
        elif effect:  # a marker (+2), or one roll towards the next (+1)
            st[e][t] += effect
            order[e][t] += effect << place_bits
            raised(e, t)

    def destroyed(e: int, t: int) -> None:
        """Unit ``e`` t destroyed."""
        st[e][t] = -1
        order[e][t] = DEAD
        alive[e] -= 1
        if is_leader[e][t]:
            chiefs[e] -= 1
            lost_now[e] = not chiefs[e]
            plans[e] = directs(e)
        lowered(e, t)

    def in_contact(s: int, i: int, targets: list[int], weapon: int, charge: bool,
                   spent: bool, getrandbits: Callable[[int], int]) -> None:
        """A melee activation's attacks with its weapon ``weapon`` (each at the markers the
        unit has then), each followed by the return strikes: from every enemy in a charge,
        else from the one attacked; a strike that cannot hurt is not made
        (:func:`rules_core.sucs.turn.return_strike`)."""
        e = 1 - s
        own, them = st[s], st[e]
        for t in targets:
            if not spent and own[i] >= 0 and them[t] >= 0:
                bonus = penalty(own[i] >> 1, rules, True)
                tab = (armed_tabs(s, i, bonus, lost_now[s], weapon) if weapon else
                       aim(s, i, bonus, lost_now[s])[1])[t]
                hit(e, t, tab, True, getrandbits)
            for b in ([b for b in range(sizes[e]) if them[b] >= 0] if charge else (t,)):
                if them[b] < 0 or own[i] < 0:
                    continue
                tab = aim(e, b, penalty(them[b] >> 1, rules, True), lost_now[e])[1][i]
                if tab[5]:
                    hit(s, i, tab, False, getrandbits)
                    them[b] += 2
                    order[e][b] += 2 << place_bits
                    raised(e, b)

    def pick(blocks: list[list[int]], them: list[int], peek: Callable[[int], int]) -> int:
        """The one enemy a unit aims at: the first block's standing unit with the most
        markers (the lowest place among equals), or -1 when none stands."""
        for block in blocks:
            t = max(block, key=peek) if len(block) > 1 else block[0]
            if them[t] >= 0:
                return t
        return -1

    def first(kinds: list[int], e: int) -> int:
        """:func:`pick` of an aim whose blocks are whole kinds: the first kind's unit
        aimed at that stands."""
        bst = best[e]
        for g in kinds:
            t = bst[g]
            if t >= 0:
                return t
        return -1

    def activate(side: int, i: int, charge: bool, getrandbits: Callable[[int], int]) -> None:
        """:func:`rules_core.sucs.turn.activate`, one result drawn."""
        own, them = st[side], st[1 - side]
        lost = lost_now[side]
        one = acts_once[side][i] or lost
        spent = charge and one
        markers = own[i] >> 1
        if not spent and (markers or one):
            how = reorganize.get(2 * markers + one)
            if how is None:
                how = reorganize[2 * markers + one] = reorganized(markers, rules, one)
            removed, attacks = how
            if removed:
                markers -= removed
                own[i] -= 2 * removed
                order[side][i] -= removed << (place_bits + 1)
                lowered(side, i)
            if not attacks:
                return
        bonus = penalty(markers, rules, melee) if markers else 0
        blocks, tabs, kinds = aim(side, i, bonus, lost)
        want = aims[side][i]
        weapon = 0
        if armed[side][i]:  # a choice of weapons: the turn walk's own choice
            weapon, targets = choose_attack(fight, as_state(), names[side], i, bonus)
            tabs = armed_tabs(side, i, bonus, lost, weapon)
        elif want == 1:
            t = pick(blocks, them, peek[1 - side]) if kinds is None else first(kinds, 1 - side)
            targets = [t] if t >= 0 else []
        else:
            targets = []
            bst = best[1 - side]
            for n, block in enumerate(blocks):
                if kinds is not None and bst[kinds[n]] < 0:
                    continue  # none of the kind stands
                # the most markers first, then the lowest place (a stable sort)
                standing = sorted([t for t in block if them[t] >= 0], key=them.__getitem__,
                                  reverse=True)
                targets += standing[:want - len(targets)]
                if len(targets) == want:
                    break
        if targets and markers and not spent and hopeless and not tabs[targets[0]][5]:
            own[i] -= 2  # no hope: reorganizes another marker instead
            order[side][i] -= 2 << place_bits
            lowered(side, i)
        elif melee:
            in_contact(side, i, targets[:1] if spent else targets, weapon, charge, spent,
                       getrandbits)
        else:
            for t in targets:
                if them[t] >= 0:
                    hit(1 - side, t, tabs[t], True, getrandbits)

    def volley(e: int, kinds: list[int], draws: list[tuple[int, list[int]]], want: int,
               getrandbits: Callable[[int], int]) -> None:
        """A unit with no marker whose attack may hit ``want`` enemies, acting straight
        away: :func:`activate`'s targets (in the order of the kinds aimed at, within a kind
        the most markers first, then the lowest place) and attacks, each drawn from its
        lookup."""
        them, bst, groups = st[e], best[e], members[e]
        targets: list[int] = []
        for g in kinds:
            b = bst[g]
            if b < 0:
                continue  # none of the kind stands
            group = groups[g]
            if len(group) == 1 or want - len(targets) == 1:
                targets.append(b)  # the first of the kind's units standing, in that order
            else:
                standing = sorted([t for t in group if them[t] >= 0], key=them.__getitem__,
                                  reverse=True)
                targets += standing[:want - len(targets)]
            if len(targets) == want:
                break
        for t in targets:
            if them[t] >= 0:
                bits, effects = draws[t]
                effect = effects[getrandbits(bits)]
                while effect < 0:
                    effect = effects[getrandbits(bits)]
                if effect == DESTROYED:
                    destroyed(e, t)
                elif effect:
                    them[t] += effect
                    order[e][t] += effect << place_bits
                    raised(e, t)

    def as_state() -> State:
        """The fight as the turn walk holds it."""
        return (tuple(None if c < 0 else (c >> 1, c & 1) for c in st[0]),
                tuple(None if c < 0 else (c >> 1, c & 1) for c in st[1]))

    def armed_tabs(s: int, i: int, bonus: int, lost: bool, weapon: int) -> list[Drawable]:
        """Unit ``s`` i's attack with its weapon ``weapon`` on each enemy, as tables."""
        e = 1 - s
        tabs = []
        for t in range(sizes[e]):
            k = (s, kind[s][i], kind[e][t], 2 * bonus + lost, weapon)
            tab = made.get(k)
            if tab is None:
                tab = made[k] = drawable(fight, names[s], i, t, bonus, lost, weapon)
            tabs.append(tab)
        return tabs

    def direct(s: int, lost: bool) -> list[Straight | None]:
        """Side ``s``'s units' aims when they act straight away with no marker (:func:`play`:
        one weapon, not in contact), in an army that has its commanders (or has ``lost``
        them), where the aim's blocks are whole kinds (as they are unless two units of one
        kind differ in their odds): (the kinds in the order aimed at, the attack on each
        enemy as (bits, the effect of each number drawn: :func:`lookup`), the units one
        attack may hit); else None."""
        out: list[Straight | None] = []
        for i in range(sizes[s]):
            made = None
            if not (melee or armed[s][i]):
                blocks, tabs, kinds = aim(s, i, 0, lost)
                if kinds is not None and all(tab[0] <= LOOKUP_BITS for tab in tabs):
                    made = (kinds, [(tab[0], lookup(tab)) for tab in tabs], aims[s][i])
            out.append(made)
        return out

    looked: dict[Any, list[int]] = {}

    def lookup(tab: Drawable) -> list[int]:
        """An attack's table as the effect of each whole number its bits may draw, -1 past
        its total (drawn again, as :func:`hit` does): the same effect for the same number."""
        bits, total, cumulative, on_attack, _, _ = tab
        key = (bits, total, cumulative, on_attack)
        known = looked.get(key)
        if known is None:
            known, before = [], 0
            for upto, effect in zip(cumulative, on_attack):
                known += [effect] * (upto - before)
                before = upto
            known += [-1] * ((1 << bits) - total)
            looked[key] = known
        return known

    # per whether the army has lost its commanders, per side (made when first needed)
    direct_of: list[list[list[Straight | None] | None]] = [[None, None], [None, None]]

    def directs(s: int) -> list[Straight | None]:
        """Side ``s``'s aims straight away as its army stands (commanders lost or not)."""
        lost = lost_now[s]
        known = direct_of[lost][s]
        if known is None:
            known = direct_of[lost][s] = direct(s, lost)
        return known

    # each side's aims straight away now
    plans: list[list[Straight | None]] = [[], []]

    # a unit's integer as the turn walk holds it: None when destroyed, else (markers, a
    # roll towards the next)
    cell = _Cells().__getitem__

    def play(max_rounds: int, rng: random.Random) -> tuple[Round, int]:
        getrandbits = rng.getrandbits
        for s in (0, 1):
            st[s][:] = start[s]
            order[s][:] = start_order[s]
            alive[s], chiefs[s], lost_now[s] = sizes[s], len(leaders[s]), never_led[s]
            best[s][:] = start_best[s]
            plans[s] = directs(s)
        played = 0
        while played < max_rounds and alive[0] and alive[1]:
            played += 1
            charge, (fixed, a_ways, ways) = openings[played == 1]
            if fixed < 0:  # the initiative drawn (:func:`rules_core.solver.below`)
                bits = ways.bit_length()
                r = getrandbits(bits)
                while r >= ways:
                    r = getrandbits(bits)
                side = 0 if r < a_ways else 1
            else:
                side = fixed
            if own_order:
                qa, qb = map(list, queues(fight, as_state()))  # type: ignore[arg-type]
            else:
                qa, qb = sorted(order[0]), sorted(order[1])  # the destroyed last
            ka, kb, na, nb = 0, 0, alive[0], alive[1]
            sa, sb = st
            while True:  # the turn's activations, the sides in turn
                # the side's next unit standing; a side with none passes
                if side:
                    while kb < nb and sb[qb[kb] & place_mask] < 0:
                        kb += 1
                    if kb < nb:
                        i, own = qb[kb] & place_mask, sb
                        kb += 1
                    else:
                        while ka < na and sa[qa[ka] & place_mask] < 0:
                            ka += 1
                        if ka == na:
                            break
                        side, i, own = 0, qa[ka] & place_mask, sa
                        ka += 1
                else:
                    while ka < na and sa[qa[ka] & place_mask] < 0:
                        ka += 1
                    if ka < na:
                        i, own = qa[ka] & place_mask, sa
                        ka += 1
                    else:
                        while kb < nb and sb[qb[kb] & place_mask] < 0:
                            kb += 1
                        if kb == nb:
                            break
                        side, i, own = 1, qb[kb] & place_mask, sb
                        kb += 1
                straight = plans[side][i]
                if straight is not None:
                    # a unit with one weapon, not in contact, left with no marker once it
                    # has reorganized: straight to its attack (the rest of :func:`activate`
                    # does nothing for it: with one action and no marker it attacks); with
                    # one target, at the unit its first kind standing aims at
                    # (:func:`first`), drawn (:func:`hit`); else :func:`volley`
                    c = own[i]
                    if c >= 2:  # with markers, :func:`activate`'s reorganizing first
                        markers = c >> 1
                        key = 2 * markers + (acts_once[side][i] or lost_now[side])
                        how = reorganize.get(key)
                        if how is None:
                            how = reorganize[key] = reorganized(markers, rules, bool(key & 1))
                        removed, attacks = how
                        if attacks and removed < markers:  # attacks with a marker left
                            activate(side, i, False, getrandbits)
                            if not (alive[0] and alive[1]):
                                break
                            side = 1 - side
                            continue
                        own[i] = c - 2 * removed  # one marker at least
                        order[side][i] -= removed << (place_bits + 1)
                        lowered(side, i)
                        if not attacks:
                            side = 1 - side
                            continue
                    e = 1 - side
                    kinds, draws, want = straight
                    if want > 1:
                        volley(e, kinds, draws, want, getrandbits)
                        if not alive[e]:
                            break
                        side = e
                        continue
                    bst = best[e]
                    for g in kinds:  # a kind stands: the side has a unit standing
                        t = bst[g]
                        if t >= 0:
                            break
                    bits, effects = draws[t]
                    effect = effects[getrandbits(bits)]
                    while effect < 0:
                        effect = effects[getrandbits(bits)]
                    if effect == DESTROYED:  # :func:`destroyed`, the unit its kind's aimed at
                        them = st[e]
                        them[t] = -1
                        order[e][t] = DEAD
                        alive[e] -= 1
                        if is_leader[e][t]:
                            chiefs[e] -= 1
                            lost_now[e] = not chiefs[e]
                            plans[e] = directs(e)
                        group = members[e][g]
                        t = max(group, key=them.__getitem__) if len(group) > 1 else t
                        bst[g] = t if them[t] >= 0 else -1
                        if not alive[e]:
                            break
                    elif effect:  # the unit aimed at stays the one of its kind
                        st[e][t] += effect
                        order[e][t] += effect << place_bits
                    side = e
                    continue
                activate(side, i, charge and side == 0, getrandbits)
                if not (alive[0] and alive[1]):
                    break
                side = 1 - side
        if played == 0:
            return fight.start(), 0
        return (2, (tuple(map(cell, st[0])), tuple(map(cell, st[1])))), played

    return play


class _Cells(dict[int, "tuple[int, int] | None"]):
    """A unit's integer -> its state as the turn walk holds it, each made once."""

    def __missing__(self, c: int) -> tuple[int, int] | None:
        made = self[c] = None if c < 0 else (c >> 1, c & 1)
        return made


def play_quickly(fight: Fight, max_rounds: int, rng: random.Random) -> tuple[Round, int]:
    """One fight with real chances and no account of it: (the end state, turns played).
    Each turn's initiative and every attack are drawn from their exact chances, on the
    fight's quick player (the same turn on small integers, its tables kept on the fight)."""
    return player(fight)(max_rounds, rng)
