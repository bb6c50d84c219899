"""TripleA game files: import as a scenario folder, and export a scenario back.

- `import_game(path)` reads a TripleA game file safely (sandtable.safexml) as TripleA reads it
  (game.py) and translates it (translate.py) into the data of each scenario file kind, with a
  diagnostic for everything that was not carried over;
- `read_board(folder)` reads the board geometry of a TripleA map folder (mapfolder.py);
- `export_scenario(scenario)` writes a game file for an AA50-family scenario (export.py).
"""
from __future__ import annotations

from pathlib import Path

from ..safexml import read_xml_file
from .names import plain_id, scenario_id, territory_id, territory_name
from .names import scenario_id as _scenario_id
from .translate import FAMILIES, Imported, rule_family, translate


def import_game(path: Path | str, scenario_id: str | None = None, system: str | None = None) -> Imported:
    """Read and translate a TripleA game file. Raises OSError and safexml.XmlRefused."""
    document = read_xml_file(path)
    return translate(document, scenario_id or _scenario_id(Path(path).stem) or "scenario", system)


__all__ = ["FAMILIES", "Imported", "import_game", "plain_id", "rule_family", "scenario_id", "territory_id",
           "territory_name", "translate"]
