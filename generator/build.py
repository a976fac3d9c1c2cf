"""build() reads as its stages: load, validate, compute, render, write; each stage a small function."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from . import __version__, cards, markup
from .decks import seed_from_bytes
from .errors import RenderError
from .loading import load_file
from .maps import badge_uri
from .pdf import html_to_pdf, write_atomic
from .rendering import TEMPLATES, render
from .scenario import Scenario, validate


@dataclass
class Options:
    paper: str = "a4"
    seed: int | None = None


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


def common_context(scenario: Scenario, seed: int, options: Options) -> dict:
    """What every template shows whatever the system: cover data, prose as safe HTML, side styles."""
    system = scenario.system
    styles = scenario.styles()
    folder = scenario.doc.folder
    return {
        "title": scenario.title,
        "author": scenario.data.get("author") or "",
        "system": {"id": system.id, "title": system.title},
        "seed": seed,
        "paper": options.paper,
        "page_size": {"a4": "A4", "letter": "letter"}[options.paper],
        "briefing": markup.to_html(scenario.data["briefing"], folder),
        "victory": markup.to_html(scenario.data["victory"], folder),
        "sides": [
            {
                "name": style.name,
                "colour": style.colour,
                "shape": style.shape,
                "pattern": style.pattern,
                "index": style.index,
                "briefing": markup.to_html(side.get("briefing") or "", folder),
                "badge": badge_uri(style.shape, style.colour),
            }
            for style, side in zip(styles, scenario.sides)
        ],
        "version": __version__,
    }


def compute(scenario: Scenario, seed: int, options: Options) -> tuple[dict, dict]:
    """Everything the templates print, worked out in Python: odds, decks, maps, card sheets."""
    system = scenario.system
    base = common_context(scenario, seed, options)
    pack = {**base, **system.pack(scenario, seed), "reference": system.reference()}
    lay = cards.layout(options.paper)
    card_pages = cards.sheets(system.cards(scenario, seed), system.card_back(scenario, seed), lay)
    sheet = {**base, "layout": lay, "pages": card_pages}
    return pack, sheet


def render_html(scenario: Scenario, pack: dict, sheet: dict) -> tuple[str, str]:
    system_id = scenario.system.id
    return render(f"{system_id}/pack.html", **pack), render("cards.html", card_macros=f"{system_id}/cards.html", **sheet)


def to_pdf(scenario: Scenario, html: str) -> bytes:
    try:
        return html_to_pdf(html, TEMPLATES, scenario.doc.folder)
    except RenderError as err:
        raise RenderError(f"{scenario.doc.file}: {err}") from err


def build(path: str | Path, out_dir: str | Path = "output", options: Options | None = None) -> list[Path]:
    """Build NAME.pdf and NAME-cards.pdf into out_dir/NAME/; nothing is written unless both render."""
    options = options or Options()
    scenario = load(path)
    seed = choose_seed(scenario, options.seed)
    pack, sheet = compute(scenario, seed, options)
    pack_html, cards_html = render_html(scenario, pack, sheet)
    pdfs = {"": to_pdf(scenario, pack_html), "-cards": to_pdf(scenario, cards_html)}
    folder = Path(out_dir) / scenario.name
    written = []
    for suffix, data in pdfs.items():
        target = folder / f"{scenario.name}{suffix}.pdf"
        write_atomic(target, data)
        written.append(target)
    return written
