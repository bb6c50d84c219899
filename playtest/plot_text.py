"""Text from data, drawn by Matplotlib as it is written.

A name in a scenario may hold `$` ("$M 50", a price in Allies vs. Axis). Matplotlib reads a text
with two `$` as math (`$x^2$`), and one that is not valid math raises while the figure is saved:
after every game of a study was played, with no report at all and an empty playtest panel.
Sandtable draws no math, so instead of escaping each string (titles, labels, legends, tick
labels, annotations: any that is forgotten crashes again), math text is turned off for every
text Matplotlib makes from then on.
"""
from __future__ import annotations


def draw_text_as_written() -> None:
    """Make Matplotlib draw every text as written: `$` and `\\` are plain characters. Call it
    before making a figure (a text reads the setting when it is made)."""
    import matplotlib
    matplotlib.rcParams["text.parse_math"] = False
    matplotlib.rcParams["text.usetex"] = False
