"""What the translation could not carry over, reported once per kind.

A large game repeats the same untranslated construct hundreds of times (a trigger on every
territory, the same unit option on forty unit types). Each kind is reported once, at its first
place in the file, with how many more there are, so that nothing is dropped without a word and
the report stays readable.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from ..diagnostics import Diagnostic, Severity
from ..safexml import Element, XmlDocument


@dataclass
class _Entry:
    diagnostic: Diagnostic
    more: int = 0
    examples: list[str] = field(default_factory=list)


class Report:
    def __init__(self, document: XmlDocument):
        self.document = document
        self.diagnostics: list[Diagnostic] = []
        self._grouped: dict[tuple, _Entry] = {}

    def add(self, code: str, severity: Severity, message: str, element: Element | None,
            hint: str | None = None) -> None:
        where = self.document.where(element) if element is not None else None
        self.diagnostics.append(Diagnostic.at(code, severity, message, where, hint))

    def info(self, code: str, message: str, element: Element | None, hint: str | None = None) -> None:
        self.add(code, Severity.INFO, message, element, hint)

    def warning(self, code: str, message: str, element: Element | None, hint: str | None = None) -> None:
        self.add(code, Severity.WARNING, message, element, hint)

    def error(self, code: str, message: str, element: Element | None, hint: str | None = None) -> None:
        self.add(code, Severity.ERROR, message, element, hint)

    def once(self, key: tuple, code: str, severity: Severity, message: str, element: Element | None,
             example: str | None = None, hint: str | None = None) -> None:
        """Report the first of a kind (`key`); later ones of that kind only count."""
        entry = self._grouped.get(key)
        if entry is None:
            where = self.document.where(element) if element is not None else None
            entry = _Entry(Diagnostic.at(code, severity, message, where, hint))
            self._grouped[key] = entry
            self.diagnostics.append(entry.diagnostic)
        else:
            entry.more += 1
        if example and example not in entry.examples and len(entry.examples) < 4:
            entry.examples.append(example)

    def finish(self) -> list[Diagnostic]:
        """The diagnostics, each grouped one saying how many more of its kind there were."""
        for entry in self._grouped.values():
            if entry.more:
                others = [e for e in entry.examples[1:]]
                shown = f" ({', '.join(others)}{', ...' if entry.more > len(others) else ''})" if others else ""
                entry.diagnostic.message += f"; {entry.more} more like it{shown}"
        return self.diagnostics
