"""The activation schedule: each turn a tile for every unit from a full bag of 52, in activation order."""

from __future__ import annotations

from ...decks import rng_for, shuffled
from .models import Rules

SUIT_SYMBOLS = {"H": "\u2665", "C": "\u2663", "D": "\u2666", "S": "\u2660"}
FACES = {"A": "Ace", "J": "Jack", "Q": "Queen", "K": "King"}  # a tile's rank as a player says it


def rank_word(rank: str) -> str:
    return FACES.get(rank, rank)


def order_words(ranks: list, suit_names: list) -> str:
    """The activation order as a sentence says it: 'Ace to King; equal ranks go Hearts, Clubs, Diamonds, Spades'."""
    return (
        f"{rank_word(str(ranks[0]))} to {rank_word(str(ranks[-1]))}; equal ranks go {', '.join(map(str, suit_names))}"
    )


def full_deck(rules: Rules) -> list[str]:
    """The tiles in activation order: AH AC AD AS 2H ... KS."""
    return [rank + suit for rank in rules.turn.ranks for suit in rules.turn.suits]


def card_order_key(card: str, rules: Rules) -> tuple[int, int]:
    """Where a tile such as "10S" falls in the activation order: rank first (Ace low), then suit."""
    return (rules.turn.ranks.index(card[:-1]), rules.turn.suits.index(card[-1]))


def card_label(card: str) -> dict:
    """A tile as printed: its rank, its suit's symbol, whether it is red."""
    return {"rank": card[:-1], "suit": SUIT_SYMBOLS[card[-1]], "red": card[-1] in "HD", "code": card}


def schedule(rules: Rules, system_id: str, title: str, units: list, seed: int, turns: int) -> dict:
    """Each turn's tiles drawn from a full bag, one a unit, in activation order (the JSON `muster deck` prints)."""
    tiles = full_deck(rules)
    out = []
    for turn in range(1, turns + 1):
        # seed 004: "a playing card tile is picked out of the bag ... next to each unit"; the bag is full again each turn
        bag = shuffled(tiles, rng_for(seed, f"turn-{turn}"))
        drawn = [(bag[i], unit) for i, unit in enumerate(units)]
        drawn.sort(key=lambda pair: card_order_key(pair[0], rules))
        out.append(
            {
                "turn": turn,
                "draws": [
                    {"unit": unit.name, "code": unit.code, "side": unit.side.name, "card": card} for card, unit in drawn
                ],
            }
        )
    return {"system": system_id, "scenario": title, "seed": seed, "turns": out}


def deck_text(deck: dict, rules: Rules) -> str:
    """The schedule for a terminal: one line a draw under each turn."""
    order = order_words(rules.turn.ranks, rules.turn.suit_names)
    lines = [f"{deck['scenario']}: deck number {deck['seed']}, activation order per turn ({order})"]
    for turn in deck["turns"]:
        lines.append(f"Turn {turn['turn']}:")
        lines += [f"  {draw['card']:>3}  {draw['code']:<4} {draw['side']}: {draw['unit']}" for draw in turn["draws"]]
    return "\n".join(lines)
