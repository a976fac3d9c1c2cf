"""Every unit of the scenario once: its code, side, name and type, and the roster line the pack and cards print."""

from __future__ import annotations

from dataclasses import dataclass

from ...scenario import SideView
from . import variants as rule_variants
from .glyphs import unit_uri
from .models import Rules
from .rule_data import UnitType
from .scenario import GridScenario, Unit
from .squares import square_name


@dataclass(frozen=True)
class Listed:
    """One unit in roster order: its code (side letter and number, A1, B3), its side's view, its name and type."""

    code: str
    side: SideView
    name: str
    unit: Unit
    type: UnitType  # with the scenario's variants applied
    name_path: str = ""  # the scenario key of its name (none when it is called by its type), for problems


def listed(rules: Rules, game: GridScenario, sides: list[SideView]) -> list[Listed]:
    """Every unit in roster order; an unnamed unit is called by its type and a number."""
    out = []
    for side, view in zip(game.sides, sides):
        seen: dict[str, int] = {}
        for u, unit in enumerate(side.units):
            unit_type = rule_variants.unit_type(rules, unit.type, game.variants)
            seen[unit.type] = seen.get(unit.type, 0) + 1
            out.append(
                Listed(
                    f"{chr(ord('A') + view.index)}{u + 1}",
                    view,
                    unit.name or f"{unit_type.name} {seen[unit.type]}",
                    unit,
                    unit_type,
                    f"sides[{view.index}].units[{u}].name" if unit.name else "",
                )
            )
    return out


def roster(rules: Rules, units: list[Listed]) -> list[dict]:
    """One roster line per unit: its marker, numbers (poor quality applied) and start. No tiles: the original rules
    keep them face down until the Artillery Fire Phase is over, so only the umpire's schedule prints them."""
    weapons = {weapon.id: weapon for weapon in rules.artillery.weapons}
    rows = []
    for listed_unit in units:
        unit, unit_type, side = listed_unit.unit, listed_unit.type, listed_unit.side
        poor = unit.quality == "poor"
        power = max(rules.battle.minimum_power, unit_type.battle_power + (rules.quality.poor_modifier if poor else 0))
        rows.append(
            {
                "code": listed_unit.code,
                "name": listed_unit.name,
                "name_path": listed_unit.name_path,
                "side": side,
                "marker": unit_uri(unit_type.glyph, side.colour, side.shape),
                "type": unit_type.name,
                "quality": unit.quality,
                "square": square_name(*unit.at),
                "facing": unit.facing,
                "move": unit_type.move,
                "battle_power": power,
                "range": unit_type.range or "",
                "arc": unit_type.arc,
                "contours": unit_type.contours,
                "fires": bool(unit_type.range),
                # seed 004: AFVs and anti-tank guns, whose off-target shots miss, "never fire indirectly"
                "indirect": unit_type.weapon is not None and not weapons[unit_type.weapon].misses_off_target,
                "advance": unit_type.advance,
            }
        )
    return rows


def in_play(rules, game, rows: list[dict]) -> dict[str, bool]:
    """What the quick reference prints only for a scenario that fields it, by its name in the rule data: every
    unit type, the artillery rules (the `Artillery` section and everything under `artillery`) and each kind of
    fire, the notes and movement costs of each terrain kind (and bridges, where a road meets a river), each
    variant (played or not), the note on variants together (never in play: a scenario has chosen) and poor quality."""
    types = {row["type"] for row in rows}
    weapons = {t.weapon for t in rules.unit_types if t.name in types and t.weapon}
    kinds = {entry.kind for entry in game.terrain}
    out = {t.name: t.name in types for t in rules.unit_types}
    out.update({weapon.name: weapon.id in weapons for weapon in rules.artillery.weapons})
    out.update({"Artillery": bool(weapons), "artillery": bool(weapons)})
    out.update({kind: kind in kinds for kind in rules.terrain.kinds})
    out.update({variant.name: variant.id in game.variants for variant in rules.variants})
    # how the variants go together is for whoever picks them: a scenario has picked, so only a booklet's appendix
    # (the whole reference) prints it
    out[rules.variants_note.name] = False
    out["bridge"] = {"road", "river"} <= kinds  # a square with both is a bridge
    out[rules.quality.name] = any(row["quality"] == "poor" for row in rows)
    out.update(
        {
            rules.movement.road_note.name: bool(kinds & {"road", "town"}),
            rules.movement.river_note.name: "river" in kinds,
            rules.battle.hill_note.name: "hill" in kinds,
            rules.terrain.name: "hill" in kinds,
            rules.battle.terrain_note.name: "fortification" in kinds,
        }
    )
    return out
