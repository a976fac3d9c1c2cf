"""build() reads as its stages: load, validate, compute, render, write; each stage a small function."""

from __future__ import annotations

import math
import os
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

import jinja2
import markupsafe
from jinja2 import nodes
from jinja2.utils import concat

from . import __version__, cards, counters, engine, house, markup
from .decks import seed_from_bytes
from .engine import html_to_pdf, lay_out
from .errors import InputProblems, MusterError, Problem, RenderError, UnfitText, UsageError, quoted
from .files import own_folder, write_together
from .loading import load_file, parse_path
from .rendering import TEMPLATES, environment, render
from .sandbox import run_each_limited
from .scenario import Scenario, validate
from .svg import PAGE_MARGIN_MM, PAPER_MM
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
    # house-rules files given on the command line, as (system id, absolute path): played instead of any a
    # scenario of that system names (generator/house.py)
    house_rules: tuple[tuple[str, str], ...] = ()

    def card_layout(self) -> cards.Layout:
        return cards.layout(self.paper, self.card_size, self.bleed, self.duplex, self.back_offset)


def load(path: str | Path, house_rules: dict[str, str] | None = None) -> Scenario:
    """Load and validate one scenario file (raises InputProblems listing every problem); `house_rules` maps system
    ids to house-rules files played instead of those a scenario names (scenario.validate)."""
    return validate(load_file(path), house_rules)


def warnings_of(
    path: str, card_size: str | None = None, house_rules: dict[str, str] | None = None
) -> tuple[list[Problem], str]:
    """Validate one file (in a limited child: see validate_limited); its warnings and its system's id, or
    InputProblems. With a card size, its names must also fit that size's cards (check_card_fit), as build requires.
    A booklet's config (no system, a config's own keys) is checked as one: no warnings, no system ("")."""
    from .booklet.plan import check_config, is_config  # the booklet reads its scenarios through this module

    doc = load_file(path)
    if is_config(doc.data):
        check_config(str(path), doc)
        return [], ""
    scenario = validate(doc, house_rules)
    if card_size is not None:
        check_card_fit(scenario, card_size)
    return scenario.warnings, scenario.system.id


def validate_limited(
    paths: list[str],
    card_size: str | None = None,
    jobs: int = 1,
    house_rules: dict[str, str] | None = None,
    played: dict[str, str] | None = None,
) -> list[Problem]:
    """Validate each file in its own limited child, so that no file can cost more than the limits say; with a
    card size, every name must fit that size's cards at 7 pt too. Up to `jobs` children run at once.

    As each file's system becomes known, this process reads that system's rule data and templates (never the
    file), so the children started after it, and any render children after them, start warm: a cold child spent
    0.09 s of its 0.1 s reading them, and a booklet of 40 scenarios validated for 7 s before it rendered anything.
    Every file's problems are collected, in the files' order, before InputProblems is raised; returns the
    files' warnings. The house-rules files of `played` (the command line's, not a booklet config's, which may
    serve systems a booklet has no chapter of) must be played: one for a system no file plays is refused.
    """
    problems: dict[int, list[Problem]] = {}
    warnings: dict[int, list[Problem]] = {}
    seen: set[str] = set()

    def done(index: int, result: tuple[list[Problem], str]) -> None:
        warnings[index], system_id = result
        if system_id and system_id not in seen:
            seen.add(system_id)
            warm(system_id)

    def failed(index: int, err: InputProblems) -> None:
        problems[index] = err.problems

    jobs_ = [(str(path), (str(path), card_size, house_rules)) for path in paths]
    run_each_limited(_warnings_of, jobs_, jobs, done, failed, "validating")
    if problems:
        raise InputProblems([p for index in sorted(problems) for p in problems[index]])
    refuse_unused_house_rules(played or {}, seen)
    return [w for index in sorted(warnings) for w in warnings[index]]


def refuse_unused_house_rules(house_rules: dict[str, str], systems_used: set[str]) -> None:
    """A house-rules file for a system no scenario of the command plays is a mistake (the wrong club file): said, as
    `muster odds` says it, rather than a pack printed without the house rules the club meant to play."""
    for system_id, file in house_rules.items():
        if system_id not in systems_used:
            played = ", ".join(sorted(systems_used)) or "none"
            raise UsageError(
                f"{quoted(file)} holds house rules for {system_id}, and no scenario given is a {system_id} scenario "
                f"(they play {played}): give the house rules of their system"
            )


def _warnings_of(job: tuple[str, str | None, dict | None]) -> tuple[list[Problem], str]:
    return warnings_of(*job)


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
        # what the rules cover, where they are a part of a game (an activation system): said on the cover
        "system": {
            "id": system.id,
            "title": system.title,
            "scope": getattr(system.rules, "scope", ""),
            # a club's house rules played: said on the cover, listed with the quick reference's notes
            "house": house.printed(system.house, system.rules_doc.data, system.rules_model),
        },
        "seed": prepared.seed if system.uses_seed else None,
        "paper": options.paper,
        "page_size": {"a4": "A4", "letter": "letter"}[options.paper],
        # the text area's height (the paper's less the @page margins): a booklet turns a wide map to fill it
        "page_text_height_mm": round(PAPER_MM[options.paper][1] - PAGE_MARGIN_MM[0] - PAGE_MARGIN_MM[2], 2),
        "briefing": markup.to_html(scenario.data["briefing"], folder),
        "victory": markup.to_html(scenario.data["victory"], folder),
        "sides": prepared.sides,
        # whether the system has optional variants at all: a cover that plays none says so only then
        "optional_variants": bool(system.variants()),
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


def compute(
    scenario: Scenario,
    seed: int,
    options: Options,
    with_cards: bool = True,
    whole_reference: bool = False,
    book_variants: frozenset[str] = frozenset(),
    book: bool = False,
) -> tuple[dict, dict]:
    """Everything the templates print, worked out in Python once (system.prepare), then read as pack and card sheets.

    The quick reference holds the rules for what the scenario fields; `whole_reference` keeps every rule (a
    booklet's appendix, which serves every chapter) but those of the variants none of its chapters plays (the
    variants played are `book_variants`). A `book`'s chapter prints its sides' orders on its own pages, each map
    in the orders' frame."""
    system = scenario.system
    if with_cards:
        check_card_size(system, options.card_size)
    prepared = system.prepare(scenario, seed)
    prepared.whole_reference = whole_reference
    prepared.book_variants = book_variants
    base = common_context(prepared, options)
    pack = {**base, **system.pack(prepared), "reference": system.reference(prepared)}
    # each side's secret orders, for a handout of its own: the side's view, its own map (hidden zones and all)
    pack["orders"] = [
        {"side": side, **system.side_table(prepared, side.index, book)} for side in prepared.sides if side.orders
    ]
    if not with_cards:
        return pack, {}
    return pack, {**card_sheet(prepared, base, options), "counters": counter_sheet(prepared, base, options)}


def counter_sheet(prepared: Prepared, base: dict, options: Options) -> dict | None:
    """What counters.html prints: the system's counters imposed on sheets with the cards' print options; None for a
    system whose games need none."""
    side, made = prepared.scenario.system.counters(prepared)
    if not made:
        return None
    grid = counters.layout(options, side)
    pages = counters.sheets(made, grid, not options.fronts_only)
    note = prepared.scenario.system.counters_note(prepared)
    return {**base, "layout": grid, "pages": pages, "fronts_only": options.fronts_only, "note": note}


def card_sheet(prepared: Prepared, base: dict, options: Options, fronts: list[dict] | None = None) -> dict:
    """What cards.html prints: the card fronts (every card of the scenario unless given) imposed on sheets."""
    system = prepared.scenario.system
    layout = options.card_layout()
    if fronts is None:
        fronts = system.cards(prepared, options.card_size)
    # every front's foot may name its deck number, so that cards of two printed decks can be sorted apart
    fronts = [{**front, "deck_number": base["seed"]} for front in fronts]
    card_pages = cards.sheets(fronts, system.card_back(prepared), layout, not options.fronts_only)
    return {**base, "layout": layout, "pages": card_pages, "card_size": options.card_size}


def check_card_fit(scenario: Scenario, card_size: str) -> None:
    """Every name printed on the scenario's cards fits `card_size` at 7 pt, or InputProblems at its key saying the
    longest that fits: the build's own fitting step (generator/fit.py, in WeasyPrint), so that a file validate
    passes never fails build for a name. Quick: the fronts alone, one of each set of names a card kind prints
    (a team's Move and Fire cards print the same names in the same boxes), and no pack."""
    check_card_size(scenario.system, card_size)
    names = unfit_names(scenario, card_size)
    if names:
        raise unfit_problems(scenario, UnfitText(names), card_size)


def unfit_names(scenario: Scenario, card_size: str, prefixes: bool = True) -> list:
    """The scenario's names (fit.Unfit with a path) that do not fit `card_size` even at their smallest size, each
    with the longest of it that does (unless `prefixes` is false: then only which names)."""
    system = scenario.system
    options = Options(card_size=card_size, fronts_only=True)
    prepared = system.prepare(scenario, choose_seed(scenario, None))
    fronts, seen = [], set()
    for front in system.cards(prepared, card_size):
        names = (front["kind"], tuple(sorted((k, str(v)) for k, v in front.items() if k.endswith("_path"))))
        if names not in seen:
            seen.add(names)
            fronts.append(front)
    html = render_html_cards(scenario, card_sheet(prepared, common_context(prepared, options), options, fronts))
    _, unfit = lay_out(html, TEMPLATES, prefixes)
    return [text for text in unfit if text.path]  # text from the rule data or Muster is not the file's problem


PACK, CHAPTER, APPENDIX = "pack", "chapter", "appendix"


@dataclass(frozen=True)
class Parts:
    """Which parts of a pack to print: every part, or `only` some, or all but `leave_out`.

    A part is a `<section class="part">` its template wraps in `{% if show("<part>") %}`; inside one, a
    template may mark pieces with `show("<part>", "<piece>")` (a table or two a variant may change). `only`
    maps each part to print to the pieces of it to print, or None for all of it. The instance is the
    templates' `show`."""

    only: dict[str, frozenset[str] | None] | None = None
    leave_out: frozenset[str] = frozenset()

    @classmethod
    def of(cls, *parts: str, **pieces: Iterable[str]) -> Parts:
        """Only these parts, whole, and these parts' named pieces: Parts.of("reference", odds=["battle"])."""
        return cls(only={**dict.fromkeys(parts), **{part: frozenset(names) for part, names in pieces.items()}})

    @classmethod
    def chapter(cls, system: System) -> Parts:
        """A booklet chapter: the scenario's own parts, less those its system's appendix prints once."""
        return cls(leave_out=frozenset(system.appendix_parts))

    @classmethod
    def appendix(cls, system: System) -> Parts:
        """The parts a booklet prints once per system, in its appendix."""
        return cls.of(*system.appendix_parts)

    def __call__(self, part: str, piece: str | None = None) -> bool:
        if part in self.leave_out:
            return False
        if self.only is None:
            return True
        if part not in self.only:
            return False
        return piece is None or self.only[part] is None or piece in self.only[part]


def pieces(system: System) -> dict[str, tuple[str, ...]]:
    """The pieces the system's pack template marks in each part (`show("<part>", "<piece>")`), in its order:
    read from the template's syntax tree, so a template declares its pieces by using them."""
    env = environment()
    source = env.loader.get_source(env, f"{system.id}/pack.html")[0]
    found: dict[str, list[str]] = {}
    for call in env.parse(source).find_all(nodes.Call):
        arguments = call.args
        if (
            isinstance(call.node, nodes.Name)
            and call.node.name == "show"
            and len(arguments) == 2
            and all(isinstance(argument, nodes.Const) for argument in arguments)
        ):
            part, piece = (argument.value for argument in arguments)
            if piece not in found.setdefault(part, []):
                found[part].append(piece)
    return {part: tuple(names) for part, names in found.items()}


def pack_html(scenario: Scenario, pack: dict, parts: Parts = Parts(), booklet: bool = False) -> str:
    """The pack as an HTML document printing the chosen parts (every part by default); `booklet` leaves
    the page furniture to the booklet, which stamps it on the joined pages."""
    return render(f"{scenario.system.id}/pack.html", show=parts, booklet=booklet, **pack)


def pack_blocks(scenario: Scenario, pack: dict, parts: Parts) -> dict[str, markupsafe.Markup]:
    """The chosen parts of the pack as pieces of another document (a booklet's appendix): its template's
    `stylesheets` and `body` blocks, rendered without the document around them."""
    return _render_blocks(f"{scenario.system.id}/pack.html", ("stylesheets", "body"), show=parts, booklet=True, **pack)


def _render_blocks(name: str, blocks: tuple[str, ...], **context) -> dict[str, markupsafe.Markup]:
    """Some blocks of a template, each rendered alone (Jinja's own block functions), in its context."""
    template = environment().get_template(name)
    try:
        # a block reads the template's top level (its imports and macros): run it once, showing no part
        top = template.new_context({**context, "show": lambda *args: False})
        for _ in template.root_render_func(top):
            pass
        local = template.new_context({**context, **top.vars, "show": context["show"]})
        return {block: markupsafe.Markup(concat(template.blocks[block](local))) for block in blocks}
    except jinja2.TemplateError as err:
        raise RenderError(f"template {name}: {err}") from err


def render_html(scenario: Scenario, pack: dict, sheet: dict) -> tuple[str, str]:
    return pack_html(scenario, pack), render_html_cards(scenario, sheet)


def orders_html(scenario: Scenario, pack: dict) -> list[tuple[str, str]]:
    """Each side's orders handout as (its file name's suffix, an HTML document): the side's orders, its deployment
    map (its hidden zones drawn, the other side's not) and its forces, as the pack's Forces part prints them."""
    out = []
    for orders in pack["orders"]:
        side = orders["side"]
        own = [force for force in pack["forces"] if _side_of(force).index == side.index]
        blocks = _render_blocks(
            f"{scenario.system.id}/pack.html",
            ("stylesheets", "body"),
            **{**pack, "forces": own, "show": Parts.of("forces"), "booklet": False},
        )
        html = render("orders.html", **{**pack, "orders": orders, "side": side, "blocks": blocks, "booklet": False})
        out.append((f"-orders-{side.slug}", html))
    return out


def _side_of(force) -> object:
    """The side view of one entry of a pack's `forces` (a dict or a record, as each system's pack makes it)."""
    return force["side"] if isinstance(force, dict) else force.side


def render_html_cards(scenario: Scenario, sheet: dict) -> str:
    return render("cards.html", card_macros=f"{scenario.system.id}/cards.html", **sheet)


def unfit_problems(scenario: Scenario, err: UnfitText, card_size: str) -> MusterError:
    """Scenario text too long for its card as Problems at its key; text from elsewhere stays a render error."""
    card = f"a {card_size} card" if card_size else "its card"
    problems, others = [], []
    roomier = _roomier(scenario, card_size) if any(unfit.path for unfit in err.unfit) else {}
    by_path: dict = {}  # path: its fit.Unfit; a name printed on several cards: what fits all of them
    for unfit in err.unfit:
        if not unfit.path:
            others.append(f"{unfit.text!r} does not fit {card} even at {unfit.min_pt:g} pt")
            continue
        known = by_path.get(unfit.path)
        if known is None or 0 <= unfit.longest < known.longest or known.longest < 0 <= unfit.longest:
            by_path[unfit.path] = unfit
    for unfit in by_path.values():
        # a larger size is offered only where the name fits it whole (a long side name fits no card at all)
        fits = [size for size, paths in roomier.items() if unfit.path not in paths]
        fix = unfit.fix or "shorten it"
        sizes = " or ".join(f"--cards {size}" for size in fits)
        larger = f"{', or' if unfit.fix else ' or'} print larger cards ({sizes})" if fits else ""
        told = f"{unfit.what or repr(unfit.text)} does not fit {card} even at {unfit.min_pt:g} pt"
        if unfit.longest >= 0:  # not worked out past the first names (fit.SEARCHED)
            longest = unfit.text[: unfit.longest].rstrip()  # what fits, without the space a cut may end on
            told += f"; the longest that fits is {len(longest)} characters ({longest!r})"
        problems.append(scenario.doc.problem(parse_path(unfit.path), f"{told}: {fix}{larger}"))
    if others:
        return RenderError(f"{scenario.doc.file}: " + "; ".join(dict.fromkeys(others)))
    return InputProblems(problems)


def _roomier(scenario: Scenario, card_size: str) -> dict[str, set[str]]:
    """Each card size the system prints that is larger than `card_size`, smallest first, with the paths of the
    names that do not fit it either: measured by the same fitting step, only when a name does not fit (which
    names, not how much of each: a size is offered only to a name that fits it whole)."""
    area = {size: width * height for size, (width, height) in cards.CARD_SIZES.items()}
    larger = sorted((s for s in scenario.system.card_sizes if area[s] > area.get(card_size, math.inf)), key=area.get)
    return {size: {unfit.path for unfit in unfit_names(scenario, size, prefixes=False)} for size in larger}


def to_pdf(scenario: Scenario, html: str, card_size: str = "", variant: str | None = None) -> bytes:
    """One PDF of a validated scenario, rendered in this process (build() calls it inside its limited child), in
    WeasyPrint's PDF `variant` where given. Card text too long for its card even at its smallest size is a
    problem at the key it came from."""
    try:
        return html_to_pdf(html, TEMPLATES, variant=variant)
    except UnfitText as err:
        raise unfit_problems(scenario, err, card_size) from err


def make_pdfs(path: str | Path, options: Options) -> tuple[str, list[bytes], str, float, list[Problem]]:
    """Load, validate, compute and render: the scenario's name, its pack, cards and orders handouts as (file name
    suffix, PDF bytes), its system's id,
    the CPU seconds WeasyPrint took (for `make bench`) and the scenario's warnings (validate's, printed by build).

    build_all() runs this in one limited child per scenario (sandbox.run_each_limited), so every stage a hostile file can make
    costly, from expanding its squares to converting its Markdown, is inside the time and memory limit.
    """
    before = engine.weasyprint_cpu
    scenario = load(path, dict(options.house_rules))
    pack, sheet = compute(scenario, choose_seed(scenario, options.seed), options)
    pack_page, cards_page = render_html(scenario, pack, sheet)
    htmls = [("", pack_page), ("-cards", cards_page), *orders_html(scenario, pack)]
    if sheet.get("counters"):
        htmls.append(("-counters", render("counters.html", **sheet["counters"])))
    pdfs = [(suffix, to_pdf(scenario, html, options.card_size)) for suffix, html in htmls]
    return scenario.name, pdfs, scenario.system.id, engine.weasyprint_cpu - before, scenario.warnings


def _make_pdfs(job: tuple[str, Options]) -> tuple[str, list[bytes], str, float, list[Problem]]:
    return make_pdfs(*job)


def build(path: str | Path, out_dir: str | Path = "output", options: Options | None = None) -> list[Path]:
    """Build NAME.pdf, NAME-cards.pdf and each side's NAME-orders-SIDE.pdf into out_dir/NAME/; nothing is written
    unless all render."""
    return build_all([path], out_dir, options)


def build_all(
    paths: list[str | Path],
    out_dir: str | Path = "output",
    options: Options | None = None,
    jobs: int = 1,
    stats: dict | None = None,
    warnings: list | None = None,
) -> list[Path]:
    """Build each scenario's pack and cards into out_dir/NAME/, in one warm process: each scenario in its own
    limited child forked from this one (WeasyPrint imported once), up to `jobs` at a time; after a child of a
    system finishes, this process reads that system's rule data and templates, so the next children of it start
    warm. Every file's problems are listed together and nothing is written unless every scenario renders: the
    packs of a season are one print run. `stats`, given a dict, receives where the CPU went (`make bench`);
    `warnings`, given a list, the scenarios' warnings in the order of `paths` (validate prints the same ones)."""
    options = options or Options()
    paths = [str(path) for path in paths]
    folders: dict[str, str] = {}
    for path in paths:  # two files of one name would overwrite each other's pack
        name = Path(path).stem
        if not name or name.startswith("."):  # '...yaml' is '..': its pack would be written above --out
            raise UsageError(
                f"{quoted(path)}: a file name that starts with a dot cannot name its output folder ({name!r}); "
                "give the file a name that starts with a letter or digit"
            )
        if name in folders:
            raise UsageError(
                f"{quoted(folders[name])} and {quoted(path)} would both be built into {Path(out_dir) / name}: "
                "give one of them another file name"
            )
        folders[name] = path
    results: dict[int, tuple] = {}
    problems: list[Problem] = []
    finished = 0
    workers = max(1, min(jobs, len(paths), os.cpu_count() or 1))

    def done(index: int, result: tuple) -> None:
        nonlocal finished
        finished += 1
        results[index] = result
        if len(paths) - (finished - 1 + workers) > 0:  # a child is still to start: let it start warm
            warm(result[2])

    def failed(index: int, err: InputProblems) -> None:
        nonlocal finished
        finished += 1
        problems.extend(err.problems)

    run_each_limited(_make_pdfs, [(path, (path, options)) for path in paths], jobs, done, failed, "building")
    if problems:
        raise InputProblems(problems)
    refuse_unused_house_rules(dict(options.house_rules), {result[2] for result in results.values()})
    written: list[Path] = []
    outputs: dict[Path, bytes] = {}
    folders_named: list[tuple[Path, str]] = []
    for index in range(len(paths)):
        name, pdfs = results[index][:2]
        folder = own_folder(Path(out_dir) / name)
        pair = {folder / f"{name}{suffix}.pdf": data for suffix, data in pdfs}
        outputs.update(pair)
        written += pair
        folders_named.append((folder, name))
    write_together(outputs)  # all or none: a new pack beside old cards would print a mismatched game
    for folder, name in folders_named:
        _drop_stale_orders(folder, name, set(outputs))
    if warnings is not None:
        warnings.extend(w for index in range(len(paths)) for w in results[index][4])
    if stats is not None:
        stats["weasyprint"] = sum(result[3] for result in results.values())
        stats["weasyprint_import"] = engine.import_cpu
    return written


def _drop_stale_orders(folder: Path, name: str, kept: set[Path]) -> None:
    """Remove an orders handout an earlier build left for a side that has no orders now (or another name): printed
    beside the new pack, it would hand a player orders the scenario no longer gives."""
    for old in folder.glob(f"{name}-orders-*.pdf"):
        if old not in kept and old.is_file() and not old.is_symlink():
            old.unlink(missing_ok=True)


def warm(system_id: str) -> None:
    """Read a system's rule data and compile its templates in this process, so that children forked from it later
    start with them (a build of many scenarios pays for them once, not once a scenario)."""
    from . import coverage, systems

    system = systems.get(system_id)
    system.rules  # noqa: B018 (a cached property: read here, inherited by every child forked after)
    coverage.printable()
    env = environment()
    for name in env.list_templates(filter_func=lambda name: name.endswith(".html")):
        if "/" not in name or name.startswith(f"{system_id}/"):
            env.get_template(name)
