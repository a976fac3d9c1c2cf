"""The Jinja environment: autoescape, StrictUndefined, and the filters that format numbers for paper."""

from __future__ import annotations

import re
from fractions import Fraction
from functools import lru_cache
from importlib.resources import files
from pathlib import Path

import jinja2
import markupsafe

from .distances import distance, inch_marks
from .markup import curl_quotes, inline
from .tables import frac_str, in_columns

# Muster's own code, and its templates, print CSS and assets. templates/ ships as the package
# generator.templates (pyproject.toml): a wheel holds it in generator/templates/, an editable install maps
# the same name to the repository's templates/, so looking it up by name finds it in either.
PACKAGE = Path(__file__).resolve().parent
TEMPLATES = Path(files("generator.templates")).resolve()


def pct(value, places: int = 1) -> str:
    """A chance for the printed page: '44.4%'; certainties and impossibilities print exactly."""
    value = Fraction(value)
    if value == 0:
        return "0%"
    if value == 1:
        return "100%"
    text = f"{float(value) * 100:.{places}f}"
    # never round a real chance to look certain or impossible
    if text == f"{100:.{places}f}":
        return ">" + f"{100 - 10**-places:.{places}f}%"
    if float(text) == 0:
        return "<" + f"{10**-places:.{places}f}%"
    return text + "%"


def chance(value, places: int = 1) -> str:
    """A chance in words where it is certain: 'never' for 0 and 'always' for 1, else as pct prints it."""
    value = Fraction(value)
    if value == 0:
        return "never"
    if value == 1:
        return "always"
    return pct(value, places)


def chance_text(value, places: int = 1) -> str:
    """A chance in plain text with its exact fraction, as the terminal and a pack's odds sentences print it:
    '44.4% (4/9)'; a certainty is one word, 'never' or 'always', never '0% (0/1)' or '100% (1/1)'."""
    value = Fraction(value)
    if value in (0, 1):
        return chance(value)
    return f"{pct(value, places)} ({frac_str(value)})"


def cell_text(column, value, places: int = 2, row: dict | None = None) -> str:
    """One cell of an odds table as plain text (`muster odds`, a pack's one-row tables): a chance as chance_text
    prints it, an exact number to `places` decimals, a modifier signed, a text cell as its column shows it
    (a yes/no cell reads 'yes' or 'no', never True or False)."""
    if column.kind == "prob":
        return chance_text(value)
    if column.kind == "exact":
        return decimal(value, places)
    if column.kind == "signed":
        return signed(value)
    return str(column.shown(value, row))


def in_sentence(name: str) -> str:
    """A name as it reads inside a sentence: a leading article is lower-cased ('The bridge' -> 'the bridge'),
    the rest kept as written, so proper nouns ('Crest west', 'Hill 112') keep their capitals."""
    first, space, rest = str(name).partition(" ")
    if space and rest and first in ("The", "A", "An"):
        return first.lower() + space + rest
    return str(name)


def odds_cell(value, stacked: bool = False) -> markupsafe.Markup:
    """A table cell's chance: '44.4% 4/9' (the fraction under the percentage when stacked); a certainty is
    one word, 'never' or 'always', never '0% 0/1' or '100% 1/1'."""
    value = Fraction(value)
    if value in (0, 1):
        return markupsafe.Markup('<span class="pct certain">{}</span>').format(chance(value))
    gap = markupsafe.Markup("<br>" if stacked else " ")
    return markupsafe.Markup('<span class="pct">{}</span>{}<span class="frac">{}</span>').format(
        pct(value), gap, frac_str(value)
    )


def signed(value) -> str:
    """+2, 0, −3 (a true minus sign, which reads better in print than a hyphen)."""
    value = int(value)
    return f"+{value}" if value > 0 else ("0" if value == 0 else f"\u2212{-value}")


def decimal(value, places: int = 2) -> str:
    """A number to `places` decimals: '1.83', '2.00' (every figure of a kind alike, so a column lines up and a
    sentence never sets '2' beside '2.83')."""
    return f"{float(Fraction(value)):.{places}f}"


def heading_stop(label: str):
    """A run-in heading ends with one stop: 'Stress.' but 'Take Action!' (never 'Take Action!.')."""
    label = label.rstrip()
    return inline(label if label.endswith((".", "!", "?", ":")) else label + ".")


def _typographic(value):
    """What a template prints: plain text with curly quotes and inch marks (markup.curl_quotes); HTML that
    Muster made (Markdown, a map) as it is."""
    if isinstance(value, str) and not isinstance(value, markupsafe.Markup):
        return curl_quotes(value)
    return value


NBSP = "\u00a0"
# a signed figure and the word it goes with ('heavy +3', '+1 leader', 'at most +3'), and a two-word game term that
# ends in '!' ('Stand Ready!', 'Take Aim!'): a card's narrow lines broke them apart ('heavy' / '+3')
_BEFORE_FIGURE = re.compile(r"(?<=[A-Za-z]) (?=[+\u2212]\d)")
_AFTER_FIGURE = re.compile(r"(?<![\w.])([+\u2212]\d+) (?=[a-z])")
_TERM = re.compile(r"\b([A-Z][a-z]+) (?=[A-Z][a-z]+!)")


def unbroken(text: str) -> str:
    """Card text with a line never breaking between a signed figure and its word, or inside a two-word term."""
    text = _BEFORE_FIGURE.sub(NBSP, text)
    text = _AFTER_FIGURE.sub(lambda m: m.group(1) + NBSP, text)
    return _TERM.sub(lambda m: m.group(1) + NBSP, text)


@lru_cache(maxsize=1)
def environment() -> jinja2.Environment:
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(str(TEMPLATES)),
        autoescape=True,
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        auto_reload=False,
        finalize=_typographic,
    )
    env.filters.update(
        pct=pct,
        frac=frac_str,
        signed=signed,
        decimal=decimal,
        chance=chance,
        chance_text=chance_text,
        cell_text=cell_text,
        in_sentence=in_sentence,
        odds_cell=odds_cell,
        markdown=inline,
        heading_stop=heading_stop,
        distance=distance,
        inch_marks=inch_marks,
        unbroken=unbroken,
        in_columns=in_columns,
    )
    return env


def render(template: str, **context) -> str:
    try:
        return environment().get_template(template).render(**context)
    except jinja2.TemplateError as err:
        from .errors import RenderError

        where = f" (line {err.lineno})" if getattr(err, "lineno", None) else ""
        raise RenderError(f"template {template}{where}: {err}") from err
