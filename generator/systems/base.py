"""The small protocol every rule system implements, and the rule-data loading they share."""

from __future__ import annotations

from functools import cached_property
from pathlib import Path
from typing import Any

from ..loading import Document, load_file
from ..schema import Checker, Key
from ..tables import Table


def collect_notes(data: Any, where: str = "") -> list[dict]:
    """Every `note:` in the rule data with the rule it belongs to, for the reference sheet."""
    out: list[dict] = []
    if isinstance(data, dict):
        label = data.get("name") or data.get("title") or where
        if isinstance(data.get("note"), str):
            out.append({"rule": str(label), "note": data["note"].strip()})
        for key, value in data.items():
            if key != "note":
                out.extend(collect_notes(value, str(value.get("name", key)) if isinstance(value, dict) else key))
    elif isinstance(data, list):
        for item in data:
            out.extend(collect_notes(item, where))
    return out


class System:
    """A rule system: its rule data, the scenario keys it adds, checks, odds, deck, pack and cards.

    Subclasses set `id`, `title` and `folder` (the package folder holding rules.yaml) and override
    the methods below. Templates for the system live in templates/<id>/: pack.html and cards.html.
    """

    id: str = ""
    title: str = ""
    folder: Path
    # the pack's <section> ids that explain the system rather than the scenario: a booklet prints
    # them once per system in an appendix instead of in every chapter
    appendix_parts: tuple[str, ...] = ("odds", "reference")
    # whether anything is shuffled or drawn from the seed (if not, no seed is printed)
    uses_seed: bool = True
    # the card sizes (generator/cards.py) this system's cards are laid out for
    card_sizes: tuple[str, ...] = ("poker", "mini", "tarot")

    def appendix_key(self, scenario) -> tuple:
        """Scenarios sharing this key share one appendix (systems with variants add them here)."""
        return (self.id, tuple(sorted(scenario.data.get("variants") or [])))

    @cached_property
    def rules_doc(self) -> Document:
        return load_file(self.folder / "rules.yaml")

    @property
    def rules(self) -> dict:
        return self.rules_doc.data

    # --- the schema ------------------------------------------------------------------
    def scenario_keys(self) -> list[Key]:
        """Top-level scenario keys this system adds (table, terrain, turns...)."""
        return []

    def side_keys(self) -> list[Key]:
        """Keys of each entry of `sides` beyond the common name and colour."""
        return []

    # --- validation beyond shape --------------------------------------------------------
    def check(self, scenario, ck: Checker) -> list[tuple[tuple, str]]:
        """Cross-references and rule limits on a shape-clean scenario; returns warnings (path, text)."""
        return []

    # --- computing ---------------------------------------------------------------------
    def odds(self, variants: tuple[str, ...] = ()) -> list[Table]:
        return []

    def variants(self) -> dict[str, str]:
        """Named rule variants a scenario or `muster odds --variant` may switch on: name -> summary."""
        return {}

    def deck(self, scenario, seed: int, passes: int | None = None) -> dict:
        """The pre-shuffled deck or activation schedule as JSON-ready data."""
        raise NotImplementedError

    def deck_text(self, deck: dict) -> str:
        """The deck or schedule for a terminal, one pass or turn a line."""
        return "\n".join(f"{key}: {value}" for key, value in deck.items())

    def pack(self, scenario, seed: int) -> dict:
        """Plain data for templates/<id>/pack.html."""
        raise NotImplementedError

    def cards(self, scenario, seed: int) -> list[dict]:
        """One dict per card front; each has `kind` for the template's card macro.

        scenario.print_options.card_size says which size (generator/cards.py CARD_SIZES) is printed,
        for systems that fit their text to the card; the body carries class cards-<size> too.
        """
        raise NotImplementedError

    def card_back(self, scenario, seed: int) -> dict:
        """The one back every card of the deck shares (so a face-down card gives nothing away)."""
        return {"title": scenario.title, "seed": seed if self.uses_seed else None, "system": self.title}

    def reference(self) -> dict:
        """Quick-reference data: sections of the rules as encoded and every note."""
        return {"sections": self.rules.get("reference", []), "notes": collect_notes(self.rules)}
