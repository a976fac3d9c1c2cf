"""Each side's units worked out once per build: weapons, the actions open to them, stress track and their starting odds."""

from __future__ import annotations

from dataclasses import dataclass, field

from ...models import english_list
from ...scenario import SideView
from ...svg import names_compass
from ...table import OnTable
from ...tablemap import TableView
from ..base import Prepared
from . import odds, plans
from .models import Rules
from .units import DISCIPLINE, Setup, Side


def tag_label(tag: str) -> str:
    """A weapon tag as it prints: 'assault' -> 'Assault'."""
    return tag[:1].upper() + tag[1:]


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
    """A Para Bellum build worked out once: the variants in play, every legal plan, and each side's units."""

    variants: tuple[str, ...] = ()
    plans: list[plans.Plan] = field(default_factory=list)  # every structurally legal plan, cheapest first
    forces: list[Force] = field(default_factory=list)
    disciplines: set = field(default_factory=set)  # the discipline scores the units have (None: units without one)
    setup: Setup | None = None  # the scenario's Para Bellum keys
    on_table: list = field(default_factory=list)  # what each side puts on the table (table.OnTable), in order
    map: str = ""  # the table's map, where the scenario gives a table, terrain, objectives or deployment zones
    map_page: str = "portrait"
    table_view: object = None  # what the map is drawn from (tablemap.TableView): each side's orders draw their own


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


def form_name(rules: Rules, action) -> str:
    """An action form as a player names it: 'Fire! (Short)' where its action has more than one form, else 'Run!'."""
    forms = [other for other in rules.actions if other.action == action.action]
    return f"{action.name} ({rules.kinds[action.kind].label})" if len(forms) > 1 else action.name


def _what_it_fires(rules: Rules, action) -> str:
    """' (not heavy)' for a Fire! form that leaves a tag out, ' (all weapons)' for its other forms, else ''."""
    forms = [other for other in rules.actions if other.action == action.action]
    if action.fires_except:
        return f" (not {action.fires_except})"
    if any(other.fires_except for other in forms):
        return " (all weapons)"
    return ""


def fire_charge(rules: Rules, weapons: list, mine: list[plans.Plan]) -> str:
    """In words, whether this unit may Fire! and Charge! in one activation, with which Fire!, and what stops it."""
    rule = rules.fire_and_charge
    fire = next(action.name for action in rules.actions if action.action == rule.fire)
    charge = next(action.name for action in rules.actions if action.action == rule.charge)
    tag = tag_label(rule.tag)
    forms = [action for action in rules.actions if action.action == rule.fire]
    taken = {step for plan in mine for step in plan.steps}
    usable = [form for form in forms if form.id in taken]
    if not usable:
        return f"No ranged weapons: no {fire}; {charge} is always open."
    with_charge = [form for form in usable if any(form.id in plan.steps and plan.fire_and_charge for plan in mine)]
    blockers = []
    for form in usable:
        for weapon in plans.fired(form.id, weapons, rules):
            if rule.tag not in weapon.tags and weapon.name not in blockers:
                blockers.append(weapon.name)
    why = f" ({english_list(blockers)}: not {tag})" if blockers else ""
    if len(with_charge) == len(usable):
        return f"May {fire} and {charge} together (every weapon is {tag})."
    if not with_charge:
        return f"No {fire} and {charge} together{why}."
    open_names = " or ".join(form_name(rules, form) for form in with_charge)
    closed = " or ".join(form_name(rules, form) for form in usable if form not in with_charge)
    # the reason as a clause, not a second bracket after the form's own ('Fire! (Long) (Light mortar: ...)')
    verb = "is" if len(blockers) == 1 else "are"
    return f"May {open_names} and {charge} together, not {closed}: {english_list(blockers)} {verb} not {tag}."


def unit_actions(rules: Rules, weapons: list, mine: list[plans.Plan]) -> dict:
    """The actions open to a unit in compact form: per kind (Short, Long) its cost and the actions this unit may
    take; the rules that limit every unit's combinations (`general`); and the one its weapons set (`unit`)."""
    taken = {step for plan in mine for step in plan.steps}
    kinds = []
    for kind_id, kind in rules.kinds.items():
        names = [
            action.name + _what_it_fires(rules, action)
            for action in rules.actions
            if action.kind == kind_id and action.id in taken
        ]
        if names:
            kinds.append({"label": kind.label, "cost": kind.cost, "actions": names})
    alone = [action.name for action in rules.actions if action.alone]
    once = "Each action once an activation, any order"
    lines = [once + (f"; {english_list(alone)} alone." if alone else ".")]
    for action in rules.actions:
        if action.bonus_for and action.id in taken:
            target = next(other.name for other in rules.actions if other.action == action.bonus_for)
            lines.append(f"{action.name} helps only before a {target}")
    lines = [line if line.endswith((".", "!")) else line + "." for line in lines]
    return {
        "kinds": kinds,
        "all_open": taken == set(rules.actions_by_id),
        "general": lines,
        "unit": fire_charge(rules, weapons, mine),
    }


def stress_track(rules: Rules, discipline: int | None, start: int) -> dict:
    """The card's stress track: per level, the points each run of D6 faces gives without and with an order."""
    groups = face_groups(odds.roll_points(rules, discipline))
    levels = odds.stress_levels(rules, discipline)
    cells = []
    for stress in levels:
        cells.append(
            {
                "start": stress == min(start, levels[-1]),
                "label": odds.stress_label(stress, levels),
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
    plain = odds.action_points(rules, unit.stress, False, discipline)
    ordered = odds.action_points(rules, unit.stress, True, discipline)
    none = rules.action_points.min
    return {
        "name": unit.name,
        "models": unit.models,
        "movement": unit.movement,
        "run": unit.movement * 2,
        "weapons": [
            {
                "name": weapon.name,
                "tags": list(weapon.tags),  # the rule data's ids, which the rules test
                # as printed: a tag is the name of a special rule ('the Assault Special Rule'), capitalised as the
                # rules' text writes it, one way on rosters, cards and the reference alike
                "labels": [tag_label(tag) for tag in weapon.tags],
                "tag_text": ", ".join(tag_label(tag) for tag in weapon.tags),
            }
            for weapon in unit.weapons
        ],
        "hq": unit.hq,
        "command_points": unit.command_points or 0,
        "stress": unit.stress,
        "discipline": discipline,
        "actions": unit_actions(rules, unit.weapons, mine),
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
    setup = Setup.of(scenario)
    variants = tuple(setup.variants)
    prepared = ForcesPrepared(scenario, seed, deck=None, variants=variants, plans=plans.all_plans(rules), setup=setup)
    prepared.on_table = [OnTable.of(Side.from_clean(side), "units") for side in scenario.sides]
    if setup.table is not None:
        names = [o.name for o in setup.objectives] + [f.name for f in setup.terrain]
        edges = names_compass(scenario, names)
        prepared.table_view = TableView(setup, prepared.on_table, scenario.side_views, edges=edges)
        prepared.map, prepared.map_page = prepared.table_view.draw()
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
