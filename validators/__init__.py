"""The scenario checks, and the one entry point that the CLI, the editor and CI all call."""
from __future__ import annotations

from collections.abc import Callable, Iterable
from pathlib import Path

from sandtable.diagnostics import Diagnostic
from sandtable.scenario import Scenario, load_scenario

from .borders import check_borders, check_canals
from .files import check_files
from .graph import check_graph
from .index import ScenarioIndex, build_index
from .locales import check_locales
from .references import check_references, check_unique_ids
from .schema import check_schemas
from .setup import check_setup
from .systems import system_module

__all__ = ["validate", "validate_folder", "build_index", "explain", "ScenarioIndex", "system_checks"]


def system_checks(system: str | None) -> Callable[[Scenario, ScenarioIndex], Iterable[Diagnostic]] | None:
    """The rules-specific checks of a game system: validators/systems/<system>.py, `check`."""
    return getattr(system_module(system), "check", None)


def explain(scenario: Scenario) -> str:
    """The game system's account of its evaluations (national objectives met ...), or ''."""
    account = getattr(system_module(scenario.system), "explain", None)
    return account(scenario, build_index(scenario)) if account else ""


def validate(scenario: Scenario) -> list[Diagnostic]:
    """Every diagnostic for a loaded scenario, sorted by file and position."""
    problems = list(scenario.diagnostics)
    if "scenario" not in scenario.documents:
        return _sorted(problems)
    schema_problems = check_schemas(scenario)
    problems += schema_problems
    index = build_index(scenario)
    checks: list[Callable[[], Iterable[Diagnostic]]] = [
        lambda: check_unique_ids(scenario),
        lambda: check_references(scenario, index),
        lambda: check_files(scenario),
        lambda: check_borders(scenario, index),
        lambda: check_canals(scenario, index),
        lambda: check_graph(scenario, index),
        lambda: check_setup(scenario, index),
        lambda: check_locales(scenario),
    ]
    rules = system_checks(scenario.system)
    if rules is not None:
        checks.append(lambda: rules(scenario, index))
    well_formed = not any(d.is_error for d in schema_problems)
    for check in checks:
        try:
            problems += list(check())
        except (TypeError, AttributeError, KeyError, ValueError, IndexError):
            # The checks below the schema assume well-formed data. When the schema check has
            # already reported malformed data, a check that trips over it adds nothing.
            if well_formed:
                raise
    return _sorted(problems)


def validate_folder(folder: Path | str) -> tuple[Scenario, list[Diagnostic]]:
    scenario = load_scenario(folder)
    return scenario, validate(scenario)


def _sorted(problems: list[Diagnostic]) -> list[Diagnostic]:
    unique: dict[tuple, Diagnostic] = {}
    for problem in problems:
        unique.setdefault((problem.code, str(problem.file), problem.line, problem.column,
                           problem.message), problem)
    return sorted(unique.values(), key=Diagnostic.sort_key)
