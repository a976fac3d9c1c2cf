"""Para Bellum (seed 003): D6 action points cut by Stress and raised by Take Action! orders, Short and Long actions."""

from __future__ import annotations

from pathlib import Path

from ...counters import MARKER_MM
from ...schema import Checker, Key
from ..base import System
from . import cards, checks, odds, pack, roster, text
from .models import Rules
from .roster import ForcesPrepared
from .units import Setup, Side


class ParaBellum(System):
    id = "para-bellum"
    title = "Para Bellum"
    folder = Path(__file__).parent
    rules_model = Rules
    # rules.yaml `deck`: no deck in the seed, and a pre-rolled sheet would spoil the order's gamble
    no_deck = (
        "para-bellum has no card deck: players alternate activations and roll a D6 for action points as each "
        "unit activates (a pre-rolled sheet would show the roll before the Take Action! order is decided). "
        "`muster build` prints a card for each unit and each action."
    )
    appendix_parts = ("odds", "plans", "reference")
    uses_seed = False
    # every size has its own styles (cards.css); a mini card also says less (cards.BRIEF)
    card_sizes = ("poker", "mini", "tarot")

    def derived_references(self, data) -> dict[str, str]:
        return text.derived(data)

    def variants(self) -> dict[str, str]:
        return {name: variant.summary for name, variant in self.rules.variants.by_name().items()}

    def variant_names(self) -> dict[str, str]:
        return {name: variant.name for name, variant in self.rules.variants.by_name().items()}

    def scenario_keys(self) -> list[Key]:
        return Setup.keys(self.rules)

    def side_keys(self) -> list[Key]:
        return Side.keys(self.rules)

    def check(self, scenario, checker: Checker) -> list:
        return checks.check(scenario, checker)

    def odds(self, variants=()) -> list:
        return odds.all_tables(self.rules, tuple(variants))

    def prepare(self, scenario, seed: int, passes: int | None = None) -> ForcesPrepared:
        return roster.prepare(self.rules, scenario, seed)

    def in_play(self, prepared: ForcesPrepared) -> dict[str, bool]:
        """Each weapon tag, and the HQ rules: whether any unit's weapon carries the tag, whether any unit is an HQ."""
        return pack.in_play(self.rules, prepared)

    def pack(self, prepared: ForcesPrepared) -> dict:
        return pack.pack(self.rules, prepared, self.leaves_out(prepared), self.written_rules)

    def counters(self, prepared: ForcesPrepared) -> tuple[float, list]:
        return MARKER_MM, cards.counters(self.rules, prepared)

    def cards(self, prepared: ForcesPrepared, card_size: str) -> list[dict]:
        return cards.cards(self.rules, prepared, card_size)


SYSTEM = ParaBellum()
