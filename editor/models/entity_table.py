"""A table of entities (spaces, unit types, cards ...): one row per entity, one column per field.

Rows come from the document's merged data; an edit becomes `document.set_field` on the row's
entity, so it is undoable and, in a variant, lands in the variant's own file. A table that can
create entities ends with an add row: typing a name there adds one, its id made from the name.
In a variant, inherited values are grey and italic, overridden ones marked, and the tooltip gives
the parent's value.
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from PySide6.QtCore import QModelIndex, Qt, QTimer, Signal
from PySide6.QtGui import QBrush, QColor, QFont

from sandtable.merge import identity
from sandtable.yamlsource import resolve_plain

from ..commands import MISSING
from ..document import ScenarioDocument
from ..explain import explanation, field_pointer, new_problems, unlisted
from ..ids import slug, unique_id
from ..roles import (
    ALIGNMENT,
    BACKGROUND,
    CHECK_STATE,
    CHECKABLE,
    CHECKED,
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
    UNCHECKED,
    USER,
    VERTICAL,
)
from .base import PROBLEM_BACKGROUND, DocumentTableModel

CHOICES_ROLE = USER + 1   # the values a column may take, for the combo-box delegate
LOCATOR_ROLE = USER + 2   # the row entity's locator
STATUS_ROLE = USER + 3    # in a variant: "inherited", "overridden", "added" or "own"
STRICT_ROLE = USER + 4    # True when only the listed choices are allowed

INHERITED_COLOUR = QColor("#7a7a7a")
OVERRIDDEN_BACKGROUND = QColor("#fff1c2")
ADD_ROW_COLOUR = QColor("#5a7fa8")


@dataclass
class Column:
    header: str
    path: tuple                      # the field inside the entity, e.g. ("stats", "attack")
    # text | number | integer | bool | list | scalar | stacks | readonly | id (renamed with its
    # references, editor/rename.py)
    kind: str = "text"
    # Where the allowed values come from: not part of what makes two columns the same (a fresh
    # function each time the columns are made), so a new unit type does not reset the table.
    choices: Callable[[], list[str]] | None = field(default=None, compare=False)
    required: bool = False           # cannot be emptied
    strict: bool = False             # only the choices are allowed (a schema enum)

    def show(self, value) -> str:
        if value is MISSING or value is None:
            return ""
        if self.kind == "stacks" and isinstance(value, list):
            return stacks_text(value)
        if isinstance(value, list):
            return ", ".join(str(v) for v in value)
        if isinstance(value, bool):
            return "yes" if value else "no"
        if isinstance(value, float) and value.is_integer():
            return str(int(value))
        return str(value)

    def parse(self, text, current=MISSING):
        """The value to store for what the user typed (`current`: what the field holds now);
        MISSING to delete; ValueError if invalid."""
        if self.kind == "bool":
            return bool(text)
        if isinstance(text, str):
            text = text.strip()
        if text == "" or text is None:
            if self.required:
                raise ValueError(f"{self.header} cannot be empty")
            return MISSING
        if self.kind == "list":
            return [part.strip() for part in str(text).split(",") if part.strip()]
        if self.kind == "stacks":
            return parse_stacks(str(text), current if isinstance(current, list) else [])
        if self.kind in ("scalar", "number", "integer"):
            return resolve_plain(str(text)) if isinstance(text, str) else text
        return str(text)


def stacks_text(stacks: list) -> str:
    """Unit stacks as people write them: `3 infantry, 1 armour of germany`."""
    parts = []
    for stack in stacks:
        if isinstance(stack, dict):
            owner = f" of {stack['owner']}" if isinstance(stack.get("owner"), str) else ""
            parts.append(f"{stack.get('count', 1)} {stack.get('type', '?')}{owner}")
    return ", ".join(parts)


def parse_stacks(text: str, current: list) -> list[dict]:
    """`3 infantry, 1 armour of germany` -> unit stacks. A stack that stays (same type and owner)
    keeps the keys the text does not show (`aboard`, `face`, notes): nothing is lost by an edit."""
    before = {(s.get("type"), s.get("owner")): s for s in current if isinstance(s, dict)}
    stacks = []
    for part in (p.strip() for p in text.split(",")):
        if not part:
            continue
        words = part.split()
        count = 1
        if words and words[0].isdigit():
            count = int(words.pop(0))
        owner = None
        if len(words) >= 3 and words[-2] == "of":
            owner = words.pop()
            words.pop()
        if len(words) != 1 or count < 1:
            raise ValueError(f"write each stack as a count and a unit type ('3 infantry'), not {part!r}")
        stack = dict(before.get((words[0], owner), {}))
        stack.update({"type": words[0], "count": count})
        if owner:
            stack["owner"] = owner
        stacks.append(stack)
    return stacks


def dig(value, path: tuple):
    for step in path:
        if isinstance(value, dict) and step in value:
            value = value[step]
        else:
            return MISSING
    return value


class EntityTableModel(DocumentTableModel):
    added = Signal(object)   # the locator of an entity just added here (its view then chooses it)

    def __init__(self, document: ScenarioDocument, kind: str, collection: str,
                 columns: list[Column] | Callable[[], list[Column]],
                 parent_locator: Callable[[], tuple | None] | None = None, parent=None,
                 new_entity: Callable[[str], dict] | None = None, noun: str = "entry"):
        super().__init__(parent)
        self.document, self.kind, self.collection = document, kind, collection
        self._columns_source = columns
        self.parent_locator = parent_locator or (lambda: ())
        self.new_entity = new_entity
        self.noun = noun
        self._has_holder = False
        self._infos_of: object = None   # the rows the infos were worked out for
        self._row_infos: list[tuple] = []
        self.refresh()
        document.changed.connect(self._changed)
        document.reloaded.connect(self.refresh)
        document.problems_changed.connect(self._problems_changed)

    # -- data -------------------------------------------------------------------------------
    def _holder(self):
        locator = self.parent_locator()
        if locator is None:
            return None
        return self.document.find_merged(self.kind, locator)

    def collect(self) -> tuple[list, list]:
        columns = self._columns_source() if callable(self._columns_source) else self._columns_source
        holder = self._holder()
        items = holder.get(self.collection) if isinstance(holder, dict) else None
        self._has_holder = isinstance(holder, dict)
        return [i for i in items if isinstance(i, dict)] if isinstance(items, list) else [], columns

    def row_key(self, row) -> object:
        return identity(row)

    def wants_add_row(self) -> bool:
        return self.new_entity is not None and self._has_holder

    @property
    def has_add_row(self) -> bool:
        return self.add_row_shown

    def is_add_row(self, row: int) -> bool:
        return self.add_row_shown and row == len(self.rows)

    def _changed(self, kind: str) -> None:
        if kind == self.kind or kind == "scenario":
            self.refresh()

    def _problems_changed(self) -> None:
        if self.rows and self.columns:
            self.dataChanged.emit(self.index(0, 0), self.index(len(self.rows) - 1, len(self.columns) - 1),
                                  [BACKGROUND, TOOLTIP])

    def _infos(self) -> list[tuple]:
        """Per row: its locator, its pointer in the merged data, and (in a variant) its parent's
        and its own entry. Worked out once for each state of the rows, since painting asks for
        them cell by cell."""
        if self._infos_of is not self.rows:
            parent = tuple(self.parent_locator() or ())
            seen: dict = {}
            infos = []
            for entity in self.rows:
                ident = identity(entity)
                nth = seen.get(ident, 0)
                seen[ident] = nth + 1
                # Only mappings are rows, and only mappings have an identity: counting
                # duplicates among the rows counts them as in the file.
                locator = parent + (((self.collection, ident, nth) if nth else (self.collection, ident)),)
                pointer = self.document.pointer_of(self.kind, locator)
                if self.document.is_variant:
                    infos.append((locator, pointer, self.document.parent_entity(self.kind, locator),
                                  self.document.own_entity(self.kind, locator)))
                else:
                    infos.append((locator, pointer, None, entity))
            self._row_infos, self._infos_of = infos, self.rows
        return self._row_infos

    def locator(self, row: int) -> tuple:
        return self._infos()[row][0]

    def chosen(self, row: int) -> tuple | None:
        """The row's entity (its locator); None for the add row."""
        return self.locator(row) if 0 <= row < len(self.rows) else None

    def row_of(self, ident, occurrence: int = 0) -> int:
        for row, item in enumerate(self.rows):
            if identity(item) == ident:
                if occurrence == 0:
                    return row
                occurrence -= 1
        return -1

    def row_of_locator(self, locator: tuple) -> int:
        step = locator[-1]
        return self.row_of(step[1], step[2] if len(step) > 2 else 0)

    # -- variants -----------------------------------------------------------------------------
    def status(self, row: int, column: Column) -> str:
        """How a value stands in a variant: inherited, overridden, added (by the variant) or own."""
        if not self.document.is_variant:
            return "own"
        _, _, parent, own = self._infos()[row]
        if parent is None:
            return "added"
        if own is None or dig(own, column.path) is MISSING:
            return "inherited"
        return "overridden"

    def parent_value(self, row: int, column: Column):
        parent = self._infos()[row][2]
        return dig(parent, column.path) if parent is not None else MISSING

    def revert_value(self, index: QModelIndex) -> bool:
        """Give an overridden value back to the parent's (one undo step)."""
        if not index.isValid() or index.row() >= len(self.rows):
            return False
        column = self.columns[index.column()]
        if self.status(index.row(), column) != "overridden":
            return False
        return self.document.revert_field(self.kind, self.locator(index.row()), column.path)

    # -- problems -----------------------------------------------------------------------------
    def problems_at(self, row: int, column: Column) -> list:
        problems = self.document.problems
        pointer = self._infos()[row][1] if problems else None
        if pointer is None:
            return []
        return problems.get((self.kind, field_pointer(pointer, column.path)), [])

    # -- Qt model ---------------------------------------------------------------------------
    def rowCount(self, parent=QModelIndex()) -> int:
        return 0 if parent.isValid() else len(self.rows) + (1 if self.has_add_row else 0)

    def columnCount(self, parent=QModelIndex()) -> int:
        return 0 if parent.isValid() else len(self.columns)

    def headerData(self, section, orientation, role=DISPLAY):
        if role == DISPLAY and orientation == HORIZONTAL and 0 <= section < len(self.columns):
            return self.columns[section].header
        if role == DISPLAY and orientation == VERTICAL:
            return "+" if self.is_add_row(section) else section + 1
        return None

    def _name_column(self) -> int:
        for number, column in enumerate(self.columns):
            if column.path in (("name",), ("title",)):
                return number
        return 0

    def flags(self, index):
        if not index.isValid():
            return NO_FLAGS
        flags = CHOOSABLE
        if self.is_add_row(index.row()):
            return flags | EDITABLE if index.column() == self._name_column() else flags
        column = self.columns[index.column()]
        if column.kind == "bool":
            return flags | CHECKABLE
        if column.kind != "readonly" and identity(self.rows[index.row()]) is not None:
            flags |= EDITABLE
        return flags

    def data(self, index, role=DISPLAY):
        if not index.isValid() or index.row() >= self.rowCount():
            return None
        if self.is_add_row(index.row()):
            return self._add_row_data(index, role)
        column = self.columns[index.column()]
        value = dig(self.rows[index.row()], column.path)
        if role == CHECK_STATE and column.kind == "bool":
            return CHECKED if value is True else UNCHECKED
        if role == DISPLAY and column.kind != "bool":
            return column.show(value)
        if role == EDIT:
            return column.show(value)
        if role == CHOICES_ROLE and column.choices is not None:
            return column.choices()
        if role == STRICT_ROLE:
            return column.strict
        if role == LOCATOR_ROLE:
            return self.locator(index.row())
        if role == STATUS_ROLE:
            return self.status(index.row(), column)
        if role == ALIGNMENT and column.kind in ("number", "integer"):
            return RIGHT_ALIGNED
        if role in (FOREGROUND, FONT, BACKGROUND, TOOLTIP):
            return self._decoration(index, column, role)
        return None

    def _decoration(self, index, column: Column, role):
        problems = self.problems_at(index.row(), column)
        refusal = self.refusals.get((index.row(), index.column()))
        if role == BACKGROUND and (problems or refusal):
            return QBrush(PROBLEM_BACKGROUND)
        status = self.status(index.row(), column) if self.document.is_variant else "own"
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
            lines = [refusal] if refusal else []
            lines += [f"{p.code}: {p.message}" for p in problems]
            if status == "inherited":
                lines.append("inherited from the parent scenario")
            elif status == "overridden":
                parent = column.show(self.parent_value(index.row(), column)) or "(none)"
                lines.append(f"overrides the parent's value: {parent} — right-click to revert")
            elif status == "added":
                lines.append("added by this variant")
            return "\n".join(lines) or None
        return None

    def _add_row_data(self, index, role):
        if index.column() != self._name_column():
            return None
        if role == DISPLAY:
            return f"+ new {self.noun} (type its name)"
        if role == EDIT:
            return ""
        if role == FOREGROUND:
            return QBrush(ADD_ROW_COLOUR)
        if role == FONT:
            font = QFont()
            font.setItalic(True)
            return font
        if role == TOOLTIP:
            return f"Type a name here to add a {self.noun}; its id is made from the name."
        return None

    def setData(self, index, value, role=EDIT) -> bool:
        if not index.isValid() or not (self.flags(index) & (EDITABLE | CHECKABLE)):
            return False
        with self.committing():
            if self.is_add_row(index.row()):
                return role == EDIT and self.add(str(value))
            return self._set(index, value, role)

    def _set(self, index, value, role) -> bool:
        column = self.columns[index.column()]
        if role == CHECK_STATE and column.kind == "bool":
            value = Qt.CheckState(value) == CHECKED if not isinstance(value, bool) else value
        elif role != EDIT:
            return False
        current = dig(self.rows[index.row()], column.path)
        try:
            parsed = column.parse(value, current)
        except ValueError as problem:
            return self.refuse(index, str(problem))
        if column.kind == "id":
            return self._rename(index, current, parsed)
        if parsed == current or (parsed is MISSING and current is MISSING):
            return False
        locator = self.locator(index.row())
        problems = new_problems(self.document, self.kind, locator, column.path, parsed, current)
        if problems:
            return self.refuse(index, explanation(problems))
        self.accepted(index)
        self.document.set_field(self.kind, locator, column.path, parsed,
                                f"Set {column.header.lower()} of {_name(self.rows[index.row()])}")
        if column.choices is not None and parsed is not MISSING:
            self._notice_unlisted(column, parsed)
        return True

    def _rename(self, index, old, new) -> bool:
        """A new id, and every reference to the old one changed with it (one undo step). Done once
        the cell's editor has closed: the row takes its new identity, which moves it."""
        from ..rename import rename, why_not
        if new == old or not isinstance(old, str) or not isinstance(new, str):
            return False
        problem = why_not(self.document, self.kind, self.collection, old, new)
        if problem:
            return self.refuse(index, problem)
        self.accepted(index)

        def later() -> None:
            try:
                count = rename(self.document, self.kind, self.collection, old, new)
            except ValueError as problem:   # the scenario changed in the meantime
                self.refused.emit(f"{old}: {problem}")
                return
            self.noticed.emit(f"Renamed {old} to {new}: {count} reference(s) changed with it")
        QTimer.singleShot(0, self, later)
        return True

    def _notice_unlisted(self, column: Column, value) -> None:
        if column.choices is None:
            return
        message = unlisted(value, column.choices())
        if message:
            self.noticed.emit(f"{column.header}: {message}")

    # -- adding and removing ------------------------------------------------------------------
    def suggest_id(self, name: str) -> str:
        """An id from the name, made unique among the collection's ids."""
        return unique_id(slug(name) or self.noun.replace(" ", "-"), {
            item.get("id") for item in self.rows})

    def add(self, name: str) -> bool:
        """Add an entity called `name` (one undo step); its id comes from the name."""
        name = name.strip()
        if not name or self.new_entity is None or not self.has_add_row:
            return False
        entity = self.new_entity(name)
        entity.setdefault("id", self.suggest_id(name))
        entity = {"id": entity.pop("id"), **entity}
        self.document.add_entity(self.kind, tuple(self.parent_locator() or ()), self.collection, entity,
                                 f"Add {self.noun} {entity['id']}")
        self.last_added = entity["id"]
        self.added.emit(tuple(self.parent_locator() or ()) + ((self.collection, ("id", entity["id"])),))
        return True

    def remove(self, row: int) -> bool:
        """Remove the entity of this row (not another with the same id): one undo step."""
        if not 0 <= row < len(self.rows):
            return False
        self.document.remove_entity(self.kind, self.locator(row),
                                    f"Remove {self.noun} {_name(self.rows[row])}")
        return True


def _name(entity: dict) -> str:
    key = identity(entity)
    if key is None:
        return "entry"
    return " – ".join(key[1]) if isinstance(key[1], tuple) else key[1]
