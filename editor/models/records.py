"""A list of plain records, entries with no id of their own (setup.yaml's starting resources: owner,
resource, amount): one row each, one column per field.

Such a list has no identity to merge by, so a variant replaces its parent's list whole; every edit
here writes the whole list too (one undo step), which is the same thing for a scenario of its own.
Rows are known by their place in the list.
"""
from __future__ import annotations

import copy
from collections.abc import Callable

from PySide6.QtCore import Qt

from ..commands import MISSING
from ..document import ScenarioDocument
from ..explain import explanation, new_problems
from ..roles import CHECK_STATE, CHECKABLE, CHECKED, CHOOSABLE, EDIT, EDITABLE, NO_FLAGS
from .entity_table import Column, EntityTableModel, dig


class RecordsModel(EntityTableModel):
    def __init__(self, document: ScenarioDocument, kind: str, collection: str, columns: list[Column],
                 new_record: Callable[[], dict], noun: str, parent=None):
        self.new_record = new_record
        super().__init__(document, kind, collection, columns, parent=parent, noun=noun)

    def row_key(self, row) -> object:
        return None   # no identity: the rows are told apart by place, their values announced anew

    def wants_add_row(self) -> bool:
        return False

    def _infos(self) -> list[tuple]:
        if self._infos_of is not self.rows:
            inherited = self.document.is_variant and self.collection not in self.document.own(self.kind)
            parent = self.document.parent_entity(self.kind, ()) if self.document.is_variant else None
            self._row_infos = [((), f"/{self.collection}/{number}", parent if inherited else None,
                                None if inherited else entry) for number, entry in enumerate(self.rows)]
            self._infos_of = self.rows
        return self._row_infos

    def chosen(self, row: int) -> tuple | None:
        return ("row", row) if 0 <= row < len(self.rows) else None

    def status(self, row: int, column: Column) -> str:
        if not self.document.is_variant:
            return "own"
        return "overridden" if self.collection in self.document.own(self.kind) else "inherited"

    def flags(self, index):
        if not index.isValid():
            return NO_FLAGS
        column = self.columns[index.column()]
        if column.kind == "bool":
            return CHOOSABLE | CHECKABLE
        return CHOOSABLE | (EDITABLE if column.kind != "readonly" else NO_FLAGS)

    def _store(self, records: list, text: str) -> bool:
        current = self.rows
        if records == current:
            return False
        self.document.set_field(self.kind, (), (self.collection,), records if records else MISSING, text)
        return True

    def _set(self, index, value, role) -> bool:
        column = self.columns[index.column()]
        if role == CHECK_STATE and column.kind == "bool":
            value = Qt.CheckState(value) == CHECKED if not isinstance(value, bool) else value
        elif role != EDIT:
            return False
        try:
            parsed = column.parse(value, dig(self.rows[index.row()], column.path))
        except ValueError as problem:
            return self.refuse(index, str(problem))
        records = copy.deepcopy(self.rows)
        record = records[index.row()]
        holder = record
        for step in column.path[:-1]:
            holder = holder.setdefault(step, {})
        if parsed is MISSING:
            holder.pop(column.path[-1], None)
        else:
            holder[column.path[-1]] = parsed
        if parsed == dig(self.rows[index.row()], column.path):
            return False
        problems = new_problems(self.document, self.kind, (), (self.collection,), records, self.rows)
        if problems:
            return self.refuse(index, explanation(problems))
        self.accepted(index)
        stored = self._store(records, f"Set {column.header.lower()} of {self.noun} {index.row() + 1}")
        if stored and column.choices is not None and parsed is not MISSING:
            self._notice_unlisted(column, parsed)
        return stored

    def append(self) -> bool:
        """A new record with the first values that fit (one undo step)."""
        return self._store(copy.deepcopy(self.rows) + [self.new_record()], f"Add {self.noun}")

    def remove(self, row: int) -> bool:
        if not 0 <= row < len(self.rows):
            return False
        records = copy.deepcopy(self.rows)
        records.pop(row)
        return self._store(records, f"Remove {self.noun} {row + 1}")
