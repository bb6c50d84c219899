"""Small helpers shared by the tests."""
from __future__ import annotations

import os
from pathlib import Path

from sandtable.scenario import load_scenario
from validators import validate

FIXTURES = Path(__file__).resolve().parent / "fixtures"
REPO = Path(__file__).resolve().parent.parent


def diagnostics_of(folder: Path):
    return validate(load_scenario(folder))


def find_code(diagnostics, code: str):
    """The diagnostics with this code; fails the test with the full list when there is none."""
    found = [d for d in diagnostics if d.code == code]
    assert found, f"no {code} among: " + "; ".join(f"{d.code} {d.message}" for d in diagnostics)
    return found


def place(diagnostic, relative_to: Path) -> tuple[str, int, int]:
    """(file relative to a folder, line, column) of a diagnostic."""
    file = Path(os.path.abspath(diagnostic.file)).relative_to(os.path.abspath(relative_to)).as_posix()
    return file, diagnostic.line, diagnostic.column


def scenario_from_files(root: Path, files: dict):
    """A Scenario made in memory from the data of each file kind (as an import gives), with no
    source lines: what load_scenario would give for the files once written."""
    from sandtable.merge import Tracked
    from sandtable.scenario import Scenario
    scenario = Scenario(root=Path(root))
    scenario.lineage = [Path(root)]
    for kind, data in files.items():
        scenario.documents[kind] = Tracked(data, {}, {})
    return scenario
