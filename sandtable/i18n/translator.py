"""Text for display in a locale, falling back along the locale's chain to the source text.

This is the one place that decides which text a player or designer sees: the CLI and the editor
both ask a `Translator`. A stale translation (its source text has changed since) or one that lost
a placeholder is not shown; the next locale in the chain is tried instead, as gettext skips fuzzy
entries, so nobody reads a translation of a rule that no longer holds.
"""
from __future__ import annotations

from ..scenario import Scenario
from ..texts import catalog
from .model import source_language, translation_units
from .tags import fallback_chain


class Translator:
    def __init__(self, scenario: Scenario, locale: str):
        self.locale = locale
        self.source_language = source_language(scenario)
        self.chain = fallback_chain(locale, self.source_language)
        self._sources = {key: text.text for key, text in catalog(scenario).items()}
        available = set(scenario.locale_tags)
        self._translations = {
            tag: {u.key: u.translation for u in translation_units(scenario, tag) if u.usable}
            for tag in self.chain if tag in available and tag != self.source_language}

    def resolve(self, key: str) -> tuple[str, str]:
        """(text, the locale it comes from) for a text key; KeyError if the key is not a text."""
        source = self._sources[key]
        for tag in self.chain:
            if tag == self.source_language:
                break
            text = self._translations.get(tag, {}).get(key)
            if text is not None:
                return text, tag
        return source, self.source_language

    def text(self, key: str) -> str:
        return self.resolve(key)[0]

    def keys(self) -> list[str]:
        return list(self._sources)


def display_text(scenario: Scenario, key: str, locale: str) -> str:
    """The text to show for `key` in `locale` (build a Translator to look up many)."""
    return Translator(scenario, locale).text(key)
