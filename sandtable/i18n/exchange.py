"""Taking translations back from a translator's file (PO or XLIFF) into a locale file.

Both formats are read into the same `Incoming` entries; this module decides what each one
means for the locale. Only what changed is written. An entry that cannot be taken (its key is no
longer a text, its placeholders differ, ...) is refused with a diagnostic at its line in the
translator's file, and one that is left out for a reason of its own (marked for review or as not
translated, emptied, obsolete) is reported: nothing is dropped silently. Changes go to the
scenario's own locale file: for a variant that is an override of what it inherits, and the
parent's file is left alone.

Converters such as translate-toolkit's po2xliff and xliff2po drop the text keys (msgctxt, the
trans-unit id); such entries are matched to the scenario's texts by their source text and the
place the file says the text is written, as the export gave them.
"""
from __future__ import annotations

import difflib
import posixpath
import re
from dataclasses import dataclass, field
from pathlib import Path

from ..diagnostics import Diagnostic, Location, error, info, warning
from ..paths import PathEscape, write_target
from ..scenario import FILE_KINDS, LOCALE_DIR, Scenario
from ..schemas import modeline_schemas, with_modeline
from ..texts import fingerprint, placeholders
from ..yamlsource import YamlRefused, read_yaml_file
from ..yamlwrite import leading_comments, save_yaml
from .model import State, locale_entries, translation_units, where_written


class ExchangeError(Exception):
    """A translator's file that cannot be read or does not fit the scenario. With diagnostics,
    the file is malformed (exit 1, as for any malformed input); without, exit 2."""

    def __init__(self, message: str, diagnostics: list[Diagnostic] | None = None):
        super().__init__(message)
        self.diagnostics = list(diagnostics or [])


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
    untranslated_state: str | None = None  # XLIFF state saying the target is no translation yet
    obsolete: bool = False  # PO `#~`: kept by the editor, no longer part of the file
    places: tuple[tuple[str, int], ...] = ()  # where the file says the source text is written
    previous_key: str | None = None  # the key of the entry's previous source, if the file gives it


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
    untranslated: int = 0  # entries without a translation, where the locale has none either
    matched_without_key: int = 0  # entries matched by source text and place (no key in the file)
    diagnostics: list[Diagnostic] = field(default_factory=list)

    @property
    def refused(self) -> int:
        return sum(1 for d in self.diagnostics if d.is_error)


def own_locale_file(scenario: Scenario, tag: str) -> Path:
    return scenario.root / LOCALE_DIR / f"{tag}.yaml"


def looks_like_key(name: str | None) -> bool:
    """Whether a context or id is a text key (`spaces.norway.name`), not a converter's number."""
    return name is not None and _KEY.match(name) is not None


_KEY = re.compile(r"^[a-z0-9_-]+(\.[a-z0-9_-]+)+$")


def plan_import(scenario: Scenario, tag: str, incoming: list[Incoming], file: Path) -> ImportResult:
    """What importing `incoming` would change, and what it refuses; nothing is written."""
    result = ImportResult(tag, own_locale_file(scenario, tag))
    units = {u.key: u for u in translation_units(scenario, tag) if u.state is not State.UNKNOWN}
    entries = locale_entries(scenario, tag)
    keys = _match_keys(scenario, incoming, units)
    result.matched_without_key = sum(1 for item, key in zip(incoming, keys, strict=True)
                                     if key is not None and key != item.key)
    seen: dict[str, int] = {}
    for item, key in zip(incoming, keys, strict=True):
        where = Location(file, item.line, item.column)
        if item.obsolete:
            result.diagnostics.append(info(
                "I18N010", f"obsolete entry{f' {item.key!r}' if item.key else ''} (#~) was not taken",
                where, hint="PO editors keep entries that left the file as #~; if its translation "
                "is still wanted, copy it to the current entry"))
            continue
        problem = _refusal(item, key, units, seen, where)
        if problem is not None:
            result.diagnostics.append(problem)
            continue
        assert key is not None  # _refusal refuses every entry without a key
        seen[key] = item.line
        unit = units[key]
        source = unit.source or ""
        at_translation = Location(file, item.translation_line or item.line,
                                  item.translation_column or item.column)
        if not item.translation:
            if unit.translation is None:
                result.untranslated += 1
            else:
                result.diagnostics.append(warning(
                    "I18N009", f"{key!r} has no translation in the file; the locale's "
                    f"{unit.translation!r} was kept", at_translation,
                    hint=f"to remove a translation, delete its entry from locales/{tag}.yaml"))
            continue
        if item.needs_review or item.untranslated_state:
            if item.translation == unit.translation:
                result.unchanged += 1
            elif item.untranslated_state:
                result.diagnostics.append(warning(
                    "I18N008", f"{key!r} is marked {item.untranslated_state}, so its target was not "
                    "taken", at_translation, hint="translate-toolkit's po2xliff marks fuzzy PO "
                    "entries so; review the target and set its state to translated, then import again"))
            else:
                result.diagnostics.append(warning(
                    "I18N006", f"{key!r} is marked for review, so its new translation was "
                    "not taken", at_translation, hint="review the translation and clear the "
                    "fuzzy flag (or set the XLIFF state to translated), then import again"))
            continue
        if placeholders(item.translation) != placeholders(source):
            result.diagnostics.append(_placeholder_problem(item, key, source, at_translation))
            continue
        stale = item.source != source
        found = entries.get(key)
        entry = found if isinstance(found, dict) else {}
        stamp = fingerprint(item.source)
        note = _note_after(item.note, entry.get("note"))
        same_stamp = entry.get("source") == stamp or ("source" not in entry and not stale)
        # Unchanged, unless the entry was marked for review and comes back without the mark.
        if entry.get("text") == item.translation and entry.get("note") == note and same_stamp \
                and entry.get("review") is not True:
            result.unchanged += 1
            continue
        if stale:
            result.diagnostics.append(warning(
                "I18N005", f"{key!r} was translated from an older source text; it is kept, "
                "marked as stale", where,
                hint=f"the source now reads {source!r}; export again to translate it"))
        new_entry = {"text": item.translation, "source": stamp, "source_text": item.source}
        if note:
            new_entry["note"] = note
        result.changes.append(Change(key, unit.translation, item.translation, stale, new_entry))
    return result


def _at(place: tuple[str, str] | None) -> tuple[str, int] | None:
    return (place[0], int(place[1])) if place else None


def _match_keys(scenario: Scenario, incoming: list[Incoming], units: dict) -> list[str | None]:
    """The text key of each entry: its own, or for an entry without one, the text it matches.

    A keyless entry takes, among the texts no other entry names, the first whose source text is
    the entry's and, where the file says, is written at the same place; failing that, the text
    written at that place (the entry then translates an older source text).
    """
    keys: list[str | None] = [item.key if looks_like_key(item.key) else None for item in incoming]
    claimed = {key for key in keys if key is not None}
    places = {key: where_written(scenario, unit) for key, unit in units.items()}
    for index, item in enumerate(incoming):
        if keys[index] is not None or item.obsolete:
            continue
        free = [key for key in units if key not in claimed]
        at_place = [key for key in free if _at(places[key]) in item.places]
        same_text = [key for key in free if units[key].source == item.source]
        choice = next((key for key in same_text if key in at_place), None) or \
            (item.previous_key if item.previous_key in free else None) or \
            (same_text[0] if same_text else None) or (at_place[0] if at_place else None)
        if choice is not None:
            keys[index] = choice
            claimed.add(choice)
        else:
            keys[index] = item.key  # reported as it is
    return keys


def locale_by_content(scenario: Scenario, incoming: list[Incoming]) -> tuple[str, int, int] | None:
    """For a file that does not say its language: the scenario locale its translations are
    clearly from, as (tag, translations found in it, translations in the file)."""
    from .model import source_language
    translated = [item.translation for item in incoming if item.translation and not item.obsolete]
    counts = []
    for tag in scenario.locale_tags:
        if tag == source_language(scenario):
            continue
        known = {u.translation for u in translation_units(scenario, tag) if u.translation}
        counts.append((sum(1 for text in translated if text in known), tag))
    counts.sort(reverse=True)
    if not counts or counts[0][0] == 0 or (len(counts) > 1 and counts[1][0] * 2 >= counts[0][0]):
        return None  # no locale, or no clear one
    return counts[0][1], counts[0][0], len(translated)


def _note_after(incoming: str | None, existing: str | None) -> str | None:
    """The note an entry keeps. PO editors re-wrap long comments, so a comment that differs from
    the note only in its line breaks is the same note; an empty comment never deletes one."""
    if not incoming:
        return existing
    if existing and incoming.split() == existing.split():
        return existing
    return incoming


def _refusal(item: Incoming, key: str | None, units: dict, seen: dict[str, int],
             where: Location) -> Diagnostic | None:
    if item.unsupported:
        return error("I18N007", f"this entry cannot be imported: {item.unsupported}", where)
    if not looks_like_key(key):
        named = f" (it names {key!r})" if key else ""
        return error("I18N003", f"this entry has no text key{named}, and its source text "
                     f"{_short(item.source)} is no text of the scenario, so it cannot be matched",
                     where, hint="export the file again with `sandtable i18n export`")
    if key in seen:
        return error("I18N004", f"{key!r} appears a second time (first at line "
                     f"{seen[key]}); this one was not taken", where)
    if key not in units:
        close = difflib.get_close_matches(key, list(units), n=1, cutoff=0.8)
        return error("I18N001", f"{key!r} is no longer a text of this scenario; the entry "
                     "was not taken", where,
                     hint=f"did you mean {close[0]!r}?" if close else
                     "the text was renamed or removed; export again for the current texts")
    return None


def _short(text: str) -> str:
    return repr(text if len(text) <= 60 else text[:57] + "...")


def _placeholder_problem(item: Incoming, key: str, source: str, where: Location) -> Diagnostic:
    wanted, found = placeholders(source), placeholders(item.translation)
    parts = []
    if wanted - found:
        parts.append("missing " + ", ".join("{" + p + "}" for p in sorted(wanted - found)))
    if found - wanted:
        parts.append("unknown " + ", ".join("{" + p + "}" for p in sorted(found - wanted)))
    return error("I18N002", f"the translation of {key!r} does not keep the source's "
                 f"placeholders ({'; '.join(parts)}); it was not taken", where,
                 hint="placeholders such as {nation} are filled in by the program: copy them "
                 "unchanged into the translation")


def write_import(scenario: Scenario, result: ImportResult) -> None:
    """Write the planned changes into the scenario's own locale file (canonical, atomic)."""
    if not result.changes:
        return
    path = result.target
    try:
        write_target(scenario.root, path)   # before reading it, or making locales/ (it may lead out)
    except PathEscape as escape:
        raise ExchangeError(f"error {escape.code}: {escape}") from None
    read = None
    if path.exists():
        try:
            doc = read_yaml_file(path)
        except YamlRefused as refused:
            raise ExchangeError(f"{path}: {refused.diagnostic.message}; nothing was written") from None
        data = doc.data if isinstance(doc.data, dict) else {}
        header = leading_comments(doc.text)
        read = doc.fingerprint
    else:
        data = {"locale": result.locale}
        header = _schema_header(scenario, path)
    if data.get("entries") is None:
        data["entries"] = {}
    entries = data["entries"]
    if not isinstance(entries, dict):
        raise ExchangeError(f"{path}: `entries` is not a mapping; nothing was written")
    for change in result.changes:
        found = entries.get(change.key)
        # taken without the fuzzy mark (reviewed), and no longer a variant's removal of the
        # parent's translation: it replaces it
        kept = {k: v for k, v in found.items() if k not in ("review", "remove")} \
            if isinstance(found, dict) else {}
        entries[change.key] = {**kept, **change.entry}
    path.parent.mkdir(parents=True, exist_ok=True)
    try:
        save_yaml(path, data, header, within=scenario.root, unchanged_since=read)
    except PathEscape as escape:
        raise ExchangeError(f"error {escape.code}: {escape}") from None


def _schema_header(scenario: Scenario, path: Path) -> str:
    """The schema line for a new locale file, found from the one scenario.yaml carries."""
    manifest = read_yaml_file(scenario.root / FILE_KINDS["scenario"])
    schemas = modeline_schemas(manifest.text)
    if schemas is None:
        return ""
    if "://" not in schemas and not posixpath.isabs(schemas):
        schemas = posixpath.join("..", schemas)  # locales/ is one folder further down
    return with_modeline("", "locale", scenario.is_variant, schemas, path)
