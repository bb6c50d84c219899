"""How the map is coloured: a colour per nation that colour-blind eyes tell apart, sea as sea.

The nations take, in the scenario's order, the colours of Paul Tol's "muted" scheme (designed to
stay distinct under the common colour-vision deficiencies), leaving out its pale blue, which reads
as sea. A scenario's own `color` values are not used on the map: printed boards favour look over
legibility (near-white for one nation, near-grey for another). Text on a fill is black or white,
whichever contrasts more.
"""
from __future__ import annotations

from dataclasses import dataclass

from PySide6.QtCore import Qt
from PySide6.QtGui import QColor, QPen

# Paul Tol, "muted" qualitative scheme (https://personal.sron.nl/~pault/), without its pale cyan.
PALETTE = ("#CC6677", "#332288", "#DDCC77", "#117733", "#882255", "#44AA99", "#999933", "#AA4499",
           "#6699CC", "#EE8866")
SEA = QColor("#CFE3F3")
SEA_EDGE = QColor("#8DB3D3")
NEUTRAL = QColor("#E8E2D0")
LAND_EDGE = QColor("#4A4236")
SELECTED = QColor("#F0A000")

# How each border kind is drawn between the spaces' centres: colour, width, pen style.
BORDER_STYLES = {
    "land": ("#5a4a32", 2.0, Qt.PenStyle.SolidLine),
    "mountain": ("#8b5a2b", 4.0, Qt.PenStyle.DashLine),
    "river": ("#2f6fb3", 3.0, Qt.PenStyle.DashDotLine),
    "sea": ("#4a90c8", 2.0, Qt.PenStyle.DashLine),
    "coast": ("#7fb0d8", 1.5, Qt.PenStyle.DotLine),
    "strait": ("#1c6e8c", 3.0, Qt.PenStyle.DashDotDotLine),
    "canal": ("#1b8a3a", 3.5, Qt.PenStyle.DashDotLine),
    "wrap": ("#999999", 1.0, Qt.PenStyle.DotLine),
    "track": ("#333333", 1.5, Qt.PenStyle.SolidLine),
}
SEA_BORDER_KINDS = frozenset({"sea", "coast", "strait", "canal"})


def border_pen(kind: str) -> QPen:
    colour, width, style = BORDER_STYLES.get(kind, ("#aa00aa", 2.0, Qt.PenStyle.SolidLine))
    return QPen(QColor(colour), width, style)


def text_colour(fill: QColor) -> QColor:
    """Black on light fills, white on dark ones (relative luminance, as WCAG measures it)."""
    def channel(value: int) -> float:
        c = value / 255
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4
    luminance = 0.2126 * channel(fill.red()) + 0.7152 * channel(fill.green()) + 0.0722 * channel(fill.blue())
    return QColor("#ffffff") if luminance < 0.22 else QColor("#111111")


@dataclass(frozen=True)
class Owner:
    ident: str
    name: str
    colour: QColor


def owner_palette(manifest: dict) -> dict[str, Owner]:
    """Nation (or, in a game without nations, side) id -> its name and map colour.

    A nation played by another (China by the United States) keeps a colour of its own: the map
    shows who holds a territory, and the legend says who plays whom."""
    nations = [n for n in manifest.get("nations") or [] if isinstance(n, dict) and isinstance(n.get("id"), str)]
    owners = nations or [s for s in manifest.get("sides") or [] if isinstance(s, dict) and isinstance(s.get("id"), str)]
    found = {}
    for number, owner in enumerate(owners):
        colour = QColor(PALETTE[number % len(PALETTE)])
        if number >= len(PALETTE):  # more owners than colours: a lighter round of the same
            colour = colour.lighter(100 + 30 * (number // len(PALETTE)))
        found[owner["id"]] = Owner(owner["id"], str(owner.get("name") or owner["id"]), colour)
    return found


def controllers(document) -> dict[str, str]:
    """space id -> who holds it at the start: setup's `control`, else the map's `original_owner`."""
    holder = {}
    for space in document.entities("map", "spaces"):
        if isinstance(space.get("original_owner"), str):
            holder[space.get("id")] = space["original_owner"]
    for entry in document.entities("setup", "spaces"):
        if isinstance(entry.get("control"), str):
            holder[entry.get("space")] = entry["control"]
    return holder
