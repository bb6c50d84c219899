"""A guard against a reference-count bug of PySide6 6.12 on Python 3.11.

There, every call of a Qt method that returns nothing (QPainter.drawLine, setPen, ...) and every
QCoreApplication.processEvents() gives back one reference to None more than it took. None's count
falls by one per call, and when it reaches zero Python stops with "deallocating None": a map
canvas makes thousands of such calls per repaint, so the editor would die within minutes.

From Python 3.12, None is immortal and the bug is harmless. Before that, the guard probes for the
bug and, if it is there, gives None enough references that no session can use them up (the same
thing Python 3.12 does by design).
"""
from __future__ import annotations

import ctypes
import sys

RESERVE = 1 << 48   # references given to None: centuries of calls at any rate the editor reaches
PROBE_CALLS = 64


def leaks_none() -> bool:
    """Whether Qt calls that return nothing drop references to None in this build."""
    from PySide6.QtCore import QPointF
    point = QPointF(0, 0)
    before = sys.getrefcount(None)
    for _ in range(PROBE_CALLS):
        point.setX(0.0)
    return sys.getrefcount(None) - before <= -PROBE_CALLS // 2


def guard_none() -> bool:
    """Protect None from the bug if this build has it; True when the guard was applied."""
    if sys.version_info >= (3, 12) or hasattr(sys, "gettotalrefcount") or not leaks_none():
        return False
    # ob_refcnt is the first field of every object in a release build of CPython.
    ctypes.c_ssize_t.from_address(id(None)).value += RESERVE
    return True
