"""Shared test setup: Qt runs without a display; editor windows and a workshop to open in them."""
import os
import shutil
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
import sys  # noqa: E402

import pytest  # noqa: E402

# A small scenario with something of every kind for the editor's tests to change.
WORKSHOP = Path(__file__).resolve().parent / "fixtures" / "editor" / "workshop"
# The offscreen platform says this of every window it shows; it is no fault of the editor.
PLATFORM_NOISE = ("This plugin does not support propagateSizeHints()",)


def _refuse(*args, **kwargs):
    raise AssertionError(f"unexpected message box: {args[2] if len(args) > 2 else args}")


@pytest.fixture(autouse=True)
def no_waiting_message_boxes(monkeypatch):
    """A modal message box in a test would wait for a click that never comes: it fails the test
    instead. A test that expects one answers it with a monkeypatch of its own. (Qt is only touched
    when a test module already imported it.)"""
    widgets = sys.modules.get("PySide6.QtWidgets")
    if widgets is not None:
        for name in ("question", "critical", "warning", "information", "about"):
            monkeypatch.setattr(widgets.QMessageBox, name, _refuse)
    yield


@pytest.fixture
def workshop(tmp_path) -> Path:
    """A copy of the workshop scenario, tmp_path/workshop, to change at will."""
    copy = tmp_path / "workshop"
    shutil.copytree(WORKSHOP, copy)
    return copy


@pytest.fixture
def open_editor(qtbot, tmp_path):
    """`open_editor(folder=None, size=None)`: a new editor window (tests/editor_windows.py),
    resized to `size` if given, shown and exposed, with `folder` opened if given. Every window
    it opened is closed after the test."""
    from editor_windows import close_window, new_window  # Qt only for the tests that ask
    opened = []

    def open_window(folder: Path | None = None, size: tuple[int, int] | None = None):
        main = new_window(tmp_path)
        opened.append(main)
        if size is not None:
            main.resize(*size)
        main.show()
        qtbot.waitExposed(main)
        if folder is not None:
            main.open_folder(folder)
        return main
    yield open_window
    for main in opened:
        close_window(main)


@pytest.fixture
def qt_warnings():
    """The messages Qt logs during the test (but debug ones and the platform's noise): a test
    asserts there are none."""
    from PySide6.QtCore import QtMsgType, qInstallMessageHandler
    found: list[str] = []

    def handler(kind, context, message):
        if kind != QtMsgType.QtDebugMsg and message not in PLATFORM_NOISE:
            found.append(message)
    previous = qInstallMessageHandler(handler)
    yield found
    qInstallMessageHandler(previous)
