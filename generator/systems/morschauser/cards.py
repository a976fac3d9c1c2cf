"""One card per unit for templates/morschauser-modern/cards.html: its marker, numbers, start square, rules and tiles."""

from __future__ import annotations


def cards(roster: list[dict]) -> list[dict]:
    """A card front for every roster line, with the special rules its type has as lines of text."""
    out = []
    for row in roster:
        lines = []
        if row["fires"]:
            # its range and arc are in the card's numbers above
            lines.append(
                "Fires in the artillery phase" + ("." if row["indirect"] else ", never indirectly; off target misses.")
            )
            lines.append("After firing: remove its tile; it may not move.")
        if row["advance"]:
            lines.append("Won a battle: it may take the loser's square.")
        lines.append(f"Hills: {row['contours']} contour{'s' if row['contours'] > 1 else ''} up or down a step.")
        # the tiles in rows of five turns, each turn's number over its playing card
        tiles = row["tiles"]
        rows = [
            [(start + i + 1, tile) for i, tile in enumerate(tiles[start : start + 5])]
            for start in range(0, len(tiles), 5)
        ]
        out.append({**row, "kind": "unit", "text": lines, "tile_rows": rows})
    return out
