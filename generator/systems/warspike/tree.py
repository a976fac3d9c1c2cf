"""A side's standing organisation laid out as a tree for the roster: one row per Block or Unit, with its guide lines."""

from __future__ import annotations

from .organisation import Organisation


def tree_rows(org: Organisation, side: int) -> list[dict]:
    """The side's Blocks and Units in tree order, each with its depth and the guide lines drawn to its left.

    guides[i] is "v" (a line passes), "t" (a branch to this row, more below), "l" (the last
    branch) or "" (nothing), one per level above the row: plain data the template turns into cells.
    """
    rows: list[dict] = []

    def walk(name: str, depth: int, open_levels: list[bool], last: bool) -> None:
        guides = ["v" if still else "" for still in open_levels[:-1]] if depth else []
        if depth:
            guides.append("l" if last else "t")
        rows.append({"name": name, "depth": depth, "guides": guides})
        children = org.nodes[name].children
        for i, child in enumerate(children):
            is_last = i == len(children) - 1
            walk(child, depth + 1, open_levels + [not is_last], is_last)

    for name in org.roots[side]:
        walk(name, 0, [], True)
    return rows
