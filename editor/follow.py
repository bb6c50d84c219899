"""Panels that follow the scenario lazily: rebuilt when they are seen, not after every edit."""
from __future__ import annotations


class FollowsDocument:
    """Mixed into a QWidget panel with a `reload()` that clears `_stale`: an edit to one of the
    `watched` file kinds marks the panel stale and rebuilds it only if it is visible (rebuilding
    hidden pickers after every edit elsewhere would cost each edit their time); showing a stale
    panel rebuilds it first."""

    watched: tuple[str, ...] = ()
    _stale: bool

    def follow(self, document, lazy: bool) -> None:
        self._stale = lazy
        document.changed.connect(self._changed)
        document.reloaded.connect(self.reload)
        if not lazy:
            self.reload()

    def reload(self) -> None:
        raise NotImplementedError

    def _changed(self, kind: str) -> None:
        if kind in self.watched:
            self._stale = True
            if self.isVisible():  # type: ignore[attr-defined]
                self.reload()

    def showEvent(self, event) -> None:
        if self._stale:
            self.reload()
        super().showEvent(event)  # type: ignore[misc]
