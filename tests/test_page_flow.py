"""Page flow: no heading is left at a page's foot with its content on the next page, on A4 or on Letter."""

from __future__ import annotations

import pdfplumber
import pytest
from conftest import examples_by_system
from pdfcheck import MM

EXAMPLES = sorted(name for names in examples_by_system().values() for name in names)
ON_LETTER = ["bridge", "relay-station", "vesta-relay", "hill-112"]
LETTER_CASES = ON_LETTER

# The page's text area (muster.css: @page margin 14mm 13mm 15mm): the running head and the page number sit outside it
TOP_MARGIN, BOTTOM_MARGIN = 14 * MM, 15 * MM
# A part's heading (h2.part) is set at 17 pt, the cover's title at 30 pt; body text and lesser heads are far smaller
PART_HEADING_SIZE = 16
# What a heading must keep on its page: itself and at least three lines of what it heads (a table's caption, header
# and first row; the first unit's head, facts and table). A heading with only its lead-in under it (a side's
# summary and briefing, one short note) is as stranded as a heading alone: what it heads is on the next page
LINES_KEPT = 4


def text_lines(page) -> list[list[dict]]:
    """The words of the page's text area, gathered into lines from top to bottom."""
    words = [
        w
        for w in page.extract_words(extra_attrs=["fontname", "size"])
        if w["top"] > TOP_MARGIN and w["bottom"] < page.height - BOTTOM_MARGIN
    ]
    lines: list[list[dict]] = []
    for word in sorted(words, key=lambda w: (w["bottom"], w["x0"])):
        # words of one line share a baseline; a line of mixed sizes differs by a point or two at most
        if lines and word["bottom"] - lines[-1][0]["bottom"] < 2:
            lines[-1].append(word)
        else:
            lines.append([word])
    return [sorted(line, key=lambda w: w["x0"]) for line in lines]


def heading_font(pdf) -> set[str]:
    """The bold face the headings are set in: the face of the parts' headings, read from the PDF itself."""
    faces = {
        w["fontname"]
        for page in pdf.pages
        for line in text_lines(page)
        for w in line
        if w["size"] >= PART_HEADING_SIZE and "Bold" in w["fontname"]
    }
    assert faces, "no part heading found to tell the headings' face by"
    return faces


def stranded_headings(pdf_path) -> list[tuple[int, str]]:
    """Each page (but a part's last) whose last LINES_KEPT lines hold a heading, as (page number, heading)."""
    stranded = []
    with pdfplumber.open(pdf_path) as pdf:
        faces = heading_font(pdf)
        pages = [text_lines(page) for page in pdf.pages]
        for number, (lines, following) in enumerate(zip(pages, pages[1:]), 1):
            if not lines or (following and following[0][0]["size"] >= PART_HEADING_SIZE):
                continue  # the part ends on this page and the next opens another: nothing flows on
            for line in lines[-LINES_KEPT:]:
                if line[0]["fontname"] in faces:
                    stranded.append((number, " ".join(w["text"] for w in line)))
    return stranded


@pytest.mark.parametrize("name", EXAMPLES)
def test_no_heading_is_stranded_at_a_page_foot_on_a4(built, name):
    """Every heading of every example pack on A4 shares its page with the start of what it heads."""
    pack, _ = built(name)
    assert stranded_headings(pack) == []


@pytest.mark.parametrize("name", LETTER_CASES)
def test_no_heading_is_stranded_at_a_page_foot_on_letter(built, name):
    """Letter's shorter page moves every break: the headings still keep their content on Letter."""
    pack, _ = built(name, "--paper", "letter")
    assert stranded_headings(pack) == []
