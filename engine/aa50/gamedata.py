"""Everything a whole AA50 game reads from the scenario, gathered once per scenario.

A game copies only the starting control, pieces and money; the rest (board, unit types,
research charts, China's rules, objectives, victory conditions) is shared by every game of the
scenario, so that starting a game is cheap.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from validators.conditions import Position
from validators.index import build_index

from .board import Board, Nation, read_board, read_nations
from .profiles import UnitProfile, breakthroughs, read_profiles


@dataclass(frozen=True)
class UnitType:
    """What movement and transport need of a unit type (combat reads its UnitProfile)."""

    id: str
    domain: str                 # land, sea, air, structure
    cost: int
    movement: int
    abilities: frozenset[str]
    size: int = 0               # room it takes on a transport (0: cannot be carried)
    capacity: int = 0           # a transport's room
    carrier_room: int = 0       # fighters a carrier takes
    carrier_size: int = 0       # room a fighter takes on a carrier (0: cannot land on one)

    def has(self, ability: str) -> bool:
        return ability in self.abilities


@dataclass
class ChinaRules:
    nation: str
    territories: list[str]
    per_territories: int
    unit: str
    placement_limit: int
    recapture_only: list[str]
    no_replacement: list[str]


@dataclass
class GameData:
    board: Board
    nations: dict[str, Nation]
    order: list[str]
    sides: list[str]
    types: dict[str, UnitType]
    profiles: dict[str, UnitProfile]
    abilities: dict[str, list[dict]]
    breakthroughs: dict[str, dict]
    charts: list[dict]
    research: dict
    china: ChinaRules | None
    objectives: list[dict]
    victory: list[dict]
    start_control: dict[str, str]
    start_units: list[tuple[str, str, str, str | None, int]]   # space, owner, type, aboard, count
    start_money: dict[str, int]
    # the static parts of a Position (set once the scenario is read)
    position_base: Position = field(repr=False, default_factory=lambda: Position({}, {}, {}))
    # each nation's side, read once: the rules ask it millions of times a searched game
    # (the hottest paths read `side_of` directly: a method call there costs a tenth of a game)
    side_of: dict[str | None, str | None] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        self.side_of = {name: nation.side for name, nation in self.nations.items()}

    def side(self, nation: str | None) -> str | None:
        return self.side_of.get(nation)


def read_game_data(scenario) -> GameData:
    index = build_index(scenario)
    control = index.starting_control()
    board = read_board(scenario, control)
    nations, order = read_nations(scenario)
    types = {}
    raw_abilities = {}
    for _, entry in scenario.entities("units", "unit_types"):
        if not isinstance(entry.get("id"), str):
            continue
        abilities = [a for a in entry.get("abilities") or [] if isinstance(a, dict)]
        raw_abilities[entry["id"]] = abilities
        kinds = {a["kind"] for a in abilities if isinstance(a.get("kind"), str)}
        by_kind = {a.get("kind"): a for a in abilities}
        stats = entry.get("stats") or {}
        types[entry["id"]] = UnitType(
            entry["id"], entry.get("domain", "land"), int(entry.get("cost", 0)),
            int(stats.get("movement", 0) or 0), frozenset(kinds),
            size=int(by_kind.get("transportable", {}).get("size", 0)),
            capacity=int(by_kind.get("transport", {}).get("capacity", 0)),
            carrier_room=int(by_kind.get("carrier", {}).get("capacity", 0)),
            carrier_size=int(by_kind.get("carrier_landing", {}).get("size", 0)))
    rules = scenario.manifest.get("rules") or {}
    research = rules.get("research") or {}
    china = rules.get("china")
    china_rules = None
    if isinstance(china, dict) and china.get("nation") in nations:
        china_rules = ChinaRules(
            china["nation"], list(china.get("territories") or []),
            int(china.get("infantry_per_territories", 2)), china.get("unit", "infantry"),
            int(china.get("placement_limit", 3)), list(china.get("recapture_only") or []),
            list(china.get("no_replacement") or []))
    objectives = [o for _, o in scenario.entities("objectives", "objectives")
                  if o.get("kind", "national_objective") == "national_objective"
                  and isinstance(o.get("when"), dict)]
    victory = [v for _, v in scenario.entities("scenario", "victory")
               if isinstance(v.get("when"), dict)]
    start_units = []
    for _, entry in scenario.entities("setup", "spaces"):
        space = entry.get("space")
        for stack in entry.get("units") or []:
            owner = stack.get("owner", control.get(space))
            if owner in nations and stack.get("type") in types:
                start_units.append((space, owner, stack["type"], stack.get("aboard"),
                                    int(stack.get("count", 1))))
    money = {n: 0 for n in nations}
    for _, given in scenario.entities("setup", "resources"):
        if given.get("owner") in money and given.get("resource") == "ipc":
            money[given["owner"]] += int(given.get("amount", 0))
    sides = [s["id"] for _, s in scenario.entities("scenario", "sides")]
    data = GameData(board, nations, order, sides, types, read_profiles(scenario), raw_abilities,
                    breakthroughs(scenario), list(research.get("charts") or []), research,
                    china_rules, objectives, victory, control, start_units, money)
    data.position_base = Position.starting(scenario, index)
    return data
