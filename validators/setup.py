"""The starting position: units where their domain allows, stacking, turn order, capitals; and
what the engine needs to play a game at all (someone to play, a way to win)."""
from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Iterator

from sandtable.diagnostics import Diagnostic, error, warning
from sandtable.limits import MAX_PIECES, excesses
from sandtable.scenario import Scenario

from .index import LAND_KINDS, SHIP_KINDS, ScenarioIndex
from .systems import system_module

# Which space kinds each unit domain may stand in at the start.
DOMAIN_SPACES = {
    "land": LAND_KINDS,
    "structure": LAND_KINDS,
    "sea": SHIP_KINDS,
    "air": LAND_KINDS | SHIP_KINDS,
}


def domain_spaces(system: str | None) -> dict[str, set[str]]:
    """DOMAIN_SPACES, widened by the game system's own DOMAIN_SPACES where its rules allow more
    (GJ69 land units stand in sea areas)."""
    module = system_module(system)
    return {**DOMAIN_SPACES, **getattr(module, "DOMAIN_SPACES", {})}


def check_setup(scenario: Scenario, index: ScenarioIndex) -> Iterator[Diagnostic]:
    yield from _pieces(scenario)
    yield from _domains_and_stacking(scenario, index)
    yield from _turn_order(scenario, index)
    yield from _playable(scenario, index)
    if not getattr(system_module(scenario.system), "CAPITALS_FREE", False):
        yield from _capitals(scenario, index)


def _pieces(scenario) -> Iterator[Diagnostic]:
    """No more units, markers or cards than a game can hold (the engine refuses them too)."""
    for excess in excesses(scenario):
        yield error("SET006", excess.message, scenario.locate(excess.kind, excess.pointer),
                    hint=f"at most {MAX_PIECES:,} in all: a count this large is most likely a slip")


def _domains_and_stacking(scenario, index) -> Iterator[Diagnostic]:
    default_limits = scenario.doc("map").get("stacking")
    allowed = domain_spaces(scenario.system)
    for pointer, entry in scenario.entities("setup", "spaces"):
        space_id = entry.get("space")
        space_kind = index.space_kind(space_id) if isinstance(space_id, str) else None
        units = entry.get("units") if isinstance(entry.get("units"), list) else []
        per_side: dict[str, Counter] = defaultdict(Counter)
        for i, stack in enumerate(units):
            if not isinstance(stack, dict):
                continue
            unit = index.unit_types.get(stack.get("type"))
            if unit is None or space_kind is None:
                continue
            domain = unit.data.get("domain")
            carried = isinstance(stack.get("aboard"), str)  # cargo: the system checks the carrier
            if domain in allowed and space_kind not in allowed[domain] and not carried:
                yield error("SET001", f"{stack['type']!r} is {_article(domain)} unit and cannot stand in "
                            f"{space_id!r}, a {space_kind} space",
                            scenario.locate("setup", f"{pointer}/units/{i}/type"))
            owner = stack.get("owner", entry.get("control"))
            side = index.side_of(owner) if isinstance(owner, str) else None
            given = stack.get("count")
            count = given if isinstance(given, int) else 0
            per_side[side or "?"][domain] += count
        limits = index.spaces[space_id].data.get("stacking") if space_id in index.spaces else None
        limits = limits if isinstance(limits, dict) else default_limits
        if isinstance(limits, dict):
            yield from _stacking(scenario, pointer, space_id, per_side, limits)


def _stacking(scenario, pointer, space_id, per_side, limits) -> Iterator[Diagnostic]:
    for side, counts in sorted(per_side.items()):
        for domain, limit in sorted(limits.items()):
            if counts[domain] > limit:
                yield error("SET002", f"{counts[domain]} {domain} units of {side} start in "
                            f"{space_id!r}; the limit is {limit} per side",
                            scenario.locate("setup", pointer + "/units"))


def _turn_order(scenario, index) -> Iterator[Diagnostic]:
    order = scenario.manifest.get("turn_order")
    if not isinstance(order, list) or not index.nations:
        return
    seen: dict[str, int] = {}
    for i, nation in enumerate(order):
        if nation in seen:
            yield error("SET004", f"{nation!r} plays twice in the turn order",
                        scenario.locate("scenario", f"/turn_order/{i}"),
                        hint="each nation plays once a round")
        seen.setdefault(nation, i)
    for nation_id, nation in index.nations.items():
        if nation_id not in seen and "played_by" not in nation.data and nation.data.get("passive") is not True:
            yield error("SET003", f"nation {nation_id!r} never plays: it is not in the turn order",
                        scenario.locate("scenario", nation.pointer + "/id"),
                        hint="add it to turn_order, set played_by to the nation whose player moves it, "
                        "or mark it passive (a neutral power)")


def _playable(scenario, index) -> Iterator[Diagnostic]:
    """A scenario that validates is one the engine can play: its system's rules say whether it
    needs a turn order and victory conditions (validators/systems/__init__.py)."""
    if "scenario" in scenario.failed_kinds:
        return
    module = system_module(scenario.system)
    manifest = scenario.manifest
    if getattr(module, "PLAYS_IN_TURN_ORDER", False) and index.nations and "turn_order" not in manifest:
        first = ", ".join(list(index.nations)[:2])
        yield error("SET008", "there is no turn order: no nation ever plays",
                    scenario.locate("scenario", "/nations", key=True),
                    hint=f"list the nations in the order they play, e.g. turn_order: [{first}]")
    if getattr(module, "WINS_BY_VICTORY", False) and not scenario.entities("scenario", "victory"):
        yield warning("SET009", "there is no victory condition: no side can win, and every game is "
                      "played to the round limit", scenario.locate("scenario", "/id", key=True),
                      hint="add a victory entry: a side and the condition that wins it the game")


def _capitals(scenario, index) -> Iterator[Diagnostic]:
    control = index.starting_control()
    setup_loaded = "setup" in scenario.documents
    for nation_id, nation in index.nations.items():
        capital = nation.data.get("capital")
        if not isinstance(capital, str) or capital not in index.spaces:
            continue
        where = scenario.locate("scenario", nation.pointer + "/capital")
        if index.space_kind(capital) not in LAND_KINDS:
            yield error("SET005", f"the capital of {nation_id!r}, {capital!r}, is not a land space", where)
        elif setup_loaded and control.get(capital) != nation_id:
            holder = control.get(capital)
            yield error("SET005", f"the capital of {nation_id!r}, {capital!r}, starts "
                        + (f"controlled by {holder!r}" if holder else "with no controller"), where,
                        hint=f"set control: {nation_id} for {capital} in setup.yaml")


def _article(word: str) -> str:
    return f"an {word}" if word[:1] in "aeiou" else f"a {word}"
