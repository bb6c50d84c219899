"""Shared test setup: Qt runs without a display."""
import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
import sys  # noqa: E402

import pytest  # noqa: E402


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
