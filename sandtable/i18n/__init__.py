"""Translations: status per locale, display with fallback, PO and XLIFF exchange.

Locale files (`locales/<tag>.yaml`) hold translations keyed by the stable text keys of
`sandtable.texts`; each entry remembers the fingerprint of the source text it translates, so a
translation whose source changed shows as stale. Nothing here imports Qt: the CLI and the editor
use the same functions.
"""
from .exchange import Change, ExchangeError, ImportResult, Incoming, plan_import, write_import
from .model import State, Unit, describe, source_language, translation_units
from .po import export_po, read_po
from .status import LocaleStatus, locale_status, scenario_status
from .tags import fallback_chain, plural_forms
from .translator import Translator, display_text
from .xliff import export_xliff, read_xliff

__all__ = [
    "Change", "ExchangeError", "ImportResult", "Incoming", "LocaleStatus", "State", "Translator",
    "Unit", "describe", "display_text", "export_po", "export_xliff", "fallback_chain",
    "locale_status", "plan_import", "plural_forms", "read_po", "read_xliff", "scenario_status",
    "source_language", "translation_units", "write_import",
]
