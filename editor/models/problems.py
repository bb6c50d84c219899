"""The problems list: one row per diagnostic, errors first, and first of those the problems
that kept data from being read."""
from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QAbstractTableModel, QModelIndex
from PySide6.QtWidgets import QApplication, QStyle

from sandtable.diagnostics import Diagnostic, Severity

from ..roles import DECORATION, DISPLAY, HORIZONTAL, TOOLTIP

HEADERS = ("Severity", "Code", "Message", "Where")
# Problems that kept a file or the scenario a variant extends from being read: every other
# problem may follow from them (a variant without its parent misses hundreds of required
# keys), so they head the list.
UNREAD = frozenset({"VAR001", "VAR002", "VAR004", "PATH001"})
_ICONS = {Severity.ERROR: QStyle.StandardPixmap.SP_MessageBoxCritical,
          Severity.WARNING: QStyle.StandardPixmap.SP_MessageBoxWarning,
          Severity.INFO: QStyle.StandardPixmap.SP_MessageBoxInformation}


def where(diagnostic: Diagnostic, root: Path | None) -> str:
    """`map.yaml:12:5`, or `map.yaml /borders/3` while the file's lines are not known yet."""
    file = diagnostic.file
    if file is None:
        name = ""
    else:
        name = Path(file).as_posix()
        for base in ((root, root.parent) if root else ()):  # its own file, or a parent scenario's
            try:
                name = Path(file).relative_to(base).as_posix()
                break
            except ValueError:
                continue
    if diagnostic.line:
        return f"{name}:{diagnostic.line}:{diagnostic.column}"
    return f"{name} {diagnostic.pointer}".strip()


class ProblemsModel(QAbstractTableModel):
    def __init__(self, parent=None):
        super().__init__(parent)
        self.diagnostics: list[Diagnostic] = []
        self.places: list[str] = []
        self.root: Path | None = None
        # Drawn once here: the style renders them on first use, which would stall the UI the
        # moment the first problem appears.
        self.icons = {}
        if QApplication.instance() is not None:
            style = QApplication.style()
            self.icons = {severity: style.standardIcon(kind).pixmap(16, 16)
                          for severity, kind in _ICONS.items()}

    def set_diagnostics(self, diagnostics: list[Diagnostic], root: Path | None = None) -> None:
        self.beginResetModel()
        self.root = root
        self.diagnostics = sorted(diagnostics, key=lambda d: (d.severity.rank, d.code not in UNREAD)
                                  + d.sort_key())
        self.places = [where(d, root) for d in self.diagnostics]
        self.endResetModel()

    def counts(self) -> dict[str, int]:
        counts = {s.value: 0 for s in Severity}
        for diagnostic in self.diagnostics:
            counts[diagnostic.severity.value] += 1
        return counts

    def rowCount(self, parent=QModelIndex()) -> int:
        return 0 if parent.isValid() else len(self.diagnostics)

    def columnCount(self, parent=QModelIndex()) -> int:
        return 0 if parent.isValid() else len(HEADERS)

    def headerData(self, section, orientation, role=DISPLAY):
        if role == DISPLAY and orientation == HORIZONTAL and section < len(HEADERS):
            return HEADERS[section]
        return None

    def data(self, index, role=DISPLAY):
        if not index.isValid() or index.row() >= len(self.diagnostics):
            return None
        diagnostic = self.diagnostics[index.row()]
        column = index.column()
        if role == DISPLAY:
            return (diagnostic.severity.value, diagnostic.code, diagnostic.message,
                    self.places[index.row()])[column]
        if role == TOOLTIP:
            return diagnostic.hint or diagnostic.message
        if role == DECORATION and column == 0:
            return self.icons.get(diagnostic.severity)
        return None
