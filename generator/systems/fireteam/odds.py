"""Fireteam Tomorrow's exact odds, every number derived from rules.yaml: fire, recovery, HTH, movement, jumps."""

from __future__ import annotations

from fractions import Fraction
from functools import cache

from ...dice import Dist, nd
from ...distances import distance
from ...tables import Column, Table
from .models import Rules


@cache
def _dice(count: int) -> Dist:
    """The sum of `count` D6: every roll's odds read the rule data's dice (a house rule may roll 3D6)."""
    return nd(count)


def fire_hit(net: int, rules: Rules) -> Fraction:
    """P(HIT) when the firer's modifiers minus the target's come to `net`.

    The firer's 2D6 (fire.dice) + net must beat the target's 2D6; seed 001: a natural 12 against a natural 2
    always HITs, no matter the modifiers.
    """
    always = rules.fire.always_hits
    return _fire_hit(net, always.attacker_natural, always.defender_natural, rules.fire.dice)


@cache
def _fire_hit(net: int, attacker_natural: int, defender_natural: int, count: int) -> Fraction:
    dice = _dice(count)
    total = Fraction(0)
    for a, pa in dice.p.items():
        for d, pd in dice.p.items():
            if a + net > d or (a == attacker_natural and d == defender_natural):
                total += pa * pd
    return total


def _times(modifier, rules: Rules) -> int:
    """How often a modifier can apply: a number, or as far as the quality ladder or cover table reaches."""
    times = modifier.times
    if times == "qualities":
        return len(rules.qualities) - 1
    if times == "cover":
        return max(c.defence for c in rules.cover)
    return times


def fire_range(rules: Rules) -> range:
    """Every net modifier the modifiers allow: from the target's largest total to the firer's."""
    attacker = sum(m.value * _times(m, rules) for m in rules.fire.attacker)
    defender = sum(m.value * _times(m, rules) for m in rules.fire.defender)
    return range(-defender, attacker + 1)


def recover(modifier: int, rules: Rules) -> Fraction:
    return (_dice(rules.recovery.dice) + modifier).at_least(rules.recovery.target)


def recovery_range(rules: Rules) -> range:
    recovery = rules.recovery
    one = max(m.value for m in recovery.one_of)
    armour = max((m.value for m in recovery.all_of if m.armour), default=0)
    quality = max((m.value for m in recovery.all_of if m.qualities), default=0)
    return range(0, one + armour + quality + 1)


def recovery_modifier(rules: Rules, armour: str, quality: str, one_of: bool) -> int:
    """The modifiers a figure always carries (armour, quality), plus one proximity bonus if claimed."""
    recovery = rules.recovery
    total = max(m.value for m in recovery.one_of) if one_of else 0
    for m in recovery.all_of:
        if armour in m.armour or quality in m.qualities:
            total += m.value
    return total


def hth_bonus_range(rules: Rules) -> int:
    """The largest HTH bonus a figure can have: top armour level plus the weapon bonus."""
    return max(a.level for a in rules.armour) + rules.hth.weapon_bonus


def hth_bands(difference: int, rules: Rules) -> dict[str, Fraction]:
    """Each result band's chance when my HTH modifiers exceed the enemy's by `difference`.

    The margin is (my 2D6 + mine) - (their 2D6 + theirs); bands are the winner's margin.
    """
    dice = _dice(rules.hth.dice)
    margin = dice.combine(dice, lambda a, b: a - b) + difference
    out = {}
    for band in rules.hth.bands:
        low, high = band.min, 10**6 if band.max is None else band.max
        if low == 0:
            out[band.id] = margin.prob(lambda m: m == 0)
            continue
        out["win_" + band.id] = margin.prob(lambda m, low=low, high=high: low <= m <= high)
        out["lose_" + band.id] = margin.prob(lambda m, low=low, high=high: low <= -m <= high)
    return out


def fire_table(rules: Rules) -> Table:
    rows = [{"net_modifier": net, "hit": fire_hit(net, rules)} for net in fire_range(rules)]
    return Table(
        "fire",
        "Fire: chance to HIT by net modifier",
        [Column("net_modifier", "Net modifier", "signed"), Column("hit", "HIT")],
        rows,
        note="Net modifier = firer's modifiers minus the target's. A natural 12 against a natural 2 always HITs.",
    )


def recovery_table(rules: Rules) -> Table:
    rows = [{"modifier": m, "recover": recover(m, rules)} for m in recovery_range(rules)]
    return Table(
        "recovery",
        f"Recovery: {rules.recovery.dice}D6 + modifiers, {rules.recovery.target} or more",
        [Column("modifier", "Modifier", "signed"), Column("recover", "Recovers")],
        rows,
        note="Otherwise the figure is removed from play.",
    )


def _margin(band) -> str:
    """A result band's winning margin as a column prints it: "6+", "3–5", "1"."""
    if band.max is None:
        return f"{band.min}+"
    return str(band.min) if band.min == band.max else f"{band.min}\u2013{band.max}"


def hth_table(rules: Rules) -> Table:
    """Each difference of bonuses against every margin, headed by the margin ("Win by 3–5"); the note says what
    each margin does, in the rule data's words, so a header never reads "Lose: Loser HIT"."""
    top = hth_bonus_range(rules)
    bands = rules.hth.bands
    win = [b for b in bands if b.min > 0]
    draw = [b for b in bands if b.min == 0]
    columns = [Column("difference", "My bonus − theirs", "signed")]
    columns += [Column("win_" + b.id, f"Win by {_margin(b)}") for b in win]
    columns += [Column(b.id, "Tie") for b in draw]
    columns += [Column("lose_" + b.id, f"Lose by {_margin(b)}") for b in reversed(win)]
    rows = [{"difference": d, **hth_bands(d, rules)} for d in range(-top, top + 1)]
    results = "; ".join(f"by {_margin(b)}: {b.result[0].lower()}{b.result[1:]}" for b in win)
    ties = " ".join(f"Tie ({b.result[0].lower()}{b.result[1:]})." for b in draw)
    return Table(
        "hth",
        "Hand-to-hand: results by difference of bonuses",
        columns,
        rows,
        # the bonus in the rule data's words, which except civilian and sniper rifles as the cards and roster do
        note=f"Win or lose {results}. {ties} Bonus = armour level, {rules.hth.weapon_bonus_rule}. "
        "A HIT figure loses at once.",
    )


def roll_beats_fixed(rules: Rules) -> Fraction:
    """How often a figure's movement roll goes farther than the distance it may take without rolling."""
    movement = rules.movement
    return nd(movement.dice).prob(lambda x: x > movement.fixed)


def movement_table(rules: Rules, vehicles: bool = True) -> Table:
    """How far a figure (and, unless `vehicles` is false, a vehicle) moves: a battle without vehicles gets the
    figures' column alone, down to the farthest a figure can roll."""
    movement = rules.movement
    infantry, vehicle = nd(movement.dice), nd(movement.vehicle_dice)
    top = 6 * (movement.vehicle_dice if vehicles else movement.dice)
    rows = [{"inches": d, "figure": infantry.at_least(d), "vehicle": vehicle.at_least(d)} for d in range(2, top + 1)]
    if not vehicles:
        rows = [{"inches": row["inches"], "figure": row["figure"]} for row in rows]
    beats = roll_beats_fixed(rules)
    columns = [Column("inches", "Inches", "int"), Column("figure", f"Figure {movement.dice}D6")]
    if vehicles:
        columns.append(Column("vehicle", f"Vehicle {movement.vehicle_dice}D6"))
    return Table(
        "movement",
        "Movement: chance to move at least this far",
        columns,
        rows,
        note=f"A figure may take {distance(movement.fixed)} without rolling; a roll beats it {beats.numerator}/{beats.denominator} of the time "
        f"(average {distance(f'{float(infantry.mean()):g}')}).",
        meta={"beats_fixed": f"{beats.numerator}/{beats.denominator}"},
    )


def jump_table(rules: Rules) -> Table:
    jump = rules.movement.jump
    mishap = _dice(jump.dice).prob(lambda x: x == jump.mishap_natural)
    return Table(
        "jump",
        "Jump packs: mishap after a jump",
        [Column("max_inches", "Jump up to", "int", unit="inch"), Column("mishap", "HIT on landing")],
        [{"max_inches": jump.max, "mishap": mishap}],
        note=f"Roll {jump.dice}D6 after the jump; a {jump.mishap_natural} is a HIT.",
    )


def all_tables(rules: Rules) -> list[Table]:
    return [fire_table(rules), recovery_table(rules), hth_table(rules), movement_table(rules), jump_table(rules)]
