"""Fireteam Tomorrow's activation deck: a Move and a Fire card per team and vehicle plus the shared cards, shuffled each pass."""

from __future__ import annotations

from ...decks import rng_for, shuffled
from .models import Rules
from .roster import Unit


def deck_cards(rules: Rules, units: list[Unit], sides: list) -> list[dict]:
    """The deck in its printed order, before shuffling: each unit's cards, then the shared ones."""
    cards = []
    for unit in units:
        for kind in rules.deck.per_vehicle if unit.vehicle else rules.deck.per_team:
            cards.append(
                {
                    "id": f"{unit.code}-{kind.lower()}",
                    "type": kind,
                    "unit": unit.name,
                    "unit_code": unit.code,
                    "vehicle": unit.vehicle,
                    "side": sides[unit.side].name,
                    "side_index": unit.side,
                    "jump_packs": unit.jump_packs,
                }
            )
    for kind in rules.deck.shared:
        cards.append(
            {
                "id": kind.lower(),
                "type": kind,
                "unit": "",
                "unit_code": "",
                "vehicle": False,
                "side": "",
                "side_index": -1,
                "jump_packs": False,
            }
        )
    return cards


def shuffle(cards: list[dict], seed: int, passes: int) -> list[list[str]]:
    """The card ids in playing order, pass by pass."""
    ids = [card["id"] for card in cards]
    # seed 001: "shuffling and reusing after all have been used" -> each pass a fresh shuffle
    return [shuffled(ids, rng_for(seed, f"pass-{p + 1}")) for p in range(passes)]


def listing(deck: dict) -> str:
    """The deck for a terminal: a heading, then each pass numbered, naming side, unit and card."""
    names = {c["id"]: (f"{c['side']}: {c['unit']} {c['type']}" if c["unit"] else c["type"]) for c in deck["cards"]}
    lines = [f"{deck['scenario']}: deck number {deck['seed']}, {len(deck['cards'])} cards"]
    for p, run in enumerate(deck["passes"], 1):
        lines.append(f"Pass {p}:")
        lines += [f"  {i:2}. {names[c]}" for i, c in enumerate(run, 1)]
    return "\n".join(lines)
