"""Morschauser Modern's exact odds from rules.yaml: battles by Battle Power, artillery landing and effect."""

from __future__ import annotations

import math
from fractions import Fraction

from ...dice import Dist
from ...tables import Column, Table
from .models import Rules
from .variants import scatter_id

OUTCOMES = ("win_destroy", "win_retreat", "draw", "lose_retreat", "lose_destroyed")


def power_range(rules: Rules) -> range:
    """Every Battle Power a unit can have after modifiers: from the floor to the best type with every bonus.

    Modifiers in one `group` exclude each other (cover or fortifications; one hill modifier), so a
    group contributes only its largest bonus; attacker-only penalties never raise the top.
    """
    top = max(t.battle_power for t in rules.unit_types)
    best: dict[str, int] = {}
    for modifier in rules.battle.modifiers:
        group = modifier.group or modifier.id
        best[group] = max(best.get(group, 0), modifier.value)
    return range(rules.battle.minimum_power, top + sum(v for v in best.values() if v > 0) + 1)


def battle(attacker: int, defender: int, rules: Rules) -> dict[str, Fraction]:
    """The five results of one battle, from the attacker's side, over all 36 throws of two D6.

    seed 004: each unit throws a D6 and adds its Battle Power; equal totals draw; if the winner
    threw a 6 the loser is destroyed, otherwise it retreats one square.
    """
    die = Dist.die(rules.battle.die)
    six = rules.battle.destroy_natural

    def result(pair):
        a, d = pair
        if a + attacker == d + defender:
            return "draw"
        if a + attacker > d + defender:
            return "win_destroy" if a == six else "win_retreat"
        return "lose_destroyed" if d == six else "lose_retreat"

    dist = die.combine(die, lambda a, d: (a, d)).map(result)
    return {k: dist[k] for k in OUTCOMES}


def battle_table(rules: Rules) -> Table:
    powers = power_range(rules)
    rows = [{"attacker": a, "defender": d, **battle(a, d, rules)} for a in powers for d in powers]
    return Table(
        "battle",
        "Battles: attacker's results by Battle Power after modifiers",
        [
            Column("attacker", "Attacker", "int"),
            Column("defender", "Defender", "int"),
            Column("win_destroy", "Win, enemy destroyed"),
            Column("win_retreat", "Win, enemy retreats"),
            Column("draw", "Draw"),
            Column("lose_retreat", "Lose, retreat"),
            Column("lose_destroyed", "Lose, destroyed"),
        ],
        rows,
        note="Both throw D6 + Battle Power (never below 1); a winner's 6 destroys, otherwise the loser retreats one square.",
    )


def battle_by_difference(rules: Rules) -> Table:
    """The same results by attacker minus defender, the compact form printed in the pack.

    Both dice are fair and independent, so only the difference of Battle Powers matters; the
    rows are taken from the full table, one pair per difference.
    """
    powers = power_range(rules)
    low = powers.start
    rows = []
    for diff in range(low - powers[-1], powers[-1] - low + 1):
        a, d = (low + diff, low) if diff >= 0 else (low, low - diff)
        rows.append({"difference": diff, **battle(a, d, rules)})
    return Table(
        "battle_by_difference",
        "Battles: attacker's results by Battle Power difference",
        [
            Column("difference", "Attacker − defender", "signed"),
            Column("win_destroy", "Win, destroy"),
            Column("win_retreat", "Win, retreat"),
            Column("draw", "Draw"),
            Column("lose_retreat", "Lose, retreat"),
            Column("lose_destroyed", "Lose, destroyed"),
        ],
        rows,
        note="Only the difference of Battle Powers matters. A loser that cannot retreat is destroyed.",
    )


def landing(rules: Rules, scheme: str, misses_off_target: bool) -> dict[str, Fraction]:
    """Where one shot lands: the chance of the target, each neighbour, and a miss, over one D6."""
    faces = rules.artillery.scatter[scheme].faces
    die = Dist.die(rules.artillery.die)
    # seed 004: for an AFV or anti-tank gun, scores that do not land on target "are regarded as misses"
    dist = die.map(lambda f: faces[f] if faces[f] == "target" or not misses_off_target else "miss")
    out = {spot.id: dist[spot.id] for spot in rules.artillery.landing}
    out["miss"] = dist["miss"]
    return out


def effect(rules: Rules, fire: str) -> Fraction:
    """The chance the effect D6 destroys a unit in the square hit."""
    die = Dist.die(rules.artillery.die)
    return die.prob(lambda f: f in rules.artillery.effect[fire])


def artillery_rows(rules: Rules, variants: tuple[str, ...] = ()) -> list[dict]:
    scheme = scatter_id(rules, variants)
    rows = []
    for weapon in rules.artillery.weapons:
        lands = landing(rules, scheme, weapon.misses_off_target)
        for fire in weapon.fires:
            kill = effect(rules, fire)
            rows.append(
                {
                    "weapon": weapon.id,
                    "fire": fire,
                    **{f"lands_{k}": v for k, v in lands.items()},
                    "destroy_on_square": kill,
                    "destroy_target": lands["target"] * kill,
                }
            )
    return rows


def artillery_table(rules: Rules, variants: tuple[str, ...] = ()) -> Table:
    scheme = rules.artillery.scatter[scatter_id(rules, variants)]
    spots = rules.artillery.landing
    weapons = {weapon.id: weapon.name for weapon in rules.artillery.weapons}
    columns = [Column("weapon", "Weapon", "text", names=weapons), Column("fire", "Fire", "text")]
    # on target first, then the misses in the order the scheme's faces give them (clock-face: beyond, right,
    # before, left), so the columns read as the scatter line under the table does
    first = {}
    for face, spot in sorted(scheme.faces.items()):
        first.setdefault(spot, face)
    spots = sorted(spots, key=lambda spot: (spot.id != "target", first.get(spot.id, math.inf)))
    columns += [
        Column(f"lands_{spot.id}", "Lands on target" if spot.id == "target" else "Lands " + spot.id) for spot in spots
    ]
    columns += [
        Column("lands_miss", "Miss"),
        Column("destroy_on_square", "Destroys a unit in the square hit"),
        Column("destroy_target", "Destroys the target"),
    ]
    faces = ", ".join(f"{face} {spot}" for face, spot in sorted(scheme.faces.items()))
    return Table(
        "artillery",
        f"Artillery: where a shot lands and the chance to destroy ({scheme.name})",
        columns,
        artillery_rows(rules, variants),
        note=f"Scatter D6: {faces}. AFVs and anti-tank guns miss unless on target and never fire indirectly; "
        "their indirect row is a seen target in fortifications, a built-up area or a wood.",
        meta={"scatter": scatter_id(rules, variants)},
    )


def all_tables(rules: Rules, variants: tuple[str, ...] = ()) -> list[Table]:
    return [battle_table(rules), battle_by_difference(rules), artillery_table(rules, variants)]
