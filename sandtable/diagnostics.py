"""Diagnostics: what every check reports, with the place in the source it concerns."""
from __future__ import annotations

import os
from dataclasses import asdict, dataclass, field
from enum import Enum
from pathlib import Path

from .safetext import visible, visible_line


class Severity(str, Enum):
    ERROR = "error"
    WARNING = "warning"
    INFO = "info"

    @property
    def rank(self) -> int:
        return {"error": 0, "warning": 1, "info": 2}[self.value]


@dataclass(frozen=True)
class Location:
    """A place in a source file. Lines and columns count from 1; 0 means unknown."""

    file: Path | None = None
    line: int = 0
    column: int = 0
    pointer: str = ""


@dataclass
class Diagnostic:
    code: str
    severity: Severity
    message: str
    file: Path | None = None
    line: int = 0
    column: int = 0
    pointer: str = ""
    hint: str | None = None
    related: list[Location] = field(default_factory=list)

    def __post_init__(self) -> None:
        # Messages quote data (names, values, file names): shown, never obeyed, by a terminal,
        # and always valid in JSON and XML (see safetext.py).
        self.message = visible(self.message)
        if self.hint:
            self.hint = visible(self.hint)

    @classmethod
    def at(cls, code: str, severity: Severity, message: str, where: Location | None,
           hint: str | None = None, related: list[Location] | None = None) -> Diagnostic:
        where = where or Location()
        return cls(code, severity, message, where.file, where.line, where.column,
                   where.pointer, hint, list(related or []))

    @property
    def is_error(self) -> bool:
        return self.severity is Severity.ERROR

    def sort_key(self):
        return (str(self.file or ""), self.line, self.column, self.code, self.message)

    def as_dict(self) -> dict:
        data = asdict(self)
        data["severity"] = self.severity.value
        data["file"] = visible_line(str(self.file)) if self.file else None
        data["related"] = [
            {"file": visible_line(str(r.file)) if r.file else None, "line": r.line, "column": r.column,
             "pointer": r.pointer} for r in self.related]
        if not self.hint:
            data.pop("hint")
        if not self.related:
            data.pop("related")
        return data


def error(code: str, message: str, where: Location | None = None, hint: str | None = None,
          related: list[Location] | None = None) -> Diagnostic:
    return Diagnostic.at(code, Severity.ERROR, message, where, hint, related)


def warning(code: str, message: str, where: Location | None = None, hint: str | None = None,
            related: list[Location] | None = None) -> Diagnostic:
    return Diagnostic.at(code, Severity.WARNING, message, where, hint, related)


def info(code: str, message: str, where: Location | None = None, hint: str | None = None,
         related: list[Location] | None = None) -> Diagnostic:
    return Diagnostic.at(code, Severity.INFO, message, where, hint, related)


def shown_path(path: Path | str | None) -> str:
    """A path as a person wants to read it: relative to the working folder where possible, with
    any character a terminal would obey (or a byte that is not UTF-8) written as an escape."""
    if path is None:
        return "<unknown>"
    try:
        return visible_line(os.path.relpath(path))
    except ValueError:
        return visible_line(str(path))


def one_line(d: Diagnostic) -> str:
    """`file:line:column: severity CODE: message`, the form editors and terminals link from."""
    place = shown_path(d.file) + (f":{d.line}:{d.column}" if d.line else "")
    return f"{place}: {d.severity.value} {d.code}: {d.message}"
