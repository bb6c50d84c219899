"""A card's effects as a table: the operation and its parameters (`name: value, ...`).

The operations offered are the ones the game system's profile schema lists (its `effect`
definition); a scenario without a profile can still name any operation.
"""
from __future__ import annotations

import copy
from collections.abc import Callable

from PySide6.QtCore import QAbstractTableModel, QModelIndex, Qt

from sandtable.schemas import SCHEMA_DIR, load_schema

from ..commands import MISSING
from ..document import ScenarioDocument
from ..flowtext import parse_mapping, to_text
from .entity_table import CHOICES_ROLE, dig

HEADERS = ("Operation", "Parameters")


def profile_effect_ops(system: str | None) -> list[str]:
    """The `op` names of the system profile's effect branches (empty without a profile)."""
    if not system or not (SCHEMA_DIR / "systems" / f"{system}.schema.json").is_file():
        return []
    effect = load_schema(f"systems/{system}.schema.json").get("$defs", {}).get("effect", {})
    ops = []
    for branch in effect.get("oneOf", []):
        const = branch.get("properties", {}).get("op", {}).get("const")
        if isinstance(const, str):
            ops.append(const)
    return ops


class EffectsModel(QAbstractTableModel):
    """The effects list of one card (`card_locator()` names it), edited as a whole list."""

    def __init__(self, document: ScenarioDocument, card_locator: Callable[[], tuple | None], parent=None):
        super().__init__(parent)
        self.document = document
        self.card_locator = card_locator
        self.effects: list = []
        self.last_error = ""
        self.refresh()
        document.changed.connect(lambda kind: self.refresh() if kind == "decks" else None)
        document.reloaded.connect(self.refresh)

    def _card(self) -> dict | None:
        locator = self.card_locator()
        if not locator:
            return None
        return self.document.find_merged("decks", locator)

    def refresh(self) -> None:
        self.beginResetModel()
        card = self._card()
        effects = dig(card, ("effects",)) if card else MISSING
        self.effects = list(effects) if isinstance(effects, list) else []
        self.endResetModel()

    def rowCount(self, parent=QModelIndex()) -> int:
        return 0 if parent.isValid() else len(self.effects)

    def columnCount(self, parent=QModelIndex()) -> int:
        return 0 if parent.isValid() else 2

    def headerData(self, section, orientation, role=Qt.DisplayRole):
        if role == Qt.DisplayRole and orientation == Qt.Horizontal and section < 2:
            return HEADERS[section]
        return None

    def flags(self, index):
        if not index.isValid():
            return Qt.NoItemFlags
        return Qt.ItemIsEnabled | Qt.ItemIsSelectable | Qt.ItemIsEditable

    def data(self, index, role=Qt.DisplayRole):
        if not index.isValid() or index.row() >= len(self.effects):
            return None
        effect = self.effects[index.row()]
        effect = effect if isinstance(effect, dict) else {}
        if role in (Qt.DisplayRole, Qt.EditRole):
            if index.column() == 0:
                return str(effect.get("op", ""))
            return to_text({k: v for k, v in effect.items() if k != "op"})
        if role == CHOICES_ROLE and index.column() == 0:
            return profile_effect_ops(self.document.merged("scenario").get("system"))
        return None

    def setData(self, index, value, role=Qt.ItemDataRole.EditRole) -> bool:
        if role != Qt.ItemDataRole.EditRole or not index.isValid():
            return False
        effects = copy.deepcopy(self.effects)
        effect = effects[index.row()] if isinstance(effects[index.row()], dict) else {}
        if index.column() == 0:
            if not str(value).strip():
                return False
            effect = {"op": str(value).strip(), **{k: v for k, v in effect.items() if k != "op"}}
        else:
            try:
                parameters = parse_mapping(str(value))
            except ValueError as problem:
                self.last_error = str(problem)
                return False
            effect = {"op": effect.get("op", ""), **{k: v for k, v in parameters.items() if k != "op"}}
        effects[index.row()] = effect
        return self._store(effects, "Edit effect")

    def add(self, op: str) -> None:
        self._store(copy.deepcopy(self.effects) + [{"op": op}], f"Add effect {op}")

    def remove(self, row: int) -> None:
        effects = copy.deepcopy(self.effects)
        gone = effects.pop(row)
        self._store(effects, f"Remove effect {gone.get('op', '') if isinstance(gone, dict) else ''}")

    def _store(self, effects: list, text: str) -> bool:
        locator = self.card_locator()
        if not locator or effects == self.effects:
            return False
        self.document.set_field("decks", locator, ("effects",), effects if effects else MISSING, text)
        return True
