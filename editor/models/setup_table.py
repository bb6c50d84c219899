"""The starting position as a table: one row per stack of units (space, control, owner, type, count).

A space with no units still has a row, so its control can be set. A change to a stack writes the
space's whole `units` list, which is also how a variant replaces a parent's list.
"""
from __future__ import annotations

import copy

from PySide6.QtCore import QModelIndex
from PySide6.QtGui import QBrush, QFont

from sandtable.yamlsource import resolve_plain

from ..commands import MISSING
from ..document import ScenarioDocument
from ..explain import explanation, new_problems, unlisted
from ..roles import (
    ALIGNMENT,
    BACKGROUND,
    CHOOSABLE,
    DISPLAY,
    EDIT,
    EDITABLE,
    FONT,
    FOREGROUND,
    HORIZONTAL,
    NO_FLAGS,
    RIGHT_ALIGNED,
    TOOLTIP,
)
from .base import DocumentTableModel
from .collections import ids, owners
from .entity_table import (
    CHOICES_ROLE,
    INHERITED_COLOUR,
    OVERRIDDEN_BACKGROUND,
    STATUS_ROLE,
)

HEADERS = ("Space", "Control", "Owner", "Unit", "Count")
SPACE, CONTROL, OWNER, TYPE, COUNT = range(5)


class SetupModel(DocumentTableModel):
    def __init__(self, document: ScenarioDocument, parent=None):
        super().__init__(parent)
        self.document = document
        self.refresh()
        document.changed.connect(lambda kind: self.refresh() if kind in ("setup", "scenario", "units") else None)
        document.reloaded.connect(self.refresh)

    def collect(self) -> tuple[list, list]:
        rows: list[tuple[dict, int | None]] = []
        for entry in self.document.entities("setup", "spaces"):
            if not isinstance(entry.get("space"), str):
                continue
            given = entry.get("units")
            units = given if isinstance(given, list) else []
            stacks: list[int | None] = [i for i, u in enumerate(units) if isinstance(u, dict)]
            rows += [(entry, i) for i in stacks or [None]]
        return rows, list(HEADERS)

    def row_key(self, row) -> object:
        entry, stack = row
        return entry.get("space"), stack

    def rowCount(self, parent=QModelIndex()) -> int:
        return 0 if parent.isValid() else len(self.rows)

    def columnCount(self, parent=QModelIndex()) -> int:
        return 0 if parent.isValid() else len(self.columns)

    def headerData(self, section, orientation, role=DISPLAY):
        if role == DISPLAY and orientation == HORIZONTAL and 0 <= section < len(HEADERS):
            return HEADERS[section]
        return None

    def flags(self, index):
        if not index.isValid():
            return NO_FLAGS
        flags = CHOOSABLE
        _, stack = self.rows[index.row()]
        if index.column() == CONTROL or (index.column() != SPACE and stack is not None):
            flags |= EDITABLE
        return flags

    def stack(self, row: int) -> dict:
        entry, stack = self.rows[row]
        return entry["units"][stack] if stack is not None else {}

    def data(self, index, role=DISPLAY):
        if not index.isValid() or index.row() >= len(self.rows):
            return None
        entry, _ = self.rows[index.row()]
        stack = self.stack(index.row())
        column = index.column()
        if role in (DISPLAY, EDIT):
            value = {SPACE: entry.get("space"), CONTROL: entry.get("control"),
                     OWNER: stack.get("owner"), TYPE: stack.get("type"), COUNT: stack.get("count")}[column]
            return "" if value is None else str(value)
        if role == CHOICES_ROLE:
            if column in (CONTROL, OWNER):
                return owners(self.document)
            if column == TYPE:
                return ids(self.document, "units", "unit_types")
        if role == ALIGNMENT and column == COUNT:
            return RIGHT_ALIGNED
        if role == STATUS_ROLE:
            return self.status(index.row(), column)
        refused = self.refusal_look(index, role)
        if refused is not None:
            return refused
        if role in (FOREGROUND, FONT, BACKGROUND, TOOLTIP) and self.document.is_variant:
            return self._variant_look(index.row(), column, role)
        return None

    # -- variants: what is the parent's, what the variant's own ----------------------------------
    def _field(self, column: int) -> str | None:
        return {CONTROL: "control", OWNER: "units", TYPE: "units", COUNT: "units"}.get(column)

    def status(self, row: int, column: int) -> str:
        """inherited, overridden, added (by the variant) or own, as the entity tables say it."""
        field = self._field(column)
        if not self.document.is_variant or field is None:
            return "own"
        entry, _ = self.rows[row]
        locator = (("spaces", ("space", entry["space"])),)
        parent = self.document.parent_entity("setup", locator)
        if parent is None:
            return "added"
        own = self.document.own_entity("setup", locator)
        return "overridden" if own is not None and field in own else "inherited"

    def _variant_look(self, row: int, column: int, role):
        status = self.status(row, column)
        if role == FOREGROUND and status == "inherited":
            return QBrush(INHERITED_COLOUR)
        if role == FONT and status in ("inherited", "overridden"):
            font = QFont()
            font.setItalic(status == "inherited")
            font.setBold(status == "overridden")
            return font
        if role == BACKGROUND and status == "overridden":
            return QBrush(OVERRIDDEN_BACKGROUND)
        if role == TOOLTIP:
            return {"inherited": "inherited from the parent scenario",
                    "overridden": "overrides the parent's value — right-click to revert",
                    "added": "added by this variant"}.get(status)
        return None

    def revert_value(self, index) -> bool:
        """Give the space's control, or its whole list of units, back to the parent's (one undo
        step)."""
        if not index.isValid() or self.status(index.row(), index.column()) != "overridden":
            return False
        entry, _ = self.rows[index.row()]
        field = self._field(index.column())
        return field is not None and self.document.revert_field(
            "setup", (("spaces", ("space", entry["space"])),), (field,))

    def setData(self, index, value, role=EDIT) -> bool:
        if role != EDIT or not (self.flags(index) & EDITABLE):
            return False
        with self.committing():
            return self._set(index, str(value).strip())

    def _set(self, index, text: str) -> bool:
        entry, stack = self.rows[index.row()]
        locator = (("spaces", ("space", entry["space"])),)
        if index.column() == CONTROL:
            value = text or MISSING
            if value == entry.get("control", MISSING):
                return False
            self.document.set_field("setup", locator, ("control",), value,
                                    f"Set control of {entry['space']}")
            self._notice(value, owners(self.document), index)
            return True
        units = copy.deepcopy(entry["units"])
        field = {OWNER: "owner", TYPE: "type", COUNT: "count"}[index.column()]
        if field == "count":
            units[stack]["count"] = resolve_plain(text) if text else None
        elif text:
            units[stack][field] = text
        elif field == "owner":
            units[stack].pop("owner", None)
        else:
            return self.refuse(index, f"a stack needs a unit {field}")
        if units == entry["units"]:
            return False
        problems = new_problems(self.document, "setup", locator, ("units",), units, entry["units"])
        if problems:
            return self.refuse(index, explanation(problems))
        self.accepted(index)
        self.document.set_field("setup", locator, ("units",), units,
                                f"Set {field} of {units[stack].get('type')} in {entry['space']}")
        if field == "type":
            self._notice(text, ids(self.document, "units", "unit_types"), index)
        elif field == "owner" and text:
            self._notice(text, owners(self.document), index)
        return True

    def _notice(self, value, listed: list[str], index) -> None:
        message = unlisted(value, listed) if value is not MISSING else ""
        if message:
            self.noticed.emit(f"{self.header_of(index.column())}: {message}")

    # -- adding and removing stacks ---------------------------------------------------------
    def add_stack(self, space: str, unit_type: str, count: int = 1, owner: str | None = None) -> None:
        stack = {"type": unit_type, "count": count}
        if owner:
            stack["owner"] = owner
        entry = next((e for e in self.document.entities("setup", "spaces") if e.get("space") == space), None)
        if entry is None:
            self.document.add_entity("setup", (), "spaces", {"space": space, "units": [stack]},
                                     f"Add {unit_type} to {space}")
            return
        units = copy.deepcopy(entry.get("units") or []) + [stack]
        self.document.set_field("setup", (("spaces", ("space", space)),), ("units",), units,
                                f"Add {unit_type} to {space}")

    def remove_row(self, row: int) -> None:
        entry, stack = self.rows[row]
        if stack is None:
            return
        units = copy.deepcopy(entry["units"])
        gone = units.pop(stack)
        self.document.set_field("setup", (("spaces", ("space", entry["space"])),), ("units",), units,
                                f"Remove {gone.get('type')} from {entry['space']}")
