"""Evaluating the common condition vocabulary on a position.

A position is what conditions look at: who controls each space, which units stand where, the
nations and sides, options, resources, the turn. `Position.starting(scenario, index)` builds the
starting position of a scenario; the engine builds later ones the same way. Evaluation knows no
game system: surface warships are the unit types tagged `surface_warship`, victory cities the
spaces tagged `victory_city`.

Each evaluation says whether the condition holds and why, in a short text. A condition that
cannot be decided on the position (a phase, or a counter the game keeps but the position does
not carry) evaluates to None; a game in play puts its counters on the position it builds.
"""
from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field

from .index import ScenarioIndex

SURFACE_TAG = "surface_warship"
VICTORY_TAG = "victory_city"


@dataclass(frozen=True)
class Stack:
    owner: str
    type: str
    count: int


@dataclass
class Position:
    control: dict[str, str]                                   # space -> nation or side
    units: dict[str, list[Stack]]                             # space -> stacks
    sides: dict[str, str]                                     # nation -> side
    space_tags: dict[str, set[str]] = field(default_factory=dict)
    space_kinds: dict[str, str | None] = field(default_factory=dict)
    unit_domains: dict[str, str | None] = field(default_factory=dict)
    unit_tags: dict[str, set[str]] = field(default_factory=dict)
    options: dict[str, object] = field(default_factory=dict)
    resources: dict[tuple[str, str], float] = field(default_factory=dict)
    turn: int = 1
    phase: str | None = None
    city_weights: dict[str, int] = field(default_factory=dict)  # spaces that count as several cities
    counters: dict[tuple[str, str], int] = field(default_factory=dict)   # (owner, counter) -> value

    @classmethod
    def starting(cls, scenario, index: ScenarioIndex) -> Position:
        units: dict[str, list[Stack]] = defaultdict(list)
        control = index.starting_control()
        for _, entry in scenario.entities("setup", "spaces"):
            space = entry.get("space")
            for stack in entry.get("units") or []:
                if not isinstance(stack, dict) or not isinstance(space, str):
                    continue
                owner = stack.get("owner", control.get(space))
                count = stack.get("count")
                if isinstance(owner, str) and isinstance(stack.get("type"), str) and isinstance(count, int):
                    units[space].append(Stack(owner, stack["type"], count))
        sides = {n: s for n in index.nations if (s := index.side_of(n))}
        sides.update({s: s for s in index.sides})
        resources: dict[tuple[str, str], float] = {}
        for _, given in scenario.entities("setup", "resources"):
            key = (given.get("owner"), given.get("resource"))
            if all(isinstance(k, str) for k in key) and isinstance(given.get("amount"), (int, float)):
                resources[key] = resources.get(key, 0) + given["amount"]
        return cls(
            control=control, units=dict(units), sides=sides,
            space_tags={s: set(e.data.get("tags") or []) for s, e in index.spaces.items()},
            space_kinds={s: e.data.get("kind") for s, e in index.spaces.items()},
            unit_domains={u: e.data.get("domain") for u, e in index.unit_types.items()},
            unit_tags={u: set(e.data.get("tags") or []) for u, e in index.unit_types.items()},
            options={o: e.data.get("default") for o, e in index.options.items()},
            resources=resources, city_weights=_city_weights(index))

    # -- questions about the position ------------------------------------------------------
    def side(self, owner: str | None) -> str | None:
        return self.sides.get(owner) if owner else None

    def friendly(self, a: str | None, b: str | None) -> bool:
        return a == b or (self.side(a) is not None and self.side(a) == self.side(b))

    def enemies(self, a: str | None, b: str | None) -> bool:
        return self.side(a) is not None and self.side(b) is not None and self.side(a) != self.side(b)

    def holds(self, owner: str, space: str, allied: bool) -> bool:
        holder = self.control.get(space)
        if holder is None:
            return False
        return holder == owner or self.side(holder) == owner or (allied and self.friendly(holder, owner))

    def victory_cities(self, side: str) -> list[str]:
        return sorted(s for s, tags in self.space_tags.items()
                      if VICTORY_TAG in tags and self.side(self.control.get(s)) == side)

    def victory_city_count(self, side: str) -> int:
        """The victory cities a side holds; a space with stats.victory_cities counts that many."""
        return sum(self.city_weights.get(s, 1) for s in self.victory_cities(side))


def _city_weights(index: ScenarioIndex) -> dict[str, int]:
    weights = {}
    for space, entity in index.spaces.items():
        stats = entity.data.get("stats")
        weight = stats.get("victory_cities") if isinstance(stats, dict) else None
        if isinstance(weight, int) and not isinstance(weight, bool) and weight != 1:
            weights[space] = weight
    return weights


@dataclass(frozen=True)
class Evaluation:
    met: bool | None
    detail: str

    def __bool__(self) -> bool:
        return bool(self.met)


def evaluate(condition: dict, position: Position) -> Evaluation:
    """Whether `condition` holds on `position` (None when the position cannot tell), and why."""
    if not isinstance(condition, dict) or len(condition) != 1:
        return Evaluation(None, "not a condition")
    (name, body), = condition.items()
    rule = _RULES.get(name)
    if rule is None:
        return Evaluation(None, f"{name} is not decided on a position")
    return rule(body, position)


def _all(parts, position):
    results = [evaluate(p, position) for p in parts]
    met = None if any(r.met is None for r in results) and all(r.met is not False for r in results) \
        else all(r.met for r in results)
    return Evaluation(met, "; ".join(r.detail for r in results))


def _any(parts, position):
    results = [evaluate(p, position) for p in parts]
    met = True if any(r.met for r in results) else (None if any(r.met is None for r in results) else False)
    return Evaluation(met, " or ".join(r.detail for r in results))


def _not(part, position):
    parts = part.get("any") if isinstance(part, dict) and len(part) == 1 else None
    if isinstance(parts, list):
        results = [evaluate(p, position) for p in parts]
        met = False if any(r.met for r in results) else (None if any(r.met is None for r in results) else True)
        return Evaluation(met, "none of these may hold: " + "; ".join(r.detail for r in results))
    result = evaluate(part, position)
    return Evaluation(None if result.met is None else not result.met, f"not ({result.detail})")


def _at_least(body, position):
    results = [evaluate(p, position) for p in body["of"]]
    true = sum(1 for r in results if r.met)
    unknown = sum(1 for r in results if r.met is None)
    count = body["count"]
    met = True if true >= count else (None if true + unknown >= count else False)
    return Evaluation(met, f"{true} of {len(results)} hold, {count} needed")


def _controls(body, position):
    owner, spaces = body["owner"], body["spaces"]
    allied = bool(body.get("allied"))
    held = [s for s in spaces if position.holds(owner, s, allied)]
    need = body.get("count", len(spaces))
    who = f"{owner} and its allies" if allied else owner
    missing = [s for s in spaces if s not in held]
    detail = f"{who} hold {len(held)} of {len(spaces)}, {need} needed"
    if missing and len(held) < need:
        detail += " (not held: " + ", ".join(missing) + ")"
    return Evaluation(len(held) >= need, detail)


def _no_enemy_units(body, position):
    owner = body["owner"]
    domains = set(body.get("domains") or [])
    surface = bool(body.get("surface_only"))
    found = []
    for space in body["spaces"]:
        for stack in position.units.get(space, []):
            if not position.enemies(owner, stack.owner):
                continue
            if domains and position.unit_domains.get(stack.type) not in domains:
                continue
            if surface and SURFACE_TAG not in position.unit_tags.get(stack.type, set()):
                continue
            found.append(f"{stack.count} {stack.type} of {stack.owner} in {space}")
    what = "enemy surface warships" if surface else "enemy units"
    return Evaluation(not found, ("no " + what) if not found else ", ".join(found))


def _units_present(body, position):
    owner = body["owner"]
    types = set(body.get("types") or [])
    if "controller" in body:
        controller = body["controller"]
        spaces = [s for s, holder in position.control.items()
                  if holder == controller or position.side(holder) == controller]
    else:
        spaces = body["spaces"]
    found = [(s, st) for s in spaces for st in position.units.get(s, [])
             if st.owner == owner and (not types or st.type in types)]
    total = sum(st.count for _, st in found)
    need = body.get("count", 1)
    where = f"spaces held by {body['controller']}" if "controller" in body else "the spaces"
    detail = f"{owner} has {total} unit(s) in {where}"
    if found:
        detail += " (" + ", ".join(sorted({s for s, _ in found})) + ")"
    return Evaluation(total >= need, detail)


def _victory_cities(body, position):
    held = position.victory_city_count(body["side"])
    return Evaluation(held >= body["count"], f"{body['side']} hold {held} victory cities, "
                      f"{body['count']} needed")


def _controls_count(body, position):
    owner, tags, kind = body["owner"], set(body.get("tags") or []), body.get("kind")
    allied = bool(body.get("allied"))
    held = [s for s in position.control
            if position.holds(owner, s, allied) and tags <= position.space_tags.get(s, set())
            and (kind is None or position.space_kinds.get(s) == kind)]
    return Evaluation(len(held) >= body["count"], f"{owner} hold {len(held)} such spaces, {body['count']} needed")


def _resource(body, position):
    amount = position.resources.get((body["owner"], body["resource"]), 0)
    return Evaluation(amount >= body["min"], f"{body['owner']} has {amount} {body['resource']}, {body['min']} needed")


def _turn(body, position):
    low, high = body.get("min", 1), body.get("max")
    met = position.turn >= low and (high is None or position.turn <= high)
    return Evaluation(met, f"turn {position.turn}")


def _phase(body, position):
    if position.phase is None:
        return Evaluation(None, f"phase {body}: no phase on this position")
    return Evaluation(position.phase == body, f"phase {position.phase}")


def _option(body, position):
    value = position.options.get(body)
    return Evaluation(bool(value), f"option {body} is {'on' if value else 'off'}")


def _at_war(body, position):
    enemies = position.enemies(body["owner"], body["with"])
    return Evaluation(enemies, f"{body['owner']} and {body['with']} are on "
                               f"{'different' if enemies else 'the same'} sides")


def _leads(body, position):
    ours = position.resources.get((body["owner"], body["resource"]), 0)
    theirs = position.resources.get((body["with"], body["resource"]), 0)
    return Evaluation(ours > theirs, f"{body['owner']} has {ours} {body['resource']}, {body['with']} {theirs}")


def _counter(body, position):
    key = (body.get("owner"), body.get("counter"))
    if key not in position.counters:        # a position read from the files: the game keeps it
        return Evaluation(None, f"counter {body.get('counter')} is kept by the game, not the position")
    value = position.counters[key]
    return Evaluation(value >= body["min"], f"{key[0]} {key[1]} {value}, {body['min']} needed")


_RULES = {
    "all": _all, "any": _any, "not": _not, "at_least": _at_least, "controls": _controls,
    "no_enemy_units": _no_enemy_units, "units_present": _units_present,
    "victory_cities": _victory_cities, "controls_count": _controls_count, "resource": _resource,
    "turn": _turn, "phase": _phase, "option": _option, "at_war": _at_war, "counter": _counter,
    "leads": _leads,
}
