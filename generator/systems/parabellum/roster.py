"""Each side's units worked out once per build: weapons, legal plans, stress track and the odds at their starting Stress."""

from __future__ import annotations

from dataclasses import dataclass, field

from ...scenario import SideView
from ..base import Prepared
from . import odds, plans
from .models import Rules
from .units import DISCIPLINE, Setup, Side


@dataclass
class Force:
    """One side as the pack and the cards print it: the core's side view, its units, and their totals."""

    side: SideView
    units: list[dict]
    models: int
    command_points: int
    hqs: int


@dataclass
class ForcesPrepared(Prepared):
    """A Para Bellum build worked out once: the variants in play, every plan, and each side's units."""

    variants: tuple[str, ...] = ()
    plans: list[plans.Plan] = field(default_factory=list)  # every structurally legal plan, cheapest first
    rows: dict = field(default_factory=dict)  # each plan's printed row (plans.Plan -> dict)
    forces: list[Force] = field(default_factory=list)
    disciplines: set = field(default_factory=set)  # the discipline scores the units have (None: units without one)


def face_groups(points: list[int]) -> list[dict]:
    """Runs of D6 faces that give the same points: [{'label': '2-5', 'points': 2}, ...], face 1 first."""
    groups: list[dict] = []
    for face, value in enumerate(points, 1):
        if groups and groups[-1]["points"] == value and groups[-1]["last"] == face - 1:
            groups[-1]["last"] = face
        else:
            groups.append({"first": face, "last": face, "points": value})
    for group in groups:
        first, last = group["first"], group["last"]
        group["label"] = str(first) if first == last else f"{first}\u2013{last}"
    return groups


def plan_row(rules: Rules, plan: plans.Plan) -> dict:
    """A plan as printed: in full for the reference, in shorthand on cards, marked when it wastes Take Aim!."""
    return {
        "text": plans.plan_text(plan, rules),
        "abbr": plans.plan_text(plan, rules, short=True),
        "mark": " \u2020" if plan.wastes_aim else "",
        "wastes_aim": plan.wastes_aim,
        "fire_and_charge": plan.fire_and_charge,
        "cost": plan.cost,
    }


def fire_charge(rules: Rules, weapons: list) -> str:
    """A sentence saying whether this unit's weapons leave Fire! and Charge! open, and with which Fire!."""
    rule = rules.fire_and_charge
    if not weapons:
        return "No ranged weapons: no Fire!; Charge! is always open."
    open_with = []
    for action in rules.actions:
        if action.action != rule.fire:
            continue
        shot = plans.fired(action.id, weapons, rules)
        if shot and all(rule.tag in weapon.tags for weapon in shot):
            open_with.append(f"{action.name} ({rules.kinds[action.kind].label})")
    if not open_with:
        return "Fires non-Assault weapons: no Charge! in an activation with Fire!."
    return "May Fire! and Charge! in one activation with " + " or ".join(open_with) + "."


def stress_track(rules: Rules, discipline: int | None, start: int) -> dict:
    """The card's stress track: per level, the points each run of D6 faces gives without and with an order."""
    groups = face_groups(odds.roll_points(rules, discipline))
    levels = odds.stress_levels(rules, discipline)
    cells = []
    for stress in levels:
        cells.append(
            {
                "start": stress == min(start, levels[-1]),
                "label": f"{stress}+" if stress == levels[-1] and stress > 0 else str(stress),
                "plain": "\u00b7".join(str(odds.points_for(rules, group["points"], stress, False)) for group in groups),
                "ordered": "\u00b7".join(
                    str(odds.points_for(rules, group["points"], stress, True)) for group in groups
                ),
            }
        )
    return {"faces": " \u00b7 ".join(group["label"] for group in groups), "levels": cells}


def unit_sheet(rules: Rules, unit, discipline_on: bool, prepared: ForcesPrepared) -> dict:
    """Everything the roster and the unit's cards print about one unit (a validated units.Unit)."""
    discipline = unit.discipline if discipline_on else None
    mine = plans.for_unit(prepared.plans, unit.weapons, rules)
    by_points = {
        n: [prepared.rows[plan] for plan in mine if plan.cost == n] for n in range(1, rules.action_points.max + 1)
    }
    plain = odds.action_points(rules, unit.stress, False, discipline)
    ordered = odds.action_points(rules, unit.stress, True, discipline)
    none = rules.action_points.min
    return {
        "name": unit.name,
        "models": unit.models,
        "movement": unit.movement,
        "run": unit.movement * 2,
        "weapons": [
            {"name": weapon.name, "tags": list(weapon.tags), "tag_text": ", ".join(weapon.tags)}
            for weapon in unit.weapons
        ],
        "hq": unit.hq,
        "command_points": unit.command_points or 0,
        "stress": unit.stress,
        "discipline": discipline,
        "fire_charge": fire_charge(rules, unit.weapons),
        "plans": [{"points": n, "plans": rows, "count": len(rows)} for n, rows in by_points.items()],
        "start": {
            "expected": plain.mean(),
            "expected_ordered": ordered.mean(),
            "none": plain[none],
            "none_ordered": ordered[none],
        },
        "track": stress_track(rules, discipline, unit.stress),
    }


def prepare(rules: Rules, scenario, seed: int) -> ForcesPrepared:
    """The build's plans and forces, each worked out once (models: the scenario models of these rules)."""
    variants = tuple(Setup.from_clean(scenario.data).variants)
    every = plans.all_plans(rules)
    rows = {plan: plan_row(rules, plan) for plan in every}
    prepared = ForcesPrepared(scenario, seed, deck=None, variants=variants, plans=every, rows=rows)
    discipline_on = DISCIPLINE in variants
    for view, side in zip(scenario.side_views, scenario.sides):
        typed = Side.from_clean(side).units
        units = [unit_sheet(rules, unit, discipline_on, prepared) for unit in typed]
        prepared.disciplines |= {unit.discipline for unit in typed}
        prepared.forces.append(
            Force(
                side=view,
                units=units,
                models=sum(unit["models"] for unit in units),
                command_points=sum(unit["command_points"] for unit in units),
                hqs=sum(1 for unit in units if unit["hq"]),
            )
        )
    return prepared
