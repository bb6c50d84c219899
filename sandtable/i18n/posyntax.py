"""The syntax of a PO file, checked before polib reads it.

polib is lenient: it reads an unterminated string, an escape it does not know (kept as a
backslash and a letter), a NUL byte or a file in another charset without a word, and the text
that reaches the scenario is not the one the translator wrote. Each of these is refused here at
its line and column (I18N011), as a malformed YAML or XML file is.
"""
from __future__ import annotations

import codecs
import re
from pathlib import Path

from ..diagnostics import Diagnostic, Location, error

_KEYWORD = re.compile(r"(msgctxt|msgid_plural|msgid|msgstr(?:\[[0-9]+\])?)(?=[ \t\"])")
_CHARSET = re.compile(r"charset=([^\s;\\\"]+)", re.IGNORECASE)
# The escapes polib turns into characters; any other is kept as written, backslash and all.
_KNOWN_ESCAPES = set('\\"ntr')


def check_po(raw: bytes, path: Path) -> list[Diagnostic]:
    """The syntax problems of a PO file (the first of each kind that stops reading)."""
    if b"\0" in raw:
        return [_at(raw, raw.index(b"\0"), path, "the file holds a NUL byte; a PO file is text")]
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as problem:
        return [_at(raw, problem.start, path, f"byte 0x{raw[problem.start]:02x} is not UTF-8; "
                    "save the file as UTF-8")]
    problems = []
    for number, line in enumerate(text.split("\n"), start=1):
        wrong = _line_problem(line.rstrip("\r"))
        if wrong:
            column, message = wrong
            problems.append(error("I18N011", f"malformed PO file: {message}",
                                  Location(path, number, column)))
    found = _CHARSET.search(text)
    if found and not _is_utf8(found.group(1)):
        at = found.start()
        place = Location(path, text.count("\n", 0, at) + 1, at - (text.rfind("\n", 0, at) + 1) + 1)
        problems.append(error(
            "I18N011", f"the file says its charset is {found.group(1)}; PO files are read as "
            "UTF-8", place,
            hint="save the file as UTF-8 and set charset=UTF-8 in its Content-Type header"))
    return problems


def _is_utf8(name: str) -> bool:
    if name.upper() == "CHARSET":  # the placeholder of a template, never filled in
        return True
    try:
        return codecs.lookup(name).name == "utf-8"
    except LookupError:
        return False


def _line_problem(line: str) -> tuple[int, str] | None:
    """(column, message) of what is wrong with one line, or None."""
    stripped = line.lstrip(" \t")
    indent = len(line) - len(stripped)
    if not stripped or stripped.startswith("#"):
        return None
    keyword = _KEYWORD.match(stripped)
    rest_at = indent + (keyword.end() if keyword else 0)
    rest = line[rest_at:]
    start = rest_at + len(rest) - len(rest.lstrip(" \t"))
    if start >= len(line) or line[start] != '"':
        what = f"after {keyword.group(1)}" if keyword else "here"
        return start + 1, f"a quoted string was expected {what}"
    return _string_problem(line, start)


def _string_problem(line: str, start: int) -> tuple[int, str] | None:
    at = start + 1
    while at < len(line):
        ch = line[at]
        if ch == "\\":
            if at + 1 >= len(line):
                break
            if line[at + 1] not in _KNOWN_ESCAPES:
                return at + 1, (f"the escape \\{line[at + 1]} is not one PO editors write; "
                                "write the character itself")
            at += 2
            continue
        if ch == '"':
            if line[at + 1:].strip():
                return at + 2, "nothing may follow the closing quote on its line"
            return None
        at += 1
    return start + 1, "the string is not closed: a line ends before its closing quote"


def _at(raw: bytes, index: int, path: Path, message: str) -> Diagnostic:
    before = raw[:index]
    line = before.count(b"\n") + 1
    column = len(before[before.rfind(b"\n") + 1:].decode("utf-8", "replace")) + 1
    return error("I18N011", f"malformed PO file: {message}", Location(path, line, column))
