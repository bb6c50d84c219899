"""How much a scenario may put into play: one limit, shared by the validator and the engine.

The engine makes one object per unit (and per marker and card), so a count of 10^12 infantry,
valid YAML and a valid integer, would take terabytes and never finish a game; 10^6 already takes
half a gigabyte and minutes a game. MAX_PIECES is what a game holds of each kind of piece in all,
and the battle calculator's limit of units of one type in one battle: `sandtable validate`
refuses a scenario over it (SET006), and the engine refuses to start such a game, with the limit
in the message, so that no command finds out by running out of memory.
"""
from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

MAX_PIECES = 1_000_000

# Where each kind of piece is counted: (file kind, collection, list in each entry or None).
_COUNTED = {
    "units": [("setup", "spaces", "units"), ("setup", "pools", "units"),
              ("setup", "reinforcements", "units")],
    "markers": [("setup", "markers", None), ("setup", "spaces", "markers")],
    "cards": [("decks", "decks", "cards")],
}


@dataclass(frozen=True)
class Excess:
    """A count that takes its kind of piece over the limit: where it is, and what to say."""

    kind: str        # file kind
    pointer: str     # JSON pointer of the count
    message: str


def excesses(scenario) -> list[Excess]:
    """For each kind of piece (units, markers, cards) whose counts add up to more than
    MAX_PIECES, the largest count (the likeliest slip; the first of equals). A count that is not
    a whole number is left to the schema check."""
    found = []
    for piece, places in _COUNTED.items():
        counts = list(_counts(scenario, places))
        total = sum(count for *_, count in counts)
        if total > MAX_PIECES:
            kind, pointer, _ = max(counts, key=lambda found: found[2])
            found.append(Excess(kind, pointer, (
                f"the scenario puts {total:,} {piece} into play; a game holds at most "
                f"{MAX_PIECES:,} (the engine makes one object per piece)")))
    return found


def _counts(scenario, places) -> Iterator[tuple[str, str, int]]:
    """(file kind, pointer of the count, count) of every counted entry, in file order."""
    for kind, collection, inner in places:
        for pointer, entry in scenario.entities(kind, collection):
            if inner is None:
                stacks = [(pointer, entry)]
            else:
                listed = entry.get(inner)
                stacks = [(f"{pointer}/{inner}/{i}", stack) for i, stack in enumerate(listed)
                          if isinstance(stack, dict)] if isinstance(listed, list) else []
            for where, stack in stacks:
                count = stack.get("count", 1)
                if isinstance(count, int) and not isinstance(count, bool) and count > 0:
                    yield kind, f"{where}/count", count
