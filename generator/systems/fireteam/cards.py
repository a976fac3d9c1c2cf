"""Fireteam Tomorrow's card fronts: each deck card with its side's view and its rules in short, for players."""

from __future__ import annotations

from .models import Rules
from .roster import Unit, carried


def fronts(cards: list[dict], sides: list, units: list[Unit], rules: Rules) -> list[dict]:
    """One front per deck card; a unit's card carries its side's view (colour, shape, badge), a shared card none.

    `side_path` and `unit_path` name the scenario keys the band's names come from, so that a name too long for
    the card is reported at its line and column (generator/fit.py).
    """
    by_code = {unit.code: unit for unit in units}
    weapons = carried([unit.record for unit in units if not unit.vehicle], rules)
    out = []
    for card in cards:
        unit = by_code.get(card["unit_code"])
        out.append(
            {
                **card,
                "kind": "ft " + card["type"].lower() + ("" if card["unit"] else " shared"),
                "view": sides[card["side_index"]] if card["side_index"] >= 0 else None,
                "text": card_text(card, rules, weapons, unit.record.kind if unit and unit.vehicle else ""),
                "side_path": f"sides[{card['side_index']}].name" if unit else "",
                "unit_path": unit.path if unit else "",
            }
        )
    return out


def card_text(card: dict, rules: Rules, carried: set[str], vehicle_kind: str = "") -> list[str]:
    """The card's rules in short, only those that apply to the card's unit, abbreviations spelt out.

    The HTH card's dice and weapon bonus (naming the weapons the scenario's figures carry that earn it) and the
    Recovery card's dice and target are read from the rule data. The Move and Fire cards'
    numbers (2D6, 6", -2", 24", 3D6, 12 vs 2, +1 leader within 9") and the HTH margins are still written out here;
    another issue makes them read the rule data.
    """
    if card["type"] == "Move":
        if card["vehicle"]:
            if vehicle_kind in ("hovercraft", "helicopter"):
                return [
                    "Move 3D6 inches, or up to the length of the table.",
                    "A hovercraft weaves through woods and narrow streets more slowly."
                    if vehicle_kind == "hovercraft"
                    else "A helicopter flies over woods, buildings and rivers.",
                ]
            return ["Move 3D6 inches.", 'Linear obstacle \u22122"; rough ground costs double.']
        lines = [
            'Each figure: 2D6 inches, or 6" without rolling.',
            'Linear obstacle \u22122"; rough ground costs double.',
        ]
        if card["jump_packs"]:
            lines.insert(1, 'Jump packs: up to 24" instead; then roll 2D6, and on a 2 the figure is HIT.')
        return lines
    if card["type"] == "Fire":
        if card["vehicle"]:
            return ["Each weapon fires: both sides roll 2D6.", "HIT if the firer's total is greater."]
        return [
            "Each figure may fire: firer and target each roll 2D6.",
            'Firer +1 with a leader within 9"; +1 per quality step better.',
            "HIT if the firer's total is greater; 12 against 2 always HITs.",
        ]
    if card["type"] == "HTH":
        return [
            "Hand-to-hand (HTH): every fight on the table, every side.",
            f"Each rolls {rules.hth.dice}D6 + armour level{_weapon_bonus(rules, carried)}.",
            "Win by 6 or more: kill or capture; by 3\u20135: killed; by 1\u20132: HIT; a tie fights on.",
        ]
    recovery = rules.recovery
    return [
        f"Every HIT figure, every side, rolls {recovery.dice}D6: {recovery.target} or more, it recovers; less, it is "
        "removed.",
        "Morale: a team down to two figures withdraws or joins another, unless its leader or hero lives.",
        "A side that has lost over half its figures withdraws, unless it outnumbers the enemy.",
    ]


def _weapon_bonus(rules: Rules, carried: set[str]) -> str:
    """', +2 with a pistol or assault rifle only': the HTH weapon bonus in words, naming the weapons that earn it
    among those the scenario's figures carry, in the weapon table's order."""
    bonus = rules.hth.weapon_bonus
    if not bonus:
        return ""
    earn = [w.name.lower() for w in rules.weapons if w.name in carried and w.hth_bonus]
    if not earn:
        return f" (no weapon carried here earns the +{bonus})"
    either = earn[0] if len(earn) == 1 else ", ".join(earn[:-1]) + " or " + earn[-1]
    only = "" if all(w.hth_bonus for w in rules.weapons if w.name in carried) else " only"
    return f", +{bonus} with {'an' if either[0] in 'aeiou' else 'a'} {either}{only}"
