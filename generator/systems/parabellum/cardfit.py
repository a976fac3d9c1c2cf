"""Fitting unit cards at each card size: a unit's blocks and plan groups laid out in fixed rows over follow-on cards.

A unit's card body is a stack of blocks (stats, HQ line, one block per weapon, the Fire!/Charge! line,
the stress track, then its plan groups), each a whole number of rows of the size's row height, measured
by measure.py; the template gives each block exactly that height. Blocks that do not fit move to a
follow-on card.
"""

from __future__ import annotations

from math import floor

from .measure import Geometry, first_fitting, tag_box_mm, text_rows, width_mm

# a follow-on card's legend and the track's caption: the first that fits one row, else the last, wrapped
LEGENDS = ("CAPITALS: Long (2 points) \u00b7 \u2020 wastes Aim", "CAPITALS: Long \u00b7 \u2020 wastes Aim")
CAPTIONS = ("Points for D6 {faces}; tick Stress.", "D6 {faces}; tick Stress.")


def stats_text(unit: dict) -> tuple[str, frozenset]:
    """The stats row as printed, and its words printed in bold (the numbers), for measuring."""
    bold = [str(unit["models"]), f'{unit["movement"]}"', f'{unit["run"]}"']
    text = f"{bold[0]} models \u00b7 Move {bold[1]} \u00b7 Run {bold[2]}"
    if unit.get("discipline") is not None:
        bold.append(f"{unit['discipline']}+")
        text += f" \u00b7 Disc {bold[3]}"
    return text, frozenset(bold)


def hq_text(unit: dict) -> str:
    n = unit["command_points"]
    return f"HQ \u00b7 {n} Command Point{'s' if n != 1 else ''} for Take Action!"


def unit_blocks(unit: dict, geometry: Geometry) -> list[dict]:
    """The fixed blocks of a unit's first card, each {"block": kind, "rows": n}, in print order."""
    text, bold = stats_text(unit)
    blocks = [{"block": "stats", "rows": text_rows(text, geometry, bold)}]
    if unit["hq"]:
        blocks.append({"block": "hq", "rows": text_rows(hq_text(unit), geometry, frozenset({"HQ"}))})
    for weapon in unit["weapons"]:
        extra = [tag_box_mm(weapon["tag_text"], geometry)] if weapon["tag_text"] else []
        blocks.append({"block": "weapon", "weapon": weapon, "rows": text_rows(weapon["name"], geometry, extra=extra)})
    if not unit["weapons"]:
        blocks.append({"block": "weapon", "weapon": None, "rows": 1})
    blocks.append({"block": "fc", "rows": text_rows(unit["fire_charge"], geometry)})
    caption = first_fitting([caption.format(faces=unit["track"]["faces"]) for caption in CAPTIONS], geometry)
    # the track, its caption, and a blank row before the plans
    rows = geometry.track_rows(len(unit["track"]["levels"])) + text_rows(caption, geometry) + 1
    blocks.append({"block": "track", "rows": rows, "caption": caption})
    return blocks


def legend_block(geometry: Geometry) -> dict:
    text = first_fitting(list(LEGENDS), geometry)
    return {"block": "legend", "text": text, "rows": text_rows(text, geometry)}


def columns_for(labels: list[str], geometry: Geometry) -> int:
    """As many equal columns as the widest label allows on the card's width."""
    widest = max((width_mm(label, geometry.text_pt) for label in labels), default=0.0) + 0.5
    return max(1, min(geometry.max_cols, floor((geometry.inner_mm + geometry.gap_mm) / (widest + geometry.gap_mm))))


def item_rows(item: dict) -> int:
    """Rows a card item takes: a block its own rows, a plan group its heading and its rows of plans."""
    return 1 + len(item["rows"]) if item["block"] == "plans" else item["rows"]


def paginate(blocks: list[dict], groups: list[dict], geometry: Geometry) -> list[list[dict]]:
    """Lay a unit's blocks then its plan groups over cards of `geometry.body_rows` rows; every card after the first opens with the legend.

    A block moves whole to the next card when it does not fit. Each group is {"points": n, "plans": [...]};
    it prints a heading row then its plans in rows of `cols`, and a group that does not fit continues on
    the next card under a "continued" heading, so no plan is ever cut off or squeezed; no part of a split
    group is a single row.
    """
    cards: list[list[dict]] = [[]]
    room = geometry.body_rows

    def new_card() -> None:
        nonlocal room
        legend = legend_block(geometry)
        cards.append([legend])
        room = geometry.body_rows - legend["rows"]

    for block in blocks:
        if block["rows"] > room and cards[-1]:
            new_card()
        cards[-1].append(block)
        room -= block["rows"]
    for group in groups:
        cols = columns_for([plan["abbr"] + plan["mark"] for plan in group["plans"]], geometry)
        rows = [group["plans"][i : i + cols] for i in range(0, len(group["plans"]), cols)]
        part = 0
        while rows:
            if room < 2:  # a heading with no row under it helps nobody
                new_card()
            take = min(len(rows), room - 1)
            if take < len(rows) and (take < 2 or len(rows) - take < 2):  # never a lone row of a split group
                if take < 3:
                    new_card()
                    continue
                take -= 1
            cards[-1].append(
                {
                    "block": "plans",
                    "points": group["points"],
                    "cols": cols,
                    "continued": part > 0,
                    "rows": rows[:take],
                    "count": len(group["plans"]),
                }
            )
            rows = rows[take:]
            room -= take + 1
            part += 1
    return cards
