"""Checks of the Axis & Allies 50th Anniversary rules (AXA codes), and the objectives' account.

`check` compares what a scenario declares with its starting position: incomes with the production
each nation controls, victory cities with their holders, and that factories, capitals, cargo,
fighters at sea and Chinese units stand where the rulebook allows. `explain` evaluates each
national objective on the starting position.
"""
from __future__ import annotations

import difflib
from collections import Counter, defaultdict
from collections.abc import Iterator

from sandtable.diagnostics import Diagnostic, error, warning
from sandtable.scenario import Scenario

from ..conditions import VICTORY_TAG, Evaluation, Position, evaluate
from ..index import SEA_KINDS, ScenarioIndex
from ..walk import find

PLAYS_IN_TURN_ORDER = True   # the engine plays the nations in turn_order
WINS_BY_VICTORY = True       # a game ends when a victory condition is met


def check(scenario: Scenario, index: ScenarioIndex) -> Iterator[Diagnostic]:
    if "setup" not in scenario.documents or "setup" in scenario.failed_kinds:
        return
    yield from _rule_references(scenario, index)
    position = Position.starting(scenario, index)
    yield from _income(scenario, index, position)
    yield from _victory_cities(scenario, index, position)
    yield from _capitals(scenario, index)
    yield from _placements(scenario, index)


def _rules(scenario: Scenario) -> dict:
    rules = scenario.manifest.get("rules")
    return rules if isinstance(rules, dict) else {}


def _china(scenario: Scenario) -> dict:
    china = _rules(scenario).get("china")
    return china if isinstance(china, dict) else {}


# -- what the rules name (the generic reference check does not look inside `rules`) ------------
RULE_REFERENCES = [
    ("victory_cities/*/space", "spaces"), ("starting_victory_cities/*", None),
    ("china/nation", "nations"), ("china/territories/*", "spaces"), ("china/unit", "unit_types"),
    ("china/recapture_only/*", "spaces"), ("china/no_replacement/*", "unit_types"),
    ("research/charts/*/breakthroughs/*/changes/*/type", "unit_types"),
    ("research/charts/*/breakthroughs/*/changes/*/ability/types/*", "unit_types"),
]


def _rule_references(scenario, index) -> Iterator[Diagnostic]:
    known = {"spaces": set(index.spaces), "nations": set(index.nations), "unit_types": set(index.unit_types)}
    rules = _rules(scenario)
    for pattern, target in RULE_REFERENCES:
        for pointer, value in find(rules, pattern):
            if target is None:  # the keys name sides
                name = pointer.rsplit("/", 1)[1]
                if name not in index.sides:
                    yield _unknown_in_rules(scenario, f"/rules{pointer}", name, "sides", set(index.sides),
                                            key=True)
            elif isinstance(value, str) and value not in known[target]:
                yield _unknown_in_rules(scenario, f"/rules{pointer}", value, target, known[target])


def _unknown_in_rules(scenario, pointer, value, target, known, key=False) -> Diagnostic:
    noun = {"spaces": "space", "nations": "nation", "unit_types": "unit type", "sides": "side"}[target]
    close = difflib.get_close_matches(value, sorted(known), n=1, cutoff=0.6)
    return error("AXA011", f"the rules name an unknown {noun} {value!r}",
                 scenario.locate("scenario", pointer, key=key),
                 hint=f"did you mean {close[0]!r}?" if close else None)


def _value(index: ScenarioIndex, space: str) -> float:
    value = index.spaces[space].data.get("value") if space in index.spaces else None
    return value if isinstance(value, (int, float)) else 0


# -- income (§3.1, §3.2: starting IPCs are the production each nation controls) -------------
def controlled_production(index: ScenarioIndex, position: Position) -> dict[str, float]:
    totals: dict[str, float] = defaultdict(float)
    for space, holder in position.control.items():
        totals[holder] += _value(index, space)
    return totals


def _income(scenario, index, position) -> Iterator[Diagnostic]:
    production = controlled_production(index, position)
    for nation_id, nation in index.nations.items():
        declared = nation.data.get("income")
        if not isinstance(declared, (int, float)) or isinstance(declared, bool):
            continue
        held = production.get(nation_id, 0)
        if held != declared:
            yield warning("AXA001", f"{nation_id} declares an income of {_num(declared)} IPCs but controls "
                          f"territories worth {_num(held)} at the start",
                          scenario.locate("scenario", nation.pointer + "/income"),
                          hint="correct the income, or the starting control in setup.yaml")


def _num(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else str(value)


# -- victory cities (§2.7, §3) ---------------------------------------------------------------
def _victory_cities(scenario, index, position) -> Iterator[Diagnostic]:
    tagged = {s for s, e in index.spaces.items() if VICTORY_TAG in (e.data.get("tags") or [])}
    held = Counter(position.control.get(s) for s in tagged)
    for nation_id, nation in index.nations.items():
        declared = nation.data.get("victory_cities")
        if isinstance(declared, int) and held.get(nation_id, 0) != declared:
            cities = sorted(s for s in tagged if position.control.get(s) == nation_id)
            yield error("AXA002", f"{nation_id} declares {declared} victory cities at the start but holds "
                        f"{len(cities)}" + (f" ({', '.join(cities)})" if cities else ""),
                        scenario.locate("scenario", nation.pointer + "/victory_cities"))
    per_side = _rules(scenario).get("starting_victory_cities")
    if isinstance(per_side, dict):
        for side, declared in per_side.items():
            actual = len(position.victory_cities(side))
            if isinstance(declared, int) and actual != declared:
                yield error("AXA003", f"the {side} side is declared to start with {declared} victory cities "
                            f"but its nations hold {actual}",
                            scenario.locate("scenario", f"/rules/starting_victory_cities/{side}"))
    listed = _rules(scenario).get("victory_cities")
    if isinstance(listed, list):
        named = set()
        for i, city in enumerate(listed):
            space = city.get("space") if isinstance(city, dict) else None
            if not isinstance(space, str):
                continue
            named.add(space)
            if space in index.spaces and space not in tagged:
                yield error("AXA004", f"{city.get('name', space)!r} is listed as a victory city but space "
                            f"{space!r} has no victory_city tag",
                            scenario.locate("scenario", f"/rules/victory_cities/{i}/space"),
                            hint=f"add victory_city to the tags of {space}, or drop the entry")
        for space in sorted(tagged - named):
            yield error("AXA004", f"{space!r} is tagged victory_city but rules.victory_cities does not "
                        "name its city", scenario.locate("map", index.spaces[space].pointer + "/tags"),
                        hint="add {space: ..., name: <city>} to rules.victory_cities in scenario.yaml")


# -- capitals (§5.5.3.8) ------------------------------------------------------------------------
def _capitals(scenario, index) -> Iterator[Diagnostic]:
    capitals = {n.data.get("capital") for n in index.nations.values()}
    for nation_id, nation in index.nations.items():
        capital = nation.data.get("capital")
        if isinstance(capital, str) and capital in index.spaces and \
                "capital" not in (index.spaces[capital].data.get("tags") or []):
            yield error("AXA010", f"{capital!r}, the capital of {nation_id}, has no capital tag",
                        scenario.locate("scenario", nation.pointer + "/capital"),
                        hint=f"add capital to the tags of {capital} in map.yaml")
    for space_id, space in index.spaces.items():
        if "capital" in (space.data.get("tags") or []) and space_id not in capitals:
            yield error("AXA010", f"{space_id!r} is tagged capital but is no nation's capital",
                        scenario.locate("map", space.pointer + "/tags"),
                        hint="set it as a nation's capital in scenario.yaml, or remove the tag")


# -- where units stand ---------------------------------------------------------------------
def _abilities(index: ScenarioIndex, unit_type: str) -> dict[str, dict]:
    unit = index.unit_types.get(unit_type)
    abilities = unit.data.get("abilities") if unit else None
    return {a["kind"]: a for a in abilities or [] if isinstance(a, dict) and isinstance(a.get("kind"), str)}


def _placements(scenario, index) -> Iterator[Diagnostic]:
    china = _china(scenario)
    china_nation = china.get("nation")
    china_spaces = set(china.get("territories") or [])
    for pointer, entry in scenario.entities("setup", "spaces"):
        space = entry.get("space")
        if space not in index.spaces:
            continue
        data = index.spaces[space].data
        tags = data.get("tags") or []
        stacks = [(i, s) for i, s in enumerate(entry.get("units") or [])
                  if isinstance(s, dict) and s.get("type") in index.unit_types and isinstance(s.get("count"), int)]
        if "neutral" in tags and ("control" in entry or stacks):
            yield error("AXA006", f"{space!r} is neutral: no nation controls it and no unit may stand there",
                        scenario.locate("setup", pointer + ("/control" if "control" in entry else "/units")),
                        hint="remove its control and units (rulebook §2.2)")
        yield from _factories(scenario, index, pointer, space, data, stacks)
        if data.get("kind") in SEA_KINDS:
            yield from _cargo(scenario, index, pointer, entry, space, stacks)
            yield from _fighters_at_sea(scenario, index, pointer, entry, space, stacks)
        if china_nation and china_spaces:
            for i, stack in stacks:
                owner = stack.get("owner", entry.get("control"))
                if owner == china_nation and space not in china_spaces:
                    yield error("AXA009", f"a Chinese {stack['type']} starts in {space!r}, outside the "
                                "territories Chinese units may enter",
                                scenario.locate("setup", f"{pointer}/units/{i}/type"),
                                hint="rulebook §4: Chinese units stay in rules.china.territories")


def _factories(scenario, index, pointer, space, data, stacks) -> Iterator[Diagnostic]:
    factories = [(i, s) for i, s in stacks if "factory" in _abilities(index, s["type"])]
    if not factories:
        return
    count = sum(s["count"] for _, s in factories)
    first = factories[0][0]
    where = scenario.locate("setup", f"{pointer}/units/{first}/type")
    if data.get("kind") not in ("land", "port", "fortress"):
        yield error("AXA005", f"an industrial complex stands in {space!r}, which is not a territory", where)
    elif count > 1:
        yield error("AXA005", f"{count} industrial complexes stand in {space!r}; a territory holds one",
                    where, hint="rulebook §5.7.1: one industrial complex per territory")
    elif _value(index, space) < 1:
        yield error("AXA005", f"an industrial complex stands in {space!r}, a territory worth "
                    f"{_num(_value(index, space))} IPCs; it needs a value of 1 or more", where,
                    hint="rulebook §7.1.5")


def _cargo(scenario, index, pointer, entry, space, stacks) -> Iterator[Diagnostic]:
    """Land units at sea ride transports of their side, within the transports' capacity (§7.3.6)."""
    loads: dict[tuple[str | None, str], int] = defaultdict(int)
    first_of: dict[tuple[str | None, str], int] = {}
    capacity: dict[tuple[str | None, str], int] = defaultdict(int)
    control = entry.get("control")
    for i, stack in stacks:
        owner = stack.get("owner", control)
        carrier = stack.get("aboard")
        abilities = _abilities(index, stack["type"])
        if "transport" in abilities:
            capacity[(owner, stack["type"])] += stack["count"] * int(abilities["transport"].get("capacity", 0))
        if isinstance(carrier, str):
            size = abilities.get("transportable", {}).get("size")
            where = scenario.locate("setup", f"{pointer}/units/{i}/aboard")
            if "transport" not in _abilities(index, carrier):
                yield error("AXA007", f"{stack['type']} is aboard {carrier!r}, which is not a transport", where)
            elif not isinstance(size, int):
                yield error("AXA007", f"{stack['type']} cannot be carried by a transport", where)
            else:
                loads[(owner, carrier)] += size * stack["count"]
                first_of.setdefault((owner, carrier), i)
    for key, load in loads.items():
        if load > capacity.get(key, 0):
            owner, carrier = key
            yield error("AXA007", f"the cargo of {owner}'s {carrier}s in {space!r} needs {load} capacity; "
                        f"they carry {capacity.get(key, 0)}",
                        scenario.locate("setup", f"{pointer}/units/{first_of[key]}/aboard"),
                        hint="a transport carries one land unit of any kind plus one infantry")


def _fighters_at_sea(scenario, index, pointer, entry, space, stacks) -> Iterator[Diagnostic]:
    """Air units at sea sit on carriers of their side, two to a carrier (§7.3.2)."""
    control = entry.get("control")
    room: dict[str | None, int] = defaultdict(int)
    need: dict[str | None, int] = defaultdict(int)
    first: dict[str | None, int] = {}
    for i, stack in stacks:
        owner = stack.get("owner", control)
        side = index.side_of(owner) if isinstance(owner, str) else None
        abilities = _abilities(index, stack["type"])
        if "carrier" in abilities:
            room[side] += stack["count"] * int(abilities["carrier"].get("capacity", 0))
        unit = index.unit_types[stack["type"]].data
        if unit.get("domain") == "air":
            landing = abilities.get("carrier_landing")
            if landing is None:
                yield error("AXA008", f"{stack['type']} cannot land on a carrier and so cannot start at sea "
                            f"in {space!r}", scenario.locate("setup", f"{pointer}/units/{i}/type"))
                continue
            need[side] += stack["count"] * int(landing.get("size", 1))
            first.setdefault(side, i)
    for side, wanted in need.items():
        if wanted > room.get(side, 0):
            yield error("AXA008", f"{wanted} air units of the {side} side start in {space!r} but its carriers "
                        f"there hold {room.get(side, 0)}",
                        scenario.locate("setup", f"{pointer}/units/{first[side]}/type"),
                        hint="a carrier holds two fighters")


# -- explain: national objectives on the starting position (§5.8.1) --------------------------
def objective_report(scenario: Scenario, index: ScenarioIndex) -> list[tuple[dict, Evaluation]]:
    """(objective, evaluation) for each objective, on the starting position."""
    position = Position.starting(scenario, index)
    found: list[tuple[dict, Evaluation]] = []
    for _, objective in scenario.entities("objectives", "objectives"):
        when = objective.get("when")
        if isinstance(when, dict):
            found.append((objective, evaluate(when, position)))
    return found


def explain(scenario: Scenario, index: ScenarioIndex) -> str:
    report = objective_report(scenario, index)
    if not report:
        return ""
    options = {o: e.data.get("default") for o, e in index.options.items()}
    lines = [f"{scenario.id}: national objectives on the starting position"]
    bonus: dict[str, float] = defaultdict(float)
    for objective, result in report:
        award = objective.get("award") or {}
        amount = award.get("amount", 0)
        state = {True: "met", False: "not met", None: "undecided"}[result.met]
        lines.append(f"  {objective.get('owner', '?'):<15} {objective.get('id', '?'):<36} {state:<9} "
                     f"+{_num(amount)} {award.get('resource', '')}: {result.detail}")
        if result.met:
            bonus[objective.get("owner", "?")] += amount
    option = next((o.get("option") for o, _ in report if o.get("option")), None)
    state = "" if option is None else f" (option {option} is {'on' if options.get(option) else 'off'} by default)"
    totals = ", ".join(f"{owner} +{_num(amount)}" for owner, amount in sorted(bonus.items())) or "none"
    lines.append(f"  bonus income at the start{state}: {totals}")
    return "\n".join(lines) + "\n"
