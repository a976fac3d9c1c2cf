"""The booklet's front matter: cover and contents, rendered once the parts' page numbers are known."""

from __future__ import annotations

import markupsafe

from .. import __version__
from ..build import APPENDIX, CHAPTER, Options
from ..engine import render_pdf
from ..rendering import TEMPLATES, render
from .parts import PART_PDF_VERSION
from .plan import Part

# contents lines (a title and its system) to an A4 page: 19 under the heading, 20 on the next (read back from a
# 40-scenario booklet); front_matter's first guess of its length
CONTENTS_LINES_PER_PAGE = 20


def _holds(appendix: Part) -> list[str]:
    """What an appendix holds, for its contents line: the titles its own PDF bookmarks, at any depth and once
    each, less the headings of its variant sets ("<system>: With ..."), which hold those same parts."""
    return list(dict.fromkeys(t for t in appendix.bookmarks if not t.startswith(f"{appendix.system}: ")))


def _render_front(config: dict, parts: list[Part], options: Options) -> tuple[bytes, int, list]:
    chapters = [p for p in parts if p.kind == CHAPTER]
    appendices = [p for p in parts if p.kind == APPENDIX]
    systems = list(dict.fromkeys(p.system for p in chapters))
    html = render(
        "booklet/front.html",
        booklet={**config, "introduction": markupsafe.Markup(config["introduction_html"])},
        chapters=[
            {"title": p.title, "system": p.system, "author": p.author, "page": p.start, "n": parts.index(p)}
            for p in chapters
        ],
        appendices=[
            {
                "title": p.title,
                "system": p.system,
                "letter": p.letter,
                "page": p.start,
                "n": parts.index(p),
                "holds": _holds(p),
                "house": p.house_title,
            }
            for p in appendices
        ],
        systems=systems,
        logo=config["logo_url"],
        page_size={"a4": "A4", "letter": "letter"}[options.paper],
        version=__version__,
    )
    links: list = []
    data, pages = render_pdf(html, TEMPLATES, tags=True, links=links, pdf_version=PART_PDF_VERSION)
    return data, pages, links


def guessed_length(parts: list[Part]) -> int:
    """The front matter's pages as first guessed: a cover and as many pages of contents as its lines fill."""
    return 1 + -(-(len(parts) + 1) // CONTENTS_LINES_PER_PAGE)


def number_pages(config: dict, parts: list[Part], front_pages: int) -> int:
    """Number every part's first page after a front matter of `front_pages`; the booklet's page count.

    Printed double-sided, a part that would start on a left-hand (even) page gets a blank page before it."""
    page = front_pages + 1
    for part in parts:
        part.blank_before = bool(config.get("double_sided")) and page % 2 == 0
        page += part.blank_before
        part.start = page
        page += part.pages
    return page - 1


def front_matter(config: dict, parts: list[Part], options: Options) -> tuple[bytes, int, int]:
    """Number every part's first page and render the front matter: its PDF, its pages and the booklet's."""
    # The front matter's length decides every page number. Start from a guess, a cover and as many pages of contents
    # as its lines fill, so that it is usually rendered once; where the guess is wrong (a long introduction, a
    # Letter page) it is rendered again with its own length, until the length its page numbers assumed is the one
    # it has.
    front_pages = guessed_length(parts)
    for _ in range(4):
        total = number_pages(config, parts, front_pages)
        front, counted, _ = _render_front(config, parts, options)
        if counted == front_pages:
            break
        front_pages = counted
    return front, front_pages, total
