"""Validation beyond shape for a WarSpike scenario: two armies, a sound Block tree, a side able to be Instigator."""

from __future__ import annotations

from ... import table
from ...schema import Checker, suggest
from .models import Rules
from .organisation import organise
from .scenario import DISTANCE_UNITS, Army, Settings


def check(rules: Rules, scenario, checker: Checker) -> None:
    """Report every problem of a shape-clean scenario at its key (the Block tree's first, then who can instigate)."""
    sides = scenario.side_views
    if len(sides) != rules.armies.sides:
        checker.report(
            ("sides",),
            f"the core rules cover two opposing armies, each controlled by one player (found {len(sides)} sides)",
        )
        return
    names = [side.name for side in sides]
    settings = Settings.of(scenario, rules)
    if settings.table is not None:
        mark = DISTANCE_UNITS[settings.distance_unit][0].replace("\u2033", '"')
        on_table = [table.OnTable.of(Army.of(side), "units") for side in scenario.sides]
        table.check(
            settings.table, settings.terrain, settings.objectives, on_table, names, checker, mark, settings.turns
        )
    organisation = organise(names, [Army.of(side) for side in scenario.sides])
    for path, message in organisation.problems:
        checker.report(path, message)
    if organisation.problems:
        return
    able = [organisation.can_instigate(s) for s in range(len(sides))]
    if not any(able):
        checker.report(
            ("sides",),
            f"neither side can be Instigator: every Unit of {names[0]!r} and of "
            f"{names[1]!r} is under hold orders; a side needs at least one Unit that can advance",
        )
    named = settings.instigator
    if named is not None:
        if named not in names:
            checker.report(
                ("instigator",),
                f"expected a side's name, one of {', '.join(names)} (got {named!r}){suggest(named, names)}",
            )
        elif not able[names.index(named)]:
            checker.report(
                ("instigator",), f"{named!r} cannot be Instigator: every one of its Units is under hold orders"
            )
