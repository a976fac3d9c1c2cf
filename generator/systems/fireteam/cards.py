"""Fireteam Tomorrow's card fronts: each deck card with its side's view and its rules in short."""

from __future__ import annotations


def fronts(cards: list[dict], sides: list) -> list[dict]:
    """One front per deck card; a unit's card carries its side's view (colour, shape, badge), a shared card none."""
    return [
        {
            **card,
            "kind": "ft " + card["type"].lower() + ("" if card["unit"] else " shared"),
            "view": sides[card["side_index"]] if card["side_index"] >= 0 else None,
            "text": card_text(card),
        }
        for card in cards
    ]


def card_text(card: dict) -> list[str]:
    """The card's rules in short.

    The numbers here (2D6, 6", -2", 24", 3D6, 12 vs 2, +1 leader within 9", +2 weapon bonus, margins 6+/3-5/1-2,
    recovery on 8) are written out rather than read from rules.yaml; another issue makes them read the rule data.
    """
    if card["type"] == "Move":
        if card["vehicle"]:
            return ["Move 3D6 inches.", "Hovercraft and helicopters: up to the length of the table."]
        lines = [
            'Each figure: 2D6 inches, or 6" without rolling.',
            'Linear obstacle \u22122"; rough ground costs double.',
        ]
        if card["jump_packs"]:
            lines.insert(1, 'Jump packs: up to 24"; a 2 on 2D6 is a HIT.')
        return lines
    if card["type"] == "Fire":
        if card["vehicle"]:
            return ["Each weapon fires: opposed 2D6.", "HIT if the firer's total is greater."]
        return [
            "Each figure may fire: opposed 2D6.",
            'Firer +1 leader within 9"; +1 per quality step better.',
            "HIT if the firer's total is greater; 12 vs 2 always HITs.",
        ]
    if card["type"] == "HTH":
        return [
            "All hand-to-hand fights, every side.",
            "2D6 + armour level + 2 for pistol, rifle or blade.",
            "Margin 6+ kill or capture; 3\u20135 killed; 1\u20132 HIT; tie fight on.",
        ]
    return [
        "Every HIT figure, every side: 2D6.",
        "8 or more stands; less is removed.",
        "Then check morale: teams of two, sides past half.",
    ]
