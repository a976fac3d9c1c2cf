"""The command line: the only place that prints problems and chooses the exit status (0 done, 1 bad input, 2 misuse)."""

from __future__ import annotations

import argparse
import json
import os
import sys
import traceback
from pathlib import Path

from . import __version__, systems
from .errors import InputProblems, MusterError, Problem, UsageError
from .tables import Table


def _seed(text: str) -> int:
    from .decks import SEED_MAX

    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}") from None
    if not 0 <= value <= SEED_MAX:
        raise argparse.ArgumentTypeError(f"a seed is from 0 to {SEED_MAX}")
    return value


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
        raise argparse.ArgumentTypeError(f"expected X,Y in mm such as 0.5,-1 (got {text!r})") from None
    if not (abs(x) <= 10 and abs(y) <= 10):
        raise argparse.ArgumentTypeError(
            "a back offset is at most 10 mm each way; measure again on the calibration sheet"
        )
    return (x, y)


def _print_options(p: argparse.ArgumentParser) -> None:
    from .cards import CARD_SIZES

    g = p.add_argument_group("printing")
    g.add_argument(
        "--cards",
        dest="card_size",
        choices=list(CARD_SIZES),
        default="poker",
        help="card size: poker 63.5x88.9 mm (default), mini 44x67 mm, tarot 70x120 mm",
    )
    g.add_argument("--bleed", action="store_true", help="3 mm bleed and crop marks, for a print shop upload")
    g.add_argument(
        "--duplex", choices=["long", "short"], default="long", help="which edge the printer flips on (default long)"
    )
    g.add_argument("--fronts-only", action="store_true", help="no back pages (for gluing fronts to blanks)")
    g.add_argument(
        "--back-offset",
        type=_offset,
        default=(0.0, 0.0),
        metavar="X,Y",
        help="move the backs by X,Y mm, as measured on `muster calibrate`",
    )
    g.add_argument("--ink-saver", action="store_true", help="no large filled areas")


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
    )


def parser() -> argparse.ArgumentParser:
    top = argparse.ArgumentParser(prog="muster", description="YAML scenarios in, print-ready PDF packs out.")
    top.add_argument("--version", action="version", version=f"muster {__version__}")
    sub = top.add_subparsers(dest="command", required=True, metavar="COMMAND")

    p = sub.add_parser("build", help="build the scenario pack and its card sheets")
    p.add_argument("scenario", help="a scenario YAML file")
    p.add_argument("--out", default="output", help="output folder (default: output)")
    p.add_argument("--paper", choices=["a4", "letter"], default="a4")
    p.add_argument("--seed", type=_seed, help="shuffle seed (overrides the scenario's)")
    _print_options(p)

    p = sub.add_parser("calibrate", help="a one-sheet duplex calibration page: print it, measure, pass --back-offset")
    p.add_argument("--out", default="output/calibration.pdf", help="the PDF to write (default: output/calibration.pdf)")
    p.add_argument("--paper", choices=["a4", "letter"], default="a4")
    p.add_argument("--duplex", choices=["long", "short"], default="long")
    p.add_argument("--back-offset", type=_offset, default=(0.0, 0.0), metavar="X,Y")

    p = sub.add_parser("validate", help="check files and list every problem")
    p.add_argument("files", nargs="+")

    p = sub.add_parser("odds", help="a system's exact odds tables")
    p.add_argument("system")
    p.add_argument("--json", action="store_true")
    p.add_argument("--variant", action="append", default=[], help="switch on a named rule variant (repeatable)")

    p = sub.add_parser("deck", help="the pre-shuffled activation deck or schedule of a scenario")
    p.add_argument("scenario")
    p.add_argument("--json", action="store_true")
    p.add_argument("--seed", type=_seed)
    p.add_argument("--passes", type=_positive, help="how many passes (or turns) to draw")

    p = sub.add_parser("booklet", help="a club booklet of many scenarios, with contents and appendices")
    p.add_argument("scenarios", nargs="+", metavar="SCENARIO")
    p.add_argument("--out", required=True, help="the booklet PDF to write")
    p.add_argument("--config", help="the booklet's YAML: club, season, title, author, introduction")
    p.add_argument("--paper", choices=["a4", "letter"], default="a4")
    p.add_argument(
        "--jobs", type=_positive, default=min(2, os.cpu_count() or 1), help="processes to render with (default 2)"
    )
    p.add_argument("--no-cache", action="store_true", help="render every chapter again")

    p = sub.add_parser("systems", help="the known rule systems")
    p.add_argument("--json", action="store_true")

    p = sub.add_parser("schema", help="a system's scenario schema as JSON Schema, for editors")
    p.add_argument("system")
    return top


def _print_problems(problems: list[Problem]) -> None:
    for problem in problems:
        print(problem, file=sys.stderr)


def _text_table(table: Table) -> str:
    from .rendering import pct

    head = [c.label for c in table.columns]
    body = []
    for row in table.rows:
        cells = []
        for c in table.columns:
            v = row[c.key]
            if c.kind == "prob":
                cells.append(f"{pct(v)} ({v.numerator}/{v.denominator})")
            elif c.kind == "exact":
                cells.append(f"{float(v):.3f}")
            else:
                cells.append(str(v))
        body.append(cells)
    widths = [max(len(r[i]) for r in [head] + body) for i in range(len(head))]
    lines = [f"{table.title}", "  ".join(h.ljust(w) for h, w in zip(head, widths))]
    lines += ["  ".join(c.ljust(w) for c, w in zip(r, widths)) for r in body]
    if table.note:
        lines.append(f"({table.note})")
    return "\n".join(lines)


def cmd_build(args) -> int:
    from .build import build

    written = build(args.scenario, args.out, _options(args))
    for path in written:
        print(path)
    return 0


def cmd_calibrate(args) -> int:
    from .calibration import calibrate

    print(calibrate(Path(args.out), args.paper, args.duplex, args.back_offset))
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


def _write_statistics(stats: dict) -> None:
    """For `make bench`: where the booklet's time went, written where MUSTER_STATS says."""
    target = os.environ.get("MUSTER_STATS")
    if target:
        Path(target).write_text(json.dumps(stats))


def cmd_booklet(args) -> int:
    from .booklet import booklet
    from .build import Options

    print(
        booklet(
            args.scenarios,
            Path(args.out),
            args.config,
            Options(paper=args.paper),
            args.jobs,
            not args.no_cache,
            progress=_ProgressBar(sys.stderr),
            statistics=_write_statistics,
        )
    )
    return 0


def cmd_validate(args) -> int:
    from .build import load

    problems: list[Problem] = []
    for file in args.files:
        try:
            scenario = load(file)
        except InputProblems as err:
            problems.extend(err.problems)
        else:
            _print_problems(scenario.warnings)
    if problems:
        raise InputProblems(problems)
    print(f"{len(args.files)} file{'s' if len(args.files) != 1 else ''} valid")
    return 0


def cmd_odds(args) -> int:
    system = systems.get(args.system)
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
                {"system": system.id, "variants": args.variant, "tables": [t.to_json() for t in tables]}, indent=1
            )
        )
    else:
        print("\n\n".join(_text_table(t) for t in tables))
    return 0


def cmd_deck(args) -> int:
    from .build import choose_seed, load

    scenario = load(args.scenario)
    _print_problems(scenario.warnings)
    seed = choose_seed(scenario, args.seed)
    deck = scenario.system.prepare(scenario, seed, args.passes).deck
    if deck is None:
        raise UsageError(scenario.system.no_deck)
    if args.json:
        print(json.dumps(deck, indent=1))
    else:
        print(scenario.system.deck_text(deck))
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


COMMANDS = {
    "build": cmd_build,
    "calibrate": cmd_calibrate,
    "booklet": cmd_booklet,
    "validate": cmd_validate,
    "odds": cmd_odds,
    "deck": cmd_deck,
    "systems": cmd_systems,
    "schema": cmd_schema,
}


def main(argv: list[str] | None = None) -> int:
    args = parser().parse_args(argv)
    try:
        return COMMANDS[args.command](args)
    except InputProblems as err:
        _print_problems(err.problems)
        count = len(err.problems)
        print(f"muster: {count} problem{'s' if count != 1 else ''}; nothing was written", file=sys.stderr)
        return 1
    except MusterError as err:
        print(f"muster: {err}", file=sys.stderr)
        return err.exit_status
    except KeyboardInterrupt:
        print("muster: interrupted; nothing half-written was left", file=sys.stderr)
        return 130
    except BrokenPipeError:
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
    except Exception as err:  # a bug in Muster, never the user's input: say so plainly
        if os.environ.get("MUSTER_DEBUG"):
            traceback.print_exc()
        print(
            f"muster: internal error ({type(err).__name__}: {err}); this is a bug in Muster. "
            "Run with MUSTER_DEBUG=1 for the traceback.",
            file=sys.stderr,
        )
        return 3


def run() -> None:
    sys.exit(main())


if __name__ == "__main__":
    run()
