"""National objectives: TripleA's `objectiveAttachment` rules as declarative conditions.

A TripleA objective is a RulesAttachment whose name starts with `objectiveAttachment`, attached
to a player, paying `objectiveValue` PUs when its checks hold. The checks translated:

- `alliedOwnershipTerritories`, `directOwnershipTerritories` -> `controls` (allied or not), with
  the count TripleA reads from `count="n"` or an `n:` in front of the list;
- `enemyExclusionTerritories`, `enemySurfaceExclusionTerritories` -> `no_enemy_units`;
  `alliedExclusionTerritories` -> no unit of an ally there (`not` `units_present`);
- `rounds` (`turns`) -> `turn`; `atWarPlayers` -> `at_war`; `conditions` (other rules
  attachments, joined by `conditionType` AND or OR) -> `all` / `any`; `invert` -> `not`.

Territory lists may use TripleA's keywords instead of names. `original`, `originalNoWater`,
`enemy` (the territories the players, or their enemies, held at the start, without sea zones
and impassable ones for `NoWater`) and `map` (every territory) are fixed at the start and are
expanded into the list. `controlled` and `controlledNoWater` change as the game goes: with a count
they become `controls_count`, without one TripleA's check always holds and is left out; in an
exclusion, `controlled` becomes "no ally's units in any space the nation controls".

An objective with a check that cannot be translated is left out whole, with a warning: half an
objective would pay when the game's does not.
"""
from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from ..diagnostics import Severity
from .game import NEUTRAL, Attachment, Game, Option, split_list
from .names import Ids, plain_id
from .report import Report

OBJECTIVE_PREFIX = "objectiveAttachment"
STATIC_KEYWORDS = {"original", "originalNoWater", "enemy", "map"}
DYNAMIC_KEYWORDS = {"controlled", "controlledNoWater", "all"}
KEYWORDS = STATIC_KEYWORDS | DYNAMIC_KEYWORDS
# Options that only tune how TripleA shows or counts an objective.
IGNORED = {"objectiveValue", "uses", "players", "conditionType", "invert", "conditions", "countEach",
           "eachMultiple", "switch", "gameProperty"}


class Untranslatable(Exception):
    """A check of an objective that the condition vocabulary cannot say."""


@dataclass
class Context:
    """What the conditions need to know about the game and its translation."""

    game: Game
    territory_ids: dict[str, str]               # TripleA name -> space id
    nation_of: Callable[[str], str]             # TripleA player -> nation id
    side_of: Callable[[str], str]               # TripleA player -> side id
    original_owner: dict[str, str]              # territory -> TripleA player, at the start
    impassable: set[str]                        # territory names

    def enemies_of(self, player: str) -> list[str]:
        own = self.side_of(player)
        return [p for p in self.all_players() if self.side_of(p) != own]

    def allies_of(self, player: str) -> list[str]:
        own = self.side_of(player)
        return [p for p in self.all_players() if self.side_of(p) == own and p != player]

    def all_players(self) -> list[str]:
        """The game's players (TripleA's player list holds no null player)."""
        return [p for p in self.game.players if p != NEUTRAL]


def translate_objectives(game: Game, context: Context, report: Report, money: str,
                         option: str | None) -> list[dict]:
    rules = {a.name: a for a in game.attachments if a.java_class == "RulesAttachment"}
    ids = Ids("objective")
    objectives: list[dict] = []
    for attachment in game.attachments:
        if attachment.java_class != "RulesAttachment" or not attachment.name.startswith(OBJECTIVE_PREFIX) \
                or attachment.kind != "player":
            continue
        values = attachment.values()
        value = values.get("objectiveValue")
        amount = _int(value.value) if value else None
        if not amount:
            report.once(("objective-no-value",), "TPL005", Severity.WARNING,
                        f"objective {attachment.name!r} of {attachment.attach_to} pays nothing "
                        "(no objectiveValue); it was left out", attachment.element, attachment.name)
            continue
        player = attachment.attach_to
        try:
            condition = _rules_condition(attachment, player, context, rules, set())
        except Untranslatable as why:
            report.once(("objective-untranslated", str(why).split(":")[0]), "TPL005", Severity.WARNING,
                        f"objective {attachment.name!r} of {player} is left out: {why}",
                        attachment.element, attachment.name)
            continue
        if condition is None:
            condition = {"turn": {"min": 1}}   # every check always holds: the objective always pays
        nation = context.nation_of(player)
        suffix = attachment.name[len(OBJECTIVE_PREFIX):]
        wanted = f"{nation}-{suffix}" if suffix.isdigit() else (plain_id(suffix) or f"{nation}-objective")
        objective = {
            "id": ids.add(attachment.name + "\0" + str(len(objectives)), wanted),
            "name": _display_name(attachment.name, player, suffix),
            "owner": nation, "kind": "national_objective", "timing": "collect_income",
            "award": {"resource": money, "amount": amount},
            "when": condition,
        }
        uses = values.get("uses")
        if uses is not None and _int(uses.value) not in (None, -1):
            report.once(("objective-uses",), "TPL005", Severity.WARNING,
                        f"objective {attachment.name!r} pays only {uses.value} time(s) in TripleA; "
                        "here it pays every turn its condition holds", uses.element, attachment.name)
        if option:
            objective["option"] = option
        objectives.append(objective)
    return objectives


def _display_name(name: str, player: str, suffix: str) -> str:
    if suffix.isdigit():
        return f"{player} objective {suffix}"
    words = re.sub(r"[_\s]+", " ", suffix).strip()
    return words or f"{player} objective"


def _int(text: str | None) -> int | None:
    try:
        return int(str(text).strip())
    except ValueError:
        return None


# -- one rules attachment: its own checks, its referenced conditions, invert -------------------
def _rules_condition(attachment: Attachment, player: str, context: Context,
                     rules: dict[str, Attachment], seen: set[str]) -> dict | None:
    if attachment.name in seen:
        raise Untranslatable(f"the condition {attachment.name!r} refers to itself")
    seen = seen | {attachment.name}
    values = attachment.values()
    players = split_list(values["players"].value) if "players" in values else [player]
    players = [p for p in players if p]
    if players != [player] and not (len(players) == 1 and attachment.kind == "player"):
        raise Untranslatable(f"players: its checks count the territories of {', '.join(players)} together")
    player = players[0]
    parts: list[dict] = []
    if "conditions" in values:
        parts += _referenced(values, player, context, rules, seen)
    for option in attachment.options:
        if option.name in IGNORED:
            continue
        part = _check(option, player, context)
        if part is not None:   # at war with all of several players: each a part of its own
            parts += part["all"] if list(part) == ["all"] else [part]
    condition = None if not parts else parts[0] if len(parts) == 1 else {"all": parts}
    invert = values.get("invert")
    if invert is not None and invert.value.strip().lower() == "true":
        condition = {"not": condition if condition is not None else {"turn": {"min": 1}}}
    return condition


def _referenced(values: dict[str, Option], player: str, context: Context,
                rules: dict[str, Attachment], seen: set[str]) -> list[dict]:
    names = [n for n in split_list(values["conditions"].value) if n]
    kind = values["conditionType"].value.strip().upper() if "conditionType" in values else "AND"
    found = []
    for name in names:
        if name not in rules:
            raise Untranslatable(f"conditions: {name!r} is not a rules attachment of the game")
        inner = rules[name]
        owner = inner.attach_to if inner.kind == "player" else player
        condition = _rules_condition(inner, owner, context, rules, seen)
        found.append(condition if condition is not None else {"turn": {"min": 1}})
    if not found:
        return []
    if kind == "AND" or len(found) == 1:
        return found
    if kind == "OR":
        return [{"any": found}]
    raise Untranslatable(f"conditionType: {kind!r} (AND and OR are translated)")


# -- the checks ------------------------------------------------------------------------------
def _check(option: Option, player: str, context: Context) -> dict | None:
    key = option.name
    nation = context.nation_of(player)
    if key in ("alliedOwnershipTerritories", "directOwnershipTerritories"):
        return _ownership(option, player, nation, context, allied=key.startswith("allied"))
    if key in ("enemyExclusionTerritories", "enemySurfaceExclusionTerritories"):
        count, names, keyword = _territory_list(option, context)
        if keyword in DYNAMIC_KEYWORDS:
            raise Untranslatable(f"{key}: {keyword!r} (the spaces change during the game)")
        spaces = _expand(names, keyword, [player], context)

        def clear(where: list[str]) -> dict:
            body: dict = {"owner": nation, "spaces": where}
            if key.startswith("enemySurface"):
                body["surface_only"] = True
            return {"no_enemy_units": body}
        if not spaces:
            return None
        if count is not None and count < len(spaces):
            return {"at_least": {"count": count, "of": [clear([s]) for s in spaces]}}
        return clear(spaces)
    if key == "alliedExclusionTerritories":
        count, names, keyword = _territory_list(option, context)
        allies = [context.nation_of(p) for p in context.allies_of(player)]
        if not allies:
            return None
        present: list[dict]
        if keyword == "controlled" and count is None:
            present = [{"units_present": {"owner": ally, "controller": nation}} for ally in allies]
        elif keyword in DYNAMIC_KEYWORDS or (count is not None):
            raise Untranslatable(f"{key}: {option.value!r}")
        else:
            spaces = _expand(names, keyword, [player], context)
            if not spaces:
                return None
            present = [{"units_present": {"owner": ally, "spaces": spaces}} for ally in allies]
        return {"not": present[0] if len(present) == 1 else {"any": present}}
    if key == "rounds":
        return _rounds(option)
    if key == "atWarPlayers":
        parts = split_list(option.value)
        count = _int(parts[0]) if parts and _int(parts[0]) is not None else None
        names = [p for p in (parts[1:] if count is not None else parts) if p]
        unknown = [p for p in names if not context.game.is_player(p)]
        if unknown:
            raise Untranslatable(f"atWarPlayers: {unknown[0]!r} is not a player")
        wars = [{"at_war": {"owner": nation, "with": context.nation_of(p)}} for p in names]
        if not wars:
            return None
        if count is not None and count < len(wars):
            return {"at_least": {"count": max(count, 1), "of": wars}}
        return wars[0] if len(wars) == 1 else {"all": wars}
    raise Untranslatable(f"{key}={option.value!r} has no counterpart in the condition vocabulary")


def _ownership(option: Option, player: str, nation: str, context: Context, allied: bool) -> dict | None:
    count, names, keyword = _territory_list(option, context)
    if keyword in DYNAMIC_KEYWORDS:
        if count is None:
            return None          # "all the spaces I control are mine": always so in TripleA
        body: dict = {"owner": nation, "count": count}
        if keyword == "controlledNoWater":
            body["kind"] = "land"
        if allied:
            body["allied"] = True
        return {"controls_count": body}
    holders = [player]
    if keyword == "original" and allied:
        holders = [player] + context.allies_of(player)
    elif keyword == "enemy":
        holders = context.enemies_of(player)
    spaces = _expand(names, keyword, holders, context)
    if not spaces:
        return None
    condition: dict = {"owner": nation, "spaces": spaces}
    if allied:
        condition["allied"] = True
    if count is not None and count < len(spaces):
        condition["count"] = max(count, 1)
    return {"controls": condition}


def _territory_list(option: Option, context: Context) -> tuple[int | None, list[str], str | None]:
    """(count, territory names, keyword) of a territory list as TripleA reads it: a number
    (or `each`) in front is the count; a keyword stands for a set of territories."""
    parts = [p for p in split_list(option.value)]
    count = None
    if parts and (_int(parts[0]) is not None or parts[0] == "each"):
        count = 1 if parts[0] == "each" else _int(parts[0])
        parts = parts[1:]
    keyword = next((p for p in parts if p in KEYWORDS), None)
    names = [] if keyword else [p for p in parts if p]
    missing = [n for n in names if n not in context.game.territories]
    if missing:
        raise Untranslatable(f"{option.name}: {missing[0]!r} is not a territory")
    return count, names, keyword


def _expand(names: list[str], keyword: str | None, holders: list[str], context: Context) -> list[str]:
    """Space ids of a list, with a fixed keyword expanded on the starting position."""
    game = context.game
    if keyword is None:
        chosen = names
    elif keyword == "map":
        chosen = list(game.territories)
    else:
        chosen = [t for t in game.territories if context.original_owner.get(t) in holders]
        if keyword.endswith("NoWater"):
            chosen = [t for t in chosen if t not in game.water and t not in context.impassable]
    ids: list[str] = []
    for name in chosen:
        space = context.territory_ids[name]
        if space not in ids:
            ids.append(space)
    return ids


def _rounds(option: Option) -> dict | None:
    """`1-3`, `4-+`, `2`, or several joined by ':' (any of them)."""
    turns = []
    for part in [p for p in split_list(option.value) if p]:
        found = re.fullmatch(r"\s*(\d+)\s*(?:-\s*(\d+|\+)\s*)?", part)
        if not found:
            raise Untranslatable(f"rounds: {option.value!r}")
        low, high = int(found.group(1)), found.group(2)
        body: dict = {"min": max(low, 1)}
        if high is None:
            body["max"] = max(low, 1)
        elif high != "+":
            body["max"] = max(int(high), 1)
        turns.append({"turn": body})
    if not turns:
        return None
    return turns[0] if len(turns) == 1 else {"any": turns}
