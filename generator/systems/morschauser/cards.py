"""One card per unit for templates/morschauser-modern/cards.html: its marker, numbers, start square, rules and tiles."""

from __future__ import annotations


def cards(roster: list[dict]) -> list[dict]:
    """A card front for every roster line, with the special rules its type has as lines of text."""
    out = []
    for row in roster:
        lines = []
        if row["fires"]:
            lines.append(
                f"Fires in the Artillery Fire Phase: range {row['range']}, arc {row['arc']}\u00b0"
                + ("" if row["indirect"] else "; never indirectly; off target is a miss")
                + "."
            )
            lines.append("If it fires: remove its tile; it may not move this turn.")
        if row["advance"]:
            lines.append("After winning a battle it may move into the square the loser left.")
        lines.append(f"Hills: up or down {row['contours']} contour{'s' if row['contours'] > 1 else ''} a step.")
        out.append({**row, "kind": "unit", "text": lines})
    return out
