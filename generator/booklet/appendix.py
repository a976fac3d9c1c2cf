"""A rule system's appendix: its title, what every variant set in use shares printed once, and a section per
variant set with only what its variants change (its odds, its quick reference's scatter or movement costs)."""

from __future__ import annotations

import os

import markupsafe

from ..build import Parts, pack_blocks, pieces
from ..rendering import render


def variant_title(names: tuple[str, ...]) -> str:
    """A variant set's heading: the rules as written, or the variants played, by their printed names."""
    if not names:
        return "Rules as written"
    return "With " + " and ".join(names)


def _added(whole: str, without: str) -> str:
    """What `whole` adds to `without`: the part of it between their common beginning and common end
    (a piece a template prints inside its part, when the part is rendered with and without it)."""
    start = len(os.path.commonprefix([whole, without]))
    end = len(os.path.commonprefix([whole[start:][::-1], without[start:][::-1]]))
    return whole[start : len(whole) - end]


def appendix_html(
    sets: list[tuple[tuple[str, ...], object, dict]], heading: str, played_in: list[list[str]] | None = None
) -> str:
    """The appendix of one system, headed `heading`, from (variant ids, scenario, pack) for each variant set
    in use, the rules as written first, and the titles of the chapters that play each set (`played_in`, in
    the same order), which each set's section names.

    Each of the system's appendix parts is asked for, whole or by the pieces its template marks
    (build.pieces), for every variant set: what prints the same for all sets prints once, in the parts'
    order; what differs prints in a section per variant set, placed where the first part a variant
    changes would print. The quick reference is compared like any part: it keeps every rule (a booklet's
    appendix serves every chapter), so it differs only where a variant changes a rule it prints."""
    _, scenario, pack = sets[0]
    system = scenario.system
    marked = pieces(system)
    rendered: dict[tuple, markupsafe.Markup] = {}

    def body(index: int, part: str, chosen: tuple[str, ...] | None) -> markupsafe.Markup:
        """Part `part` (only its pieces `chosen`, or all of it) as variant set `index` prints it."""
        key = (index, part, chosen)
        if key not in rendered:
            _, scenario, pack = sets[index]
            parts = Parts({part: None if chosen is None else frozenset(chosen)})
            rendered[key] = pack_blocks(scenario, pack, parts)["body"]
        return rendered[key]

    def printed(index: int, part: str, piece: str | None) -> str:
        """What a piece of a part (or the whole part) prints for variant set `index`: for a piece, what it
        adds to its part (whose heading and lead-in may say that variants are in play)."""
        if piece is None:
            return body(index, part, None)
        return _added(body(index, part, (piece,)), body(index, part, ()))

    flow: list[dict] = []  # the appendix's body in order: a part's shared HTML, or the variant sections
    differing: dict[str, tuple[str, ...] | None] = {}  # part -> the pieces the variant sets print differently
    sections: list[dict] = []  # a section per variant set, filled in once every part is compared
    for part in system.appendix_parts:
        units = marked.get(part) or (None,)  # its pieces, or the part as one
        if len(sets) == 1:
            same = list(units)
        else:
            same = [u for u in units if len({printed(i, part, u) for i in range(len(sets))}) == 1]
        if len(same) == len(units):
            flow.append({"html": body(0, part, None)})
            continue
        if same:
            flow.append({"html": body(0, part, tuple(same))})
        if not differing:
            flow.append({"sections": sections})
        differing[part] = None if units == (None,) else tuple(u for u in units if u not in same)

    names = system.variant_names()
    summaries = system.variants()
    sections += [
        {
            "title": variant_title(tuple(names.get(v, v) for v in ids)),
            "variants": [{"name": names.get(v, v), "summary": summaries.get(v, "")} for v in ids],
            "body": markupsafe.Markup("\n").join(body(index, part, chosen) for part, chosen in differing.items()),
            "played_in": (played_in or [[]] * len(sets))[index],
        }
        for index, (ids, _, _) in enumerate(sets)
    ]
    stylesheets = pack_blocks(scenario, pack, Parts.of())["stylesheets"]
    # the document is the system's, not one scenario's: titled as the appendix, with no author or deck number
    document = {**pack, "title": heading, "author": "", "seed": None, "booklet": True, "orders": []}  # orders: chapters
    return render("booklet/appendix.html", heading=heading, flow=flow, stylesheets=stylesheets, **document)
