"""Fireteam Tomorrow's table map: the core table map, each piece labelled with its cover from the rule data."""

from __future__ import annotations

from markupsafe import Markup

from ...tablemap import TableMap
from ...tablemap import table_map as drawn
from .models import Rules


def table_map(rules: Rules, battle, forces: list, sides: list, edges: bool = False) -> TableMap:
    """The scenario's table (tablemap.table_map), each piece's name with its cover: the piece's own, or its
    kind's from the rule data."""
    default_cover = {kind.name: kind.cover for kind in rules.terrain}
    return drawn(
        battle,
        [side.deployment for side in forces],
        sides,
        cover=lambda feature: feature.cover or default_cover[feature.kind],
        edges=edges,
    )


def draw(rules: Rules, battle, forces: list, sides: list, edges: bool = False) -> tuple[Markup, str]:
    """The scenario's table as one SVG (see table_map), and the orientation of the page it prints on."""
    drawing = table_map(rules, battle, forces, sides, edges)
    return drawing.svg(), drawing.frame.orientation
