"""Taking translations back from a translator's file (PO or XLIFF) into a locale file.

Both formats are read into the same `Incoming` entries; this module decides what each one
means for the locale. Only what changed is written. An entry that cannot be taken (its key is no
longer a text, its placeholders differ, ...) is refused with a diagnostic at its line in the
translator's file, never dropped silently. Changes go to the scenario's own locale file: for a
variant that is an override of what it inherits, and the parent's file is left alone.
"""
from __future__ import annotations

import difflib
import os
from dataclasses import dataclass, field
from pathlib import Path

from ..diagnostics import Diagnostic, Location, error, warning
from ..scenario import FILE_KINDS, LOCALE_DIR, Scenario
from ..texts import fingerprint, placeholders
from ..yamlsource import YamlRefused, read_yaml_file
from ..yamlwrite import leading_comments, save_yaml
from .model import State, locale_entries, translation_units


class ExchangeError(Exception):
    """A translator's file that cannot be read or does not fit the scenario (exit 2)."""


@dataclass(frozen=True)
class Incoming:
    """One entry of a translator's file, whatever its format."""

    key: str | None  # PO msgctxt, XLIFF trans-unit id
    source: str  # the source text the translator saw
    translation: str  # "" when not translated
    needs_review: bool = False  # PO `#, fuzzy`, XLIFF state needs-review-*
    note: str | None = None  # the translator's own comment
    line: int = 0  # where the entry's key is written
    column: int = 0
    translation_line: int = 0  # where its translation is written, if elsewhere
    translation_column: int = 0
    unsupported: str | None = None  # why the entry's form cannot be taken, if it cannot


@dataclass
class Change:
    key: str
    before: str | None  # the translation as it was, None when there was none
    after: str
    stale: bool  # the translation was made from an older source text
    entry: dict  # the locale entry's new fields


@dataclass
class ImportResult:
    locale: str
    target: Path  # the locale file that receives the changes
    changes: list[Change] = field(default_factory=list)
    unchanged: int = 0
    diagnostics: list[Diagnostic] = field(default_factory=list)

    @property
    def refused(self) -> int:
        return sum(1 for d in self.diagnostics if d.is_error)


def own_locale_file(scenario: Scenario, tag: str) -> Path:
    return scenario.root / LOCALE_DIR / f"{tag}.yaml"


def plan_import(scenario: Scenario, tag: str, incoming: list[Incoming], file: Path) -> ImportResult:
    """What importing `incoming` would change, and what it refuses; nothing is written."""
    result = ImportResult(tag, own_locale_file(scenario, tag))
    units = {u.key: u for u in translation_units(scenario, tag) if u.state is not State.UNKNOWN}
    entries = locale_entries(scenario, tag)
    seen: dict[str, int] = {}
    for item in incoming:
        where = Location(file, item.line, item.column)
        problem = _refusal(item, units, seen, where)
        if problem is not None:
            result.diagnostics.append(problem)
            continue
        seen[item.key] = item.line
        unit = units[item.key]
        if not item.translation:
            continue  # untranslated in the file; an existing translation is kept
        at_translation = Location(file, item.translation_line or item.line,
                                  item.translation_column or item.column)
        if item.needs_review:
            if item.translation == unit.translation:
                result.unchanged += 1
            else:
                result.diagnostics.append(warning(
                    "I18N006", f"{item.key!r} is marked for review, so its new translation was "
                    "not taken", at_translation, hint="review the translation and clear the "
                    "fuzzy flag (or set the XLIFF state to translated), then import again"))
            continue
        if placeholders(item.translation) != placeholders(unit.source):
            result.diagnostics.append(_placeholder_problem(item, unit.source, at_translation))
            continue
        stale = item.source != unit.source
        entry = entries.get(item.key) if isinstance(entries.get(item.key), dict) else {}
        stamp = fingerprint(item.source)
        note = _note_after(item.note, entry.get("note"))
        same_stamp = entry.get("source") == stamp or ("source" not in entry and not stale)
        if entry.get("text") == item.translation and entry.get("note") == note and same_stamp:
            result.unchanged += 1
            continue
        if stale:
            result.diagnostics.append(warning(
                "I18N005", f"{item.key!r} was translated from an older source text; it is kept, "
                "marked as stale", where,
                hint=f"the source now reads {unit.source!r}; export again to translate it"))
        new_entry = {"text": item.translation, "source": stamp, "source_text": item.source}
        if note:
            new_entry["note"] = note
        result.changes.append(Change(item.key, unit.translation, item.translation, stale, new_entry))
    return result


def _note_after(incoming: str | None, existing: str | None) -> str | None:
    """The note an entry keeps. PO editors re-wrap long comments, so a comment that differs from
    the note only in its line breaks is the same note; an empty comment never deletes one."""
    if not incoming:
        return existing
    if existing and incoming.split() == existing.split():
        return existing
    return incoming


def _refusal(item: Incoming, units: dict, seen: dict[str, int], where: Location) -> Diagnostic | None:
    if item.unsupported:
        return error("I18N007", f"this entry cannot be imported: {item.unsupported}", where)
    if not item.key:
        return error("I18N003", "this entry has no context (msgctxt or trans-unit id), so it "
                     "cannot be matched to a text", where,
                     hint="export the file again with `sandtable i18n export`")
    if item.key in seen:
        return error("I18N004", f"{item.key!r} appears a second time (first at line "
                     f"{seen[item.key]}); this one was not taken", where)
    if item.key not in units:
        close = difflib.get_close_matches(item.key, list(units), n=1, cutoff=0.8)
        return error("I18N001", f"{item.key!r} is no longer a text of this scenario; the entry "
                     "was not taken", where,
                     hint=f"did you mean {close[0]!r}?" if close else
                     "the text was renamed or removed; export again for the current texts")
    return None


def _placeholder_problem(item: Incoming, source: str, where: Location) -> Diagnostic:
    wanted, found = placeholders(source), placeholders(item.translation)
    parts = []
    if wanted - found:
        parts.append("missing " + ", ".join("{" + p + "}" for p in sorted(wanted - found)))
    if found - wanted:
        parts.append("unknown " + ", ".join("{" + p + "}" for p in sorted(found - wanted)))
    return error("I18N002", f"the translation of {item.key!r} does not keep the source's "
                 f"placeholders ({'; '.join(parts)}); it was not taken", where,
                 hint="placeholders such as {nation} are filled in by the program: copy them "
                 "unchanged into the translation")


def write_import(scenario: Scenario, result: ImportResult) -> None:
    """Write the planned changes into the scenario's own locale file (canonical, atomic)."""
    if not result.changes:
        return
    path = result.target
    if path.exists():
        try:
            doc = read_yaml_file(path)
        except YamlRefused as refused:
            raise ExchangeError(f"{path}: {refused.diagnostic.message}; nothing was written") from None
        data = doc.data if isinstance(doc.data, dict) else {}
        header = leading_comments(doc.text)
    else:
        data = {"locale": result.locale}
        header = _schema_header(scenario)
    if data.get("entries") is None:
        data["entries"] = {}
    entries = data["entries"]
    if not isinstance(entries, dict):
        raise ExchangeError(f"{path}: `entries` is not a mapping; nothing was written")
    for change in result.changes:
        kept = entries.get(change.key) if isinstance(entries.get(change.key), dict) else {}
        entries[change.key] = {**kept, **change.entry}
    path.parent.mkdir(parents=True, exist_ok=True)
    save_yaml(path, data, header)


def _schema_header(scenario: Scenario) -> str:
    """The schema line for a new locale file, found from the one scenario.yaml carries."""
    manifest = scenario.root / FILE_KINDS["scenario"]
    marker = "# yaml-language-server: $schema="
    for line in manifest.read_text(encoding="utf-8").splitlines():
        if line.startswith(marker) and line.endswith("scenario.schema.json"):
            schemas = os.path.dirname(line[len(marker):])
            return f"{marker}{os.path.join('..', schemas, 'locale.schema.json')}\n"
        if not line.startswith("#"):
            break
    return ""
