"""Waiting for something while the event loop runs (for scripts, benchmarks and tests).

This runs a nested QEventLoop rather than calling processEvents() in a loop, so the wait sleeps
between events instead of spinning.
"""
from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QEventLoop, QTimer


def run_until(condition: Callable[[], bool], timeout_ms: int = 10_000, poll_ms: int = 1) -> bool:
    """Run the event loop until `condition()` holds or the time is up; returns `condition()`."""
    if condition():
        return True
    loop = QEventLoop()
    check = QTimer(interval=poll_ms)
    check.timeout.connect(lambda: loop.quit() if condition() else None)
    give_up = QTimer(singleShot=True, interval=timeout_ms)
    give_up.timeout.connect(loop.quit)
    check.start()
    give_up.start()
    loop.exec()
    check.stop()
    give_up.stop()
    return condition()
