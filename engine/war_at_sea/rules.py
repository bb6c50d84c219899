"""War at Sea's rules as data: the board, the ports, who may go where, and the variant rules.

Everything here is read from the scenario (map.yaml, scenario.yaml `rules` and `options`); the
game (game.py) and the battle checks (system.py) ask it the same questions, so a battle and a
game refuse the same positions.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from validators.index import ScenarioIndex
from validators.systems.war_at_sea_limits import Limits

from ..system import EngineError


@dataclass(frozen=True)
class ReturnRule:
    """Appendix: where ships in a sea area go back to, where the map says otherwise."""

    space: str
    nation: str | None
    disabled_only: bool
    must: bool
    to: tuple[str, ...]
    from_turn: int
    until_turn: int
    port_turns: dict[str, tuple[int, int]]

    def applies(self, nation: str, disabled: bool, turn: int) -> bool:
        return ((self.nation is None or self.nation == nation)
                and (disabled or not self.disabled_only)
                and self.from_turn <= turn <= self.until_turn)

    def ports(self, turn: int) -> list[str]:
        return [p for p in self.to if self.port_turns.get(p, (1, 10 ** 6))[0] <= turn
                <= self.port_turns.get(p, (1, 10 ** 6))[1]]


@dataclass(frozen=True)
class Variant:
    """The variant rules (§18) in play: what the chosen options' `changes` say."""

    stat_changes: tuple[tuple[tuple[str, ...], str, int], ...] = ()
    hidden: frozenset[tuple[str, str]] = frozenset()            # (side, phase)
    banked: frozenset[str] = frozenset()                         # unit types kept beyond the limit
    refuel_after_escape: frozenset[str] = frozenset()            # nations
    closed_ports: tuple[tuple[str, str, int], ...] = ()          # (space, side, before turn)
    internment: dict[str, int] = field(default_factory=dict)     # neutral port -> points lost

    @classmethod
    def chosen(cls, manifest: dict, options: dict) -> Variant:
        """The variant of the options chosen (by id, or by the setting key with '_')."""
        found: dict[str, list] = {"stat": [], "hidden": [], "banked": [], "refuel": [],
                                  "closed": []}
        interned: dict[str, int] = {}
        for option in manifest.get("options") or []:
            if not isinstance(option, dict) or not isinstance(option.get("id"), str):
                continue
            key = option["id"].replace("-", "_")
            on = options.get(key, options.get(option["id"], bool(option.get("default", False))))
            if not on:
                continue
            for change in option.get("changes") or []:
                op = change.get("op")
                if op == "set_stat":
                    found["stat"].append((tuple(change["units"]), change["stat"], int(change["to"])))
                elif op == "hide_units":
                    found["hidden"].append((change["side"], change["phase"]))
                elif op == "hold_excess_reinforcements":
                    found["banked"].append(change["unit"])
                elif op == "allow_refuel_after_escape":
                    found["refuel"].append(change["nation"])
                elif op == "close_port":
                    found["closed"].append((change["space"], change["side"], int(change["before_turn"])))
                elif op == "intern_ships":
                    interned[change["space"]] = int(change["points_lost"])
                else:
                    raise EngineError(f"option {option['id']!r}: the engine does not know the "
                                      f"change {op!r}")
        return cls(tuple(found["stat"]), frozenset(found["hidden"]), frozenset(found["banked"]),
                   frozenset(found["refuel"]), tuple(found["closed"]), interned)

    def key(self) -> tuple:
        return (self.stat_changes, tuple(sorted(self.hidden)), tuple(sorted(self.banked)),
                tuple(sorted(self.refuel_after_escape)), self.closed_ports,
                tuple(sorted(self.internment.items())))


class Board:
    """The map and the rules that say who may be where (§2, §6, §12.3, §15, §16)."""

    def __init__(self, scenario, index: ScenarioIndex):
        self.index = index
        manifest = scenario.manifest
        rules = manifest.get("rules") or {}
        self.rules = rules
        self.sides = [s for s in index.sides]
        order = manifest.get("turn_order") or []
        first = index.side_of(order[0]) if order else None
        self.order = ([first] + sorted(set(self.sides) - {first}))[:2] if first else sorted(self.sides)[:2]
        # the nation that plays each side (the one in the turn order)
        self.playing = {index.side_of(n): n for n in reversed(order) if index.side_of(n)}
        self.sea_areas = [s for s, e in index.spaces.items() if e.data.get("kind") == "sea"]
        self.ports = [s for s, e in index.spaces.items() if e.data.get("kind") == "port"]
        self.adjacent: dict[str, list[str]] = {s: [] for s in index.spaces}
        for _, border in scenario.entities("map", "borders"):
            pair = border.get("between") or []
            if len(pair) == 2 and all(p in self.adjacent for p in pair):
                a, b = pair
                self.adjacent[a].append(b)
                self.adjacent[b].append(a)
        self.port_side: dict[str, str | None] = {}
        self.repair: dict[str, int] = {}
        self.points: dict[str, dict[str, int]] = {}
        for space, entity in index.spaces.items():
            data = entity.data
            tags = set(data.get("tags") or [])
            stats = data.get("stats") or {}
            if data.get("kind") == "port":
                owner = data.get("original_owner")
                self.port_side[space] = (None if "neutral-port" in tags or not owner
                                         else index.side_of(owner))
                self.repair[space] = int(stats.get("repair", 0))
            elif data.get("kind") == "sea":
                self.points[space] = {self.order[0]: int(stats.get("allied_points", 0)),
                                      self.order[1]: int(stats.get("axis_points", 0))}
        self.tags = {s: frozenset(e.data.get("tags") or []) for s, e in index.spaces.items()}
        self.limits = Limits(scenario, index)
        self.return_rules = [ReturnRule(
            r["space"], r.get("nation"), bool(r.get("disabled_only")), bool(r.get("must")),
            tuple(r.get("to") or ()), int(r.get("from_turn", 1)), int(r.get("until_turn", 10 ** 6)),
            {p: (int(t.get("from", 1)), int(t.get("until", 10 ** 6)))
             for p, t in (r.get("port_turns") or {}).items()})
            for r in rules.get("return_rules") or [] if isinstance(r, dict) and r.get("space")]
        self.port_turns = [(p["space"], p.get("side"), int(p.get("open_from", 1)),
                            int(p.get("closed_from", 10 ** 6)))
                           for p in rules.get("port_turns") or [] if isinstance(p, dict)]
        self.air = {m["side"]: (m["tag"], int(m.get("value", 0)))
                    for m in rules.get("air_strike_marker") or [] if isinstance(m, dict)}
        self.neutral_ports = [p for p, side in self.port_side.items() if side is None]
        self._returns: dict[tuple, list[str]] = {}

    # -- who may be where -------------------------------------------------------------------
    def side_of_nation(self, nation: str) -> str | None:
        return self.index.side_of(nation)

    def limit_against(self, nation: str, cls: str, space: str) -> str | None:
        """Why a ship of `nation` and class `cls` may not be in `space` (§6.4, §16), or None."""
        return self.limits.against(nation, cls, space)

    def may_enter(self, nation: str, cls: str, space: str) -> bool:
        return self.limit_against(nation, cls, space) is None

    def port_open(self, port: str, side: str, turn: int, closed_ports=()) -> bool:
        """A friendly or neutral port (§2.2-§2.3, §12.3) that is open to the side this turn
        (§15.4; §18.5 when in play)."""
        owner = self.port_side.get(port, "?")
        if owner is not None and owner != side:
            return False
        for space, who, open_from, closed_from in self.port_turns:
            if space == port and (who is None or who == side) and not open_from <= turn < closed_from:
                return False
        for space, who, before in closed_ports:
            if space == port and who == side and turn < before:
                return False
        return True

    def return_ports(self, area: str, nation: str, cls: str, side: str, disabled: bool,
                     turn: int, closed_ports=()) -> list[str]:
        """Where a ship in `area` may go back to (§7.3, §12.3, appendix, §15.5): the map's own
        rule for the area where it has one, else an adjacent friendly or neutral port."""
        key = (area, nation, cls, side, disabled, turn, closed_ports)
        if key not in self._returns:
            self._returns[key] = self._return_ports(area, nation, cls, side, disabled, turn,
                                                    closed_ports)
        return list(self._returns[key])

    def _return_ports(self, area, nation, cls, side, disabled, turn, closed_ports) -> list[str]:
        def usable(ports):
            return [p for p in ports if self.port_open(p, side, turn, closed_ports)
                    and self.may_enter(nation, cls, p)]
        rules = [r for r in self.return_rules if r.space == area and r.applies(nation, disabled, turn)]
        for rule in rules:
            if rule.must:
                found = usable(rule.ports(turn))
                if found:
                    return found
        default = usable(p for p in self.adjacent.get(area, ()) if p in self.port_side)
        extra = [p for rule in rules if not rule.must for p in usable(rule.ports(turn))]
        return list(dict.fromkeys(extra + default))
