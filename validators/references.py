"""Ids are unique, and every reference names something that exists."""
from __future__ import annotations

import difflib
from collections.abc import Iterator

from sandtable.diagnostics import Diagnostic, error
from sandtable.merge import identity
from sandtable.scenario import Scenario

from .index import ScenarioIndex
from .walk import find

# (file kind, path pattern, what the value must name).
REFERENCES = [
    ("scenario", "nations/*/side", "sides"),
    ("scenario", "nations/*/capital", "spaces"),
    ("scenario", "nations/*/played_by", "nations"),
    ("scenario", "turn_order/*", "players"),
    ("scenario", "victory/*/side", "sides"),
    ("scenario", "victory/*/option", "options"),
    ("map", "spaces/*/region", "regions"),
    ("map", "spaces/*/original_owner", "owners"),
    ("map", "spaces/*/closed_to/*", "owners"),
    ("map", "borders/*/between/*", "spaces"),
    ("map", "borders/*/canal", "canals"),
    ("map", "canals/*/joins/*", "spaces"),
    ("map", "canals/*/controlled_by/*", "spaces"),
    ("units", "unit_types/*/nation", "nations"),
    ("setup", "spaces/*/space", "spaces"),
    ("setup", "spaces/*/control", "owners"),
    ("setup", "spaces/*/units/*/type", "unit_types"),
    ("setup", "spaces/*/units/*/owner", "owners"),
    ("setup", "spaces/*/units/*/aboard", "unit_types"),
    ("setup", "spaces/*/markers/*/marker", "markers"),
    ("setup", "spaces/*/markers/*/owner", "owners"),
    ("setup", "resources/*/owner", "owners"),
    ("setup", "resources/*/resource", "resources"),
    ("setup", "pools/*/owner", "owners"),
    ("setup", "pools/*/units/*/type", "unit_types"),
    ("setup", "pools/*/units/*/owner", "owners"),
    ("setup", "reinforcements/*/owner", "owners"),
    ("setup", "reinforcements/*/space", "spaces"),
    ("setup", "reinforcements/*/pool", "pools"),
    ("setup", "reinforcements/*/units/*/type", "unit_types"),
    ("setup", "reinforcements/*/units/*/owner", "owners"),
    ("setup", "draws/*/from/*", "markers"),
    ("setup", "draws/*/to/*", "spaces"),
    ("objectives", "objectives/*/owner", "owners"),
    ("objectives", "objectives/*/option", "options"),
    ("objectives", "objectives/*/award/resource", "resources"),
    ("decks", "decks/*/owner", "owners"),
    ("tables", "tables/*/modifiers/*/option", "options"),
]

# Where conditions and effects stand; their parameters are checked by name (PARAMETER_TARGETS).
CONDITIONS = [
    ("scenario", "victory/*/when"),
    ("objectives", "objectives/*/when"),
    ("decks", "decks/*/cards/*/requires"),
    ("decks", "decks/*/cards/*/options/*/requires"),
]
EFFECTS = [
    ("decks", "decks/*/cards/*/effects/*"),
    ("decks", "decks/*/cards/*/options/*/effects/*"),
    ("scenario", "options/*/changes/*"),
]
PARAMETER_TARGETS = {
    "space": "spaces", "spaces": "spaces", "from_space": "spaces", "to_space": "spaces",
    "owner": "owners", "side": "sides", "nation": "nations", "with": "owners", "controller": "owners",
    "type": "unit_types", "types": "unit_types", "unit": "unit_types", "units": "unit_types",
    "option": "options", "deck": "decks", "card": "cards", "cards": "cards",
    "marker": "markers", "table": "tables", "resource": "resources", "phase": "phases",
    "objective": "objectives", "pool": "pools",
}
NOUNS = {
    "spaces": "space", "owners": "nation or side", "sides": "side", "nations": "nation",
    "players": "player (nation)", "unit_types": "unit type", "options": "option",
    "decks": "deck", "cards": "card", "markers": "marker", "tables": "table",
    "resources": "resource", "phases": "phase", "objectives": "objective", "pools": "pool",
    "regions": "region", "canals": "canal",
}
# Collections whose entities must have unique ids: (file kind, pattern of the list).
ID_LISTS = [
    ("scenario", "sides"), ("scenario", "nations"), ("scenario", "options"),
    ("scenario", "resources"), ("scenario", "phases"), ("scenario", "victory"),
    ("map", "spaces"), ("map", "canals"), ("map", "regions"), ("units", "unit_types"),
    ("setup", "spaces"), ("setup", "pools"), ("setup", "reinforcements"), ("setup", "markers"),
    ("setup", "draws"), ("objectives", "objectives"), ("decks", "decks"), ("decks", "decks/*/cards"),
    ("decks", "decks/*/cards/*/options"), ("tables", "tables"), ("tables", "tables/*/axes"),
    ("tables", "tables/*/modifiers"),
]


def targets(index: ScenarioIndex, name: str) -> set[str]:
    if name == "owners":
        return set(index.owners)
    if name == "players":
        return set(index.nations) or set(index.sides)
    return set(getattr(index, name))


def unknown_reference(scenario: Scenario, kind: str, pointer: str, value: str, target: str,
                      known: set[str]) -> Diagnostic:
    noun = NOUNS.get(target, target)
    close = difflib.get_close_matches(value, sorted(known), n=1, cutoff=0.6)
    hint = f"did you mean {close[0]!r}?" if close else None
    return error("REF001", f"unknown {noun} {value!r}", scenario.locate(kind, pointer), hint=hint)


def check_references(scenario: Scenario, index: ScenarioIndex) -> Iterator[Diagnostic]:
    cache: dict[str, set[str]] = {}

    def known(target: str) -> set[str]:
        if target not in cache:
            cache[target] = targets(index, target)
        return cache[target]

    for kind, pattern, target in REFERENCES:
        if kind in scenario.failed_kinds:
            continue
        for pointer, value in find(scenario.doc(kind), pattern):
            if isinstance(value, str) and value not in known(target) and not _source_failed(scenario, target):
                yield unknown_reference(scenario, kind, pointer, value, target, known(target))
    for kind, pattern in CONDITIONS + EFFECTS:
        for root_pointer, value in find(scenario.doc(kind), pattern):
            for pointer, name, item in _parameters(value, root_pointer):
                target = PARAMETER_TARGETS[name]
                if item not in known(target) and not _source_failed(scenario, target):
                    yield unknown_reference(scenario, kind, pointer, item, target, known(target))


def _source_failed(scenario: Scenario, target: str) -> bool:
    """A reference into a file that failed to load is not reported again."""
    from .index import COLLECTIONS
    kind = COLLECTIONS.get(target, ("scenario" if target in ("owners", "players") else "", ""))[0]
    return kind in scenario.failed_kinds or (target == "owners" and "scenario" in scenario.failed_kinds)


def _parameters(value, pointer: str):
    """(pointer, parameter name, id) for every reference parameter inside a condition or effect."""
    if isinstance(value, dict):
        for key, child in value.items():
            child_pointer = f"{pointer}/{key}"
            if key in PARAMETER_TARGETS and isinstance(child, str):
                yield child_pointer, key, child
            elif key in PARAMETER_TARGETS and isinstance(child, list) and all(isinstance(c, str) for c in child):
                for i, item in enumerate(child):
                    yield f"{child_pointer}/{i}", key, item
            else:
                yield from _parameters(child, child_pointer)
    elif isinstance(value, list):
        for i, item in enumerate(value):
            yield from _parameters(item, f"{pointer}/{i}")


def check_unique_ids(scenario: Scenario) -> Iterator[Diagnostic]:
    for kind, pattern in ID_LISTS:
        for list_pointer, items in find(scenario.doc(kind), pattern):
            if not isinstance(items, list):
                continue
            seen: dict = {}
            for i, item in enumerate(items):
                key = identity(item)
                if key is None or key[0] == "between":
                    continue  # borders have their own duplicate check
                pointer = f"{list_pointer}/{i}/{key[0]}"
                if key in seen:
                    first = scenario.locate(kind, seen[key])
                    yield error("ID001", f"{key[0]} {key[1]!r} is used twice in {pattern.split('/')[0]} "
                                f"(first at line {first.line})", scenario.locate(kind, pointer),
                                hint="give each entry its own id, or merge the two", related=[first])
                else:
                    seen[key] = pointer
    yield from _unique_card_ids(scenario)


def _unique_card_ids(scenario: Scenario) -> Iterator[Diagnostic]:
    """Card ids are unique across all decks, since card references name no deck."""
    seen: dict[str, str] = {}
    for pointer, card in find(scenario.doc("decks"), "decks/*/cards/*"):
        if not isinstance(card, dict) or not isinstance(card.get("id"), str):
            continue
        deck_pointer = pointer.rsplit("/", 2)[0]
        first = seen.get(card["id"])
        if first is not None and first.rsplit("/", 2)[0] != deck_pointer:
            where = scenario.locate("decks", first + "/id")
            yield error("ID001", f"card id {card['id']!r} is also used in another deck "
                        f"(line {where.line})", scenario.locate("decks", pointer + "/id"),
                        hint="card ids are unique across all decks", related=[where])
        seen.setdefault(card["id"], pointer)


# The words a system's RULE_REFERENCES use for what a value names, as collections.
_RULE_TARGETS = {"space": "spaces", "spaces": "spaces", "nation": "nations", "nations": "nations",
                 "side": "sides", "sides": "sides", "unit type": "unit_types", "unit_types": "unit_types"}


def references_to(documents: dict[str, dict], system: str | None, target: str,
                  value: str) -> list[tuple[str, str]]:
    """(file kind, JSON pointer) of every place in the data that names `value` as one of
    `target` (spaces, nations, unit_types ...): the plain references, the parameters of
    conditions and effects, and the game system's rules. What a rename must change, and what a
    removal would break."""
    from .systems import system_module
    wanted = {target} | ({"owners", "players"} if target in ("nations", "sides") else set())
    found: list[tuple[str, str]] = []
    for kind, pattern, names in REFERENCES:
        if names in wanted:
            found += [(kind, pointer) for pointer, item in find(documents.get(kind, {}), pattern) if item == value]
    for kind, pattern in CONDITIONS + EFFECTS:
        for root, condition in find(documents.get(kind, {}), pattern):
            found += [(kind, pointer) for pointer, name, item in _parameters(condition, root)
                      if item == value and PARAMETER_TARGETS[name] in wanted]
    rules = documents.get("scenario", {}).get("rules")
    for pattern, noun in getattr(system_module(system), "RULE_REFERENCES", []):
        if _RULE_TARGETS.get(noun) == target:
            found += [("scenario", "/rules" + pointer) for pointer, item in find(rules, pattern) if item == value]
    return found
