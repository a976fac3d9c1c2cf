"""The grid map's legend: its entries in order, each with a one-square swatch drawn as the map draws that terrain."""

from __future__ import annotations

from ...svg import data_uri, shape_path
from .looks import HILL_FILLS, LEGEND, PATH_KINDS, PATTERN_DEFS, RIVER
from .map import GridMap
from .relief import hill_squares


def legend_entries(used: list[str]) -> list[dict]:
    """The legend keys a map used, in LEGEND's order (any other key last), each with its label and swatch."""
    order = list(LEGEND)
    return [
        {"key": k, "label": LEGEND.get(k, k), "image": swatch_uri(k)}
        for k in sorted(used, key=lambda k: order.index(k) if k in LEGEND else 99)
    ]


def swatch_uri(key: str) -> str:
    """A one-square picture of a legend entry (hill-2, woods, road, bridge...) as a data: URL."""
    one = GridMap(1, 1)
    if key.startswith("hill-"):
        one.level(0, 0, int(key.split("-")[1]))
    elif key in PATH_KINDS:
        d = "M0 5 H10"
        if key == RIVER:
            one.paths = [
                f'<path d="{d}" stroke="#2f5f8f" stroke-width="4.6"/><path d="{d}" stroke="#a9c8e6" stroke-width="3.8"/>'
                f'<path d="{d}" stroke="#2f5f8f" stroke-width="0.3" stroke-dasharray="1.2 0.8"/>'
            ]
        else:
            one.paths = [
                f'<path d="{d}" stroke="#3d3326" stroke-width="2.6"/><path d="{d}" stroke="#efe6cf" stroke-width="2"/>'
                f'<path d="{d}" stroke="#3d3326" stroke-width="0.25" stroke-dasharray="1.5 1"/>'
            ]
    elif key == "bridge":
        d = "M5 0 V10"
        one.paths = [
            f'<path d="{d}" stroke="#2f5f8f" stroke-width="4.6"/><path d="{d}" stroke="#a9c8e6" stroke-width="3.8"/>'
        ]
        one.bridge(0, 0, True)
    elif key == "objective":
        one.objective(0, 0)  # its dashed frame, and its star as the map draws it
        one.overlays.append(
            f'<g fill="#ffd84a" stroke="#000" stroke-width="0.25">{shape_path("star", 7.2, 2.8, 1.9)}</g>'
        )
    else:
        one.area(key, 0, 0)
    body = (
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="-0.5 -0.5 11 11" width="22" height="22">'
        f'<defs>{PATTERN_DEFS}</defs><rect x="0" y="0" width="10" height="10" fill="{HILL_FILLS[0]}" stroke="#555" stroke-width="0.2"/>'
        f"{hill_squares(one.levels, one.S)}{''.join(one.areas)}{''.join(drawn for _, drawn in one.trees + one.houses)}{''.join(one.paths)}{''.join(one.overlays)}"
        f"{swatch_level_marks(one.levels, one.S)}</svg>"
    )
    return data_uri(body)


def swatch_level_marks(levels: dict[tuple[int, int], int], S: float) -> str:
    """A legend swatch prints 5 mm wide, too small for a 7 pt '∩2': one drawn crest (the map's level sign) per
    contour instead."""
    out = []
    for (c, r), lv in sorted(levels.items()):
        if not lv:
            continue
        size, gap = 2.2, 0.5
        w = lv * size + (lv - 1) * gap + 1.0
        x0, base = (c + 1) * S - 0.4 - w, (r + 1) * S - 0.5
        out.append(
            f'<rect x="{x0:.2f}" y="{base - size - 1.0:.2f}" width="{w:.2f}" height="{size + 1.0:.2f}" rx="0.4" '
            f'fill="#ffffff" fill-opacity="0.9" stroke="#555" stroke-width="0.1"/>'
        )
        for i in range(lv):
            left, radius = x0 + 0.5 + i * (size + gap), size / 2
            out.append(
                f'<path d="M{left:.2f} {base - 0.6:.2f} a{radius:g} {radius:g} 0 0 1 {size:g} 0" fill="none" '
                f'stroke="#1a1a1a" stroke-width="0.45"/>'
            )
    return "".join(out)
