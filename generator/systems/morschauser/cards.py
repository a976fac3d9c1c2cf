"""One card per unit for templates/morschauser-modern/cards.html: its marker, numbers, start square and rules."""

from __future__ import annotations


def cards(roster: list[dict]) -> list[dict]:
    """A card front for every roster line, with the special rules its type has as lines of text."""
    out = []
    for row in roster:
        lines = []
        if row["fires"]:
            # its range and arc are in the card's numbers above
            # rule data (weapons, afv-or-at): "never fire indirectly" means never at what it cannot see; a seen
            # target in fortifications, a town or a wood is fired at, with the indirect effect roll (the odds table
            # says so). "Never indirectly" beside the quick reference's "fire is indirect if ... in fortifications"
            # read as Hill 112's tanks never firing at its trenches.
            # the phase by the name the turn sequence gives it (rules.yaml, reference), capitals and all
            lines.append(
                "Fires in the Artillery Fire Phase."
                if row["indirect"]
                else "Fires in the Artillery Fire Phase, only at a unit it can see; off target misses."
            )
            lines.append("After firing: it loses this turn's tile and may not move.")
        if row["advance"]:
            lines.append("Won a battle: it may take the loser's square.")
        lines.append(f"Hills: {row['contours']} contour{'s' if row['contours'] > 1 else ''} up or down a step.")
        # no tile: the original rules keep it face down until the Artillery Fire Phase is over (the pack's note)
        out.append({**row, "kind": "unit", "text": lines})
    return out


def counters(roster: list[dict]) -> list:
    """A counter for every unit, the size of a square of the printed map so it stands in one: its marker (the
    type's symbol in its side's frame), its code and a bar along the edge it faces (its top: set it facing as the
    map's arrow shows); its back its code and side, so a counter knocked over is put back (a name would not fit
    a square of 13 mm at 7 pt)."""
    from ...counters import Counter, Face

    out = []
    for row in roster:
        side = row["side"]
        front = Face(row["code"], (), side.colour, picture=row["marker"], facing=True, alt=f"{row['type']} symbol")
        back = Face.of(side, row["code"])
        out.append(Counter(front, back))
    return out
