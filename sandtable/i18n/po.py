"""Gettext PO files for translators (Poedit, Weblate, Crowdin), written and read with polib.

An entry is one text: msgctxt is its stable key, msgid the source text, msgstr the translation.
A stale translation is exported `#, fuzzy` with the source it was made from as `#| msgctxt` and
`#| msgid`, the way msgmerge marks an entry whose source moved on. `#.` says where the text
appears. The header has every field GNU gettext expects (`msgfmt -c` is silent).
"""
from __future__ import annotations

import os
import re
from datetime import UTC, datetime
from pathlib import Path

import polib

from .. import __version__
from ..diagnostics import Location, error
from ..scenario import Scenario
from ..texts import placeholders
from .exchange import ExchangeError, Incoming
from .model import State, describe, source_language, translation_units, where_written
from .posyntax import check_po
from .tags import gettext_language, language_name, plural_forms, tag_from_gettext

MAX_FILE_BYTES = 16 * 1024 * 1024


def export_po(scenario: Scenario, tag: str) -> str:
    po = polib.POFile()
    po.header = f"Texts of the scenario {scenario.id}, for translation into {tag}."
    now = export_time()
    po.metadata = {
        "Project-Id-Version": scenario.id,
        "Report-Msgid-Bugs-To": "",
        "POT-Creation-Date": now,
        "PO-Revision-Date": now,
        "Last-Translator": "",
        # Babel's CLDR name, unpinned: a label for people that no tool acts on, and stable (one of
        # 1,043 names changed from Babel 2.16 to 2.19). Plural-Forms, which PO editors act on, is
        # pinned (plural_forms.py).
        "Language-Team": language_name(tag),
        "Language": gettext_language(tag),
        "MIME-Version": "1.0",
        "Content-Type": "text/plain; charset=UTF-8",
        "Content-Transfer-Encoding": "8bit",
        "X-Generator": f"sandtable {__version__}",
        "X-Source-Language": gettext_language(source_language(scenario)),
    }
    rule = plural_forms(tag)
    if rule:
        po.metadata["Plural-Forms"] = rule
    for unit in translation_units(scenario, tag):
        if unit.state is State.UNKNOWN:
            continue  # nothing to translate; `i18n status` and `validate` report these
        flags = ["fuzzy"] if unit.state is State.STALE or unit.needs_review else []
        if placeholders(unit.source or ""):
            flags.append("python-brace-format")  # lets Poedit and msgfmt check placeholders
        place = where_written(scenario, unit)
        po.append(polib.POEntry(
            msgctxt=unit.key, msgid=unit.source, msgstr=unit.translation or "",
            comment=f"{place[0]}:{place[1]}: {describe(unit.key)}" if place else describe(unit.key),
            occurrences=[place] if place else [], tcomment=unit.note or "", flags=flags,
            previous_msgctxt=unit.key if unit.previous_source is not None else None,
            previous_msgid=unit.previous_source))
    return str(po)


def export_time() -> str:
    """Now, as PO headers write it; SOURCE_DATE_EPOCH fixes it for reproducible files."""
    epoch = os.environ.get("SOURCE_DATE_EPOCH", "")
    moment = datetime.fromtimestamp(int(epoch), UTC) if epoch.isdigit() else datetime.now(UTC)
    return moment.strftime("%Y-%m-%d %H:%M+0000")


def read_po(path: Path) -> tuple[str | None, list[Incoming]]:
    """The locale the file declares (its `Language:`) and its entries."""
    try:
        if path.stat().st_size > MAX_FILE_BYTES:
            raise ExchangeError(f"{path}: the file is over the limit of {MAX_FILE_BYTES:,} bytes")
        raw = path.read_bytes()
    except OSError as problem:
        raise ExchangeError(f"{path}: {problem.strerror or problem}") from None
    problems = check_po(raw, path)
    if problems:
        raise ExchangeError(f"{path}: malformed PO file", problems)
    try:
        lines = raw.decode("utf-8-sig").split("\n")
        po = polib.pofile(str(path), wrapwidth=0, encoding="utf-8")
    except (OSError, UnicodeDecodeError, ValueError) as problem:
        found = re.search(r"line (\d+)", str(problem))
        where = Location(path, int(found.group(1)) if found else 1, 1)
        raise ExchangeError(f"{path}: malformed PO file", [error(
            "I18N011", f"malformed PO file: {problem}", where)]) from None
    language = po.metadata.get("Language", "").strip()
    incoming = []
    for entry in po:
        obsolete_prefix = "#~ " if entry.obsolete else ""
        incoming.append(Incoming(
            key=entry.msgctxt, source=entry.msgid, translation=entry.msgstr,
            needs_review=entry.fuzzy, note=entry.tcomment or None,
            line=_line_of(lines, entry.linenum, *(obsolete_prefix + w for w in ("msgctxt", "msgid"))),
            column=1, translation_line=_line_of(lines, entry.linenum, obsolete_prefix + "msgstr"),
            unsupported="plural forms are not used by scenario texts" if entry.msgid_plural else None,
            obsolete=entry.obsolete, places=_places(entry),
            previous_key=entry.previous_msgctxt or None))
    return (tag_from_gettext(language) if language else None), incoming


_PLACE_IN_COMMENT = re.compile(r"^(\S+\.ya?ml):(\d+): ", re.MULTILINE)


def _places(entry) -> tuple[tuple[str, int], ...]:
    """Where the entry's text is written: its `#:` references, or the place our `#.` comment
    starts with (xliff2po keeps that comment but writes no references)."""
    found = [(file, int(line)) for file, line in entry.occurrences if str(line).isdigit()]
    found += [(file, int(line)) for file, line in _PLACE_IN_COMMENT.findall(entry.comment or "")]
    return tuple(found)


def _line_of(lines: list[str], start: int, *keywords: str) -> int:
    """The line (from 1) where an entry starting at `start` has its first keyword."""
    for number in range(max(start, 1), len(lines) + 1):
        text = lines[number - 1]
        if any(text.startswith(word + " ") for word in keywords):
            return number
        if number > start and not text.strip():
            break  # the entry ended
    return start
