"""War at Sea's own checks: facts of its rules that the generic checks cannot know.

Sea areas are worth points to each side, ports repair damage, named ships are single counters,
U-boat flotillas are capped at seven, the turn track has eight turns, and the rules' nationality
limits name real areas and hold for every ship placed. Codes WAS001-WAS011
(docs/diagnostics.md).
"""
from __future__ import annotations

import difflib
from collections import Counter
from collections.abc import Iterator

from sandtable.diagnostics import Diagnostic, Location, error
from sandtable.scenario import Scenario
from validators.index import ScenarioIndex
from validators.walk import find

from .war_at_sea_limits import Limits

POINT_STATS = ("allied_points", "axis_points")
SHIP_STATS = ("gunnery", "armour", "speed")
CARRIER_CLASS = "cv"
DEFAULT_TURNS = 8
SHIP_SPACE_KINDS = ("sea", "port")
DEFAULT_UBOAT_TYPE = "uboat"


PLAYS_IN_TURN_ORDER = True   # the engine plays the nations in turn_order
WINS_BY_VICTORY = True       # a game ends when a victory condition is met

# Where the rules name spaces and nations: (path pattern under `rules`, what it names).
RULE_REFERENCES = [
    ("movement_limits/*/only/*", "space"),
    ("movement_limits/*/forbidden/*", "space"),
    ("movement_limits/*/nation", "nation"),
    ("movement_limits/*/classes/*", "class"),
    ("movement_limits/*/except_classes/*", "class"),
    ("return_rules/*/space", "space"),
    ("return_rules/*/to/*", "space"),
    ("return_rules/*/nation", "nation"),
    ("refuelling/spaces/*", "space"),
    ("refuelling/failure_port", "space"),
    ("refuelling/nation", "nation"),
    ("port_turns/*/space", "space"),
    ("port_turns/*/side", "side"),
    ("scoring/convoy_points/*/from_space", "space"),
    ("scoring/convoy_points/*/to_space", "space"),
    ("scoring/positive_side", "side"),
    ("combat/undamaged_bonus/nation", "nation"),
    ("entry_into_war/*/nation", "nation"),
    ("italian_fleet_fate/space", "space"),
    ("italian_fleet_fate/allied_port", "space"),
    ("italian_fleet_fate/nation", "nation"),
    ("setup_choices/*/nation", "nation"),
    ("setup_choices/*/spaces/*", "space"),
    ("air_strike_marker/*/side", "side"),
    ("uboat_type", "unit type"),
]


def check(scenario: Scenario, index: ScenarioIndex) -> Iterator[Diagnostic]:
    yield from _sea_area_points(scenario, index)
    yield from _port_repair(scenario, index)
    yield from _reinforcement_turns(scenario)
    yield from _counter_mix(scenario, index)
    yield from _rule_references(scenario, index)
    yield from _uboat_limit(scenario, index)
    yield from _ship_values(scenario, index)
    yield from _option_values(scenario, index)
    yield from _nationality(scenario, index)
    yield from _placement_limits(scenario, index)


def explain(scenario: Scenario, index: ScenarioIndex) -> str:
    """The points each side can earn from the sea areas, and each port's repair value."""
    lines = ["War at Sea: sea areas (Allied / Axis points)"]
    totals: Counter[str] = Counter()
    for space_id, entity in index.spaces.items():
        stats = entity.data.get("stats") or {}
        if entity.data.get("kind") == "sea":
            allied, axis = stats.get("allied_points", "?"), stats.get("axis_points", "?")
            lines.append(f"  {space_id}: {allied} / {axis}")
            for name in POINT_STATS:
                totals[name] += stats.get(name, 0) if isinstance(stats.get(name), int) else 0
    lines.append(f"  all six held: {totals['allied_points']} / {totals['axis_points']}")
    lines.append("Ports (repair value)")
    for space_id, entity in index.spaces.items():
        if entity.data.get("kind") == "port":
            lines.append(f"  {space_id}: {(entity.data.get('stats') or {}).get('repair', '?')}")
    return "\n".join(lines) + "\n"


# -- the map -------------------------------------------------------------------------------------

def _space_place(scenario: Scenario, entity) -> Location:
    field = "stats" if isinstance(entity.data.get("stats"), dict) else "id"
    return scenario.locate("map", f"{entity.pointer}/{field}")


def _sea_area_points(scenario, index) -> Iterator[Diagnostic]:
    """§2.1: every sea area has two point values, one for each side."""
    for space_id, entity in index.spaces.items():
        if entity.data.get("kind") != "sea":
            continue
        stats = entity.data.get("stats") if isinstance(entity.data.get("stats"), dict) else {}
        missing = [name for name in POINT_STATS if name not in stats]
        if missing:
            yield error("WAS001", f"sea area {space_id!r} has no {' and no '.join(missing)}",
                        _space_place(scenario, entity),
                        hint="every sea area is worth points to both sides (§2.1): "
                             "stats: {allied_points: N, axis_points: N}")


def _port_repair(scenario, index) -> Iterator[Diagnostic]:
    """§15.2: every port has a repair value (0 where it repairs nothing)."""
    for space_id, entity in index.spaces.items():
        if entity.data.get("kind") != "port":
            continue
        stats = entity.data.get("stats") if isinstance(entity.data.get("stats"), dict) else {}
        if "repair" not in stats:
            yield error("WAS002", f"port {space_id!r} has no repair value",
                        _space_place(scenario, entity),
                        hint="add stats: {repair: N}, the damage points it repairs each turn (§15.2)")


# -- placements ----------------------------------------------------------------------------------

def _turn_count(scenario: Scenario) -> int:
    turns = scenario.manifest.get("turns")
    count = turns.get("count") if isinstance(turns, dict) else None
    return count if isinstance(count, int) else DEFAULT_TURNS


def _reinforcement_turns(scenario) -> Iterator[Diagnostic]:
    """Reinforcements arrive on the turn track, turns 1 to 8."""
    last = _turn_count(scenario)
    for pointer, entry in scenario.entities("setup", "reinforcements"):
        turn = entry.get("turn")
        if isinstance(turn, int) and not 1 <= turn <= last:
            yield error("WAS003", f"reinforcements {entry.get('id')!r} arrive in turn {turn}, "
                        f"but the turn track has turns 1 to {last}",
                        scenario.locate("setup", pointer + "/turn"))


def _placements(scenario, with_space: bool = False) -> Iterator[tuple]:
    """(pointer of the stack, stack, its owner[, space]) for every unit at the start and on the
    turn track."""
    for collection, owner_field in (("spaces", "control"), ("reinforcements", "owner")):
        for pointer, entry in scenario.entities("setup", collection):
            units = entry.get("units")
            for i, stack in enumerate(units if isinstance(units, list) else []):
                if isinstance(stack, dict):
                    found = (f"{pointer}/units/{i}", stack, stack.get("owner", entry.get(owner_field)))
                    yield found + (entry.get("space"),) if with_space else found


def _uboat_type(scenario) -> str:
    rules = scenario.manifest.get("rules")
    value = rules.get("uboat_type") if isinstance(rules, dict) else None
    return value if isinstance(value, str) else DEFAULT_UBOAT_TYPE


def _counter_mix(scenario, index) -> Iterator[Diagnostic]:
    """A named ship is one counter; convoys and air units have their own counts.

    U-boats are left out: a U-boat reinforcement beyond the limit is simply lost (§8.6).
    """
    placed: Counter = Counter()
    first: dict[str, str] = {}
    for pointer, stack, _ in _placements(scenario):
        type_id, count = stack.get("type"), stack.get("count")
        unit = index.unit_types.get(type_id) if isinstance(type_id, str) else None
        if unit is None or not isinstance(type_id, str) or not isinstance(count, int) \
                or type_id == _uboat_type(scenario):
            continue
        limit = unit.data.get("limit") if isinstance(unit.data.get("limit"), int) else 1
        placed[type_id] += count
        first.setdefault(type_id, pointer)
        if placed[type_id] > limit:
            yield error("WAS004", f"{placed[type_id]} {type_id!r} counters are placed, "
                        f"but there {'is' if limit == 1 else 'are'} {limit}",
                        scenario.locate("setup", pointer + "/type"),
                        hint="a named ship starts on the map or arrives on the turn track, once",
                        related=[scenario.locate("setup", first[type_id] + "/type")])


def _uboat_limit(scenario, index) -> Iterator[Diagnostic]:
    """§8.6: never more than seven U-boat flotillas at once."""
    rules = scenario.manifest.get("rules") if isinstance(scenario.manifest.get("rules"), dict) else {}
    cap, type_id = rules.get("uboat_limit"), _uboat_type(scenario)
    unit = index.unit_types.get(type_id)
    if not isinstance(cap, int) or unit is None:
        return
    limit = unit.data.get("limit")
    if isinstance(limit, int) and limit > cap:
        yield error("WAS006", f"{type_id!r} has {limit} counters, more than the {cap} flotillas "
                    "the rules allow", scenario.locate("units", unit.pointer + "/limit"),
                    hint=f"set limit: {cap} (§8.6)")
    at_start = 0
    for pointer, entry in scenario.entities("setup", "spaces"):
        for i, stack in enumerate(entry.get("units") or []):
            if isinstance(stack, dict) and stack.get("type") == type_id and isinstance(stack.get("count"), int):
                at_start += stack["count"]
                if at_start > cap:
                    yield error("WAS006", f"{at_start} U-boat flotillas start on the map; "
                                f"at most {cap} may be in play",
                                scenario.locate("setup", f"{pointer}/units/{i}/count"))
                    return


def _nationality(scenario, index) -> Iterator[Diagnostic]:
    """Each ship belongs to one nation (§3.1); it starts and arrives under that nation."""
    for pointer, stack, owner in _placements(scenario):
        unit = index.unit_types.get(stack.get("type"))
        nation = unit.data.get("nation") if unit else None
        if isinstance(nation, str) and isinstance(owner, str) and owner != nation:
            yield error("WAS009", f"{stack['type']!r} is a ship of {nation!r} but is placed for {owner!r}",
                        scenario.locate("setup", pointer + "/type"),
                        hint=f"place it in an entry of {nation!r}, or give the stack owner: {nation}")


def _placement_limits(scenario, index) -> Iterator[Diagnostic]:
    """§6.4, §16.1-§16.3: a ship starts and arrives only where its nation's ships may be; §2.2:
    never in the other side's port."""
    limits = Limits(scenario, index)
    control = index.starting_control()
    for pointer, stack, owner, space in _placements(scenario, with_space=True):
        unit = index.unit_types.get(stack.get("type"))
        if unit is None or not isinstance(space, str) or space not in index.spaces:
            continue
        nation = unit.data.get("nation")
        if not isinstance(nation, str) or unit.data.get("domain") != "sea":
            continue
        if isinstance(owner, str) and owner != nation:
            continue                                 # placed for another nation: WAS009 says so
        where = scenario.locate("setup", pointer + "/type")
        reason = limits.against(nation, str(unit.data.get("class", "")), space)
        if reason:
            yield error("WAS010", f"{stack['type']!r} is placed in {space!r}, where it may not be: "
                        f"{reason}", where,
                        hint="place it in a port its nation may use, or change the limit")
            continue
        port = index.spaces[space].data
        holder = port.get("original_owner", control.get(space))
        ship_side, port_side = index.side_of(nation), index.side_of(holder) if isinstance(holder, str) else None
        if port.get("kind") == "port" and ship_side and port_side and ship_side != port_side:
            yield error("WAS011", f"{stack['type']!r} ({ship_side}) is placed in {space!r}, a port "
                        f"of the {port_side} side: ships never enter an enemy port (§2.2)", where,
                        hint="place it in one of its own side's ports")


# -- units ---------------------------------------------------------------------------------------

def _ship_values(scenario, index) -> Iterator[Diagnostic]:
    """§3.2: every warship has gunnery, armour and speed; a carrier also an air-strike value."""
    for type_id, unit in index.unit_types.items():
        data = unit.data
        if data.get("domain") not in ("sea", "air"):
            continue
        if not isinstance(data.get("nation"), str):
            yield error("WAS007", f"{type_id!r} has no nationality",
                        scenario.locate("units", unit.pointer + "/id"),
                        hint="add nation: one of " + ", ".join(sorted(index.nations)))
        if data.get("domain") != "sea" or data.get("class") == _uboat_class(scenario, index):
            continue
        stats = data.get("stats") if isinstance(data.get("stats"), dict) else {}
        wanted = SHIP_STATS + (("air_strike",) if data.get("class") == CARRIER_CLASS else ())
        missing = [name for name in wanted if name not in stats]
        if missing:
            field = "stats" if "stats" in data else "id"
            yield error("WAS007", f"{type_id!r} has no {', '.join(missing)} value",
                        scenario.locate("units", f"{unit.pointer}/{field}"),
                        hint="a ship has gunnery, armour and speed; a carrier also air_strike (§3.2)")


def _uboat_class(scenario, index) -> str | None:
    unit = index.unit_types.get(_uboat_type(scenario))
    value = unit.data.get("class") if unit else None
    return value if isinstance(value, str) else None


def _option_values(scenario, index) -> Iterator[Diagnostic]:
    """A variant that changes a printed value says what it changes from; that must be the value."""
    for pointer, change in find(scenario.manifest, "options/*/changes/*"):
        if not isinstance(change, dict) or change.get("op") != "set_stat":
            continue
        stat, before = change.get("stat"), change.get("from")
        for type_id in change.get("units") or []:
            unit = index.unit_types.get(type_id)
            if unit is None:
                continue  # an unknown unit is reported by the reference check
            current = (unit.data.get("stats") or {}).get(stat)
            if current != before:
                shown = "has none" if current is None else f"is {current}"
                yield error("WAS008", f"the option changes the {stat} of {type_id!r} from {before}, "
                            f"but its {stat} {shown}", scenario.locate("scenario", pointer + "/from"),
                            related=[scenario.locate("units", unit.pointer + "/stats")])


# -- the rules' own references -------------------------------------------------------------------

def _rule_references(scenario, index) -> Iterator[Diagnostic]:
    """The nationality limits, return rules and other rules name areas, ports and nations that exist."""
    rules = scenario.manifest.get("rules")
    if not isinstance(rules, dict):
        return
    classes = {u.data.get("class") for u in index.unit_types.values()}
    known = {
        "space": set(index.spaces),
        "nation": set(index.nations),
        "side": set(index.sides),
        "class": {c for c in classes if isinstance(c, str)},
        "unit type": set(index.unit_types),
    }
    for pattern, noun in RULE_REFERENCES:
        for pointer, value in find(rules, pattern):
            if not isinstance(value, str):
                continue
            where = scenario.locate("scenario", "/rules" + pointer)
            if value not in known[noun]:
                yield error("WAS005", f"the rules name {noun} {value!r}, which does not exist", where,
                            hint=_suggest(value, known[noun]))
            elif noun == "space" and index.space_kind(value) not in SHIP_SPACE_KINDS:
                yield error("WAS005", f"the rules send ships to {value!r}, which is neither a sea "
                            "area nor a port", where)
    for pointer, value in find(rules, "return_rules/*/port_turns"):
        for port in value if isinstance(value, dict) else {}:
            if port not in index.spaces:
                yield error("WAS005", f"the rules name space {port!r}, which does not exist",
                            scenario.locate("scenario", f"/rules{pointer}/{port}", key=True),
                            hint=_suggest(port, set(index.spaces)))


def _suggest(value: str, known: set[str]) -> str | None:
    close = difflib.get_close_matches(value, sorted(known), n=1, cutoff=0.6)
    return f"did you mean {close[0]!r}?" if close else None
