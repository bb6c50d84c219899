"""Allies vs. Axis checks (codes AVA###): the ring board, the yields, the rules' names and formulas.

The board is fixed by the rule book: 36 squares (24 territories, 3 fortune, 3 strategy, 4 secret
territories at squares 5, 14, 23 and 32, and the two special territories Japan and the United
States), the United Kingdom is square 1, and play goes clockwise round the ring. The generic graph
check (MAP010) makes sure the track borders close one cycle; these checks make sure it is this
board, in this order.
"""
from __future__ import annotations

from collections import Counter
from collections.abc import Iterator

from sandtable.diagnostics import Diagnostic, error
from sandtable.scenario import Scenario

from ..index import ScenarioIndex
from ..walk import find
from . import allies_vs_axis_page
from .allies_vs_axis_formulas import FormulaError, Values, evaluate, exact, names_used

BOARD_SQUARES = 36
COMPOSITION = {"territory": 24, "fortune": 3, "strategy": 3, "secret": 4, "special": 2}
NOUNS = {"territory": "territories", "fortune": "fortune squares", "strategy": "strategy squares",
         "secret": "secret territories", "special": "special territories"}
SECRET_SQUARES = (5, 14, 23, 32)
FIRST_SQUARE = "united-kingdom"
SPECIAL_TERRITORIES = ("japan", "united-states")
# Option groups of which a game has exactly one (or, for turn-limit, at most one) turned on.
EXCLUSIVE_GROUPS = {"mode": 1, "end-condition": 1, "jail-limit": 1, "turn-limit": 0}
MODE_GROUP = "mode"


def category(space: dict) -> str | None:
    """What a square is on the board: territory, fortune, strategy, secret, special, or None."""
    kind = space.get("kind")
    given = space.get("tags")
    tags = given if isinstance(given, list) else []
    if kind == "square":
        return "fortune" if "fortune" in tags else "strategy" if "strategy" in tags else None
    if kind == "land":
        return "secret" if "secret" in tags else "special" if "special" in tags else "territory"
    return None


def _mapping(value) -> dict:
    return value if isinstance(value, dict) else {}


def _items(value) -> list:
    return value if isinstance(value, list) else []


def _names_in(value) -> list[str]:
    """The ids of a list of ids; anything else is the schema's to report."""
    return [item for item in _items(value) if isinstance(item, str)]


def _is_int(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def check(scenario: Scenario, index: ScenarioIndex) -> Iterator[Diagnostic]:
    if "map" not in scenario.failed_kinds and index.spaces:
        yield from _board(scenario)
        yield from _ring_order(scenario)
        yield from _yields(scenario, index)
    if "scenario" not in scenario.failed_kinds:
        yield from _rule_names(scenario, index)
        yield from _examples(scenario, index)
        yield from _modes(scenario, index)
    yield from allies_vs_axis_page.check(scenario, index)


# -- the board ------------------------------------------------------------------------------

def _board(scenario: Scenario) -> Iterator[Diagnostic]:
    spaces = scenario.entities("map", "spaces")
    squares = scenario.locate("map", "/spaces", key=True)
    if len(spaces) != BOARD_SQUARES:
        yield error("AVA001", f"the board has {len(spaces)} squares; Allies vs. Axis has {BOARD_SQUARES}",
                    squares, hint="24 territories, 3 fortune, 3 strategy, 4 secret and 2 special squares")
    counts: Counter[str | None] = Counter()
    for pointer, space in spaces:
        kind = category(space)
        if kind is None:
            yield error("AVA002", f"{space.get('id')!r} is neither a territory (kind land) nor a "
                        "fortune or strategy square (kind square, tagged fortune or strategy)",
                        scenario.locate("map", pointer + "/kind"))
        counts[kind] += 1
        if kind == "special" and space.get("id") not in SPECIAL_TERRITORIES:
            yield error("AVA002", f"{space.get('id')!r} is tagged special; the special territories "
                        "are Japan and the United States", scenario.locate("map", pointer + "/tags"))
    for kind, wanted in COMPOSITION.items():
        if counts[kind] != wanted:
            yield error("AVA002", f"the board has {counts[kind]} {NOUNS[kind]}; the rules give {wanted}",
                        squares, hint="tags: secret and special mark those territories; "
                        "fortune and strategy mark the squares")
    by_index = {space["index"]: (pointer, space) for pointer, space in spaces if _is_int(space.get("index"))}
    for pointer, space in spaces:
        if category(space) == "secret" and _is_int(space.get("index")) and space["index"] not in SECRET_SQUARES:
            yield error("AVA004", f"secret territory {space.get('id')!r} is square {space.get('index')}; "
                        "the secret territories are squares 5, 14, 23 and 32",
                        scenario.locate("map", pointer + "/index"))
    for number in SECRET_SQUARES:
        if number not in by_index:
            continue
        pointer, space = by_index[number]
        if category(space) != "secret":
            yield error("AVA004", f"square {number} is {space.get('id')!r}, which is not a secret territory",
                        scenario.locate("map", pointer + "/id"), hint="tag the secret territory: tags: [secret]")
    if 1 in by_index and by_index[1][1].get("id") != FIRST_SQUARE:
        pointer, first = by_index[1]
        yield error("AVA005", f"square 1 is {first.get('id')!r}; the United Kingdom is square 1",
                    scenario.locate("map", pointer + "/id"))


def _ring_order(scenario: Scenario) -> Iterator[Diagnostic]:
    """Squares are listed 1 to 36, and each track leads clockwise to the next square."""
    if scenario.doc("map").get("topology") != "ring":
        where = "/topology" if "topology" in scenario.doc("map") else ""
        yield error("AVA003", "the Allies vs. Axis board is a ring; the graph checks only close the "
                    "cycle of a map with topology: ring", scenario.locate("map", where),
                    hint="set topology: ring in map.yaml")
    spaces = scenario.entities("map", "spaces")
    for position, (pointer, space) in enumerate(spaces, start=1):
        found = space.get("index")
        if found != position and (found is None or _is_int(found)):  # other values: the schema's
            yield error("AVA003", f"{space.get('id')!r} is listed as square {position} but has "
                        + (f"index {found}" if found is not None else "no index"),
                        scenario.locate("map", pointer + ("/index" if found is not None else "/id")),
                        hint="list the squares in board order, index 1 to 36 (the United Kingdom first)")
            break  # one slip shifts every later square; the first is the one to fix
    number_of = {s["id"]: s["index"] for _, s in spaces if isinstance(s.get("id"), str) and _is_int(s.get("index"))}
    for pointer, border in scenario.entities("map", "borders"):
        pair = border.get("between")
        if border.get("kind") != "track":
            yield error("AVA003", "the ring board has only track borders",
                        scenario.locate("map", pointer + "/kind"), hint="use kind: track, directed: true")
            continue
        if not border.get("directed"):
            yield error("AVA003", "play goes one way round the ring: a track border is directed",
                        scenario.locate("map", pointer + "/between"), hint="add directed: true")
        if isinstance(pair, list) and len(pair) == 2 and all(isinstance(p, str) and p in number_of for p in pair):
            start, end = number_of[pair[0]], number_of[pair[1]]
            if end != start % len(spaces) + 1:
                yield error("AVA003", f"the track from square {start} ({pair[0]}) leads to square {end} "
                            f"({pair[1]}); clockwise it leads to square {start % len(spaces) + 1}",
                            scenario.locate("map", pointer + "/between/1"))


def _owned_in_every_mode(scenario: Scenario) -> set[str] | None:
    """Territories some side owns at the start of every game mode (None: no modes declared)."""
    owned_in_every_mode = None
    for _, option in scenario.entities("scenario", "options"):
        if option.get("group") != MODE_GROUP:
            continue
        started = {space for change in _items(option.get("changes")) if isinstance(change, dict)
                   and change.get("op") == "start_with" for space in _names_in(change.get("spaces"))}
        owned_in_every_mode = started if owned_in_every_mode is None else owned_in_every_mode & started
    return owned_in_every_mode


def _yields(scenario: Scenario, index: ScenarioIndex) -> Iterator[Diagnostic]:
    always_owned = _owned_in_every_mode(scenario) or set()
    for space_id, entity in index.spaces.items():
        space, pointer = entity.data, entity.pointer
        kind = category(space)
        stats = space.get("stats") if isinstance(space.get("stats"), dict) else None
        if kind in ("fortune", "strategy"):
            if stats is not None:
                yield error("AVA006", f"{space_id!r} is a {kind} square and yields nothing",
                            scenario.locate("map", pointer + "/stats", key=True), hint="remove its stats")
            continue
        if kind is None or (stats is None and "stats" in space):
            continue  # the schema reports stats of the wrong type
        if stats is None:
            yield error("AVA006", f"territory {space_id!r} has no yield: every territory yields money "
                        "and infantry each turn", scenario.locate("map", pointer + "/id"),
                        hint="add stats: {money: ..., infantry: ...}")
            continue
        if kind in ("secret", "special") and "neutral_defence" in stats:
            why = "armies never invade it" if kind == "secret" else \
                "while neutral it is allied with, not invaded"
            yield error("AVA006", f"{space_id!r} is a {kind} territory: {why}, so it has no neutral "
                        "defence power", scenario.locate("map", pointer + "/stats/neutral_defence"),
                        hint="its cost is fixed (rules.parameters)")
        elif kind == "territory" and "neutral_defence" not in stats and space_id not in always_owned:
            yield error("AVA006", f"territory {space_id!r} starts neutral in some game mode but has no "
                        "neutral defence power", scenario.locate("map", pointer + "/stats"),
                        hint="add stats.neutral_defence (it sets the treaty cost)")


# -- the rules' names --------------------------------------------------------------------------

def _rules(scenario: Scenario) -> dict:
    rules = scenario.manifest.get("rules")
    return rules if isinstance(rules, dict) else {}


def _names(rules: dict, key: str) -> set[str]:
    value = rules.get(key)
    return set(value) if isinstance(value, dict) else set()


def _unknown(scenario: Scenario, pointer: str, noun: str, name: str, known) -> Diagnostic:
    listed = ", ".join(sorted(map(str, known))) or "none"
    return error("AVA007", f"unknown {noun} {name!r}", scenario.locate("scenario", pointer),
                 hint=f"known: {listed}")


def _rule_names(scenario: Scenario, index: ScenarioIndex) -> Iterator[Diagnostic]:
    rules = _rules(scenario)
    counters = _names(rules, "counters")
    for key in ("main_territories", "natural_allies"):
        for side, space in _mapping(rules.get(key)).items():
            where = f"/rules/{key}/{side}"
            if side not in index.sides:
                yield _unknown(scenario, where, "side", side, index.sides)
            if isinstance(space, str) and space not in index.spaces:
                yield _unknown(scenario, where, "space", space, index.spaces)
            elif key == "natural_allies" and isinstance(space, str) \
                    and category(index.spaces[space].data) != "special":
                yield error("AVA007", f"natural ally {space!r} is not a special territory",
                            scenario.locate("scenario", where),
                            hint="a side's natural ally is one of the special territories")
    mapped = _mapping(rules.get("army_resources"))
    for unit, resource in mapped.items():
        where = f"/rules/army_resources/{unit}"
        if unit not in index.unit_types:
            yield _unknown(scenario, where, "unit type", unit, index.unit_types)
        if isinstance(resource, str) and resource not in index.resources:
            yield _unknown(scenario, where, "resource", resource, index.resources)
    for unit in index.unit_types:
        if unit not in mapped and "rules" in scenario.manifest:
            yield error("AVA007", f"unit type {unit!r} has no resource in army_resources",
                        scenario.locate("scenario", "/rules/army_resources"),
                        hint="say which resource holds the units a player has of this type")
    for i, unit in enumerate(_items(rules.get("neutral_invasion_units"))):
        if isinstance(unit, str) and unit not in index.unit_types:
            yield _unknown(scenario, f"/rules/neutral_invasion_units/{i}", "unit type", unit, index.unit_types)
    yield from _formula_names(scenario, index, rules)
    for pointer, condition in find(scenario.manifest, "victory/*/when"):
        for where, name in _counters_in(condition, pointer):
            if name not in counters:
                yield _unknown(scenario, where, "counter", name, counters)
    levels = {name: _mapping(_mapping(entry).get("values")) for name, entry in _mapping(rules.get("levels")).items()}
    for pointer, change in find(scenario.manifest, "options/*/changes/*"):
        if isinstance(change, dict) and change.get("op") == "set_level":
            setting, level = change.get("setting"), change.get("level")
            if not (isinstance(setting, str) and isinstance(level, str)):
                continue  # the schema reports the wrong type
            if setting not in levels:
                yield _unknown(scenario, pointer + "/setting", "level setting", setting, levels)
            elif level not in levels[setting]:
                yield _unknown(scenario, pointer + "/level", f"level of {setting}", level, levels[setting])
    for pointer, effect in find(scenario.doc("decks"), "decks/*/cards/*/effects/*"):
        if isinstance(effect, dict) and effect.get("op") == "reset_counter" \
                and isinstance(effect.get("counter"), str) and effect["counter"] not in counters:
            yield error("AVA007", f"unknown counter {effect.get('counter')!r}",
                        scenario.locate("decks", pointer + "/counter"),
                        hint="known: " + (", ".join(sorted(counters)) or "none"))


def _counters_in(condition, pointer: str) -> Iterator[tuple[str, str]]:
    if isinstance(condition, dict):
        for key, value in condition.items():
            if key == "counter" and isinstance(value, dict) and isinstance(value.get("counter"), str):
                yield f"{pointer}/counter/counter", value["counter"]
            else:
                yield from _counters_in(value, f"{pointer}/{key}")
    elif isinstance(condition, list):
        for i, item in enumerate(condition):
            yield from _counters_in(item, f"{pointer}/{i}")


def _formulas(rules: dict) -> dict:
    formulas = rules.get("formulas")
    return {k: v for k, v in formulas.items() if isinstance(v, dict)} if isinstance(formulas, dict) else {}


def _formula_problems(formula: dict, rules: dict, index: ScenarioIndex) -> Iterator[tuple[str, str, str, set]]:
    """(pointer inside the formula's value, noun, name, known names) for each unknown name."""
    known = {
        "parameter": _names(rules, "parameters"),
        "input": set(_names_in(formula.get("inputs"))),
        "counter": _names(rules, "counters"),
        "level": _names(rules, "levels"),
        "unit": set(index.unit_types),
        "count": set(index.unit_types),
    }
    for pointer, kind, name in names_used(formula.get("value")):
        if kind == "stat":
            unit, stat = name.split("/", 1)
            stats = _mapping(index.unit_types[unit].data.get("stats")) if unit in index.unit_types else {}
            if unit in index.unit_types and stat not in stats:
                yield pointer, f"stat of {unit}", stat, set(stats)
            continue
        if kind == "count" and "army" not in formula:
            yield pointer, "army (the formula counts units but names no army: invading or defending)", \
                name, {"invading", "defending"}
            continue
        if name not in known[kind]:
            noun = "unit type" if kind in ("unit", "count") else \
                "input (list it in the formula's inputs)" if kind == "input" else kind
            yield pointer, noun, name, known[kind]


def _formula_names(scenario: Scenario, index: ScenarioIndex, rules: dict) -> Iterator[Diagnostic]:
    for formula_id, formula in _formulas(rules).items():
        base = f"/rules/formulas/{formula_id}/value"
        for pointer, noun, name, known in _formula_problems(formula, rules, index):
            yield _unknown(scenario, base + pointer, noun, name, known)


# -- the worked examples -----------------------------------------------------------------------

def _examples(scenario: Scenario, index: ScenarioIndex) -> Iterator[Diagnostic]:
    rules = _rules(scenario)
    for formula_id, formula in _formulas(rules).items():
        if any(_formula_problems(formula, rules, index)):
            continue  # its unknown names are reported already
        for i, example in enumerate(_items(formula.get("examples"))):
            if not isinstance(example, dict) or isinstance(example.get("result"), bool) \
                    or not isinstance(example.get("result"), (int, float)) or not all(
                    isinstance(example.get(part, {}), dict) for part in ("army", "inputs", "counters", "levels")):
                continue  # the schema reports the wrong shape
            pointer = f"/rules/formulas/{formula_id}/examples/{i}"
            missing = [name for name in _names_in(formula.get("inputs")) if name not in (example.get("inputs") or {})]
            strangers = [u for u in example.get("army") or {} if u not in index.unit_types]
            if missing or strangers:
                what = f"gives no value for input {missing[0]!r}" if missing else \
                    f"names unknown unit type {strangers[0]!r}"
                yield error("AVA008", f"the example of {formula_id} {what}", scenario.locate("scenario", pointer))
                continue
            try:
                result = evaluate(formula.get("value"), example_values(rules, index, example))
                expected = exact(example.get("result"))
            except FormulaError as problem:
                yield error("AVA008", f"the example of {formula_id} cannot be computed: {problem}",
                            scenario.locate("scenario", pointer))
                continue
            if result != expected:
                yield error("AVA008", f"{formula_id} gives {_show(result)} for this example; the rule "
                            f"book says {_show(expected)}", scenario.locate("scenario", pointer + "/result"),
                            hint="check the formula's operands and the numbers it reads "
                            "(parameters, unit stats, levels)")


def example_values(rules: dict, index: ScenarioIndex, example: dict) -> Values:
    """What a formula reads for one worked example: the rules' numbers and the example's givens."""
    return Values(
        parameters=_mapping(rules.get("parameters")),
        unit_stats={uid: _mapping(u.data.get("stats")) for uid, u in index.unit_types.items()},
        level_values={name: _mapping(_mapping(entry).get("values"))
                      for name, entry in _mapping(rules.get("levels")).items()},
        levels=_mapping(example.get("levels")), inputs=_mapping(example.get("inputs")),
        counters=_mapping(example.get("counters")), army=_mapping(example.get("army")))


def _show(value) -> str:
    return str(value.numerator) if value.denominator == 1 else f"{float(value):g}"


# -- the game modes and end conditions ------------------------------------------------------------

def _modes(scenario: Scenario, index: ScenarioIndex) -> Iterator[Diagnostic]:
    options = scenario.entities("scenario", "options")
    for group, wanted in EXCLUSIVE_GROUPS.items():
        members = [(p, o) for p, o in options if o.get("group") == group]
        chosen = [(p, o) for p, o in members if o.get("default") is True]
        if members and (len(chosen) > 1 or (wanted and not chosen)):
            pointer = (chosen[1] if len(chosen) > 1 else members[0])[0]
            yield error("AVA009", f"{len(chosen)} options of group {group!r} are on by default; "
                        + ("exactly one is" if wanted else "at most one is"),
                        scenario.locate("scenario", pointer + "/default"))
    rules = _rules(scenario)
    mains = _mapping(rules.get("main_territories"))
    levels = _names(rules, "levels")
    for pointer, option in options:
        if option.get("group") == MODE_GROUP:
            yield from _mode(scenario, index, pointer, option, mains, levels)


def _mode(scenario, index, pointer, option, mains, levels) -> Iterator[Diagnostic]:
    starts: dict[str, set] = {}
    set_levels = set()
    for i, change in enumerate(_items(option.get("changes"))):
        if not isinstance(change, dict):
            continue
        if change.get("op") == "set_level" and isinstance(change.get("setting"), str):
            set_levels.add(change["setting"])
        if change.get("op") != "start_with":
            continue
        if not isinstance(change.get("side"), str):
            continue  # the schema reports it
        for j, space in enumerate(_items(change.get("spaces"))):
            if not isinstance(space, str):
                continue
            where = scenario.locate("scenario", f"{pointer}/changes/{i}/spaces/{j}")
            kind = category(index.spaces[space].data) if space in index.spaces else None
            if space in index.spaces and kind not in ("territory", "special"):
                yield error("AVA009", f"a side cannot start with {space!r}: only territories and the "
                            "special territories are owned at the start", where)
            if any(space in owned for owned in starts.values()):
                yield error("AVA009", f"{space!r} is given to both sides at the start", where)
        starts.setdefault(change["side"], set()).update(_names_in(change.get("spaces")))
    mode = option.get("id")
    for side in index.sides:
        if side not in starts:
            yield error("AVA009", f"game mode {mode!r} gives {side!r} no territory to start with",
                        scenario.locate("scenario", pointer + "/id"),
                        hint=f"add {{op: start_with, side: {side}, spaces: [...]}} to its changes")
        elif isinstance(mains.get(side), str) and mains[side] not in starts[side]:
            yield error("AVA009", f"in game mode {mode!r}, {side!r} does not start with its main "
                        f"territory {mains.get(side)!r}", scenario.locate("scenario", pointer + "/id"),
                        hint="the pawn starts on the main territory, which its side owns")
    for setting in sorted(levels - set_levels):
        yield error("AVA009", f"game mode {mode!r} does not set the level of {setting!r}",
                    scenario.locate("scenario", pointer + "/id"),
                    hint=f"add {{op: set_level, setting: {setting}, level: ...}} to its changes")


# -- explanation (sandtable validate --explain) ------------------------------------------------

def explain(scenario: Scenario, index: ScenarioIndex) -> str:
    """The ring as the checks read it, and each formula against the rule book's examples."""
    lines = [f"Allies vs. Axis: {scenario.id}", "  the ring, clockwise:"]
    for _, space in sorted(scenario.entities("map", "spaces"),
                           key=lambda item: item[1]["index"] if _is_int(item[1].get("index")) else 0):
        stats = _mapping(space.get("stats"))
        yields = ", ".join(f"{name} {value}" for name, value in stats.items())
        lines.append(f"    {space.get('index')!s:>3} {space.get('id')!s:<22} "
                     f"{category(space) or '?':<10} {yields}".rstrip())
    lines.append("  formulas and the rule book's worked examples:")
    rules = _rules(scenario)
    for formula_id, formula in _formulas(rules).items():
        lines.append(f"    {formula_id}: {formula.get('text', '')}")
        for example in _items(formula.get("examples")):
            if not isinstance(example, dict):
                continue
            given = {part: example[part] for part in ("army", "inputs", "counters", "levels") if part in example}
            try:
                computed = _show(evaluate(formula.get("value"), example_values(rules, index, example)))
            except FormulaError as problem:
                computed = f"cannot be computed ({problem})"
            lines.append(f"      {given} -> {computed} (rule book: {example.get('result')})")
    return "\n".join(lines) + "\n"
