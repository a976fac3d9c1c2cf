"""A rule system's appendix: its odds once per variant set in use, its notes and quick reference once."""

from __future__ import annotations

import re

import markupsafe

from ..build import APPENDIX, pack_html
from ..rendering import render

REFERENCE = "reference"  # every system's appendix part holding its quick reference and rule notes
_BODY = re.compile(r"(<body[^>]*>)(.*)(</body>)", re.S)
_ANCHOR = re.compile(r'\b(id|href)="(#?)')
_RUNNING_TITLE = re.compile(r'<div class="running-title">.*?</div>\s*', re.S)


def _body(html: str) -> str:
    """What a rendered pack prints: its body, less the running title (which names one scenario)."""
    return _RUNNING_TITLE.sub("", _BODY.search(html).group(2), count=1).strip()


def variant_title(names: tuple[str, ...]) -> str:
    """A variant set's heading: the rules as written, or the variants played."""
    if not names:
        return "Rules as written"
    return "With " + " and ".join(names)


def appendix_html(sets: list[tuple[tuple[str, ...], object, dict]]) -> str:
    """The appendix of one system from (variant names, scenario, pack) for each variant set in use, the rules as
    written first. One set prints as the pack's appendix parts. With several, each of the system's appendix
    parts is rendered for every set: a part that prints the same for all, and the quick reference with the
    notes, print once, after a section per variant set holding the parts the variants change."""
    names, scenario, pack = sets[0]
    if len(sets) == 1:
        return pack_html(scenario, pack, APPENDIX)
    system = scenario.system

    def part_body(part: str, scenario, pack) -> str:
        html = render(f"{system.id}/pack.html", show=lambda name: name == part, booklet=True, **pack)
        return _body(html)

    differing: dict[tuple, list[str]] = {names: [] for names, _, _ in sets}
    shared: list[str] = []
    for part in system.appendix_parts:
        bodies = [part_body(part, scenario, pack) for _, scenario, pack in sets]
        # the notes and quick reference print once, as written: each variant's section says what it changes
        if part == REFERENCE or all(body == bodies[0] for body in bodies):
            shared.append(bodies[0])
        else:
            for index, ((names, _, _), body) in enumerate(zip(sets, bodies)):
                differing[names].append(_ANCHOR.sub(rf'\1="\2v{index}-', body))  # one anchor per id in the document
    summaries = system.variants()
    sections = [
        {
            "title": variant_title(names),
            "variants": [{"name": name, "summary": summaries.get(name, "")} for name in names],
            "body": markupsafe.Markup("\n".join(differing[names])),
        }
        for names, _, _ in sets
    ]
    body = "\n".join([str(render("booklet/appendix.html", system=system.title, sections=sections)), *shared])
    document = pack_html(scenario, pack, APPENDIX)
    match = _BODY.search(document)
    return document[: match.start(2)] + "\n" + body + "\n" + document[match.end(2) :]
