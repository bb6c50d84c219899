"""What a game of Allies vs. Axis is played with, read once from the scenario.

The board (squares in ring order, what each yields, seaports, neutral defence powers), the army
units (cost, power, recruit cap), the game modes (starting territories and levels), the decks,
the victory conditions and the fixed costs. A game (game.py) only reads this; nothing here
changes during play, so one `Board` serves every game of a study.
"""
from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass, field
from fractions import Fraction

from validators.systems.allies_vs_axis_formulas import exact, parameter_value

from ..system import EngineError
from .formulas import Formulas

# What a square is, as the page's "Game board" lists them.
TERRITORY, SECRET, SPECIAL, FORTUNE, STRATEGY = "territory", "secret", "special", "fortune", "strategy"
OWNABLE = (TERRITORY, SECRET, SPECIAL)


@dataclass(frozen=True)
class Square:
    number: int                      # 0 to 35 round the ring (the page's square 1 is 0)
    id: str
    kind: str                        # TERRITORY, SECRET, SPECIAL, FORTUNE or STRATEGY
    seaport: bool = False
    yields: tuple[tuple[str, int], ...] = ()   # (resource, amount) collected each turn
    neutral_defence: int | None = None


@dataclass(frozen=True, eq=False)        # a card is itself: copies of one card are one object
class Card:
    id: str
    deck: str
    keep: bool                        # held in the hand and played later (strategy cards)
    removed_after_use: bool
    effects: tuple[dict, ...]


@dataclass(frozen=True)
class Mode:
    id: str
    start: dict[str, tuple[str, ...]]    # side -> territories owned at the start
    levels: dict[str, str]               # setting -> level


@dataclass(frozen=True)
class Victory:
    id: str
    side: str | None
    option: str | None
    when: dict
    reason: str
    reads_turn: bool         # the condition asks about the turn: it may change as a round begins


@dataclass
class Board:
    squares: list[Square]
    square_of: dict[str, int]
    units: tuple[str, ...]                     # unit types in the units table's order
    cost: dict[str, int]
    power: dict[str, Fraction | int]
    limit: dict[str, int]
    seaport_only: frozenset[str]
    resource_of_unit: dict[str, str]
    unit_of_resource: dict[str, str]
    modes: dict[str, Mode]
    default_mode: str
    decks: dict[str, list[Card]]               # deck id -> its cards, one entry per copy
    cards: dict[str, Card]
    victory: list[Victory]
    sides: tuple[str, ...]                     # in turn order
    main_territory: dict[str, str]
    natural_ally: dict[str, str]               # special territory -> the side it allies with
    neutral_units: frozenset[str]              # the only units that invade a neutral territory
    faces: int
    moves: dict[str, int]                      # strategic move id -> steps (+ forward, - back)
    parameters: dict[str, int | Fraction]
    rules: dict
    unit_stats: dict[str, dict]
    level_values: dict[str, dict[str, int | Fraction]]
    space_tags: dict[str, set[str]]
    space_kinds: dict[str, str | None]         # space -> its kind, if it has one
    option_groups: dict[str, str]              # option id -> its group
    formulas: dict[str, Formulas] = field(default_factory=dict)
    seaport: dict[str, bool] = field(default_factory=dict)          # space -> has a seaport
    owners: frozenset = frozenset()                                  # the sides, and None
    all_cards: Counter = field(default_factory=Counter)              # every card of every deck
    _yields: dict[str, dict] = field(default_factory=dict)

    # -- reading the scenario --------------------------------------------------------------------
    @classmethod
    def of(cls, scenario, index) -> Board:
        rules = scenario.manifest.get("rules") or {}
        spaces = sorted(index.spaces.values(), key=lambda e: e.data.get("index", 0))
        squares = [_square(number, entity.data) for number, entity in enumerate(spaces)]
        units = tuple(u for u in index.unit_types)
        resource_of_unit = dict(rules.get("army_resources") or {})
        modes = {}
        default_mode = None
        groups = {}
        for option_id, entity in index.options.items():
            groups[option_id] = entity.data.get("group") or ""
            if entity.data.get("group") != "mode":
                continue
            start: dict[str, tuple[str, ...]] = {}
            levels: dict[str, str] = {}
            for change in entity.data.get("changes") or []:
                if change.get("op") == "start_with":
                    start[change["side"]] = start.get(change["side"], ()) + tuple(change["spaces"])
                elif change.get("op") == "set_level":
                    levels[change["setting"]] = change["level"]
            modes[option_id] = Mode(option_id, start, levels)
            if entity.data.get("default") and default_mode is None:
                default_mode = option_id
        if not modes:
            raise EngineError("the scenario has no game mode (options of group 'mode')")
        decks: dict[str, list[Card]] = {}
        cards: dict[str, Card] = {}
        for deck_id, deck in index.decks.items():
            decks[deck_id] = []
            for entry in deck.data.get("cards") or []:
                card = Card(entry["id"], deck_id, "keep" in (entry.get("tags") or []),
                            bool(entry.get("removed_after_use")), tuple(entry.get("effects") or ()))
                cards[card.id] = card
                decks[deck_id].extend([card] * int(entry.get("count", 1)))
        victory = [Victory(entry.get("id", ""), entry.get("side"), entry.get("option"),
                           entry.get("when") or {},
                           _reason(entry.get("id", ""), entry.get("option"), groups),
                           _mentions(entry.get("when") or {}, "turn"))
                   for _, entry in scenario.entities("scenario", "victory")]
        sides = tuple(scenario.manifest.get("turn_order") or index.sides)
        board = cls(
            squares=squares, square_of={s.id: s.number for s in squares}, units=units,
            cost={u: int(e.data.get("cost", 0)) for u, e in index.unit_types.items()},
            power={u: exact((e.data.get("stats") or {}).get("power", 0))
                   for u, e in index.unit_types.items()},
            limit={u: int(e.data.get("limit", 0)) for u, e in index.unit_types.items()},
            seaport_only=frozenset(u for u, e in index.unit_types.items()
                                   if "seaport_only" in (e.data.get("tags") or [])),
            resource_of_unit=resource_of_unit,
            unit_of_resource={r: u for u, r in resource_of_unit.items()},
            modes=modes, default_mode=default_mode or next(iter(modes)),
            decks=decks, cards=cards, victory=victory, sides=sides,
            main_territory=dict(rules.get("main_territories") or {}),
            natural_ally={space: side for side, space in (rules.get("natural_allies") or {}).items()},
            neutral_units=frozenset(rules.get("neutral_invasion_units") or ()),
            faces=int((rules.get("spinner") or {}).get("faces", 6)),
            moves={m["id"]: int(m["steps"]) for m in (rules.get("strategic_moves") or {}).get("moves", [])},
            parameters={name: exact(parameter_value(entry))
                        for name, entry in (rules.get("parameters") or {}).items()},
            rules=rules,
            unit_stats={u: dict(e.data.get("stats") or {}) for u, e in index.unit_types.items()},
            level_values={name: {level: exact(value) for level, value in (entry.get("values") or {}).items()}
                          for name, entry in (rules.get("levels") or {}).items()},
            space_tags={s: set(e.data.get("tags") or []) for s, e in index.spaces.items()},
            space_kinds={s: e.data.get("kind") for s, e in index.spaces.items()},
            option_groups=groups)
        board.seaport = {square.id: square.seaport for square in squares}
        board.owners = frozenset(sides) | {None}
        board.all_cards = Counter(card for cards in decks.values() for card in cards)
        for side in sides:
            if board.main_territory.get(side) not in board.square_of:
                raise EngineError(f"rules.main_territories names no territory of the board for {side}")
        return board

    # -- questions -------------------------------------------------------------------------------
    def formulas_for(self, mode: str) -> Formulas:
        """The page's formulas with the mode's levels chosen (compiled once per mode)."""
        if mode not in self.formulas:
            self.formulas[mode] = Formulas(self.rules, self.unit_stats, self.modes[mode].levels)
        return self.formulas[mode]

    def yields_for(self, mode: str) -> dict[str, tuple[tuple[str | None, int], ...]]:
        """Space -> (unit type, or None for money; amount) collected each turn in the mode."""
        found = self._yields.get(mode)
        if found is None:
            share = self.level(mode, "resource_level")
            found = self._yields[mode] = {
                square.id: tuple((self._unit_or_money(resource), self.share(amount, share))
                                 for resource, amount in square.yields)
                for square in self.squares if square.kind in OWNABLE}
        return found

    def _unit_or_money(self, resource: str) -> str | None:
        if resource == "money":
            return None
        if resource not in self.unit_of_resource:
            raise EngineError(f"resource {resource!r} is neither money nor an army (rules.army_resources)")
        return self.unit_of_resource[resource]

    def level(self, mode: str, setting: str) -> int | Fraction:
        levels = self.modes[mode].levels
        try:
            return self.level_values[setting][levels[setting]]
        except KeyError:
            raise EngineError(f"game mode {mode!r} sets no level of {setting!r}") from None

    def parameter(self, name: str) -> int | Fraction:
        try:
            return self.parameters[name]
        except KeyError:
            raise EngineError(f"the scenario has no parameter {name!r} in rules.parameters") from None

    def takes_part(self, unit: str, square: Square) -> bool:
        """Battleships only take part in territories with a seaport ("Battleships")."""
        return square.seaport or unit not in self.seaport_only

    def share(self, amount: int, share) -> int:
        """A yield times the resource level's share, rounded half up."""
        return amount if share == 1 else math.floor(amount * share + Fraction(1, 2))


def _square(number: int, space: dict) -> Square:
    tags = space.get("tags") or []
    if space.get("kind") == "square":
        kind = FORTUNE if "fortune" in tags else STRATEGY
    else:
        kind = SECRET if "secret" in tags else SPECIAL if "special" in tags else TERRITORY
    stats = dict(space.get("stats") or {})
    neutral = stats.pop("neutral_defence", None)
    return Square(number, space["id"], kind, "seaport" in tags,
                  tuple((resource, int(amount)) for resource, amount in stats.items() if amount),
                  neutral)


def _mentions(condition, name: str) -> bool:
    if isinstance(condition, dict):
        return name in condition or any(_mentions(v, name) for v in condition.values())
    if isinstance(condition, list):
        return any(_mentions(v, name) for v in condition)
    return False


def _reason(victory_id: str, option: str | None, groups: dict[str, str]) -> str:
    """How a game that a victory condition ends is reported: the end condition itself
    (conquest, sudden-death), or the group of its option (jail-limit, turn-limit). A condition
    that no option turns on is always in play and is reported by its own id."""
    if option is None:
        return victory_id
    group = groups.get(option, "")
    return option if group == "end-condition" or not group else group
