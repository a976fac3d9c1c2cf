"""Unit symbols after the usual military map symbols, and a unit's marker: frame in its side's colour, symbol, side shape."""

from __future__ import annotations

from ...svg import data_uri, shape_path

# Unit glyphs after the usual military map symbols, drawn inside a frame of w x h centred at (x, y).
UNIT_GLYPHS = (
    "infantry",
    "cavalry",
    "armour",
    "armour-turreted",
    "machine-gun",
    "anti-tank",
    "mortar",
    "infantry-gun",
    "mountain-artillery",
    "light-artillery",
    "artillery",
    "heavy-artillery",
)


def unit_glyph(glyph: str, x: float, y: float, w: float, h: float, ink: str = "#000") -> str:
    """The symbol for a kind of unit inside its frame (frame not included); unknown glyphs draw a '?'."""
    left, r, t, b = x - w / 2, x + w / 2, y - h / 2, y + h / 2
    sw = h * 0.09
    line = f'fill="none" stroke="{ink}" stroke-width="{sw:.3f}" stroke-linecap="round"'

    def dot(cx: float, cy: float, rr: float) -> str:
        return f'<circle cx="{cx:.3f}" cy="{cy:.3f}" r="{rr:.3f}" fill="{ink}"/>'

    if glyph == "infantry":
        return f'<path d="M{left} {t} L{r} {b} M{left} {b} L{r} {t}" {line}/>'
    if glyph == "cavalry":
        return f'<path d="M{left} {b} L{r} {t}" {line}/>'
    if glyph in ("armour", "armour-turreted"):
        ow, oh = w * 0.62, h * 0.52
        body = f'<rect x="{x - ow / 2:.3f}" y="{y - oh / 2:.3f}" width="{ow:.3f}" height="{oh:.3f}" rx="{oh / 2:.3f}" {line}/>'
        if glyph == "armour-turreted":
            body += dot(x, y, oh * 0.22) + f'<path d="M{x:.3f} {y:.3f} L{x + ow * 0.62:.3f} {y:.3f}" {line}/>'
        return body
    if glyph == "machine-gun":
        # flat fire: an arrow along the frame from a firing post, unlike the mortar's arrow straight up
        return (
            f'<path d="M{x - w * 0.3:.3f} {y - h * 0.2:.3f} V{y + h * 0.2:.3f} M{x - w * 0.3:.3f} {y:.3f} H{x + w * 0.3:.3f} '
            f'M{x + w * 0.17:.3f} {y - h * 0.2:.3f} L{x + w * 0.3:.3f} {y:.3f} L{x + w * 0.17:.3f} {y + h * 0.2:.3f}" {line}/>'
        )
    if glyph == "anti-tank":
        return f'<path d="M{left} {b} L{x} {t} L{r} {b}" {line}/>'
    if glyph == "mortar":
        return (
            dot(x, b - h * 0.26, h * 0.13)
            + f'<path d="M{x:.3f} {b - h * 0.4:.3f} V{t + h * 0.14:.3f} M{x - w * 0.1:.3f} {t + h * 0.32:.3f} L{x:.3f} {t + h * 0.14:.3f} L{x + w * 0.1:.3f} {t + h * 0.32:.3f}" {line}/>'
        )
    if glyph == "infantry-gun":
        # infantry's cross with the gun's dot at its heart, set on a white ring so it reads as more than a cross
        return (
            f'<path d="M{left} {t} L{r} {b} M{left} {b} L{r} {t}" {line}/>'
            + f'<circle cx="{x:.3f}" cy="{y:.3f}" r="{h * 0.3:.3f}" fill="#ffffff"/>'
            + dot(x, y, h * 0.22)
        )
    if glyph == "mountain-artillery":
        return (
            dot(x, y - h * 0.08, h * 0.16)
            + f'<path d="M{x - w * 0.2:.3f} {b:.3f} L{x:.3f} {b - h * 0.26:.3f} L{x + w * 0.2:.3f} {b:.3f} Z" fill="{ink}"/>'
        )
    if glyph == "light-artillery":
        # a small dot on its axle: a light gun, unlike the field gun's one large dot
        return f'<path d="M{x - w * 0.3:.3f} {y:.3f} H{x + w * 0.3:.3f}" {line}/>' + dot(x, y, h * 0.13)
    if glyph == "artillery":
        return dot(x, y, h * 0.22)
    if glyph == "heavy-artillery":
        return dot(x - w * 0.14, y, h * 0.17) + dot(x + w * 0.14, y, h * 0.17)
    return (
        f'<text x="{x:.3f}" y="{y + h * 0.25:.3f}" font-size="{h * 0.7:.3f}" text-anchor="middle" fill="{ink}">?</text>'
    )


def unit_marker(glyph: str, colour: str, shape: str, x: float, y: float, w: float, h: float) -> str:
    """A unit's frame in its side's colour, its type's glyph, and its side's shape at the frame's corner."""
    frame = f'<rect x="{x - w / 2:.3f}" y="{y - h / 2:.3f}" width="{w:.3f}" height="{h:.3f}" fill="#ffffff" stroke="{colour}" stroke-width="{h * 0.14:.3f}"/>'
    badge = f'<g fill="{colour}" stroke="#000" stroke-width="{h * 0.05:.3f}">{shape_path(shape, x - w / 2, y - h / 2, h * 0.3)}</g>'
    return frame + unit_glyph(glyph, x, y, w * 0.78, h * 0.7) + badge


def unit_uri(glyph: str, colour: str, shape: str) -> str:
    """One unit marker as a small SVG data: URL, for cards and rosters (one image per type and side)."""
    svg = (
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 44 32" width="44" height="32">'
        f"{unit_marker(glyph, colour, shape, 24, 18, 34, 22)}</svg>"
    )
    return data_uri(svg)
