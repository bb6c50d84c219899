"""Allies vs. Axis: the data held to the page (seed 003), codes AVA010 to AVA014.

The page prints some values and not others. Those it prints are kept here with the section
that prints them, and a scenario that departs from one is told the page's value: a game mode's
starting territories and levels (AVA010), the penalty rates and the order of the levels
(AVA011), the army unit table (AVA012), the fixed costs and counts (AVA013). These are warnings:
a variant may depart from the page on purpose, and `--strict` holds it to the page. Values the
page does not give must stay marked `reconstructed` (AVA014), so a reader can tell the page's
facts from the scenario's guesses.
"""
from __future__ import annotations

from collections.abc import Iterator
from fractions import Fraction
from typing import NamedTuple

from sandtable.diagnostics import Diagnostic, warning
from sandtable.scenario import Scenario

from ..index import ScenarioIndex
from .allies_vs_axis_formulas import FormulaError, exact, parameter_value

MODES_SECTION = "Game modes"


class PageMode(NamedTuple):
    """A game mode as the page gives it."""

    starts: dict[str, tuple[str, ...]]       # side -> territories owned at the start
    levels: dict[str, str]                   # setting -> level


MODES = {
    "regular": PageMode({"allies": ("united-kingdom", "france"), "axis": ("germany", "italy")},
                        {"resource_level": "normal", "penalty_rate": "normal", "luck": "normal"}),
    "les-miserables": PageMode({"allies": ("united-kingdom",), "axis": ("germany",)},
                               {"resource_level": "depleted", "penalty_rate": "normal", "luck": "high"}),
    "fierce-battle": PageMode({"allies": ("united-kingdom", "france"), "axis": ("germany", "italy")},
                              {"resource_level": "normal", "penalty_rate": "high", "luck": "high"}),
    "no-italy": PageMode({"allies": ("united-kingdom", "united-states"), "axis": ("germany", "japan")},
                         {"resource_level": "normal", "penalty_rate": "medium", "luck": "high"}),
}
# "Penalty cost": 30 % in Regular, 50 % in Fierce Battle, "between 30% and 50%" in every mode.
PENALTY_RATES = {"normal": Fraction(3, 10), "high": Fraction(1, 2)}
PENALTY_RANGE = (Fraction(3, 10), Fraction(1, 2))
# level setting -> (the level the page says is lower, the higher one, what the page says)
LEVEL_ORDER = {
    "luck": ("normal", "high", "luck is higher in the other modes than in Regular"),
    "resource_level": ("depleted", "normal", "resources are depleted in Les Misérables"),
}
UNITS_SECTION = "Army unit comparison"
# unit -> (cost $M, power, defence support, most recruited a turn)
UNITS = {"infantry": (50, 1, 1, 24), "tank": (140, 3, 1, 16),
         "aircraft": (220, 5, 1, 10), "battleship": (300, 7, 0, 6)}
PARAMETERS = {
    "secret_base_cost": (500, "Neutral secret territories"),
    "special_alliance_cost": (2000, "Neutral special territories"),
    "strategic_move_base": (1000, "Strategic move cost"),
    "ransom_base": (2000, "Ransom cost"),
    "treaty_base": (20, "Treaty cost"),
    "treaty_step": (10, "Treaty cost"),
}
SPINNER_FACES = 6                                       # "Spinner": a six-sided die
SPY_CARDS = 4                                           # "Invading secret territories"
MAIN_TERRITORIES = {"allies": "united-kingdom", "axis": "germany"}       # "Game end"
NATURAL_ALLIES = {"allies": "united-states", "axis": "japan"}           # "Neutral special territories"
NEUTRAL_INVADERS = ["infantry"]                         # "Neutral territories"
PAGE_LEVELS = {"penalty_rate": set(PENALTY_RATES)}      # level values the page prints
PAGE_CARDS = {"spy"}                                    # the one card whose effect the page gives


def _number(value):
    try:
        return exact(value)
    except FormulaError:
        return None


def _show(value) -> str:
    number = value if isinstance(value, Fraction) else _number(value)
    if number is None:
        return repr(value)
    return str(number.numerator) if number.denominator == 1 else f"{float(number):g}"


def _mapping(value) -> dict:
    return value if isinstance(value, dict) else {}


def _items(value) -> list:
    return value if isinstance(value, list) else []


def check(scenario: Scenario, index: ScenarioIndex) -> Iterator[Diagnostic]:
    if "scenario" not in scenario.failed_kinds:
        yield from _modes(scenario)
        yield from _levels(scenario)
        yield from _fixed(scenario)
    if "units" not in scenario.failed_kinds:
        yield from _units(scenario, index)
    if "decks" not in scenario.failed_kinds:
        yield from _spies(scenario)
    yield from _reconstructed(scenario)


# -- AVA010: the game modes ----------------------------------------------------------------------

def _modes(scenario: Scenario) -> Iterator[Diagnostic]:
    for pointer, option in scenario.entities("scenario", "options"):
        if option.get("id") not in MODES:
            continue
        mode = option["id"]
        starts, levels = MODES[mode]
        seen_sides, seen_levels = set(), set()
        for i, change in enumerate(_items(option.get("changes"))):
            if not isinstance(change, dict):
                continue
            where = f"{pointer}/changes/{i}"
            if change.get("op") == "start_with" and change.get("side") in starts:
                side = change["side"]
                seen_sides.add(side)
                given = [s for s in _items(change.get("spaces")) if isinstance(s, str)]
                if sorted(given) != sorted(starts[side]):
                    yield warning("AVA010", f"game mode {mode!r} starts {side} with "
                                  f"{', '.join(given) or 'nothing'}; the page starts {side} with "
                                  f"{' and '.join(starts[side])}",
                                  scenario.locate("scenario", where + "/spaces"),
                                  hint=f"{MODES_SECTION}: spaces: [{', '.join(starts[side])}]")
            elif change.get("op") == "set_level" and change.get("setting") in levels:
                setting = change["setting"]
                seen_levels.add(setting)
                if change.get("level") != levels[setting]:
                    yield warning("AVA010", f"game mode {mode!r} sets {setting} to "
                                  f"{change.get('level')!r}; the page says {levels[setting]!r}",
                                  scenario.locate("scenario", where + "/level"),
                                  hint=f"{MODES_SECTION}: level: {levels[setting]}")
        for side in sorted(set(starts) - seen_sides):
            yield warning("AVA010", f"game mode {mode!r} does not say what {side} starts with; "
                          f"the page starts {side} with {' and '.join(starts[side])}",
                          scenario.locate("scenario", pointer + "/id"),
                          hint=f"add {{op: start_with, side: {side}, spaces: [{', '.join(starts[side])}]}}")


# -- AVA011: the levels' values ----------------------------------------------------------------

def _levels(scenario: Scenario) -> Iterator[Diagnostic]:
    levels = _mapping(_mapping(scenario.manifest.get("rules")).get("levels"))
    rates = _mapping(_mapping(levels.get("penalty_rate")).get("values"))
    base = "/rules/levels/penalty_rate/values"
    for level, value in rates.items():
        number = _number(value)
        if number is None:
            continue                                   # the schema reports it
        where = scenario.locate("scenario", f"{base}/{level}")
        if level in PENALTY_RATES and number != PENALTY_RATES[level]:
            page = PENALTY_RATES[level]
            yield warning("AVA011", f"the {level} penalty rate is {_show(value)}; the page says "
                          f"{_show(page)} ({page * 100}%)",
                          where, hint="Penalty cost: 30% in Regular, 50% in Fierce Battle")
        elif not PENALTY_RANGE[0] <= number <= PENALTY_RANGE[1]:
            yield warning("AVA011", f"the {level} penalty rate is {_show(value)}; the page says "
                          "the rate is between 30% and 50%", where,
                          hint="Penalty cost: a rate from 0.3 to 0.5")
    for setting, (lower, higher, says) in LEVEL_ORDER.items():
        values = _mapping(_mapping(levels.get(setting)).get("values"))
        low, high = _number(values.get(lower)), _number(values.get(higher))
        if low is not None and high is not None and not low < high:
            yield warning("AVA011", f"{setting} {higher!r} ({_show(high)}) is not above {lower!r} "
                          f"({_show(low)}); the page says {says}",
                          scenario.locate("scenario", f"/rules/levels/{setting}/values/{higher}"),
                          hint=f"{MODES_SECTION}: {says}")


# -- AVA012: the army unit table -----------------------------------------------------------------

def _units(scenario: Scenario, index: ScenarioIndex) -> Iterator[Diagnostic]:
    for unit, (cost, power, support, limit) in UNITS.items():
        entity = index.unit_types.get(unit)
        if entity is None:
            continue
        stats = _mapping(entity.data.get("stats"))
        table = f"{UNITS_SECTION}: {unit} $M {cost}, power {power}, support +{support}, " \
                f"at most {limit} a turn"
        for pointer, value, page, verb, amount in (
                ("/cost", entity.data.get("cost"), cost, "costs", "$M {}"),
                ("/stats/power", stats.get("power"), power, "has power", "{}"),
                ("/stats/support", stats.get("support"), support, "gives defence support", "+{}"),
                ("/limit", entity.data.get("limit"), limit, "is recruited at most", "{} a turn")):
            number = _number(value)
            if number is not None and number != page:
                yield warning("AVA012", f"{unit} {verb} {amount.format(_show(value))}; the page's "
                              f"army unit table says {amount.format(page)}",
                              scenario.locate("units", entity.pointer + pointer), hint=table)


# -- AVA013: fixed costs and counts ----------------------------------------------------------------

def _fixed(scenario: Scenario) -> Iterator[Diagnostic]:
    rules = _mapping(scenario.manifest.get("rules"))
    for name, entry in _mapping(rules.get("parameters")).items():
        if name not in PARAMETERS:
            continue
        page, section = PARAMETERS[name]
        value = parameter_value(entry)
        number = _number(value)
        if number is not None and number != page:
            where = f"/rules/parameters/{name}" + ("/value" if isinstance(entry, dict) else "")
            yield warning("AVA013", f"{name} is {_show(value)}; the page says {page}",
                          scenario.locate("scenario", where), hint=f"{section}: {page}")
    faces = _mapping(rules.get("spinner")).get("faces")
    if _number(faces) is not None and faces != SPINNER_FACES:
        yield warning("AVA013", f"the spinner has {faces} faces; the page's spinner is a "
                      "six-sided die", scenario.locate("scenario", "/rules/spinner/faces"),
                      hint="Spinner: faces: 6")
    for key, page_spaces, section in (("main_territories", MAIN_TERRITORIES, "Game end"),
                                      ("natural_allies", NATURAL_ALLIES, "Neutral special territories")):
        for side, space in _mapping(rules.get(key)).items():
            if side in page_spaces and isinstance(space, str) and space != page_spaces[side]:
                yield warning("AVA013", f"{key} gives {side} {space!r}; the page says "
                              f"{page_spaces[side]!r}", scenario.locate("scenario", f"/rules/{key}/{side}"),
                              hint=f"{section}: {side}: {page_spaces[side]}")
    invaders = rules.get("neutral_invasion_units")
    if isinstance(invaders, list) and sorted(invaders) != NEUTRAL_INVADERS:
        yield warning("AVA013", f"neutral territories are invaded with {', '.join(map(str, invaders)) or 'nothing'}; "
                      "the page says with infantry only",
                      scenario.locate("scenario", "/rules/neutral_invasion_units"),
                      hint="Neutral territories: neutral_invasion_units: [infantry]")


def _spies(scenario: Scenario) -> Iterator[Diagnostic]:
    for pointer, card in _cards(scenario):
        if card.get("id") != "spy":
            continue
        count = card.get("count", 1)
        if _number(count) is not None and count != SPY_CARDS:
            where = pointer + ("/count" if "count" in card else "/id")
            yield warning("AVA013", f"there are {count} spy cards; the page says only {SPY_CARDS} "
                          "in a game", scenario.locate("decks", where),
                          hint="Invading secret territories: count: 4")


def _cards(scenario: Scenario) -> Iterator[tuple[str, dict]]:
    for deck_pointer, deck in scenario.entities("decks", "decks"):
        for i, card in enumerate(_items(deck.get("cards"))):
            if isinstance(card, dict):
                yield f"{deck_pointer}/cards/{i}", card


# -- AVA014: what the page does not give stays marked -----------------------------------------------

def _reconstructed(scenario: Scenario) -> Iterator[Diagnostic]:
    if "scenario" not in scenario.failed_kinds:
        levels = _mapping(_mapping(scenario.manifest.get("rules")).get("levels"))
        for setting, entry in levels.items():
            entry = _mapping(entry)
            marked = entry.get("reconstructed")
            for level in _mapping(entry.get("values")):
                if level in PAGE_LEVELS.get(setting, ()) or marked is True \
                        or (isinstance(marked, list) and level in marked):
                    continue
                where = f"/rules/levels/{setting}/" + ("reconstructed" if "reconstructed" in entry
                                                       else f"values/{level}")
                yield warning("AVA014", f"the page does not give the {setting} level {level!r}; "
                              "mark it reconstructed", scenario.locate("scenario", where),
                              hint=f"reconstructed: true, or list the level: reconstructed: [{level}]")
    if "map" not in scenario.failed_kinds:
        for pointer, space in scenario.entities("map", "spaces"):
            if space.get("reconstructed") is not True:
                yield warning("AVA014", f"the page does not give the yield or place of "
                              f"{space.get('id')!r}; mark the square reconstructed",
                              scenario.locate("map", pointer + "/id"),
                              hint="reconstructed: true (the page gives the board's composition only)")
    if "decks" not in scenario.failed_kinds:
        for pointer, card in _cards(scenario):
            if card.get("id") not in PAGE_CARDS and card.get("reconstructed") is not True:
                yield warning("AVA014", f"the page does not give the effect of card "
                              f"{card.get('id')!r}; mark it reconstructed",
                              scenario.locate("decks", pointer + "/id"),
                              hint="reconstructed: true (the page gives only the spy's effect)")
