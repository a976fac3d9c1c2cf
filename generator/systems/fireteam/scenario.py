"""Fireteam Tomorrow's scenario keys as typed models: the table, its terrain and objectives, each side's teams and vehicles.

Terrain kinds, qualities, weapons and the like are names from the rule data: those keys are declared FromRules and
the models are checked bound to the system's rules (Model.keys(rules)). The scenario's own keys then read as
attributes (team.quality, feature.shape) once validation has built them.
"""

from __future__ import annotations

from dataclasses import dataclass

from ...models import FromRules, Model, Typed, key
from ...scenario import NAME_PATTERN
from ...schema import Bool, Choice, Int, ListOf, Str
from ...table import (
    AT_DOC,
    DEPLOYMENT,
    MOVES,
    MOVES_DOC,
    POINT,
    REINFORCEMENTS,
    REINFORCEMENTS_DOC,
    Objective,
    TableSize,
)
from ...table import Feature as Piece

PERSON = Str(40, NAME_PATTERN, "a name")
NAME = Str(40, NAME_PATTERN, "a name (no control characters, < > { } or \\)")
A_QUALITY = FromRules(lambda rules: Choice(rules.qualities, "a troop quality, one of"))
A_WEAPON = FromRules(lambda rules: Choice([w.name for w in rules.weapons], "a weapon from the weapon table, one of"))


@dataclass(frozen=True)
class Feature(Piece):
    """A terrain piece: a kind, an optional name and cover, and exactly one shape (all in inches)."""

    cover: str | None = key(
        FromRules(lambda rules: Choice([c.name for c in rules.cover], "a cover level, one of")),
        "Cover for figures in or behind it; defaults to the kind's.",
        default=None,
    )


PASSES_MAX = 40  # a game's passes through the deck; also the bound of `muster deck --passes`


@dataclass(frozen=True)
class Battle(Model):
    """The keys a Fireteam scenario adds to the common ones."""

    table: TableSize = key(Typed(TableSize), "The table's size in inches.", default=TableSize(72, 48))
    passes: int = key(
        Int(1, PASSES_MAX), "How many passes through the deck the run-sheet prints (the game's length).", default=6
    )
    terrain: list = key(ListOf(Typed(Feature), max=120), "Terrain pieces drawn on the map.", default=[])
    objectives: list = key(ListOf(Typed(Objective), max=20), "Objectives marked on the map.", default=[])


@dataclass(frozen=True)
class Figure(Model):
    """One figure, or a line of identical figures."""

    role: str = key(
        FromRules(lambda rules: Choice([r.name for r in rules.roles], "a role, one of")),
        "trooper, leader, medic or fixer.",
        default="trooper",
    )
    weapon: str | None = key(A_WEAPON, "The figure's weapon (see the weapon table).", default=None)
    quality: str | None = key(A_QUALITY, "This figure's quality when it differs from its team's.", default=None)
    name: str | None = key(PERSON, "A name for the figure.", default=None)
    count: int = key(Int(1, 50), "How many identical figures this line stands for.", default=1)


@dataclass(frozen=True, kw_only=True)  # keyword-only: figures, required, comes after optional keys
class Team(Model):
    """A fireteam: 3 to 6 figures (a group of less capable fighters may have more)."""

    name: str = key(NAME, "The team's name (its cards carry it).")
    quality: str = key(A_QUALITY, "Poor, Fair, Good, Elite or Hero.")
    armour: str = key(
        FromRules(lambda rules: Choice([a.name for a in rules.armour], "an armour level, one of")),
        "none, light, medium or heavy.",
        default="none",
    )
    player: str | None = key(PERSON, "Who plays this team (each player controls one team).", default=None)
    jump_packs: bool = key(Bool(), "Whether the team wears jump packs.", default=False)
    group: bool = key(
        Bool(), "A group of less capable fighters (Poor or Fair), allowed more than six figures.", default=False
    )
    figures: list = key(ListOf(Typed(Figure), min=1, max=60), "The figures, one line each or with a count.")
    at: list | None = key(POINT, AT_DOC, default=None)


@dataclass(frozen=True)
class Vehicle(Model):
    """A tracked, wheeled or flying vehicle."""

    name: str = key(NAME, "The vehicle's name.")
    kind: str = key(
        FromRules(lambda rules: Choice(rules.vehicles.kinds, "a vehicle kind, one of")),
        "tracked, wheeled, hovercraft or helicopter.",
    )
    quality: str = key(A_QUALITY, "The crew's quality.")
    weapons: list = key(ListOf(A_WEAPON, min=1, max=4), "The vehicle's weapons.")
    player: str | None = key(PERSON, "Who drives it.", default=None)
    at: list | None = key(POINT, AT_DOC, default=None)


@dataclass(frozen=True)
class Side(Model):
    """The keys each side adds to its name, colour and briefing."""

    teams: list = key(ListOf(Typed(Team), min=1, max=16), "The side's fireteams.")
    vehicles: list = key(ListOf(Typed(Vehicle), max=8), "Tracked, wheeled or flying vehicles.", default=[])
    deployment: list | None = key(
        DEPLOYMENT,
        "Where the side deploys, in inches: one rectangle [x, y, width, depth], or a list of zones, each a "
        "`rect`, a `polygon` or an `edge` (with a `depth`, a strip along it; without, the side enters from it).",
        default=None,
    )
    reinforcements: list = key(REINFORCEMENTS, REINFORCEMENTS_DOC, default=[])
    moves: list = key(MOVES, MOVES_DOC, default=[])


def read(scenario) -> tuple:
    """A validated scenario's Fireteam keys and its sides' as typed records: (battle, [side, ...])."""
    return Battle.from_clean(scenario.data), [Side.from_clean(side) for side in scenario.sides]
