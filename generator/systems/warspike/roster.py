"""Each WarSpike army's roster, worked out once per build: its Block tree as rows, each Unit's Move, each Block's totals."""

from __future__ import annotations

from fractions import Fraction

from ...distances import distance
from ...loading import path_str
from .organisation import Organisation
from .scenario import Army
from .tree import tree_rows


def number(value) -> str:
    """12, 7.5, 2.25: a stat or distance as a player would write it."""
    value = Fraction(value).limit_denominator(1000)
    if value.denominator == 1:
        return str(value.numerator)
    return f"{float(value):.2f}".rstrip("0").rstrip(".")


def unit_facts(organisation: Organisation, name: str, distance_unit: str) -> dict:
    """One Unit's stats as printed: its Move worked out, its Blocks and its orders."""
    node = organisation.nodes[name]
    unit = node.entry
    move = Fraction(str(unit.stature)) * Fraction(str(unit.move_rate))
    held, inherited = organisation.held(name)
    return {
        "kind": "unit",
        "name": name,
        "troops": unit.troops,
        "stature": number(unit.stature),
        "move_rate": number(unit.move_rate),
        "move": distance(number(move), distance_unit),
        "move_value": move,
        "leader": unit.leader or "",
        "mentality": "" if unit.mentality is None else str(unit.mentality),
        "hold": held,
        "hold_from_block": inherited,
        "blocks": organisation.chain(name),
        "name_path": path_str(node.path + ("name",)),  # where a name too long for its card is reported
        "leader_path": path_str(node.path + ("leader",)),
    }


def block_facts(organisation: Organisation, name: str, units: dict[str, dict]) -> dict:
    """A Block's totals, the member it follows, and the Move of its slowest Unit (see the rule data's block_move note).

    `units` holds every Unit's facts by name, worked out once.
    """
    block = organisation.nodes[name].entry
    within = [units[u.name] for u in organisation.units_within(name)]
    lead = units[organisation.leading_unit(name).name]
    slowest = min(within, key=lambda facts: facts["move_value"])
    held, inherited = organisation.held(name)
    return {
        "kind": "block",
        "name": name,
        "level": block.level,
        "level_tag": level_tag(name, block.level),
        "follows": block.follows,
        "leader": lead["leader"],
        "mentality": lead["mentality"],
        "units": len(within),
        "troops": sum(facts["troops"] for facts in within),
        "move": slowest["move"],
        "slowest": slowest["name"],
        "hold": held,
        "hold_from_block": inherited,
        "blocks": organisation.chain(name),
    }


def slower_blocks(unit: dict, blocks: dict[str, dict], units: dict[str, dict]) -> list[dict]:
    """The Moves a Unit makes in its Blocks where they are shorter than its own (a Block keeps to its slowest Unit,
    the rule data's block_move reading): one entry per distance, naming its Blocks innermost first."""
    out: list[dict] = []
    for name in unit["blocks"]:
        block = blocks[name]
        if units[block["slowest"]]["move_value"] >= unit["move_value"]:
            continue
        same = next((entry for entry in out if entry["move"] == block["move"]), None)
        if same is None:
            out.append({"blocks": [name], "move": block["move"]})
        else:
            same["blocks"].append(name)
    return out


def forces(organisation: Organisation, sides: list, armies: list[Army], distance_unit: str) -> list[dict]:
    """Each side's roster: its SideView, its Block tree as rows, its totals, whether it can be Instigator."""
    units = {
        node.name: unit_facts(organisation, node.name, distance_unit)
        for node in organisation.nodes.values()
        if node.kind == "unit"
    }
    blocks = {
        node.name: block_facts(organisation, node.name, units)
        for node in organisation.nodes.values()
        if node.kind == "block"
    }
    out = []
    for side, army in zip(sides, armies):
        rows = []
        for row in tree_rows(organisation, side.index):
            node = organisation.nodes[row["name"]]
            if node.kind == "unit":
                facts = units[node.name] | {"block_moves": slower_blocks(units[node.name], blocks, units)}
            else:
                facts = blocks[node.name]
            rows.append({key: value for key, value in facts.items() if key != "move_value"} | row)
        depth = max(r["depth"] for r in rows)
        unit_rows = [r for r in rows if r["kind"] == "unit"]
        out.append(
            {
                "side": side,
                "player": army.player,
                "rows": [{**r, "span": depth - r["depth"] + 1} for r in rows],
                "levels": depth,
                "units": len(unit_rows),
                "blocks": len(rows) - len(unit_rows),
                "troops": sum(r["troops"] for r in unit_rows),
                "holding": sum(1 for r in unit_rows if r["hold"]),
                "can_instigate": organisation.can_instigate(side.index),
            }
        )
    return out


def level_tag(name: str, level: str) -> str:
    """A Block's level as a tag beside its name, unless the name already says it: "1 Platoon" (Platoon), "Half-
    Centuria", "First pair" (Pair of Contubernia: "First pair Pair of Contubernia" read as a stammer)."""
    if not level:
        return ""
    head = level.split()[0].lower()
    words = name.lower().replace("-", " ").split()
    return "" if level.lower() in name.lower() or head in words else level
