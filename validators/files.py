"""Files a scenario names (such as the board image) exist and stay inside the scenario folder."""
from __future__ import annotations

from collections.abc import Iterator

from sandtable.diagnostics import Diagnostic, error
from sandtable.paths import PathEscape, inside
from sandtable.scenario import Scenario

from .walk import find

FILE_REFERENCES = [("map", "board/image")]


def check_files(scenario: Scenario) -> Iterator[Diagnostic]:
    for kind, pattern in FILE_REFERENCES:
        for pointer, value in find(scenario.doc(kind), pattern):
            if not isinstance(value, str):
                continue
            where = scenario.locate(kind, pointer)
            owner = where.file.parent if where.file else scenario.root
            try:
                target = inside(owner, value)
            except PathEscape as escape:
                yield error("PATH002", str(escape), where,
                            hint="keep every file the scenario uses inside its folder")
                continue
            if not target.is_file():
                yield error("PATH003", f"{value} does not exist", where)
