"""WarSpike Tactical Core (seed 002): Instigator and Retaliator, Actions and Reactions, Paired-Resolutions, Blocks, Advantage."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from ...counters import MARKER_MM
from ...schema import Checker, Key
from ...svg import names_compass
from ...table import OnTable
from ...tablemap import TableView
from ...tables import Table
from ..base import Prepared, System
from . import advantage, cards, checks, odds, pack, roster
from .models import Rules
from .organisation import organise
from .scenario import Army, Settings


@dataclass
class BlocksPrepared(Prepared):
    """A WarSpike build worked out once: the scenario's typed keys and each side's Block tree as roster rows."""

    settings: Settings | None = None
    forces: list[dict] = field(default_factory=list)
    # what the Units of the sides that can be Retaliator may do (cards.reacting): the Reactions they may make, and
    # whether any is free to make a Changeover move; read by the cards, the tracker, the turn sequence and in_play
    reactions: frozenset[str] = frozenset()
    changeover: bool = False
    map: str = ""  # the table's map, where the scenario gives a table, terrain, objectives or deployment zones
    map_page: str = "portrait"  # the orientation of the map's page: landscape for a wide table
    armies: list = field(default_factory=list)  # each side's WarSpike keys (scenario.Army), in order
    table_view: object = None  # what the map is drawn from (tablemap.TableView): each side's orders draw their own


class WarSpike(System):
    id = "warspike"
    # seed 002 has no deck: see the rule data's `deck` note
    no_deck = (
        "warspike has no card deck or pre-drawn schedule: the Instigator comes from a coin toss, "
        "then from Advantage each turn, which depends on play; build the pack for its turn tracker"
    )
    appendix_parts = ("sequence", "reference")
    uses_seed = False
    title = "WarSpike Tactical Core"
    folder = Path(__file__).parent
    rules_model = Rules

    def scenario_keys(self) -> list[Key]:
        return Settings.keys(self.rules)

    def side_keys(self) -> list[Key]:
        return Army.keys(self.rules)

    def check(self, scenario, checker: Checker) -> list:
        checks.check(self.rules, scenario, checker)
        return []

    def derived_references(self, data) -> dict[str, str]:
        """'{advantage.counting}': what each side's Advantage total counts, from the rule data's counts;
        '{advantage.destroyed_words}': whose total a destroyed Unit counts towards."""
        try:
            counts = dict(data["advantage"]["counts"])
            return {
                "advantage.counting": advantage.counting_words(counts),
                "advantage.destroyed_words": advantage.destroyed_words(counts),
            }
        except (KeyError, TypeError, ValueError):
            return {}

    def odds(self, variants=()) -> list[Table]:
        return [odds.coin_toss(self.rules)]

    def prepare(self, scenario, seed: int, passes: int | None = None) -> BlocksPrepared:
        """The typed keys and every roster, from one walk of the (already checked) Block tree."""
        sides = scenario.side_views
        armies = [Army.of(side) for side in scenario.sides]
        organisation = organise([side.name for side in sides], armies)
        settings = Settings.of(scenario, self.rules)
        forces = roster.forces(organisation, sides, armies, settings.distance_unit)
        reactions, changeover = cards.reacting(forces, self.rules)
        drawn, page, view = "", "portrait", None
        if settings.table is not None:
            names = [o.name for o in settings.objectives] + [f.name for f in settings.terrain]
            edges = names_compass(scenario, names)
            on_table = [OnTable.of(army, "units") for army in armies]
            view = TableView(settings, on_table, sides, edges=edges, unit=settings.distance_unit)
            drawn, page = view.draw()
        return BlocksPrepared(
            scenario, seed, None, settings, forces, frozenset(reactions), changeover, drawn, page, armies, view
        )

    def in_play(self, prepared: BlocksPrepared) -> dict[str, bool]:
        """The Block rules (the section, everything under `blocks`, a Block's Move) and hold orders: whether any
        army is organised in Blocks, and whether any Unit holds; the notes on Advantage, whether both sides can
        be Instigator (a battle where one side only can tallies no Advantage, and its reference says so: the
        Ford's notes went on to settle Advantage ties), and for the Advantage of a side that cannot instigate,
        whether any Unit holds too; the scenario Instigator's, whether the scenario names one."""
        blocks = any(force["blocks"] for force in prepared.forces)
        holding = any(force["holding"] for force in prepared.forces)
        contested = sum(1 for force in prepared.forces if force["can_instigate"]) > 1
        hold, advantage = self.rules.hold, self.rules.advantage
        notes = (advantage.rough, advantage.destroyed, advantage.blocks)
        return {
            "Blocks": blocks,
            "blocks": blocks,
            self.rules.block_move.name: blocks,
            hold.name: holding,
            hold.reactions_note.name: holding,
            **{note.name: contested for note in notes},
            # a side left with only holding Units (its others destroyed) may win the Advantage
            advantage.cannot_instigate.name: contested and holding,
            # the note on countering a Move speaks of the Move Reaction's card: a battle whose Units that can be
            # Retaliator cannot make that Reaction (all hold) prints neither (cards.reacting)
            self.rules.movement_counter.name: self.rules.movement_counter.reaction in prepared.reactions,
            self.rules.coin_toss.scenario_instigator.name: prepared.settings.instigator is not None,
            self.rules.terrain_note.name: bool(prepared.settings.terrain),
        }

    def pack(self, prepared: BlocksPrepared) -> dict:
        return pack.pack(prepared, self.rules, self.reference_data)

    def counters(self, prepared: BlocksPrepared) -> tuple[float, list]:
        return MARKER_MM, cards.counters(prepared.forces, self.rules)

    def cards(self, prepared: BlocksPrepared, card_size: str) -> list[dict]:
        return cards.cards(prepared.forces, self.rules, prepared.reactions, prepared.changeover)


SYSTEM = WarSpike()
