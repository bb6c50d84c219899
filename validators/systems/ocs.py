"""Checks of the Operational Combat Series charts (codes OCS###).

Every table names the notation of its results (`results:`). The checks prove that the data the
engine reads says what the chart prints:

- OCS001  the cells nest exactly as the axes say (one list level per axis, one entry per value);
- OCS002  the table's notation is known;
- OCS003  each cell's printed text reads in that notation;
- OCS004  each cell's data is what its printed text says;
- OCS005  each cell, and each outcome an axis value stands for, has the shape the profile schema
          (schemas/systems/ocs.schema.json) gives it;
- OCS006  the combat results table is monotone: a higher odds column or a higher roll is never
          worse for the attacker (see `sandtable.ocs_results.worse_for_attacker`);
- OCS007  column shifts stay inside the table;
- OCS008  each hex's terrain is a terrain row of the combat results table.
"""
from __future__ import annotations

import difflib
from collections.abc import Iterator

from sandtable.diagnostics import Diagnostic, Location, error
from sandtable.ocs_results import NOTATIONS, ResultSyntaxError, parse, worse_for_attacker
from sandtable.scenario import Scenario
from sandtable.yamlsource import join_pointer

from ..index import ScenarioIndex
from ..schema import profile, validator_for

PROFILE = "systems/ocs.schema.json"
# The axes along which the combat results table must never get worse for the attacker.
MONOTONE_AXES = ("odds", "roll")
# Shifts move along the table's columns: the axis that the odds or the barrage strength pick.
COLUMN_AXES = ("odds", "strength")


def check(scenario: Scenario, index: ScenarioIndex) -> Iterator[Diagnostic]:
    if "tables" in scenario.failed_kinds:
        return
    for entity in index.tables.values():
        yield from check_table(scenario, entity.pointer, entity.data)
    yield from _terrain(scenario, index)


def check_table(scenario: Scenario, pointer: str, table: dict) -> Iterator[Diagnostic]:
    axes = table.get("axes")
    if not isinstance(axes, list) or not all(isinstance(a, dict) for a in axes):
        return  # the schema check reports it
    yield from _axis_results(scenario, pointer, axes)
    lengths = [len(a["values"]) if isinstance(a.get("values"), list) else 0 for a in axes]
    grid_problems = list(_rectangular(scenario, table.get("cells"), lengths, axes,
                                      join_pointer(pointer, "cells")))
    yield from grid_problems
    yield from _shifts(scenario, pointer, table, axes, lengths)
    notation = table.get("results")
    if notation is not None and not isinstance(notation, str):
        return  # the schema check reports it
    if notation not in NOTATIONS or f"cell_{notation}" not in profile("ocs"):
        known = ", ".join(sorted(NOTATIONS))
        if notation is None:
            yield error("OCS002", f"table {table.get('id')!r} does not say how its results are written",
                        scenario.locate("tables", join_pointer(pointer, "id")),
                        hint=f"add results: one of {known}")
        else:
            yield error("OCS002", f"unknown result notation {notation!r}",
                        scenario.locate("tables", join_pointer(pointer, "results")), hint=f"known: {known}")
        return
    readable = True
    for cell_pointer, cell in _leaves(table.get("cells"), len(axes), join_pointer(pointer, "cells")):
        problems = list(_check_cell(scenario, notation, cell_pointer, cell))
        readable = readable and not problems
        yield from problems
    if notation == "combat" and readable and not grid_problems:
        yield from _monotone(scenario, pointer, table, axes)


# -- shape ---------------------------------------------------------------------------------------
def _rectangular(scenario, cells, lengths, axes, pointer, depth=0) -> Iterator[Diagnostic]:
    """Cells nest one list per axis, each as long as its axis has values."""
    if depth == len(lengths):
        if isinstance(cells, list):
            yield error("OCS001", f"a cell is expected here, but there is a list: the cells nest "
                        f"deeper than the {len(lengths)} axes", scenario.locate("tables", pointer),
                        hint="one level of list per axis, outermost axis first")
        return
    axis_id = axes[depth].get("id")
    if not isinstance(cells, list):
        yield error("OCS001", f"a list of {lengths[depth]} entries (one per value of axis "
                    f"{axis_id!r}) is expected here", scenario.locate("tables", pointer),
                    hint="one level of list per axis, outermost axis first")
        return
    if len(cells) != lengths[depth]:
        yield error("OCS001", f"{len(cells)} entries, but axis {axis_id!r} has {lengths[depth]} values",
                    scenario.locate("tables", pointer),
                    hint="every row of a table is as long as its axis; add or remove cells")
        return
    for i, item in enumerate(cells):
        yield from _rectangular(scenario, item, lengths, axes, join_pointer(pointer, i), depth + 1)


def _leaves(cells, depth: int, pointer: str):
    """(pointer, cell) for each cell at the depth the axes give; misplaced lists are skipped."""
    if depth == 0:
        if not isinstance(cells, list):
            yield pointer, cells
        return
    if isinstance(cells, list):
        for i, item in enumerate(cells):
            yield from _leaves(item, depth - 1, join_pointer(pointer, i))


def _shape_errors(scenario, definition: str, value, pointer: str, what: str) -> Iterator[Diagnostic]:
    validator = validator_for(PROFILE, definition)
    for err in sorted(validator.iter_errors(value), key=lambda e: list(map(str, e.absolute_path))):
        where = pointer
        for token in err.absolute_path:
            where = join_pointer(where, token)
        yield error("OCS005", f"{what} does not have the shape of its notation: {err.message}",
                    scenario.locate("tables", where),
                    hint=f"see $defs/{definition} in schemas/{PROFILE}")


def _axis_results(scenario, pointer, axes) -> Iterator[Diagnostic]:
    for a, axis in enumerate(axes):
        values = axis.get("values") if isinstance(axis.get("values"), list) else []
        for v, value in enumerate(values):
            if isinstance(value, dict) and "result" in value:
                where = _pointer(pointer, "axes", a, "values", v, "result")
                yield from _shape_errors(scenario, "axis_result", value["result"], where,
                                         "the outcome of an axis value")


# -- cells ---------------------------------------------------------------------------------------
def _check_cell(scenario, notation, pointer, cell) -> Iterator[Diagnostic]:
    shape = list(_shape_errors(scenario, f"cell_{notation}", cell, pointer, "the cell"))
    yield from shape
    if not isinstance(cell, dict) or not isinstance(cell.get("printed"), str):
        return
    printed = cell["printed"]
    try:
        outcome = parse(notation, printed)
    except ResultSyntaxError as unreadable:
        where = _inside_text(scenario, scenario.locate("tables", join_pointer(pointer, "printed")),
                             printed, unreadable.offset)
        yield error("OCS003", f"{printed!r} is not a {notation} result: {unreadable}", where)
        return
    stored = {key: value for key, value in cell.items() if key != "printed"}
    if stored != outcome and not shape:
        yield error("OCS004", f"the cell's data does not say what {printed!r} says",
                    scenario.locate("tables", pointer),
                    hint=f"{printed!r} reads as {_flow(outcome)}; the cell holds {_flow(stored)}")


def _inside_text(scenario, where: Location, printed: str, offset: int) -> Location:
    """Point at the character where reading stopped, when the text is written unquoted."""
    source = scenario.sources.get(where.file)
    line = source.line_text(where.line) if source and where.line else ""
    if line[where.column - 1:].startswith(printed):
        return Location(where.file, where.line, where.column + offset, where.pointer)
    return where


def _flow(outcome: dict) -> str:
    return "{" + ", ".join(f"{key}: {value}" for key, value in outcome.items()) + "}" if outcome else "{}"


# -- the combat results table is monotone --------------------------------------------------------
def _monotone(scenario, pointer, table, axes) -> Iterator[Diagnostic]:
    """Along the odds and roll axes, each cell is no worse for the attacker than the one before."""
    ids = [a.get("id") for a in axes]
    ordered = [ids.index(name) for name in MONOTONE_AXES if name in ids]
    cells = table["cells"]
    reported: set[tuple] = set()
    for position in _positions([len(a["values"]) for a in axes]):
        for axis_number in ordered:
            if position[axis_number] == 0:
                continue
            before = list(position)
            before[axis_number] -= 1
            later, earlier = _at(cells, position), _at(cells, tuple(before))
            reasons = worse_for_attacker(later, earlier)
            if reasons and position not in reported:
                reported.add(position)
                where = _pointer(pointer, "cells", *position)
                axis = axes[axis_number]
                yield error("OCS006", f"{later['printed']!r} is worse for the attacker than "
                            f"{earlier['printed']!r} one step lower on axis {axis.get('id')!r}: "
                            + "; ".join(reasons), scenario.locate("tables", where),
                            related=[scenario.locate("tables", _pointer(pointer, "cells", *before))],
                            hint="a higher odds column or a higher roll never helps the defender; "
                            "check the transcription of both cells")


def _pointer(base: str, *tokens) -> str:
    for token in tokens:
        base = join_pointer(base, token)
    return base


def _positions(lengths: list[int]):
    if not lengths:
        yield ()
        return
    for first in range(lengths[0]):
        for rest in _positions(lengths[1:]):
            yield (first,) + rest


def _at(cells, position):
    for i in position:
        cells = cells[i]
    return cells


# -- column shifts -------------------------------------------------------------------------------
def _shifts(scenario, pointer, table, axes, lengths) -> Iterator[Diagnostic]:
    """Every shift, and the largest set of shifts that can apply together, stays on the table.

    A shift moves the column right (positive) or left (negative) along the column axis (`odds` or
    `strength`). A table of n columns can move a result at most n - 1 columns; a fixed shift, or
    the sum of the largest shifts in one direction that can apply together (every modifier
    without a group, plus the largest of each group, optional rules included), must not exceed
    that. Variable shifts (a die's worth of columns) are bounded by the rules, not the data.
    """
    modifiers = table.get("modifiers") if isinstance(table.get("modifiers"), list) else []
    shifting = [(i, m) for i, m in enumerate(modifiers)
                if isinstance(m, dict) and isinstance(m.get("shift"), int) and not isinstance(m.get("shift"), bool)]
    if not shifting:
        return
    ids = [a.get("id") for a in axes]
    columns_axis = next((name for name in COLUMN_AXES if name in ids), None)
    if columns_axis is None:
        yield error("OCS007", f"table {table.get('id')!r} shifts columns but has no column axis",
                    scenario.locate("tables", _pointer(pointer, "modifiers", shifting[0][0], "shift")),
                    hint="name the axis of columns odds or strength")
        return
    room = lengths[ids.index(columns_axis)] - 1
    fixed = [(i, m) for i, m in shifting if not m.get("variable")]
    too_far = {1: False, -1: False}
    for i, modifier in fixed:
        if abs(modifier["shift"]) > room:
            too_far[1 if modifier["shift"] > 0 else -1] = True
            yield error("OCS007", f"a shift of {modifier['shift']} leaves a table of {room + 1} columns",
                        scenario.locate("tables", _pointer(pointer, "modifiers", i, "shift")),
                        hint=f"a shift moves at most {room} columns")
    for sign, direction in ((1, "right"), (-1, "left")):
        total = _largest_total([(m.get("group"), m["shift"] * sign) for _, m in fixed])
        if total > room and not too_far[sign]:
            yield error("OCS007", f"the shifts that can apply together move {total} columns {direction}, "
                        f"more than a table of {room + 1} columns allows",
                        scenario.locate("tables", join_pointer(pointer, "modifiers"), key=True),
                        hint="put shifts that exclude each other in one group")


def _largest_total(shifts: list[tuple[str | None, int]]) -> int:
    """The largest sum of positive shifts: every ungrouped one, and the largest of each group."""
    best: dict[str | None, int] = {}
    total = 0
    for group, amount in shifts:
        if amount <= 0:
            continue
        if group is None:
            total += amount
        else:
            best[group] = max(best.get(group, 0), amount)
    return total + sum(best.values())


# -- the map's terrain is the combat table's -----------------------------------------------------
def _terrain(scenario: Scenario, index: ScenarioIndex) -> Iterator[Diagnostic]:
    """A hex's terrain picks the row of the combat results table, so it must be one of its rows."""
    rows = _combat_terrain_rows(index)
    if rows is None:
        return
    for space_id, entity in index.spaces.items():
        terrain = entity.data.get("terrain")
        if isinstance(terrain, str) and terrain not in rows:
            close = difflib.get_close_matches(terrain, sorted(rows), n=1, cutoff=0.6)
            yield error("OCS008", f"hex {space_id!r} has terrain {terrain!r}, which is not a terrain "
                        "row of the combat results table",
                        scenario.locate("map", _pointer(entity.pointer, "terrain")),
                        hint=f"did you mean {close[0]!r}?" if close else "rows: " + ", ".join(sorted(rows)))


def _combat_terrain_rows(index: ScenarioIndex) -> set[str] | None:
    for entity in index.tables.values():
        if entity.data.get("results") != "combat" or not isinstance(entity.data.get("axes"), list):
            continue
        for axis in entity.data["axes"]:
            if isinstance(axis, dict) and axis.get("id") == "terrain" and isinstance(axis.get("values"), list):
                return {v["id"] if isinstance(v, dict) else str(v) for v in axis["values"]
                        if not isinstance(v, dict) or isinstance(v.get("id"), str)}
    return None


# -- explain -------------------------------------------------------------------------------------
def explain(scenario: Scenario, index: ScenarioIndex) -> str:
    """Each table's notation and size, and how far its shifts can move (for --explain)."""
    lines = [f"OCS charts of {scenario.id}: {len(index.tables)} table(s)"]
    for table_id, entity in index.tables.items():
        axes = [a for a in entity.data.get("axes") or [] if isinstance(a, dict)]
        sizes = [f"{a.get('id')} {len(a['values']) if isinstance(a.get('values'), list) else 0}"
                 for a in axes]
        line = f"  {table_id} ({entity.data.get('results', 'no notation')}): {' x '.join(sizes)}"
        modifiers = [m for m in entity.data.get("modifiers") or [] if isinstance(m, dict)
                     and isinstance(m.get("shift"), int) and not m.get("variable")]
        if modifiers:
            right = _largest_total([(m.get("group"), m["shift"]) for m in modifiers])
            left = _largest_total([(m.get("group"), -m["shift"]) for m in modifiers])
            line += f"; shifts together move at most {right} right and {left} left"
        lines.append(line)
    return "\n".join(lines) + "\n"
