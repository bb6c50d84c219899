"""Editor windows for the tests: each with settings of its own in the test's folder, closed
without the unsaved-work question. The fixtures that use these are in tests/conftest.py."""
from __future__ import annotations

import gc
from pathlib import Path

from PySide6.QtCore import QSettings

from editor.main_window import MainWindow


def new_window(tmp_path: Path) -> MainWindow:
    """A window whose settings (recent folders, layout) live in tmp_path/editor.ini."""
    return MainWindow(QSettings(str(tmp_path / "editor.ini"), QSettings.IniFormat))


def close_window(main: MainWindow) -> None:
    main.confirm_discard = lambda: True
    main.close()
    main.deleteLater()
    gc.collect()  # free Qt objects here, on the GUI thread
