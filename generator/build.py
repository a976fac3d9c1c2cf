"""build() reads as its stages: load, validate, compute, render, write; each stage a small function."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from . import __version__, cards, markup
from .decks import seed_from_bytes
from .errors import InputProblems, MusterError, RenderError, UnfitText, UsageError
from .files import own_folder, write_atomic
from .loading import load_file, parse_path
from .rendering import TEMPLATES, render
from .sandbox import render_pdfs, start_renderer
from .scenario import Scenario, validate
from .systems.base import Prepared, System


@dataclass(frozen=True)
class Options:
    """How to print: paper, cards and duplex. Part of every cache key, so every field is a plain value."""

    paper: str = "a4"
    seed: int | None = None
    card_size: str = "poker"
    bleed: bool = False
    duplex: str = "long"
    fronts_only: bool = False
    back_offset: tuple[float, float] = (0.0, 0.0)
    ink_saver: bool = False

    def card_layout(self) -> cards.Layout:
        return cards.layout(self.paper, self.card_size, self.bleed, self.duplex, self.back_offset)


def load(path: str | Path) -> Scenario:
    """Load and validate one scenario file (raises InputProblems listing every problem)."""
    return validate(load_file(path))


def choose_seed(scenario: Scenario, override: int | None) -> int:
    """The command line's seed, else the scenario's, else one derived from the file's own bytes."""
    if override is not None:
        return override
    if scenario.data.get("seed") is not None:
        return scenario.data["seed"]
    return seed_from_bytes(scenario.doc.source)


def common_context(prepared: Prepared, options: Options) -> dict:
    """What every template shows whatever the system: cover data, prose as safe HTML, the side views."""
    scenario = prepared.scenario
    system = scenario.system
    folder = scenario.doc.folder
    return {
        "title": scenario.title,
        "author": scenario.data.get("author") or "",
        "system": {"id": system.id, "title": system.title},
        "seed": prepared.seed if system.uses_seed else None,
        "paper": options.paper,
        "page_size": {"a4": "A4", "letter": "letter"}[options.paper],
        "briefing": markup.to_html(scenario.data["briefing"], folder),
        "victory": markup.to_html(scenario.data["victory"], folder),
        "sides": prepared.sides,
        "version": __version__,
        "ink_saver": options.ink_saver,
    }


def check_card_size(system: System, card_size: str) -> None:
    """A card size the system cannot hold is a usage error, before any work is done."""
    if card_size not in system.card_sizes:
        raise UsageError(
            f"{system.title} cards come in {' or '.join(system.card_sizes)} size, not {card_size}: "
            "their text would not fit at 7 pt"
        )


def compute(scenario: Scenario, seed: int, options: Options, with_cards: bool = True) -> tuple[dict, dict]:
    """Everything the templates print, worked out in Python once (system.prepare), then read as pack and card sheets."""
    system = scenario.system
    if with_cards:
        check_card_size(system, options.card_size)
    prepared = system.prepare(scenario, seed)
    base = common_context(prepared, options)
    pack = {**base, **system.pack(prepared), "reference": system.reference()}
    if not with_cards:
        return pack, {}
    layout = options.card_layout()
    # every front's foot may name its deck number, so that cards of two printed decks can be sorted apart
    fronts = [{**front, "deck_number": base["seed"]} for front in system.cards(prepared, options.card_size)]
    card_pages = cards.sheets(fronts, system.card_back(prepared), layout, not options.fronts_only)
    sheet = {**base, "layout": layout, "pages": card_pages, "card_size": options.card_size}
    return pack, sheet


PACK, CHAPTER, APPENDIX = "pack", "chapter", "appendix"


def pack_html(scenario: Scenario, pack: dict, mode: str = PACK) -> str:
    """The pack as HTML: whole, or a booklet chapter (the scenario's parts), or its system's appendix."""
    appendix = set(scenario.system.appendix_parts)

    def show(part: str) -> bool:
        return mode == PACK or (part in appendix) == (mode == APPENDIX)

    return render(f"{scenario.system.id}/pack.html", show=show, booklet=mode != PACK, **pack)


def render_html(scenario: Scenario, pack: dict, sheet: dict) -> tuple[str, str]:
    system_id = scenario.system.id
    return pack_html(scenario, pack), render("cards.html", card_macros=f"{system_id}/cards.html", **sheet)


def to_pdfs(scenario: Scenario, *htmls: str, card_size: str = "") -> list[bytes]:
    """Both PDFs from one render child with a time and memory limit (sandbox.render_pdfs); errors name the file.

    Card text that cannot fit even at its smallest size (generator/fit.py) is a problem of the scenario, reported
    at the line and column of the key it came from, saying how much of it does fit.
    """
    try:
        return render_pdfs([(html, TEMPLATES, scenario.doc.folder) for html in htmls], scenario.doc.file)
    except UnfitText as err:
        raise unfit_problems(scenario, err, card_size) from err


def unfit_problems(scenario: Scenario, err: UnfitText, card_size: str) -> MusterError:
    """Scenario text too long for its card as Problems at its key; text from elsewhere stays a render error."""
    card = f"a {card_size} card" if card_size else "its card"
    problems, others = [], []
    for unfit in err.unfit:
        if not unfit.path:
            others.append(f"{unfit.text!r} does not fit {card} even at {unfit.min_pt:g} pt")
            continue
        longest = unfit.text[: unfit.longest]
        problems.append(
            scenario.doc.problem(
                parse_path(unfit.path),
                f"{unfit.text!r} does not fit {card} even at {unfit.min_pt:g} pt; the longest that fits is "
                f"{unfit.longest} characters ({longest!r}): shorten it",
            )
        )
    if others:
        return RenderError(f"{scenario.doc.file}: " + "; ".join(dict.fromkeys(others)))
    return InputProblems(problems)


def to_pdf(scenario: Scenario, html: str, card_size: str = "") -> bytes:
    return to_pdfs(scenario, html, card_size=card_size)[0]


def build(path: str | Path, out_dir: str | Path = "output", options: Options | None = None) -> list[Path]:
    """Build NAME.pdf and NAME-cards.pdf into out_dir/NAME/; nothing is written unless both render."""
    options = options or Options()
    scenario = load(path)
    start_renderer()
    seed = choose_seed(scenario, options.seed)
    pack, sheet = compute(scenario, seed, options)
    pack_html, cards_html = render_html(scenario, pack, sheet)
    pdfs = dict(zip(["", "-cards"], to_pdfs(scenario, pack_html, cards_html, card_size=options.card_size)))
    folder = own_folder(Path(out_dir) / scenario.name)
    written = []
    for suffix, data in pdfs.items():
        target = folder / f"{scenario.name}{suffix}.pdf"
        write_atomic(target, data)
        written.append(target)
    return written
