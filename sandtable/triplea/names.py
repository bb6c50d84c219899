"""Ids and names: TripleA's names made into the scenario format's ids, and back.

TripleA names things freely ("Karelia S.S.R.", "5 Sea Zone", "aaGun"); the scenario format wants
stable lower-case ids. The World War II games' players and a few units have established ids
(`Russians` -> `soviet-union`); everything else is derived from its name. `Ids` keeps the ids of
one kind of thing distinct when two names reduce to the same id ("marine" and "Marine").
"""
from __future__ import annotations

import re
import unicodedata

# TripleA player names of the World War II games -> our nation ids and English names.
NATIONS = {
    "Germans": ("germany", "Germany"),
    "Russians": ("soviet-union", "Soviet Union"),
    "Japanese": ("japan", "Japan"),
    "British": ("united-kingdom", "United Kingdom"),
    "Italians": ("italy", "Italy"),
    "Americans": ("united-states", "United States"),
    "Chinese": ("china", "China"),
}
UNITS = {
    "aaGun": ("aa-gun", "Antiaircraft Gun"),
    "armour": ("armour", "Tank"),
    "carrier": ("carrier", "Aircraft Carrier"),
    "factory": ("factory", "Industrial Complex"),
}
RESOURCES = {
    "PUs": ("ipc", "Industrial Production Certificates"),
    "techTokens": ("research-tokens", "Research tokens"),
}
_SEA_ZONE = re.compile(r"\s*(\d+)\s+Sea Zone\s*")
_ID = re.compile(r"^[a-z0-9][a-z0-9_-]*$")
MAX_ID = 64   # the format's longest id


def _ascii(text: str) -> str:
    """Letters with accents lose them (Königsberg -> Konigsberg); other characters stay."""
    if text.isascii():
        return text
    decomposed = unicodedata.normalize("NFKD", text)
    return "".join(c for c in decomposed if not unicodedata.combining(c))


def territory_id(name: str) -> str:
    """'Karelia S.S.R.' -> karelia-ssr; '5 Sea Zone' -> sz-5."""
    sea = _SEA_ZONE.fullmatch(name)
    if sea:
        return f"sz-{int(sea.group(1))}"
    text = _ascii(name).lower().replace(".", "").replace("'", "")
    return re.sub(r"[^a-z0-9]+", "-", text).strip("-")


def territory_name(name: str) -> str:
    """The display name of a territory: '5 Sea Zone' -> 'Sea Zone 5'; others as they are."""
    sea = _SEA_ZONE.fullmatch(name)
    return f"Sea Zone {int(sea.group(1))}" if sea else name.strip()


def triplea_territory_name(name: str) -> str:
    """The inverse of territory_name: 'Sea Zone 5' -> '5 Sea Zone'."""
    sea = re.fullmatch(r"Sea Zone (\d+)", name)
    return f"{int(sea.group(1))} Sea Zone" if sea else name


def plain_id(name: str) -> str:
    """'aaGun' -> aa-gun, 'Axis' -> axis: camel case and spaces become hyphens."""
    text = re.sub(r"(?<=[a-z0-9])(?=[A-Z])", "-", _ascii(name)).lower()
    return re.sub(r"[^a-z0-9]+", "-", text.replace(".", "").replace("'", "")).strip("-")


def scenario_id(name: str) -> str:
    """The id of a scenario named after a folder or file: plain_id, no longer than an id may be."""
    return plain_id(name)[:MAX_ID].rstrip("-_")


def humanise(name: str) -> str:
    """'germanAdvancedTacticalBomber' -> 'German advanced tactical bomber'."""
    words = re.sub(r"(?<=[a-z0-9])(?=[A-Z])", " ", name).replace("_", " ").split()
    return " ".join(words).capitalize() if words else name


class Ids:
    """Distinct ids for the names of one kind of thing, in the order the names come."""

    def __init__(self, fallback: str):
        self.fallback = fallback
        self.by_name: dict[str, str] = {}
        self.taken: set[str] = set()

    def add(self, name: str, wanted: str) -> str:
        """The id of `name`: `wanted` when it is a valid id and free, else a numbered variant
        (`marine-2`), or the fallback numbered (`t-1`) when nothing of the name makes an id."""
        if name in self.by_name:
            return self.by_name[name]
        base = wanted[:MAX_ID].rstrip("-_") if wanted and _ID.match(wanted) else None
        if base is not None and base not in self.taken:
            candidate = base
        else:
            stem, number = (base[:MAX_ID - 6].rstrip("-_"), 2) if base is not None else (self.fallback, 1)
            while f"{stem}-{number}" in self.taken:
                number += 1
            candidate = f"{stem}-{number}"
        self.by_name[name] = candidate
        self.taken.add(candidate)
        return candidate

    def get(self, name: str) -> str | None:
        return self.by_name.get(name)

    def __getitem__(self, name: str) -> str:
        """The id of a name already added."""
        return self.by_name[name]

    def __contains__(self, name: str) -> bool:
        return name in self.by_name
