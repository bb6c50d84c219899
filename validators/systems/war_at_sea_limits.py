"""War at Sea's nationality limits (§6.4, §16.1-§16.3): which ships may be where.

One reading of the data serves the validator (ships placed where their nation may not go) and
the engine (moves, returns and battle positions), so both refuse the same things. The reader is
lenient with malformed entries: the schema check reports those.
"""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class MovementLimit:
    """Where the ships of a nation (some classes of it) may be: `only` these spaces, or never
    the `forbidden` ones."""

    id: str
    nation: str
    only: frozenset[str] | None
    forbidden: frozenset[str]
    classes: frozenset[str] | None
    except_classes: frozenset[str]
    source: str
    pointer: str = ""

    def applies(self, nation: str, cls: str) -> bool:
        return (nation == self.nation and (self.classes is None or cls in self.classes)
                and cls not in self.except_classes)

    def allows(self, space: str) -> bool:
        return (self.only is None or space in self.only) and space not in self.forbidden

    def describe(self) -> str:
        which = f"{self.nation} ships" + (f" of class {', '.join(sorted(self.classes))}"
                                          if self.classes else "")
        if self.except_classes:
            which += f" (but class {', '.join(sorted(self.except_classes))})"
        if self.only is not None:
            text = f"{which} may only be in {', '.join(sorted(self.only))}"
        else:
            text = f"{which} may not enter {', '.join(sorted(self.forbidden))}"
        return f"{text} ({self.source})" if self.source else text


def _ids(value) -> frozenset[str]:
    return frozenset(v for v in value if isinstance(v, str)) if isinstance(value, list) else frozenset()


def read_limits(rules) -> list[MovementLimit]:
    """The `movement_limits` of a scenario's `rules`."""
    found = []
    entries = rules.get("movement_limits") if isinstance(rules, dict) else None
    for i, entry in enumerate(entries if isinstance(entries, list) else []):
        if not isinstance(entry, dict) or not isinstance(entry.get("nation"), str):
            continue
        found.append(MovementLimit(
            str(entry.get("id", "")), entry["nation"],
            _ids(entry["only"]) if entry.get("only") else None, _ids(entry.get("forbidden")),
            _ids(entry["classes"]) if entry.get("classes") else None,
            _ids(entry.get("except_classes")), str(entry.get("source", "")),
            f"/rules/movement_limits/{i}"))
    return found


class Limits:
    """The map's `closed_to` and the rules' `movement_limits`, asked one question."""

    def __init__(self, scenario, index):
        self.index = index
        self.limits = read_limits(scenario.manifest.get("rules"))
        self.closed_to: dict[str, frozenset[str]] = {}
        self.sources: dict[str, str] = {}
        for space, entity in index.spaces.items():
            self.closed_to[space] = _ids(entity.data.get("closed_to"))
            self.sources[space] = str(entity.data.get("source", ""))
        self._memo: dict[tuple[str, str, str], str | None] = {}

    def against(self, nation: str, cls: str, space: str) -> str | None:
        """Why a ship of `nation` and class `cls` may not be in `space`, or None when it may."""
        key = (nation, cls, space)
        if key not in self._memo:
            self._memo[key] = self._against(nation, cls, space)
        return self._memo[key]

    def _against(self, nation: str, cls: str, space: str) -> str | None:
        side = self.index.side_of(nation)
        closed = self.closed_to.get(space, frozenset())
        if nation in closed or (side and side in closed):
            source = self.sources.get(space, "")
            return f"{space} is closed to {nation} ships" + (f" ({source})" if source else "")
        for limit in self.limits:
            if limit.applies(nation, cls) and not limit.allows(space):
                return limit.describe()
        return None
