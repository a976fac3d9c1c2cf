"""Prose for the page: Markdown to HTML with curly quotes and real dashes, raw HTML, links and outside pictures
neutralised by an allowlist."""

from __future__ import annotations

import html
import re
from pathlib import Path

import markdown
import markupsafe
import nh3
from markdown.extensions import Extension
from markdown.treeprocessors import Treeprocessor

from .distances import inch_marks
from .fetcher import PictureRefused, picture_url, read_picture

TAGS = {
    "p",
    "em",
    "strong",
    "ul",
    "ol",
    "li",
    "h3",
    "h4",
    "blockquote",
    "code",
    "br",
    "hr",
    "img",
    "table",
    "thead",
    "tbody",
    "tr",
    "th",
    "td",
}
ATTRIBUTES = {"img": {"src", "alt"}, "th": {"align"}, "td": {"align"}}
# A plain relative file name in any script (carte-été.png), no scheme, no "..", no absolute path
_SAFE_SRC = re.compile(r"\w[\w.\-/ ]*\.(?:png|jpe?g|gif|svg|webp)", re.IGNORECASE)
MAX_NESTING = 12  # list/quote depth; deeper Markdown is pathological, not prose
# Python-Markdown scans from each '[' to the end of its paragraph for a closing '](': 19,000 open brackets
# took 64 s, 200 bunched in 20,000 characters 1.2 s, 100 about 0.6 s. A briefing with fifty pictures
# needs 50; more than 100 is an attack on the parser, not prose.
MAX_BRACKETS = 100


def safe_picture(src: str) -> bool:
    """A picture's path may be printed: a plain relative path in the scenario's folder, no scheme, no "..", no "//"."""
    return bool(_SAFE_SRC.fullmatch(src)) and ".." not in src.split("/") and "//" not in src


def _keep_attribute(tag: str, attr: str, value: str) -> str | None:
    if tag == "img" and attr == "src" and not safe_picture(value):
        return None
    return value


def _prepare(text: str) -> str:
    # Escape raw HTML before Markdown sees it, so a <script> prints as text and never runs a parser path.
    text = text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    text = "\n".join(inch_marks(line) for line in text.split("\n"))  # 6" prints 6″, before smarty curls it
    # Headings in a briefing sit under the pack's own headings: # and ## become level 3.
    return re.sub(r"^#{1,2}(?=\s)", "###", text, flags=re.MULTILINE)


class _NamePictures(Treeprocessor):
    """A picture written without a description (`![](map.png)`) is described by its file name: a tagged PDF needs a
    description for every picture, and the build would otherwise fail on a file `muster validate` passed."""

    def run(self, root):
        for img in root.iter("img"):
            if not (img.get("alt") or "").strip():
                img.set("alt", f"Picture: {Path(img.get('src') or '').name or 'untitled'}")


class _Pictures(Extension):
    def extendMarkdown(self, md):  # noqa: N802 - Python-Markdown's name
        md.treeprocessors.register(_NamePictures(md), "muster-pictures", 0)


_CODE = re.compile(r"(<code[^>]*>)(.*?)(</code>)", re.DOTALL)


def _markdown(text: str) -> str:
    # smarty: straight quotes become curly, -- an en dash, --- an em dash, ... an ellipsis, as a publisher prints them
    out = markdown.markdown(
        _prepare(text), extensions=["tables", "sane_lists", "smarty", _Pictures()], output_format="html"
    )
    # Markdown escapes a code span's & and < again after _prepare did: undo its second escape, so `a & b` prints &
    return _CODE.sub(lambda m: m[1] + m[2].replace("&amp;", "&") + m[3], out)


def pictures(text: str) -> list[str]:
    """The pictures a Markdown text names (the src of each picture, as written), for validation to check."""
    if "![" not in text:  # no picture syntax: spare the Markdown pass
        return []
    return [html.unescape(src) for src in re.findall(r'<img [^>]*?src="([^"]*)"', _markdown(text))]


def to_html(text: str, folder: Path | None = None) -> markupsafe.Markup:
    """Render a Markdown field to sanitised HTML; pictures are read from the scenario's folder, checked, and put in
    the page as their bytes (data: URLs): no path reaches the renderer, and the page depends on their content alone.
    Text with no folder has no pictures (a booklet built without a config file has no introduction)."""

    refused: list[PictureRefused] = []  # nh3 swallows what its callback raises (and prints it): carry it out

    def keep(tag: str, attr: str, value: str) -> str | None:
        value = _keep_attribute(tag, attr, value)
        if value is not None and tag == "img" and attr == "src":
            try:
                return picture_url(read_picture(folder, value)) if folder is not None else None
            except PictureRefused as err:  # changed since validation checked it
                refused.append(err)
                return None
        return value

    clean = nh3.clean(
        _markdown(text),
        tags=TAGS,
        attributes=ATTRIBUTES,
        attribute_filter=keep,
        link_rel=None,
        url_schemes=set(),
        strip_comments=True,
    )
    if refused:
        raise PictureRefused(f"{refused[0]} (in {folder}; it changed after validation)")
    return markupsafe.Markup(clean)


INLINE_TAGS = {"em", "strong", "code"}


_RANGE = re.compile(r"(?<=\d)-(?=\d)")  # 2-5, 2007-2016: an en dash between numbers
_MINUS = re.compile(r"(?<![\w/])-(?=\d)")  # -1 point: a true minus sign before a lone number


_APOSTROPHE = re.compile(r"(?<=\w)'(?=\w)|(?<=[\w.,;:!?])'")  # King's, o'clock, the players' dice
_OPENING_DOUBLE = re.compile(r'(?:^|(?<=[\s(\[{\u2013\u2014/-]))"')  # "none" opens after a space, a bracket, a dash


def curl_quotes(text: str) -> str:
    """Plain text as a publisher prints it: a straight " after a figure an inch mark (6″), apostrophes and quotes
    curly (King’s, “none”). Markdown gets the same from Python-Markdown's smarty; every other text a template
    prints (names from the scenario, rule data, table notes) gets it here, through the Jinja environment."""
    if "'" not in text and '"' not in text:
        return text
    text = _APOSTROPHE.sub("\u2019", inch_marks(text)).replace("'", "\u2018")
    return _OPENING_DOUBLE.sub("\u201c", text).replace('"', "\u201d")


def inline(text: str) -> markupsafe.Markup:
    """Render one paragraph of Markdown (a rule note or line) to inline HTML: emphasis, smart quotes, real dashes."""
    text = _MINUS.sub("\u2212", _RANGE.sub("\u2013", " ".join(text.split())))
    html = _markdown(text)
    clean = nh3.clean(html, tags=INLINE_TAGS, attributes={}, link_rel=None, url_schemes=set(), strip_comments=True)
    return markupsafe.Markup(clean.strip())


# what opens a level of nesting at a line's start: a list item's marker, or a quote's '>'
_OPENS = re.compile(r"(?:[-*+][ \t]+|\d{1,9}[.)][ \t]+|>[ \t]*)")


def nesting_depth(text: str) -> int:
    """How deep lists and quotes go, judged from indentation (a tab is four spaces, as Markdown reads it) and the
    list markers and '>' that open a line, however many (cheap, before rendering: `- - - x` is three lists deep)."""
    deepest = 0
    for line in text.splitlines():
        line = line.expandtabs(4)
        rest = line.lstrip(" ")
        levels = (len(line) - len(rest)) // 2
        while match := _OPENS.match(rest):
            levels += 1
            rest = rest[match.end() :]
        deepest = max(deepest, levels)
    return deepest
