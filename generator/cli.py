"""The command line: the only place that prints problems and chooses the exit status (0 done, 1 bad input, 2 misuse)."""

from __future__ import annotations

import argparse
import json
import math
import os
import re
import signal
import sys
import traceback
from pathlib import Path

# Ctrl-C before main() runs is answered by generator/__init__.py's handler, installed before this module loads.
from . import INTERRUPTED, __version__, systems
from .errors import InputProblems, MusterError, Problem, UsageError, quoted
from .tables import Table

# A file can hold a problem per value; past this many the rest are counted, not printed (a 4 KB file
# once printed a million lines).
PROBLEMS_SHOWN = 100


def _seed(text: str) -> int:
    from .decks import SEED_MAX

    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}") from None
    if not 0 <= value <= SEED_MAX:
        raise argparse.ArgumentTypeError(f"a seed is from 0 to {SEED_MAX}")
    return value


def _dpi(text: str) -> int:
    from .export import DPI_RANGE

    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}") from None
    low, high = DPI_RANGE
    if not low <= value <= high:
        raise argparse.ArgumentTypeError(f"expected a whole number from {low} to {high}")
    return value


def _count(text: str) -> int:
    """A whole number, held to its bound later by whatever knows it (the system's most passes or turns)."""
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}") from None


def _positive(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}") from None
    if not 1 <= value <= 1000:
        raise argparse.ArgumentTypeError("expected a whole number from 1 to 1000")
    return value


def _offset(text: str) -> tuple[float, float]:
    try:
        x, y = (float(v) for v in text.split(","))
    except ValueError:
        x = y = math.nan
    if not (math.isfinite(x) and math.isfinite(y)):  # "nan,0" and "inf,0" are floats, but no measurement
        raise argparse.ArgumentTypeError(f"expected X,Y in mm such as 0.5,-1 (got {text!r})")
    if not (abs(x) <= 10 and abs(y) <= 10):
        raise argparse.ArgumentTypeError(
            "a back offset is at most 10 mm each way; measure again on the calibration sheet"
        )
    return (x, y)


def _card_size_option(group) -> None:
    """--cards, as build and validate take it: the card size whose names must fit."""
    from .cards import CARD_SIZES

    group.add_argument(
        "--cards",
        dest="card_size",
        choices=list(CARD_SIZES),
        default="poker",
        help="card size: poker 63.5x88.9 mm (default), mini 44x67 mm, tarot 70x120 mm",
    )


def _print_options(p: argparse.ArgumentParser) -> None:
    g = p.add_argument_group("printing")
    _card_size_option(g)
    g.add_argument("--bleed", action="store_true", help="3 mm bleed and crop marks, for a print shop upload")
    g.add_argument("--fronts-only", action="store_true", help="no back pages (for gluing fronts to blanks)")
    _duplex_options(g, "move the backs by X,Y mm, as measured on `muster calibrate`")
    g.add_argument("--ink-saver", action="store_true", help="no large filled areas")


def _duplex_options(group, offset_help: str) -> None:
    """--duplex and --back-offset, as build and calibrate take them."""
    group.add_argument(
        "--duplex", choices=["long", "short"], default="long", help="which edge the printer flips on (default long)"
    )
    group.add_argument("--back-offset", type=_offset, default=(0.0, 0.0), metavar="X,Y", help=offset_help)


def _options(args):
    from .build import Options

    return Options(
        paper=args.paper,
        seed=args.seed,
        card_size=args.card_size,
        bleed=args.bleed,
        duplex=args.duplex,
        fronts_only=args.fronts_only,
        back_offset=args.back_offset,
        ink_saver=args.ink_saver,
        house_rules=tuple(_house_rules(args).items()),
    )


HOUSE_HELP = "a club's house-rules file (`muster rules SYSTEM` writes one to start from); repeatable, one per system"


def _house_rules(args) -> dict[str, str]:
    """The house-rules files of the command line by the system each is for (read from its `system:`)."""
    from . import house

    out: dict[str, str] = {}
    for file in getattr(args, "house_rules", None) or []:
        rules, _ = house.read(file)
        if rules.system_id in out:
            raise UsageError(
                f"{quoted(out[rules.system_id])} and {quoted(file)} are both house rules for {rules.system_id}: "
                "give one"
            )
        out[rules.system_id] = str(Path(file).resolve())
    return out


def _system(args):
    """The system a command names, with the house rules given for it merged in."""
    system = systems.get(args.system)
    houses = _house_rules(args)
    others = [file for system_id, file in houses.items() if system_id != system.id]
    if others:
        raise UsageError(f"{quoted(others[0])} holds house rules for another system than {system.id}")
    return system.with_house_rules(houses[system.id]) if houses else system


class _Parser(argparse.ArgumentParser):
    """argparse, reading `-0.5,1` as a value (a back offset, typed as the calibration sheet says), not an option."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        # argparse's own test takes only -1 or -0.5 for a negative number; sub-parsers are of this class too
        self._negative_number_matcher = re.compile(r"^-\d*\.?\d+(,[-+]?\d*\.?\d+)?$")


PAPER_HELP = "paper size: a4 (default) or letter"
SYSTEM_HELP = "a rule system's id, as `muster systems` lists them"


def parser() -> argparse.ArgumentParser:
    top = _Parser(prog="muster", description="YAML scenarios in, print-ready PDF packs out.")
    top.add_argument("--version", action="version", version=f"muster {__version__}")
    sub = top.add_subparsers(dest="command", required=True, metavar="COMMAND")
    top.set_defaults(commands=sub.choices)  # main() names a stray argument with its command's usage

    p = sub.add_parser("build", help="build the scenario pack and its card sheets (of one scenario or many)")
    p.add_argument("scenarios", nargs="+", metavar="SCENARIO", help="scenario YAML files")
    p.add_argument("--out", default="output", help="output folder (default: output)")
    p.add_argument("--paper", choices=["a4", "letter"], default="a4", help=PAPER_HELP)
    p.add_argument("--seed", type=_seed, help="shuffle seed (overrides the scenario's)")
    p.add_argument("--house-rules", action="append", default=[], metavar="FILE", help=HOUSE_HELP)
    p.add_argument(
        "--jobs", type=_positive, default=min(2, os.cpu_count() or 1), help="scenarios to build at once (default 2)"
    )
    _print_options(p)

    p = sub.add_parser("calibrate", help="a one-sheet duplex calibration page: print it, measure, pass --back-offset")
    p.add_argument("--out", default="output/calibration.pdf", help="the PDF to write (default: output/calibration.pdf)")
    p.add_argument("--paper", choices=["a4", "letter"], default="a4", help=PAPER_HELP)
    _duplex_options(p, "print the sheet with its backs moved by X,Y mm, to check a measured offset")

    p = sub.add_parser("validate", help="check files and list every problem")
    p.add_argument("files", nargs="+", metavar="FILE", help="scenario YAML files, or a booklet's config")
    p.add_argument("--house-rules", action="append", default=[], metavar="FILE", help=HOUSE_HELP)
    _card_size_option(p)  # every name must fit this card size at 7 pt, as build checks, so what validates builds

    p = sub.add_parser("odds", help="a system's exact odds tables")
    p.add_argument("system", help=SYSTEM_HELP)
    p.add_argument("--json", action="store_true", help="the tables as JSON (DESIGN.md's contract), not text")
    p.add_argument("--variant", action="append", default=[], help="switch on a named rule variant (repeatable)")
    p.add_argument("--house-rules", action="append", default=[], metavar="FILE", help=HOUSE_HELP)

    p = sub.add_parser("rules", help="a system's rule data as YAML, notes as comments: a house-rules file's start")
    p.add_argument("system", help=SYSTEM_HELP)
    p.add_argument("--house-rules", action="append", default=[], metavar="FILE", help=HOUSE_HELP)

    p = sub.add_parser("deck", help="the pre-shuffled activation deck or schedule of a scenario")
    p.add_argument("scenario", help="one scenario YAML file")
    p.add_argument("--json", action="store_true", help="the deck as JSON (DESIGN.md's contract), not text")
    p.add_argument("--seed", type=_seed, help="shuffle with this deck number instead of the scenario's")
    p.add_argument("--passes", type=_count, help="how many passes (or turns) to draw")
    p.add_argument("--house-rules", action="append", default=[], metavar="FILE", help=HOUSE_HELP)

    p = sub.add_parser("booklet", help="a club booklet of many scenarios, with contents and appendices")
    p.add_argument("scenarios", nargs="+", metavar="SCENARIO", help="scenario YAML files, a chapter each")
    p.add_argument("--out", required=True, help="the booklet PDF to write")
    p.add_argument("--config", help="the booklet's YAML: club, season, title, author, introduction")
    p.add_argument("--paper", choices=["a4", "letter"], default="a4", help=PAPER_HELP)
    p.add_argument(
        "--jobs", type=_positive, default=min(2, os.cpu_count() or 1), help="processes to render with (default 2)"
    )
    p.add_argument("--no-cache", action="store_true", help="render every chapter again")
    p.add_argument("--house-rules", action="append", default=[], metavar="FILE", help=HOUSE_HELP)

    p = sub.add_parser("export", help="a scenario's cards for a print-on-demand service, or its map as a picture")
    p.add_argument("scenario", metavar="SCENARIO", help="one scenario YAML file")
    what = p.add_argument_group("what to export (one or more)")
    what.add_argument(
        "--print-on-demand",
        action="store_true",
        help="one card a page at trim plus 3 mm bleed (TrimBox and BleedBox set), fronts and backs as two PDFs, and "
        "a 300 dpi PNG of each card: DIR/NAME/print-on-demand/",
    )
    what.add_argument(
        "--map-png",
        action="store_true",
        help="the table alone as a PNG for any virtual tabletop: DIR/NAME/NAME-map.png",
    )
    p.add_argument("--out", default="output", help="output folder (default: output)")
    p.add_argument("--seed", type=_seed, help="shuffle seed (overrides the scenario's)")
    p.add_argument("--house-rules", action="append", default=[], metavar="FILE", help=HOUSE_HELP)
    p.add_argument(
        "--dpi", type=_dpi, default=None, help="the map's pixels an inch, or a grid square (default 100; 10 to 600)"
    )
    _card_size_option(p)

    p = sub.add_parser("systems", help="the known rule systems")
    p.add_argument("--json", action="store_true", help="as JSON, not text")

    p = sub.add_parser("schema", help="a system's scenario schema as JSON Schema, for editors")
    p.add_argument("system", help=SYSTEM_HELP)
    return top


def _print_problems(problems: list[Problem]) -> None:
    """The first PROBLEMS_SHOWN problems, then how many more; a file's notice (which checks are still to run)
    prints after its problems when any of them was shown, and is cut with them when none was."""
    shown, files = 0, set()
    for problem in problems:
        if problem.notice:
            if problem.file in files:
                print(problem, file=sys.stderr)
        elif shown < PROBLEMS_SHOWN:
            print(problem, file=sys.stderr)
            shown += 1
            files.add(problem.file)
    more = sum(1 for p in problems if not p.notice) - shown
    if more > 0:
        print(f"... and {more} more problem{'s' if more != 1 else ''}", file=sys.stderr)


def _text_table(table: Table) -> str:
    from .rendering import cell_text

    head = [c.label for c in table.columns]
    # the same words as the pack: 'never' and 'always' for certainties, 'yes' and 'no', never True or '0% (0/1)'
    body = [[cell_text(c, row[c.key], places=3, row=row) for c in table.columns] for row in table.rows]
    widths = [max(len(r[i]) for r in [head] + body) for i in range(len(head))]
    lines = [f"{table.title}", "  ".join(h.ljust(w) for h, w in zip(head, widths))]
    lines += ["  ".join(c.ljust(w) for c, w in zip(r, widths)) for r in body]
    if table.note:
        lines.append(f"({table.note})")
    return "\n".join(lines)


def cmd_build(args) -> int:
    from .build import build_all

    target = _statistics_target()
    stats: dict = {}
    warnings: list = []
    written = build_all(args.scenarios, args.out, _options(args), args.jobs, stats, warnings)
    _print_problems(warnings)  # what validate warns of, build says too (three vehicles where the rules advise two)
    _write_statistics(target)(stats)
    for path in written:
        print(quoted(path))
    return 0


def cmd_export(args) -> int:
    from .build import Options
    from .export import MAP_DPI, Wanted, export

    if not (args.print_on_demand or args.map_png):
        raise UsageError("say what to export: --print-on-demand, --map-png, or both")
    if args.dpi is not None and not args.map_png:
        raise UsageError("--dpi is the map picture's resolution: give it with --map-png")
    wanted = Wanted(print_on_demand=args.print_on_demand, map_png=args.map_png, dpi=args.dpi or MAP_DPI)
    houses = _house_rules(args)
    options = Options(seed=args.seed, card_size=args.card_size, house_rules=tuple(houses.items()))
    for path in export(args.scenario, args.out, wanted, options):
        print(quoted(path))
    return 0


def cmd_calibrate(args) -> int:
    from .calibration import calibrate

    print(
        quoted(
            calibrate(
                _out_file(args.out, "calibration sheet", "calibration.pdf"), args.paper, args.duplex, args.back_offset
            )
        )
    )
    return 0


class _ProgressBar:
    """The booklet's progress: a bar on a terminal, plain lines otherwise."""

    def __init__(self, stream):
        self.stream = stream
        self.tty = stream.isatty()

    def __call__(self, done: int, total: int, what: str) -> None:
        if self.tty:
            width = 28
            filled = width * done // max(total, 1)
            self.stream.write(f"\r[{'#' * filled}{'.' * (width - filled)}] {done}/{total} {what[:40]:40}")
            if done == total:
                self.stream.write("\n")
        else:
            self.stream.write(f"booklet: {done}/{total} {what}\n")
        self.stream.flush()


def _statistics_target() -> Path | None:
    """Where MUSTER_STATS says to write the booklet's statistics (for `make bench`), checked before any work."""
    target = os.environ.get("MUSTER_STATS")
    if not target:
        return None
    path = Path(target)
    if path.is_dir() or not path.parent.is_dir() or not os.access(path.parent, os.W_OK):
        raise UsageError(f"MUSTER_STATS must name a file in a folder that exists and can be written (got {target!r})")
    return path


def _write_statistics(target: Path | None):
    """A callback writing the booklet's statistics where MUSTER_STATS said, or nowhere."""

    def write(stats: dict) -> None:
        if target is not None:
            try:
                target.write_text(json.dumps(stats))
            except OSError as err:
                raise UsageError(f"cannot write MUSTER_STATS to {target}: {err.strerror or err}") from err

    return write


def _out_file(value: str, what: str, example: str) -> Path:
    """--out for a command that writes one PDF: a file's name ending in .pdf, refused up front as a usage error when
    it is empty, names a folder (the write would fail only after the rendering, naming a temporary file), or names
    something a PDF must not replace (a scenario by a slip of the name, a FIFO, a device, a symlink)."""
    if not value.strip():
        raise UsageError(f"--out is empty: give the {what}'s file name, such as {example}")
    out = Path(value)
    if out.is_dir():
        raise UsageError(f"--out {quoted(value)} is a folder: give the {what}'s file name, such as {out / example}")
    # the write replaces what is there: never a scenario, a FIFO or a device by a slip of the name
    if out.suffix.lower() != ".pdf":
        raise UsageError(f"--out {quoted(value)} does not end in .pdf: give the {what}'s file name, such as {example}")
    if (out.exists() or out.is_symlink()) and not (out.is_file() and not out.is_symlink()):
        raise UsageError(f"--out {quoted(value)} is not a file that a PDF may replace: give another name")
    return out


def cmd_booklet(args) -> int:
    from .booklet import booklet
    from .build import Options

    seen: dict[str, str] = {}
    for path in args.scenarios:  # one file twice would print its chapter twice
        try:
            same = str(Path(path).resolve())
        except OSError:
            continue
        if same in seen:
            raise UsageError(f"{quoted(path)} is given twice (as {quoted(seen[same])}): each scenario prints once")
        seen[same] = path
    out = _out_file(args.out, "booklet", "booklet.pdf")
    statistics = _write_statistics(_statistics_target())
    done = booklet(
        args.scenarios,
        out,
        args.config,
        Options(paper=args.paper, house_rules=tuple(_house_rules(args).items())),
        args.jobs,
        not args.no_cache,
        progress=_ProgressBar(sys.stderr),
        statistics=statistics,
    )
    print(quoted(done))
    return 0


def cmd_validate(args) -> int:
    from .build import validate_limited

    houses = _house_rules(args)
    jobs = min(2, os.cpu_count() or 1)
    _print_problems(validate_limited(args.files, args.card_size, jobs, house_rules=houses, played=houses))
    print(f"{len(args.files)} file{'s' if len(args.files) != 1 else ''} valid")
    return 0


def cmd_odds(args) -> int:
    system = _system(args)
    unknown = [v for v in args.variant if v not in system.variants()]
    if unknown:
        from .schema import suggest

        names = ", ".join(system.variants()) or "none"
        raise UsageError(
            f"unknown variant {unknown[0]!r}{suggest(unknown[0], system.variants())}; {system.id} has: {names}"
        )
    tables = system.odds(tuple(args.variant))
    if args.json:
        print(
            json.dumps(
                {
                    "system": system.id,
                    "variants": args.variant,
                    **_house_json(system),
                    "tables": [t.to_json() for t in tables],
                },
                indent=1,
            )
        )
    else:
        if system.house is not None:  # a printed table says whose rules it follows, as the JSON does
            print(f"With house rules: {system.house.title or 'untitled'} ({system.house.file})\n")
        print("\n\n".join(_text_table(t) for t in tables))
    return 0


def _house_json(system) -> dict:
    """The house rules a JSON answer was worked out with: their file and title (nothing without any)."""
    if system.house is None:
        return {}
    return {"house_rules": {"file": system.house.file, "title": system.house.title}}


def _deck(
    path: str, seed: int | None, passes: int | None, as_json: bool, houses: dict[str, str]
) -> tuple[list[Problem], str]:
    """In a limited child: the scenario's warnings and its deck or schedule as text or JSON."""
    from .build import choose_seed, load, refuse_unused_house_rules

    scenario = load(path, houses)
    # the wrong club file is said, as build and export say it, rather than a deck drawn by the rules as written
    refuse_unused_house_rules(houses, {scenario.system.id})
    most = scenario.system.most_passes()
    if passes is not None and most is not None and not 1 <= passes <= most[0]:
        raise UsageError(f"--passes {passes}: {scenario.system.title} plays 1 to {most[0]} {most[1]}")
    deck = scenario.system.prepare(scenario, choose_seed(scenario, seed), passes).deck
    if deck is None:
        raise UsageError(scenario.system.no_deck)
    if as_json:
        return scenario.warnings, json.dumps({**deck, **_house_json(scenario.system)}, indent=1)
    return scenario.warnings, scenario.system.deck_text(deck)


def cmd_deck(args) -> int:
    from .sandbox import run_limited

    houses = _house_rules(args)
    warnings, text = run_limited(_deck, (args.scenario, args.seed, args.passes, args.json, houses), args.scenario)
    _print_problems(warnings)
    print(text)
    return 0


def cmd_rules(args) -> int:
    from . import house

    system = _system(args)
    print(house.rules_yaml(system, system.house), end="")
    return 0


def cmd_systems(args) -> int:
    rows = [(sid, systems.get(sid).title) for sid in systems.known()]
    if args.json:
        print(json.dumps([{"id": sid, "title": title} for sid, title in rows], indent=1))
    else:
        for sid, title in rows:
            print(f"{sid:22} {title}")
    return 0


def cmd_schema(args) -> int:
    from .scenario import common_keys
    from .schema import Record

    system = systems.get(args.system)
    schema = Record(common_keys(system)).json_schema()
    schema = {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": f"Muster scenario ({system.id})",
        **schema,
    }
    print(json.dumps(schema, indent=1))
    return 0


WRITERS = ("build", "booklet", "calibrate", "export")  # the commands that write files
COMMANDS = {
    "build": cmd_build,
    "calibrate": cmd_calibrate,
    "export": cmd_export,
    "booklet": cmd_booklet,
    "validate": cmd_validate,
    "odds": cmd_odds,
    "deck": cmd_deck,
    "rules": cmd_rules,
    "systems": cmd_systems,
    "schema": cmd_schema,
}


def _interrupted(err: BaseException) -> bool:
    """Whether a Ctrl-C lies behind this error: Python 3.11 wraps one raised while a class is made (a dataclass's
    field names being set) in a RuntimeError, so an interrupt during a lazy import read as a bug in Muster."""
    seen = set()
    while err is not None and id(err) not in seen:
        if isinstance(err, KeyboardInterrupt):
            return True
        seen.add(id(err))
        err = err.__cause__ or err.__context__
    return False


def main(argv: list[str] | None = None) -> int:
    # inside main, Ctrl-C raises KeyboardInterrupt: the limited children are killed and no write is left half-done
    signal.signal(signal.SIGINT, signal.default_int_handler)
    args = None
    try:
        args, extra = parser().parse_known_args(argv)
        if extra:  # said with the command's own usage (argparse's top-level usage names no command's arguments)
            args.commands[args.command].error(f"unrecognized arguments: {' '.join(extra)}")
        return COMMANDS[args.command](args)
    except InputProblems as err:
        _print_problems(err.problems)
        count = err.count
        told = f"muster: {count} problem{'s' if count != 1 else ''}"
        # validate, odds and deck write nothing anyway: only a command that writes says it wrote nothing
        print(told + ("; nothing was written" if getattr(args, "command", "") in WRITERS else ""), file=sys.stderr)
        return 1
    except MusterError as err:
        print(f"muster: {err}", file=sys.stderr)
        return err.exit_status
    except KeyboardInterrupt:
        print(INTERRUPTED, file=sys.stderr)
        return 130
    except BrokenPipeError:
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
    except Exception as err:  # a bug in Muster, never the user's input: say so plainly
        if _interrupted(err):
            print(INTERRUPTED, file=sys.stderr)
            return 130
        if os.environ.get("MUSTER_DEBUG"):
            traceback.print_exc()
        print(
            f"muster: internal error ({type(err).__name__}: {err}); this is a bug in Muster. "
            "Run with MUSTER_DEBUG=1 for the traceback.",
            file=sys.stderr,
        )
        return 3


def run() -> None:
    try:
        status = main()
    except KeyboardInterrupt:  # Ctrl-C while main() was reporting another error
        status = 130
        print(INTERRUPTED, file=sys.stderr)
    if status == 130:
        # Run with -m, CPython ends by killing itself with SIGINT (exit status -2, not 130) once a KeyboardInterrupt
        # has passed out of exec()'d code, caught or not (a dataclass or namedtuple being made as a module loads):
        # under load Ctrl-C landed there one time in ten. Interrupted, we leave at once: output flushed, the limited
        # children already stopped, nothing else to finish.
        for stream in (sys.stdout, sys.stderr):
            try:
                stream.flush()
            except (OSError, ValueError):
                pass
        os._exit(130)
    # The command has finished: its files are written (or refused whole) and its status is known, so a Ctrl-C now
    # changes nothing. Ignored, not handled: before tearing modules down Python puts back the default action for
    # every handler it replaced (a signal then killed the process, status -2 and no line, after a complete
    # build), but leaves an ignored signal ignored.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    # Nothing is left to do but what the OS does anyway as a process ends (its memory, its files): leaving at once
    # skips tearing down every module WeasyPrint loaded, a twentieth of a second of every command.
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):
            pass
    os._exit(status)


if __name__ == "__main__":
    run()
