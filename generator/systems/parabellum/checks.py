"""Validation beyond shape: variants listed once, unit names unique, and Discipline scores exactly when the variant is on."""

from __future__ import annotations

from ... import table
from ...schema import Checker
from .units import DISCIPLINE, Setup, Side


def check(scenario, checker: Checker) -> list:
    """Problems a shape-clean scenario can still have; reported to checker. Para Bellum has no warnings."""
    setup = Setup.of(scenario)
    variants = setup.variants
    if setup.table is not None:
        names = [side["name"] for side in scenario.sides]
        on_table = [table.OnTable.of(Side.from_clean(side), "units") for side in scenario.sides]
        table.check(setup.table, setup.terrain, setup.objectives, on_table, names, checker, '"')
    variant_on = DISCIPLINE in variants
    for i, name in enumerate(variants):
        if name in variants[:i]:
            checker.report(("variants", i), f"the variant {name!r} is listed twice")
    seen: set[str] = set()
    for side_index, side in enumerate(scenario.sides):
        for unit_index, unit in enumerate(Side.from_clean(side).units):
            path = ("sides", side_index, "units", unit_index)
            if unit.name in seen:
                checker.report(path + ("name",), f"two units are named {unit.name!r}; their cards must differ")
            seen.add(unit.name)
            if variant_on and unit.discipline is None:
                checker.report(path, "the discipline variant is on: every unit needs a discipline score (2 to 6)")
            if not variant_on and unit.discipline is not None:
                checker.report(
                    path + (DISCIPLINE,),
                    "discipline is only used by the discipline variant; add `variants: [discipline]` or remove it",
                )
    return []
