"""Fireteam Tomorrow's table map: the core table map, each piece labelled with its cover from the rule data."""

from __future__ import annotations

from markupsafe import Markup

from ...table import OnTable
from ...tablemap import TableMap, TableView
from ...tablemap import table_map as drawn
from .models import Rules


def table_view(rules: Rules, battle, forces: list, sides: list, edges: bool = False) -> TableView:
    """What the scenario's table is drawn from (tablemap.TableView), each piece's name with its cover: the piece's
    own, or its kind's from the rule data."""
    default_cover = {kind.name: kind.cover for kind in rules.terrain}
    return TableView(
        battle,
        [OnTable.of(side, "teams", "vehicles") for side in forces],
        sides,
        cover=lambda feature: feature.cover or default_cover[feature.kind],
        edges=edges,
        turn_word="pass",  # reinforcements come on a pass through the deck
    )


def table_map(rules: Rules, battle, forces: list, sides: list, edges: bool = False) -> TableMap:
    """The scenario's shared table map (tablemap.table_map), labelled with cover."""
    view = table_view(rules, battle, forces, sides, edges)
    return drawn(view.battle, view.on_table, view.sides, view.cover, view.edges, turn_word=view.turn_word)


def draw(rules: Rules, battle, forces: list, sides: list, edges: bool = False) -> tuple[Markup, str]:
    """The scenario's table as one SVG (see table_map), and the orientation of the page it prints on."""
    return table_view(rules, battle, forces, sides, edges).draw()
