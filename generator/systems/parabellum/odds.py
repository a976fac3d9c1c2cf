"""Para Bellum's exact odds from rules.yaml: action points by Stress and order, and what an order buys."""

from __future__ import annotations

from fractions import Fraction

from ...dice import Dist
from ...tables import Column, Table
from .models import Rules


def roll_points(rules: Rules, discipline: int | None = None) -> list[int]:
    """The action points each face of the D6 gives, face 1 first.

    Standard roll: the seed's table. Discipline variant: a natural 6 is perfect, a face at or
    above the Discipline score a success, anything else a failure.
    """
    if discipline is None:
        return list(rules.action_points.points)
    test = rules.variants.discipline
    out = []
    for face in range(1, rules.action_points.die + 1):
        if face == test.perfect_natural:
            out.append(test.perfect)
        elif face >= discipline:
            out.append(test.success)
        else:
            out.append(test.failure)
    return out


def modifier(rules: Rules, stress: int, order: bool) -> int:
    """Stress and the order combined first, as the seed says, then added to the roll's points."""
    return stress * rules.stress.per_point + (rules.order.bonus if order else 0)


def clamp(rules: Rules, value: int) -> int:
    limits = rules.action_points
    return max(limits.min, min(limits.max, value))


def points_for(rules: Rules, face_points: int, stress: int, order: bool) -> int:
    return clamp(rules, face_points + modifier(rules, stress, order))


def action_points(rules: Rules, stress: int, order: bool, discipline: int | None = None) -> Dist:
    """The exact distribution of a unit's action points for this activation."""
    return Dist.table(roll_points(rules, discipline)).map(
        lambda face_points: points_for(rules, face_points, stress, order)
    )


def stress_levels(rules: Rules, discipline: int | None = None) -> list[int]:
    """Stress 0 up to the first level where even an ordered unit never acts; every higher level plays the same."""
    out = []
    for stress in range(rules.stress.max + 1):
        out.append(stress)
        if action_points(rules, stress, True, discipline)[rules.action_points.min] == 1:
            break
    return out


def stress_label(stress: int, levels: list[int]) -> str:
    """A Stress level as the pages print it: the last of `levels` stands for itself and every level above ("4+")."""
    return f"{stress}+" if stress == levels[-1] and stress > 0 else str(stress)


def point_values(rules: Rules) -> list[int]:
    limits = rules.action_points
    return list(range(limits.min, limits.max + 1))


def _disciplines(rules: Rules, variants) -> list[int | None]:
    if "discipline" in variants:
        test = rules.variants.discipline
        return list(range(test.min, test.max + 1))
    return [None]


def action_points_table(rules: Rules, variants=()) -> Table:
    """JSON contract: table `action-points`, a row per stress and order, fields ap0..ap3 and expected."""
    disciplines = _disciplines(rules, variants)
    values = point_values(rules)
    columns = []
    if disciplines != [None]:
        columns.append(Column("discipline", "Discipline", "int"))
    columns += [Column("stress", "Stress", "int"), Column("order", "Order", "text")]
    columns += [Column(f"ap{n}", "No action" if n == 0 else f"{n} point{'s' if n != 1 else ''}") for n in values]
    columns.append(Column("expected", "Expected points", "exact"))
    rows = []
    top = 0
    for discipline in disciplines:
        levels = stress_levels(rules, discipline)
        top = max(top, levels[-1])
        for stress in levels:
            for order in (False, True):
                dist = action_points(rules, stress, order, discipline)
                row = {} if discipline is None else {"discipline": discipline}
                row.update({"stress": stress, "order": order})
                row.update({f"ap{n}": dist[n] for n in values})
                row["expected"] = dist.mean()
                rows.append(row)
    note = (
        "The last Stress level of each block stands for itself and every level above it. "
        "An order costs one Command Point and is given before the roll."
    )
    title = "Action points by Stress and Take Action! order"
    if disciplines != [None]:
        title += " (discipline test variant)"
    return Table("action-points", title, columns, rows, note=note, meta={"stress_and_more": top})


def order_value(rules: Rules, stress: int, discipline: int | None = None) -> dict:
    """What an order buys at this Stress: expected points with and without, and how often it changes nothing."""
    plain = action_points(rules, stress, False, discipline)
    ordered = action_points(rules, stress, True, discipline)
    points = roll_points(rules, discipline)
    die = len(points)
    # the same roll with and without the order: the order is wasted when the clamp swallows it
    same = sum(
        1
        for face_points in points
        if points_for(rules, face_points, stress, True) == points_for(rules, face_points, stress, False)
    )
    wasted = Fraction(same, die)
    return {
        "stress": stress,
        "expected_without": plain.mean(),
        "expected_with": ordered.mean(),
        "gain": ordered.mean() - plain.mean(),
        "none_without": plain[rules.action_points.min],
        "none_with": ordered[rules.action_points.min],
        "wasted": wasted,
    }


def order_value_table(rules: Rules, variants=()) -> Table:
    disciplines = _disciplines(rules, variants)
    columns = []
    if disciplines != [None]:
        columns.append(Column("discipline", "Discipline", "int", printed="discipline_label"))
    columns += [
        Column("stress", "Stress", "int", printed="stress_label"),
        Column("expected_without", "Expected, no order", "exact"),
        Column("expected_with", "Expected, ordered", "exact"),
        Column("gain", "Order buys", "exact"),
        Column("none_without", "No action, no order"),
        Column("none_with", "No action, ordered"),
        Column("wasted", "Order changes nothing"),
    ]
    rows = []
    for discipline in disciplines:
        levels = stress_levels(rules, discipline)
        for stress in levels:
            # a page prints a Discipline as the D6 score it needs and the last Stress level as "4+"
            row = {} if discipline is None else {"discipline": discipline, "discipline_label": f"{discipline}+"}
            rows.append({**row, **order_value(rules, stress, discipline), "stress_label": stress_label(stress, levels)})
    return Table(
        "order-value",
        "What a Take Action! order buys",
        columns,
        rows,
        note="Order buys: the change in expected action points for one Command Point. "
        "It changes nothing when the roll would reach 3 anyway, or stays at 0 even with it.",
    )


def all_tables(rules: Rules, variants=()) -> list[Table]:
    return [action_points_table(rules, variants), order_value_table(rules, variants)]
