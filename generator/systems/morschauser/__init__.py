"""Morschauser Modern (seed 004): a square grid, card-tile activation, artillery scatter, D6 + Battle Power battles."""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Any

from ...models import english_list
from ...schema import Checker, Key
from ...svg import names_compass
from ..base import Prepared, System
from . import battlefield, checks, deck, odds, relief, roster
from .cards import cards, counters
from .models import Rules
from .pack import pack
from .scenario import GridScenario, Side


@dataclass
class GridPrepared(Prepared):
    """A Morschauser build worked out once: the typed scenario, the roster with every turn's tile, the map and legends."""

    rules: Any = None  # models.Rules
    game: GridScenario | None = None
    roster: list[dict] = field(default_factory=list)
    map: str = ""
    legend: list[dict] = field(default_factory=list)
    glyph_legend: list[dict] = field(default_factory=list)
    map_page: str = "portrait"  # the orientation of the map's page: landscape for a wide grid
    steepest_step: int = 0  # the most levels between two squares that share a side (relief.steepest)
    square_mm: float = 20.0  # a square of the printed map, in mm: the unit counters' size


class MorschauserModern(System):
    id = "morschauser-modern"
    title = "Morschauser Modern"
    folder = Path(__file__).parent
    rules_model = Rules

    def variants(self) -> dict[str, str]:
        return {variant.id: variant.summary for variant in self.rules.variants}

    def variant_names(self) -> dict[str, str]:
        return {variant.id: variant.name for variant in self.rules.variants}

    def unplayed(self, played: frozenset[str]) -> frozenset[str]:
        """Also the note on how the two scatter variants go together, unless the booklet plays both."""
        out = super().unplayed(played)
        if sum(variant.id in played for variant in self.rules.variants if variant.scatter) < 2:
            out |= {self.rules.variants_note.name}
        return out

    def scenario_keys(self) -> list[Key]:
        return GridScenario.keys(self.rules)

    def side_keys(self) -> list[Key]:
        return Side.keys(self.rules)

    def check(self, scenario, checker: Checker) -> list:
        checks.check(self.rules, GridScenario.of(scenario), checker)
        return []

    def odds(self, variants=()) -> list:
        # the tables depend only on the rule data and the variants: worked out once per process
        variants = tuple(variants)
        if variants not in self._odds_memo:
            self._odds_memo[variants] = odds.all_tables(self.rules, variants)
        return self._odds_memo[variants]

    @cached_property
    def _odds_memo(self) -> dict:
        return {}

    def most_passes(self) -> tuple[int, str]:
        return self.rules.limits.turns_max, "turns"

    def prepare(self, scenario, seed: int, passes: int | None = None) -> GridPrepared:
        game = GridScenario.of(scenario)
        units = roster.listed(self.rules, game, scenario.side_views)
        schedule = deck.schedule(self.rules, self.id, scenario.title, units, seed, passes or game.turns)
        names = [objective.name for objective in game.objectives] + [entry.name for entry in game.terrain]
        edges = names_compass(scenario, names)
        terrain = battlefield.terrain_map(game)
        svg, legend, map_page, square_mm = battlefield.draw(game, terrain, units, edges)
        levels = {square: cell.level for square, cell in terrain.items() if cell.level}
        return GridPrepared(
            scenario,
            seed,
            schedule,
            self.rules,
            game,
            roster.roster(self.rules, units),
            svg,
            legend,
            battlefield.glyph_legend(units),
            map_page,
            relief.steepest(levels, game.grid.columns, game.grid.rows),
            square_mm,
        )

    def deck_text(self, deck_data: dict) -> str:
        return deck.deck_text(deck_data, self.rules)

    def board(self, prepared: GridPrepared):
        """The grid alone, a square an inch of the picture: terrain, contours, objectives, no units (the players'
        own counters stand on it)."""
        from ...tablemap import Board

        game = prepared.game
        drawing = battlefield.grid_map(game, battlefield.terrain_map(game), [], False)
        return Board(drawing.svg(bare=True), game.grid.columns, game.grid.rows, "a grid square")

    def derived_references(self, data) -> dict[str, str]:
        """'{turn.order}': the activation order in words, from the ranks and suits (a house bag has its own);
        '{artillery.effect_words}': the effect roll, "D6: direct fire 5-6 destroys; indirect fire 6 destroys"."""
        out = {}
        try:
            out["turn.order"] = deck.order_words(data["turn"]["ranks"], data["turn"]["suit_names"])
        except (KeyError, TypeError, IndexError):
            pass
        try:
            effect = data["artillery"]["effect"]
            out["artillery.effect_words"] = f"D{data['artillery']['die']}: " + "; ".join(
                f"{kind} fire {_faces(effect[kind])} destroys" for kind in ("direct", "indirect")
            )
        except (KeyError, TypeError, ValueError):
            pass
        try:
            out.update(_battle_words(data["battle"]["modifiers"], data["battle"]["minimum_power"], data["unit_types"]))
        except (KeyError, TypeError, ValueError):
            pass
        return out

    def in_play(self, prepared: GridPrepared) -> dict[str, bool]:
        """Each unit type, the artillery rules and the terrain notes: whether the scenario fields them."""
        return roster.in_play(self.rules, prepared.game, prepared.roster)

    def pack(self, prepared: GridPrepared) -> dict:
        tables = self.odds(tuple(prepared.game.variants))
        return pack(prepared, tables, odds.power_range(self.rules), self.leaves_out(prepared), self.written_rules)

    def counters(self, prepared: GridPrepared) -> tuple[float, list]:
        return prepared.square_mm, counters(prepared.roster)

    def counters_note(self, prepared: GridPrepared) -> str:
        return (
            f"Each counter is a square of the printed map ({prepared.square_mm:.0f} mm). The bar along its top edge "
            "is the unit's front: set it in its square facing as the map's arrow points."
        )

    def cards(self, prepared: GridPrepared, card_size: str) -> list[dict]:
        """One card per unit: its marker, its numbers, where it starts, and its tile for every turn."""
        return cards(prepared.roster)


# what a group of battle modifiers that exclude each other adds at best, said in the battle note
GROUP_WORDS = {"terrain": "for cover or fortifications", "hill": "for an enemy below"}


def _battle_words(modifiers: list, floor: int, unit_types: list) -> dict[str, str]:
    """The battle note's figures, worked out as odds.power_range works out the battle table (a group's modifiers
    exclude each other, so each group adds its best bonus): '{battle.terrain_words}', "a trench in a wood is +2,
    not +3"; '{battle.range_words}', "from Battle Power 1 to 10: the strongest unit's 7, +2 for cover or
    fortifications and +1 for an enemy below"."""
    by_id = {m["id"]: int(m["value"]) for m in modifiers}
    cover, fortification = by_id["cover"], by_id["fortification"]
    top = max(int(t["battle_power"]) for t in unit_types)
    best: dict[str, tuple[int, str]] = {}
    for m in modifiers:
        group = m.get("group") or m["id"]
        if int(m["value"]) > best.get(group, (0, ""))[0]:
            best[group] = (int(m["value"]), GROUP_WORDS.get(group, "for " + str(m["name"]).lower()))
    bonuses = [f"+{value} {words}" for value, words in best.values()]
    high = top + sum(value for value, _ in best.values())
    return {
        "battle.terrain_words": f"a trench in a wood is +{max(cover, fortification)}, not +{cover + fortification}",
        "battle.range_words": f"from Battle Power {floor} to {high}: the strongest unit's {top}"
        + (", " + english_list(bonuses) if bonuses else ""),
    }


def _faces(faces: list[int]) -> str:
    """A die's faces in words: [5, 6] "5-6", [6] "6", [2, 4, 6] "2, 4 or 6"."""
    faces = sorted(int(face) for face in faces)
    if len(faces) > 1 and faces == list(range(faces[0], faces[-1] + 1)):
        return f"{faces[0]}-{faces[-1]}"
    return " or ".join(filter(None, [", ".join(str(face) for face in faces[:-1]), str(faces[-1])]))


SYSTEM = MorschauserModern()
