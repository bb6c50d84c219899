"""A card's effects as a table: the operation and its parameters (`name: value, ...`).

The operations offered are the ones the game system's profile schema lists (its `effect`
definition); a scenario without a profile can still name any operation.
"""
from __future__ import annotations

import copy
from collections.abc import Callable

from PySide6.QtCore import QModelIndex

from sandtable.schemas import SCHEMA_DIR, load_schema

from ..commands import MISSING
from ..document import ScenarioDocument
from ..explain import explanation, new_problems
from ..flowtext import parse_mapping, to_text
from ..roles import (
    CHOOSABLE,
    DISPLAY,
    EDIT,
    EDITABLE,
    HORIZONTAL,
    NO_FLAGS,
)
from .base import DocumentTableModel
from .entity_table import CHOICES_ROLE, STRICT_ROLE, dig

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


class EffectsModel(DocumentTableModel):
    """The effects list of one card (`card_locator()` names it), edited as a whole list."""

    def __init__(self, document: ScenarioDocument, card_locator: Callable[[], tuple | None], parent=None):
        super().__init__(parent)
        self.document = document
        self.card_locator = card_locator
        self.refresh()
        document.changed.connect(lambda kind: self.refresh() if kind == "decks" else None)
        document.reloaded.connect(self.refresh)

    @property
    def effects(self) -> list:
        return self.rows

    def _card(self) -> dict | None:
        locator = self.card_locator()
        if not locator:
            return None
        return self.document.find_merged("decks", locator)

    def collect(self) -> tuple[list, list]:
        card = self._card()
        effects = dig(card, ("effects",)) if card else MISSING
        return (list(effects) if isinstance(effects, list) else []), list(HEADERS)

    def row_key(self, row) -> object:
        return None  # effects have no identity: the same number of them is the same shape

    def rowCount(self, parent=QModelIndex()) -> int:
        return 0 if parent.isValid() else len(self.effects)

    def columnCount(self, parent=QModelIndex()) -> int:
        return 0 if parent.isValid() else 2

    def headerData(self, section, orientation, role=DISPLAY):
        if role == DISPLAY and orientation == HORIZONTAL and section < 2:
            return HEADERS[section]
        return None

    def flags(self, index):
        if not index.isValid():
            return NO_FLAGS
        return CHOOSABLE | EDITABLE

    def data(self, index, role=DISPLAY):
        if not index.isValid() or index.row() >= len(self.effects):
            return None
        effect = self.effects[index.row()]
        effect = effect if isinstance(effect, dict) else {}
        if role in (DISPLAY, EDIT):
            if index.column() == 0:
                return str(effect.get("op", ""))
            return to_text({k: v for k, v in effect.items() if k != "op"})
        if role == CHOICES_ROLE and index.column() == 0:
            return profile_effect_ops(self.document.merged("scenario").get("system")) or None
        if role == STRICT_ROLE:
            return True
        return self.refusal_look(index, role)

    def setData(self, index, value, role=EDIT) -> bool:
        if role != EDIT or not index.isValid():
            return False
        with self.committing():
            return self._set(index, str(value))

    def _set(self, index, text: str) -> bool:
        effects = copy.deepcopy(self.effects)
        effect = effects[index.row()] if isinstance(effects[index.row()], dict) else {}
        if index.column() == 0:
            if not text.strip():
                return self.refuse(index, "an effect needs an operation")
            effect = {"op": text.strip(), **{k: v for k, v in effect.items() if k != "op"}}
        else:
            try:
                parameters = parse_mapping(text)
            except ValueError as problem:
                return self.refuse(index, str(problem))
            effect = {"op": effect.get("op", ""), **{k: v for k, v in parameters.items() if k != "op"}}
        effects[index.row()] = effect
        locator = self.card_locator()
        if effects == self.effects or not locator:
            return False
        problems = new_problems(self.document, "decks", locator, ("effects",), effects, self.effects)
        if problems:
            return self.refuse(index, explanation(problems))
        self.accepted(index)
        card = self.card_locator()
        return self._store(effects, f"Edit effect {effect.get('op', '')} of card {card[-1][1][1] if card else ''}")

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
