"""The translation model: every text of a scenario next to its translation into one locale.

One `Unit` per text key, in the order a reader meets the texts, then one per locale entry whose
key is no longer a text of the scenario (in a variant, only the entries of its own file). Status,
display, PO and XLIFF all read this model, so they agree on what counts as translated, missing,
stale or unknown.
"""
from __future__ import annotations

import os
from dataclasses import dataclass
from enum import Enum

from ..diagnostics import Location
from ..scenario import Scenario, locale_kind
from ..texts import catalog, fingerprint, placeholders
from ..yamlsource import join_pointer


class State(str, Enum):
    TRANSLATED = "translated"
    MISSING = "missing"
    STALE = "stale"  # translates an older source text
    UNKNOWN = "unknown"  # the key is not a text of the scenario (renamed or removed)


@dataclass(frozen=True)
class Unit:
    key: str
    source: str | None  # the source text as it reads now; None for an unknown key
    translation: str | None
    state: State
    previous_source: str | None = None  # the source text a stale translation was made from
    note: str | None = None
    where: Location | None = None  # where the source text is written
    needs_review: bool = False  # marked for review (`review: true`; PO's fuzzy) by the translator

    @property
    def placeholders_kept(self) -> bool:
        if self.source is None or self.translation is None:
            return True
        return placeholders(self.source) == placeholders(self.translation)

    @property
    def usable(self) -> bool:
        """Fit to show a player: current, not marked for review, keeping the source's placeholders."""
        return self.state is State.TRANSLATED and not self.needs_review and self.placeholders_kept


def source_language(scenario: Scenario) -> str:
    value = scenario.manifest.get("source_language")
    return value if isinstance(value, str) else "en"


def locale_entries(scenario: Scenario, tag: str) -> dict:
    """The (merged) entries of a locale: inherited from the parent, overridden by a variant."""
    entries = scenario.locale(tag).get("entries")
    return entries if isinstance(entries, dict) else {}


def translation_units(scenario: Scenario, tag: str) -> list[Unit]:
    texts = catalog(scenario)
    entries = locale_entries(scenario, tag)
    units = []
    for key, text in texts.items():
        entry = entries.get(key)
        where = scenario.locate(text.kind, text.pointer)
        if not isinstance(entry, dict) or not isinstance(entry.get("text"), str):
            units.append(Unit(key, text.text, None, State.MISSING, where=where))
            continue
        stamp = entry.get("source")
        stale = isinstance(stamp, str) and stamp != fingerprint(text.text)
        units.append(Unit(key, text.text, entry["text"], State.STALE if stale else State.TRANSLATED,
                          previous_source=_translated_from(entry) if stale else None,
                          note=_note(entry), where=where, needs_review=entry.get("review") is True))
    own_file = os.path.abspath(scenario.file_for(locale_kind(tag)))
    for key, entry in entries.items():
        if key not in texts:
            written = scenario.locate(locale_kind(tag), join_pointer("/entries", key), key=True).file
            if written is not None and os.path.abspath(written) != own_file:
                # A parent's translation of an entity this variant removed: nothing to translate
                # or to fix here (the parent's own check reports its file's unknown keys).
                continue
            translation = entry.get("text") if isinstance(entry, dict) else None
            units.append(Unit(key, None, translation if isinstance(translation, str) else None,
                              State.UNKNOWN, note=_note(entry)))
    return units


def where_written(scenario: Scenario, unit: Unit) -> tuple[str, str] | None:
    """(file relative to the scenario folder, line) of a unit's source text."""
    if unit.where is None or unit.where.file is None or not unit.where.line:
        return None
    relative = os.path.relpath(unit.where.file, scenario.root).replace(os.sep, "/")
    return relative, str(unit.where.line)


def _translated_from(entry: dict) -> str | None:
    """The source text the entry was translated from, when it is recorded and matches the stamp."""
    text = entry.get("source_text")
    if isinstance(text, str) and fingerprint(text) == entry.get("source"):
        return text
    return None


def _note(entry) -> str | None:
    note = entry.get("note") if isinstance(entry, dict) else None
    return note if isinstance(note, str) else None


# -- saying where a text appears ----------------------------------------------------------------
_SINGULAR = {"entries": "entry", "abilities": "ability", "unit_types": "unit type", "axes": "axis",
             "resources": "resource", "phases": "phase", "options": "option"}


def _singular(collection: str) -> str:
    if collection in _SINGULAR:
        return _SINGULAR[collection]
    if collection.endswith("ies"):
        return collection[:-3].replace("_", " ") + "y"
    return collection.removesuffix("s").replace("_", " ")


def describe(key: str) -> str:
    """What a key names, in words: `decks.japan.cards.j01.title` -> 'title of card j01 in deck
    japan'; `scenario.name` -> 'name of the scenario'."""
    parts = key.split(".")
    field, path = parts[-1], parts[:-1]
    if path and path[0] == "scenario":
        path = path[1:]
        if not path:
            return f"{field} of the scenario"
    pairs = [f"{_singular(path[i])} {path[i + 1]}" for i in range(0, len(path) - 1, 2)]
    if len(path) % 2:
        pairs.append(path[-1].replace("_", " "))
    return f"{field} of " + " in ".join(reversed(pairs))
