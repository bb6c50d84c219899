"""Before something others refer to is removed, say how many references would then name nothing.

The references are found as the reference check finds them (validators.references.references_to):
a space named by borders, setup entries, capitals and conditions; a nation by its units and
objectives; a unit type by setup stacks ... The designer is asked once, with the count and where
they are; nothing is asked when nothing refers to it.
"""
from __future__ import annotations

from collections import Counter

from PySide6.QtWidgets import QMessageBox, QWidget

from sandtable.scenario import FILE_KINDS

from .document import ScenarioDocument

# The collections other entries refer to by id (validators/references.py's targets).
REFERRED = {("map", "spaces"), ("scenario", "nations"), ("scenario", "sides"), ("units", "unit_types"),
            ("scenario", "options"), ("scenario", "resources"), ("scenario", "phases"),
            ("setup", "markers"), ("setup", "pools"), ("decks", "decks")}


def breaking(document: ScenarioDocument, kind: str, collection: str, ids: list,
             going_along: frozenset[tuple[str, str]] | set[tuple[str, str]] = frozenset()) -> list[tuple[str, str]]:
    """(file kind, JSON pointer) of every reference to the ids that a removal would break;
    `going_along` are places removed with them (the borders of a deleted space)."""
    if (kind, collection) not in REFERRED:
        return []
    from validators.references import references_to
    merged = {name: document.merged(name) for name in FILE_KINDS}
    system = merged["scenario"].get("system")
    found: list[tuple[str, str]] = []
    for ident in ids:
        if isinstance(ident, str):
            found += [place for place in references_to(merged, system if isinstance(system, str) else None,
                                                       collection, ident)
                      if not any(place[0] == k and place[1].startswith(p) for k, p in going_along)]
    return found


def summary(places: list[tuple[str, str]]) -> str:
    """`3 in setup.yaml, 1 in objectives.yaml`."""
    counts = Counter(FILE_KINDS.get(kind, kind) for kind, _ in places)
    return ", ".join(f"{n} in {name}" for name, n in counts.most_common())


def confirm_removal(parent: QWidget, document: ScenarioDocument, kind: str, collection: str, ids: list,
                    going_along: frozenset[tuple[str, str]] | set[tuple[str, str]] = frozenset()) -> bool:
    """True when the removal may go ahead: nothing refers to the ids, or the designer says so."""
    places = breaking(document, kind, collection, ids, going_along)
    if not places:
        return True
    names = ", ".join(str(i) for i in ids[:3]) + (" …" if len(ids) > 3 else "")
    answer = QMessageBox.question(
        parent, "Remove", f"{len(places)} reference(s) to {names} would then name nothing "
        f"({summary(places)}); the problems list will show each. Remove all the same? "
        "(Undo brings it back.)",
        QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No, QMessageBox.StandardButton.No)
    return answer == QMessageBox.StandardButton.Yes
