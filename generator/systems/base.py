"""The small protocol every rule system implements, and the rule-data loading they share."""

from __future__ import annotations

import dataclasses
import re
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cached_property
from pathlib import Path
from typing import Any

from ..errors import InputProblems
from ..loading import Document, load_file
from ..models import Model, check_document, line_applies, line_text, note_text
from ..schema import Checker, Key
from ..tables import Table, share


def heading(label: str) -> str:
    """A note's heading as a reader sees it: a bare key (`limits`, `hq_units`) gets spaces and a capital."""
    label = label.strip()
    if label and label == label.lower():
        # a word without a vowel is an abbreviation (hth, hq_units): HTH, HQ units
        label = " ".join(w.upper() if not re.search("[aeiouy]", w) else w for w in label.replace("_", " ").split())
        label = label[0].upper() + label[1:]
    return label


def collect_notes(data: Any, where: str = "", leave_out: frozenset[str] = frozenset()) -> list[dict]:
    """Every `note:` in the rule data under its heading, for the reference sheet, in the rule file's order.

    A heading is the rule's own name (or title), else the key that holds it, written as a word. Notes that
    land under one heading (two result bands of one table) print as one entry, so no heading repeats. An
    entry named in `leave_out` (by its name, title or key: a weapon nobody carries, `vehicles` in a battle
    without any) is left out with every note inside it.
    """
    merged: dict[str, dict] = {}
    for rule, note in _notes(data, where, leave_out):
        rule = heading(rule)
        if rule in merged:
            merged[rule]["note"] += " " + note
        else:
            merged[rule] = {"rule": rule, "note": note}
    return list(merged.values())


def _notes(data: Any, where: str, leave_out: frozenset[str] = frozenset()) -> list[tuple[str, str]]:
    out: list[tuple[str, str]] = []
    if isinstance(data, dict):
        label = data.get("name") or data.get("title") or where
        if where in leave_out or label in leave_out:
            return out
        if isinstance(data.get("note"), (str, list)):
            text = note_text(data["note"], leave_out)  # a note in parts prints those about what is in play
            if text:
                out.append((str(label), text))
        for key, value in data.items():
            if key != "note" and key not in leave_out:
                out.extend(_notes(value, str(value.get("name", key)) if isinstance(value, dict) else key, leave_out))
    elif isinstance(data, list):
        for item in data:
            out.extend(_notes(item, where, leave_out))
    return out


# a rule text's reference to a value of the rule data: its keys joined by dots ("{recovery.target}"), a list's entry
# named by its id or name ("{cover.light.defence}", "{battle.modifiers.uphill-1.value}"); a word alone in braces is
# not one (a note part's "{each}" says where its list goes, WarSpike's flow's "{reactions}" what this battle's
# Units may make); a fraction's value fills in as a share in words ("{morale.side_loss_fraction}": half)
_FRACTION = re.compile(r"[0-9]+/[1-9][0-9]*")


def _value(data: Any, dotted: str, derived: dict[str, str]) -> tuple[str | None, str]:
    """The words a rule text's reference stands for (a share in words, a boolean as written), or None and why not."""
    if dotted in derived:
        return derived[dotted], ""
    node: Any = data
    for name in dotted.split("."):
        if isinstance(node, list):  # an entry of a list, by its id or its name (cover.light.defence)
            node = next((e for e in node if isinstance(e, dict) and name in (e.get("id"), e.get("name"))), None)
            node = {name: node} if node is not None else {}
        if not isinstance(node, dict) or name not in node:
            return None, f"{{{dotted}}} names no value of the rule data"
        node = node[name]
    if isinstance(node, (dict, list)) or node is None:
        return None, f"{{{dotted}}} names a {type(node).__name__}, not a number or word"
    if isinstance(node, str) and _FRACTION.fullmatch(node):
        return share(Fraction(node)), ""  # a share in words, as the sentence around it reads: "more than half"
    return (str(node).lower() if isinstance(node, bool) else str(node)), ""


# a reference with the sign before it and the unit after it that belong to the value ("+{x}", "{x}D6", '{x}"',
# "{x}+"): a value the house rules changed is marked whole, "**7″** *(house rule; was 6″)*", the inch mark kept
# beside its figure
_MARKED = re.compile(
    r"(?P<pre>(?<![\w}])[+\-\u2212])?\{(?P<dotted>[A-Za-z_]\w*(?:\.[A-Za-z_][\w\-]*)+)\}(?P<post>D6|\"|\u2033|\+(?!\w))?"
)


def fill_references(
    doc: Document, derived: dict[str, str] | None = None, written: tuple[Any, dict[str, str]] | None = None
) -> tuple[Document, list]:
    """The document with every text's references to the rule data's own values filled in, so that a sentence the
    reference sheet prints ("{recovery.target} or more stands up") says what the data says, house rules and all;
    and the problems: a reference to no value, or to a list or mapping, at the text's line (left as written).
    `derived` holds what a system works out in words from several values (Para Bellum's D6 table, "1 gives 1
    action point, 2-5 give 2, 6 gives 3"), by the dotted name its texts use.

    `written` is the rule data as written and its derived words, for a system played with house rules: a value
    that differs from the one the rules as written give prints marked as a house rule, the old value beside it
    ("**7** *(house rule; was 8)*"; "*(house rule)*" where the rules as written have none), as the quick
    reference prints it."""
    checker = Checker(doc)
    derived = derived or {}

    def value(match: re.Match, path: tuple) -> str:
        dotted = match.group("dotted")
        now, problem = _value(doc.data, dotted, derived)
        if now is None:
            checker.report(path, problem)
            return match.group(0)
        pre, post = match.group("pre") or "", match.group("post") or ""
        if written is None:
            return pre + now + post
        was = _value(written[0], dotted, written[1])[0]
        if was == now:
            return pre + now + post
        old = "" if was is None else f"; was {pre}{was}{post}"
        if was is not None and len(was.split()) > 3:  # a sentence, quoted: it does not read on into the next one
            old = f"; was \u201c{was}\u201d"
        return f"**{pre}{now}{post}** *(house rule{old})*"

    def fill(node: Any, path: tuple) -> Any:
        if isinstance(node, str):
            return _MARKED.sub(lambda match: value(match, path), node) if "{" in node else node
        if isinstance(node, dict):
            return {key: fill(item, path + (key,)) for key, item in node.items()}
        if isinstance(node, list):
            return [fill(item, path + (index,)) for index, item in enumerate(node)]
        return node

    filled = fill(doc.data, ())
    return dataclasses.replace(doc, data=filled), checker.problems


@dataclass
class Prepared:
    """Everything one build prints, worked out once by System.prepare: the pack, the cards and the deck read it.

    Systems subclass it with what they compute (roster, map...). `deck` is the JSON-ready deck or schedule
    (`muster deck --json` prints it), or None when the system has none (System.no_deck says why).
    """

    scenario: Any  # generator.scenario.Scenario (not imported: the scenario module imports the registry)
    seed: int
    deck: dict | None = None
    # a booklet's appendix serves every chapter, so its quick reference keeps every rule but those of the variants
    # no chapter plays (`book_variants`: the variants its chapters play; System.leaves_out)
    whole_reference: bool = field(default=False, kw_only=True)
    book_variants: frozenset[str] = field(default=frozenset(), kw_only=True)

    @property
    def sides(self) -> list:
        """The core's one view of each side (scenario.SideView): name, colour, shape, pattern, badge, briefing."""
        return self.scenario.side_views


# each system merged with a house-rules file (System.with_house_rules), by the file's path and a hash of its bytes
_HOUSED: dict = {}


class System:
    """A rule system: its rule data, the scenario keys it adds, checks, odds, deck, pack and cards.

    Subclasses set `id`, `title` and `folder` (the package folder holding rules.yaml) and override
    the methods below. Templates for the system live in templates/<id>/: pack.html and cards.html.
    A build calls prepare() once, then reads pack(), cards() and card_back() from what it returned.
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
    # why the system has no deck or pre-drawn schedule (`muster deck` says it); empty when it has one
    no_deck: str = ""

    def appendix_key(self, scenario) -> tuple:
        """Scenarios sharing this key share one appendix (systems with variants add them here)."""
        return (self.id, tuple(sorted(scenario.data.get("variants") or [])))

    # the typed rule data (a models.Model): rules.yaml is checked against it when first read
    rules_model: type[Model] | None = None

    @cached_property
    def rules_doc(self) -> Document:
        return load_file(self.folder / "rules.yaml")

    @cached_property
    def rules(self) -> Any:
        """The rule data, checked like a scenario: a problem in rules.yaml is reported at its line and column, exit 1.
        Its texts' references to its own values ({recovery.target}) are filled in first (fill_references)."""
        doc, unfilled = self._filled
        rules = doc.data if self.rules_model is None else check_document(doc, self.rules_model.spec())
        if unfilled:  # after the shape's problems: a renamed key is told as one, not as the texts naming it
            raise InputProblems(unfilled)
        return rules

    @cached_property
    def _filled(self) -> tuple[Document, list]:
        return fill_references(self.rules_doc, self.derived_references(self.rules_doc.data))

    def derived_references(self, data: Any) -> dict[str, str]:
        """Texts a rule text may name that several values make ("{action_points.faces}"), worked out from the rule
        data as read, before it is checked: a name left out when the data is not in shape (its own problem says
        why)."""
        return {}

    @property
    def rules_filled(self) -> Document:
        """The rule data as read, its texts' references to its own values filled in: what the reference prints."""
        self.rules  # noqa: B018 (checked first: a reference to no value is a problem, not a printed brace)
        return self._filled[0]

    # the club's house rules this system's rule data was merged with (generator/house.py), or None; and the
    # system as written, whose values the quick reference prints beside the ones the house rules changed
    house = None
    written: System | None = None

    @property
    def written_rules(self) -> Any:
        """The checked rule data as written, for a system played with house rules (a table prints a changed value
        beside the one it replaces); None otherwise."""
        return self.written.rules if self.written is not None else None

    @cached_property
    def reference_data(self) -> Any:
        """The rule data as the quick reference prints it: the texts filled in, and with house rules each value
        they changed marked, beside the value the rules as written give (fill_references)."""
        filled = self.rules_filled.data
        if self.written is None:
            return filled
        base = self.written.rules_doc.data
        as_written = (base, self.written.derived_references(base))
        derived = self.derived_references(self.rules_doc.data)
        return fill_references(self.rules_doc, derived, as_written)[0].data

    def with_house_rules(self, path: str | Path) -> System:
        """This system with a club's house-rules file merged into its rule data: a copy whose rules, and every
        odds table, deck, check, card and page read from them, follow the file. The merged data is checked as
        rules.yaml is, each problem at the house file's line and column (InputProblems)."""
        import copy
        import hashlib
        import os
        import stat

        from .. import house as house_rules

        memo = None  # merged once per process while the file's bytes are the same: a booklet's chapters share one
        try:  # opened without waiting (a FIFO never blocks) and read only if a regular file: read() words the rest
            with os.fdopen(os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0)), "rb") as handle:
                if stat.S_ISREG(os.fstat(handle.fileno()).st_mode):  # small: read() refuses a large one
                    memo = (self.id, os.path.realpath(path), hashlib.sha256(handle.read(1 << 20)).hexdigest())
        except OSError:
            memo = None
        if memo in _HOUSED:
            return _HOUSED[memo]
        house, changes = house_rules.read(path, self.id)
        merged = copy.copy(self)
        # nothing worked out from the built-in rule data (the checked rules, memos of odds) is carried over: a
        # system keeps only such things on itself (its own settings are the class's)
        vars(merged).clear()
        merged.rules_doc = house_rules.merge(self.rules_doc, house, changes)
        merged.house = house
        merged.written = self
        merged.rules  # noqa: B018 (checked now: a bad house rule is the file's problem, not a later crash)
        if memo is not None:
            _HOUSED[memo] = merged
        return merged

    # --- the schema ------------------------------------------------------------------
    def scenario_keys(self) -> list[Key]:
        """Top-level scenario keys this system adds (table, terrain, turns...)."""
        return []

    def side_keys(self) -> list[Key]:
        """Keys of each entry of `sides` beyond the common name and colour."""
        return []

    # --- validation beyond shape --------------------------------------------------------
    def check(self, scenario, checker: Checker) -> list[tuple[tuple, str]]:
        """Cross-references and rule limits on a shape-clean scenario; returns warnings (path, text)."""
        return []

    # --- computing ---------------------------------------------------------------------
    def odds(self, variants: tuple[str, ...] = ()) -> list[Table]:
        return []

    def variants(self) -> dict[str, str]:
        """Named rule variants a scenario or `muster odds --variant` may switch on: name -> summary."""
        return {}

    def variant_names(self) -> dict[str, str]:
        """Each variant's name as a page prints it, by the name a scenario's `variants:` gives (its id)."""
        return {name: name for name in self.variants()}

    def prepare(self, scenario, seed: int, passes: int | None = None) -> Prepared:
        """Work out once what the pack, the cards and the deck are read from: roster, deck or schedule, map.

        `passes` overrides the scenario's number of passes or turns for the deck (`muster deck --passes`).
        """
        return Prepared(scenario, seed)

    def most_passes(self) -> tuple[int, str] | None:
        """The most passes or turns a scenario may set, and the word for them; None without a deck.

        `muster deck --passes` is held to the same bound as the scenario's own key."""
        return None

    def deck_text(self, deck: dict) -> str:
        """The deck or schedule for a terminal, one pass or turn a line."""
        return "\n".join(f"{key}: {value}" for key, value in deck.items())

    def pack(self, prepared: Prepared) -> dict:
        """Plain data for templates/<id>/pack.html."""
        raise NotImplementedError

    def counters(self, prepared: Prepared) -> tuple[float, list]:
        """The counters and markers the system's games put on the table (NAME-counters.pdf): their side in mm and
        the counters (generator.counters.Counter), from the rule data and the scenario; none by default."""
        return 20.0, []

    def counters_note(self, prepared: Prepared) -> str:
        """A sentence the counter sheet prints over its counters, where they need one: what a mark on them means."""
        return ""

    def board(self, prepared: Prepared):
        """The table alone for a picture (`muster export --map-png`): a tablemap.Board, from the system's
        tablemap.TableView where it draws one; None for a scenario without a map."""
        view = getattr(prepared, "table_view", None)
        return view.board() if view is not None else None

    def side_table(self, prepared: Prepared, index: int, book: bool = False) -> dict:
        """Side `index`'s own map for its orders handout: the table with that side's hidden zones drawn too (a
        system that draws its map from a tablemap.TableView), or the shared map; and its zones in words. In a
        `book`, the map fits the orders page's dashed frame."""
        from ..distances import UNIT_MARKS  # here: the table's modules import the scenario, which imports this one
        from ..table import side_words

        view = getattr(prepared, "table_view", None)
        if view is None:
            shared = {"map": getattr(prepared, "map", ""), "map_page": getattr(prepared, "map_page", "portrait")}
            return {**shared, "deployment": "", "deploys": False, "hidden": False}
        from ..tablemap import in_a_frame

        svg, page = view.draw(index, in_a_frame() if book else None)
        own = view.on_table[index]
        words = side_words(own, view.battle.table, UNIT_MARKS[view.unit], hidden=True, turn_word=view.turn_word)
        # the words begin with the zones where the side has any ("deploys within 12″ of..."), else with what it
        # has ("has reinforcements: ...": "Legio deploys has reinforcements" read as a stutter)
        deploys = bool(own.marks(viewer=True)[0])
        return {"map": svg, "map_page": page, "deployment": words, "deploys": deploys, "hidden": own.hidden}

    def cards(self, prepared: Prepared, card_size: str) -> list[dict]:
        """One dict per card front, laid out for `card_size` (one of card_sizes); each has `kind` for the card macro."""
        raise NotImplementedError

    def card_back(self, prepared: Prepared) -> dict:
        """The one back every card of the deck shares (so a face-down card gives nothing away); a deck printed with
        house rules names them, so it is not shuffled into a game played by the rules as written."""
        scenario = prepared.scenario
        house = (self.house.title or "House rules") if self.house is not None else None
        return {
            "title": scenario.title,
            "seed": prepared.seed if self.uses_seed else None,
            "system": self.title,
            "house": house,
        }

    def in_play(self, prepared: Prepared) -> dict[str, bool]:
        """The rules that apply only to what a scenario fields, each by its name, title or key in the rule data
        (a weapon's name, `vehicles`, a reference section's title), mapped to whether this scenario fields it.
        The quick reference leaves out what is not in play; a rule not named here always prints."""
        return {}

    def leaves_out(self, prepared: Prepared | None) -> frozenset[str]:
        """What the quick reference leaves out for this scenario: the rules in_play names but it does not field
        (nothing without a scenario; for a booklet's appendix, which serves every chapter, only the variants none
        of its chapters plays)."""
        if prepared is None:
            return frozenset()
        if prepared.whole_reference:
            return self.unplayed(prepared.book_variants)
        return frozenset(name for name, fielded in self.in_play(prepared).items() if not fielded)

    def unplayed(self, played: frozenset[str]) -> frozenset[str]:
        """The rules a booklet's appendix leaves out when its chapters play only the variants `played` (by id):
        every other variant, by its printed name (a fresh read found a variant no chapter plays printed among
        the notes as if it were a rule, contradicting the rule it replaces)."""
        return frozenset(name for ident, name in self.variant_names().items() if ident not in played)

    def reference(self, prepared: Prepared | None = None) -> dict:
        """Quick-reference data: the sections of the rules and every note (in the rule file's order) that apply
        to what the scenario fields; all of them without a scenario."""
        data = self.reference_data
        leave_out = self.leaves_out(prepared)
        sections = [
            {
                **section,
                "lines": [line_text(line, leave_out) for line in section["lines"] if line_applies(line, leave_out)],
            }
            for section in data.get("reference", [])
            if section.get("title") not in leave_out
        ]
        sections = [section for section in sections if section["lines"]]
        return {"sections": sections, "notes": collect_notes(data, leave_out=leave_out), "leaves_out": leave_out}
