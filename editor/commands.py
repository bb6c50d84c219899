"""Undo commands: the only way the document's data changes.

Three primitives cover every edit: set (or delete) a value, insert a list item, remove one.
Views build their edits from these, grouped into macros where one gesture changes several values.
"""
from __future__ import annotations

import copy
import weakref

from PySide6.QtGui import QUndoCommand


class _Missing:
    def __repr__(self) -> str:
        return "MISSING"

    def __copy__(self):
        return self

    def __deepcopy__(self, memo):
        return self  # one marker, whatever is copied


MISSING = _Missing()  # the value of a key that is not there


class _DocumentCommand(QUndoCommand):
    """A command on the document, which it reaches through a weak reference.

    The document owns the undo stack, and the stack owns its commands in C++. A strong reference
    back from command to document would make a cycle of Qt wrappers; when the garbage collector
    breaks such a cycle it may free a command before the stack that still owns it, and the
    stack's destructor then crashes.
    """

    def __init__(self, document, text: str):
        super().__init__(text)
        self.document = weakref.proxy(document)


class SetValue(_DocumentCommand):
    def __init__(self, document, kind: str, path: tuple, value, text: str):
        super().__init__(document, text)
        self.kind, self.path = kind, path
        self.value = copy.deepcopy(value)
        self.old = MISSING

    def redo(self) -> None:
        self.old = self.document._replace(self.kind, self.path, copy.deepcopy(self.value))

    def undo(self) -> None:
        self.document._replace(self.kind, self.path, self.old)


class InsertItem(_DocumentCommand):
    def __init__(self, document, kind: str, path: tuple, index: int, item, text: str):
        super().__init__(document, text)
        self.kind, self.path, self.index = kind, path, index
        self.item = copy.deepcopy(item)

    def redo(self) -> None:
        self.document._insert(self.kind, self.path, self.index, copy.deepcopy(self.item))

    def undo(self) -> None:
        self.document._remove(self.kind, self.path, self.index)


class RemoveItem(_DocumentCommand):
    def __init__(self, document, kind: str, path: tuple, index: int, text: str):
        super().__init__(document, text)
        self.kind, self.path, self.index = kind, path, index
        self.item = None

    def redo(self) -> None:
        self.item = self.document._remove(self.kind, self.path, self.index)

    def undo(self) -> None:
        self.document._insert(self.kind, self.path, self.index, self.item)


class SetFileRemoved(_DocumentCommand):
    """Take a file of the scenario out (it is deleted at the next save), or bring it back."""

    def __init__(self, document, kind: str, removed: bool, text: str):
        super().__init__(document, text)
        self.kind, self.removed = kind, removed

    def redo(self) -> None:
        self.document._set_removed(self.kind, self.removed)

    def undo(self) -> None:
        self.document._set_removed(self.kind, not self.removed)
