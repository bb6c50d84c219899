"""OCS units as combat sees them: strengths, action rating, steps and anti-armour level."""
from __future__ import annotations

from dataclasses import dataclass

ARMOUR_TAGS = {"armour", "mechanized", "mechanised"}
LEVELS = ("heavy", "light", "none")   # anti-armour levels, highest first (9.4e)


@dataclass(frozen=True)
class UnitProfile:
    id: str
    attack: float
    defense: float
    action_rating: int
    steps: int
    re: float
    barrage: float
    tags: frozenset[str]

    @property
    def armoured(self) -> bool:
        return bool(self.tags & ARMOUR_TAGS)

    @property
    def anti_armour(self) -> str:
        """Heavy: yellow-symbol units, red tank-symbol units, anti-tank and anti-aircraft units;
        light: other red-symbol units; none: the rest (9.4e)."""
        tags = self.tags
        if ("yellow-symbol" in tags or ("red-symbol" in tags and self.armoured)
                or tags & {"anti-tank", "anti-aircraft"}):
            return "heavy"
        return "light" if "red-symbol" in tags else "none"


def read_profiles(scenario) -> dict[str, UnitProfile]:
    found = {}
    for _, entry in scenario.entities("units", "unit_types"):
        if not isinstance(entry.get("id"), str):
            continue
        stats = entry.get("stats") or {}
        found[entry["id"]] = UnitProfile(
            entry["id"], float(stats.get("attack", 0)), float(stats.get("defense", 0)),
            int(stats.get("action_rating", 0)), int(stats.get("steps", 1)),
            float(stats.get("re", 0)), float(stats.get("barrage", 0)),
            frozenset(entry.get("tags") or ()))
    return found


def highest_level(levels) -> str:
    levels = list(levels)
    return min(levels, key=LEVELS.index) if levels else "none"
