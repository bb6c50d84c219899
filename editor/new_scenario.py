"""File > New: where the scenario goes, what it is called, and the game system whose rules it is
for (which decides its unit stats, its rules' parameters and whether the engine can play it)."""
from __future__ import annotations

from pathlib import Path

from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFileDialog,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QWidget,
)

from sandtable.scenario import FILE_KINDS
from sandtable.schemas import root_node

from .document import scenario_files_in
from .ids import slug

SYSTEM_NAMES = {
    "aa50": "Axis & Allies 50th Anniversary (aa50)",
    "gj69": "GJ69 Southern Operation 1941 (gj69)",
    "war-at-sea": "War at Sea (war-at-sea)",
    "allies-vs-axis": "Allies vs. Axis (allies-vs-axis)",
    "ocs": "Operational Combat Series (ocs)",
    "triplea": "TripleA rule family (triplea)",
    "generic": "No rules of its own (generic)",
}


def systems() -> list[str]:
    """The game systems the format knows (scenario.schema.json's `system`)."""
    return [str(s) for s in root_node("scenario").child("system").schema.get("enum", [])]


def manifest(folder: Path, name: str, system: str) -> dict:
    """A new scenario's scenario.yaml: an id from the name (or the folder), the name, the system."""
    ident = slug(name) or slug(folder.name) or "scenario"
    return {"id": ident, "name": name.strip() or folder.name, "system": system}


class NewScenarioDialog(QDialog):
    def __init__(self, parent=None, folder: Path | None = None):
        super().__init__(parent)
        self.setWindowTitle("New scenario")
        self.folder = QLineEdit(str(folder) if folder else "")
        self.folder.setPlaceholderText("an empty folder (made if it does not exist)")
        browse = QPushButton("Browse…")
        browse.clicked.connect(self._browse)
        where = QHBoxLayout()
        where.addWidget(self.folder, 1)
        where.addWidget(browse)
        self.name = QLineEdit()
        self.name.setPlaceholderText("e.g. Northern Front, 1941")
        self.system = QComboBox()
        for system in systems():
            self.system.addItem(SYSTEM_NAMES.get(system, system), system)
        self.system.setCurrentIndex(max(self.system.findData("aa50"), 0))
        self.problem = QLabel("")
        self.problem.setStyleSheet("color: #b3261e")
        self.problem.setWordWrap(True)
        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel)
        self.buttons.button(QDialogButtonBox.StandardButton.Ok).setText("Create")
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)
        form = QFormLayout(self)
        host = QWidget()
        host.setLayout(where)
        form.addRow("Folder", host)
        form.addRow("Name", self.name)
        form.addRow("Game system", self.system)
        form.addRow(self.problem)
        form.addRow(self.buttons)
        self.folder.textChanged.connect(self._check)
        self._check()

    def _browse(self) -> None:
        chosen = QFileDialog.getExistingDirectory(self, "Folder for the new scenario", self.folder.text())
        if chosen:
            self.folder.setText(chosen)

    def chosen_folder(self) -> Path | None:
        text = self.folder.text().strip()
        return Path(text) if text else None

    def chosen_system(self) -> str:
        return str(self.system.currentData())

    def _check(self) -> None:
        folder = self.chosen_folder()
        problem = ""
        if folder is None:
            problem = "Choose a folder."
        elif folder.exists() and not folder.is_dir():
            problem = f"{folder} is a file."
        elif (folder / FILE_KINDS["scenario"]).exists() or scenario_files_in(folder):
            problem = f"{folder} already holds a scenario: open it, or choose another folder."
        self.problem.setText(problem)
        self.buttons.button(QDialogButtonBox.StandardButton.Ok).setEnabled(not problem)
