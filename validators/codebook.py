"""What each diagnostic code means and how to fix it, as docs/diagnostics.md says.

The documentation page is the one place a code is explained; tools that want the explanation with
the result (SARIF rules for code scanning) read it from there, so the two cannot disagree.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from sandtable.resources import shared_path

PAGE = ("docs", "diagnostics.md")
_ROW = re.compile(r"^\|\s*`([A-Z]{2,4}[0-9]{3})`\s*\|")


@dataclass(frozen=True)
class CodeText:
    code: str
    meaning: str
    fix: str | None
    section: str  # the heading the code is listed under
    anchor: str  # that heading's anchor on the rendered page


def heading_anchor(heading: str) -> str:
    """The anchor GitHub (and most Markdown renderers) give a heading: lower case, dashes."""
    kept = "".join(ch for ch in heading.strip().lower() if ch.isalnum() or ch in " -_")
    return kept.replace(" ", "-")


def parse_codebook(markdown: str) -> dict[str, CodeText]:
    """Every code in the page's tables, with its row's columns named by the table's header."""
    found: dict[str, CodeText] = {}
    section = ""
    columns: list[str] = []
    for line in markdown.splitlines():
        if line.startswith("## "):
            section, columns = line[3:].strip(), []
        elif line.startswith("| code "):
            columns = [cell.strip() for cell in line.strip().strip("|").split("|")]
        elif columns and (match := _ROW.match(line)):
            cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
            row = dict(zip(columns, cells, strict=False))  # a short row keeps what it has
            code = match.group(1)
            found[code] = CodeText(code, row.get("what it means", ""), row.get("how to fix it"),
                                   section, heading_anchor(section))
    return found


@lru_cache(maxsize=1)
def codebook() -> dict[str, CodeText]:
    """The codes of the shipped documentation page; empty if the page is not installed."""
    page = shared_path(*PAGE)
    return parse_codebook(page.read_text(encoding="utf-8")) if page else {}


def plain(markdown: str) -> str:
    """Table-cell Markdown as plain text: code spans lose their backticks."""
    return markdown.replace("`", "")
