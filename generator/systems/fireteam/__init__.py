"""Fireteam Tomorrow (seed 001): teams of 3 to 6, a Move and a Fire card each, opposed 2D6 fire, recovery on 8+.

The system wires its stages: models (rule data), scenario (scenario keys), checks, roster, deck, map, pack, cards, odds.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from ...counters import MARKER_MM
from ...schema import Checker, Key
from ...svg import names_compass
from ..base import Prepared, System
from . import checks, odds
from .cards import counters, fronts
from .deck import deck_cards, listing, shuffle
from .map import table_view
from .models import Rules
from .pack import pack_data
from .roster import in_play, units
from .scenario import PASSES_MAX, Battle, Side, read


@dataclass
class FireteamPrepared(Prepared):
    """A Fireteam build worked out once: the typed scenario keys and sides, and the map (the deck is Prepared.deck)."""

    battle: object = None  # the scenario's Fireteam keys (scenario.Battle)
    forces: list = field(default_factory=list)  # each side's teams and vehicles (scenario.Side), in order
    map: str = ""
    map_page: str = "portrait"  # the orientation of the map's page: landscape for a wide table
    table_view: object = None  # what the map is drawn from (tablemap.TableView): each side's orders draw their own


class FireteamTomorrow(System):
    id = "fireteam-tomorrow"
    title = "Fireteam Tomorrow"
    folder = Path(__file__).parent
    rules_model = Rules

    def scenario_keys(self) -> list[Key]:
        return Battle.keys(self.rules)

    def side_keys(self) -> list[Key]:
        return Side.keys(self.rules)

    def check(self, scenario, checker: Checker) -> list:
        battle, forces = read(scenario)
        return checks.check(self.rules, battle, forces, [side["name"] for side in scenario.sides], checker)

    def odds(self, variants=()) -> list:
        return odds.all_tables(self.rules)

    def prepare(self, scenario, seed: int, passes: int | None = None) -> FireteamPrepared:
        battle, forces = read(scenario)
        sides = scenario.side_views
        cards = deck_cards(self.rules, units(forces), sides)
        runs = shuffle(cards, seed, passes or battle.passes)
        deck = {"system": self.id, "scenario": scenario.title, "seed": seed, "cards": cards, "passes": runs}
        names = [objective.name for objective in battle.objectives] + [feature.name for feature in battle.terrain]
        view = table_view(self.rules, battle, forces, sides, edges=names_compass(scenario, names))
        svg, page = view.draw()
        return FireteamPrepared(scenario, seed, deck, battle, forces, svg, page, view)

    def most_passes(self) -> tuple[int, str]:
        return PASSES_MAX, "passes"

    def deck_text(self, deck: dict) -> str:
        return listing(deck)

    def in_play(self, prepared: FireteamPrepared) -> dict[str, bool]:
        """Each weapon by name, the vehicle rules, hovercraft, jump packs, fixers and groups: fielded or not."""
        return in_play(self.rules, prepared.forces)

    def pack(self, prepared: FireteamPrepared) -> dict:
        return pack_data(self.rules, prepared, self.odds(), self.leaves_out(prepared), self.written_rules)

    def counters(self, prepared: FireteamPrepared) -> tuple[float, list]:
        battle = prepared.battle
        return MARKER_MM, counters(self.rules, prepared.forces, prepared.sides, battle.objectives)

    def cards(self, prepared: FireteamPrepared, card_size: str) -> list[dict]:
        return fronts(prepared.deck["cards"], prepared.sides, units(prepared.forces), self.rules, card_size)


SYSTEM = FireteamTomorrow()
