"""Locale tags: the fallback chain for display, the plural rule a PO file declares, and which of
a scenario's locales a translator's file means (`zh_CN` is the scenario's `zh-Hans`).

CLDR's data, through Babel, answers the questions that need knowledge of languages: likely
subtags (Chinese in China is written in Simplified script) and language names. Plural rules are
CLDR's too, but pinned in plural_forms.py so that an exported PO header does not change with the
installed Babel. Babel is imported only when asked, so commands that never ask start faster.
"""
from __future__ import annotations

from .plural_forms import PLURAL_FORMS


def fallback_chain(tag: str, source_language: str = "en") -> list[str]:
    """The locales to try, best first: the tag, then shorter by one subtag at a time, then the
    source language. `zh-Hant-TW` gives zh-Hant-TW, zh-Hant, zh, en."""
    parts = tag.split("-")
    chain = ["-".join(parts[:length]) for length in range(len(parts), 0, -1)]
    if source_language not in chain:
        chain.append(source_language)
    return chain


def plural_forms(tag: str) -> str | None:
    """The gettext Plural-Forms header for a locale (CLDR's, pinned), or None when unknown."""
    for candidate in fallback_chain(tag, source_language=tag):
        rule = PLURAL_FORMS.get(gettext_language(candidate))
        if rule is not None:
            return f"nplurals={rule[0]}; plural={rule[1]};"
    return None


def gettext_language(tag: str) -> str:
    """The PO `Language:` value for a BCP 47 tag (gettext writes `_` between subtags)."""
    return tag.replace("-", "_")


def tag_from_gettext(language: str) -> str:
    """The BCP 47 tag for a PO `Language:` value such as `zh_Hans` or `pt_BR`."""
    return language.strip().split("@")[0].split(".")[0].replace("_", "-")


def language_name(tag: str) -> str:
    """The language's English name, e.g. 'Chinese (Simplified)'; the tag itself if unknown."""
    from babel import Locale, UnknownLocaleError
    try:
        return Locale.parse(tag, sep="-").english_name or tag
    except (UnknownLocaleError, ValueError):
        return tag


def _likely(tag: str) -> tuple[str, str | None, str | None] | None:
    """(language, script, region) with CLDR's likely subtags filled in: zh-CN -> zh, Hans, CN."""
    from babel import Locale, UnknownLocaleError
    from babel.core import get_global
    try:
        locale = Locale.parse(tag, sep="-")
    except (UnknownLocaleError, ValueError):
        return None
    likely = get_global("likely_subtags")
    parts = [locale.language, locale.script, locale.territory]
    for probe in ("_".join(p for p in parts if p), locale.language):
        if probe in likely:
            full = Locale.parse(likely[probe])
            return (locale.language, locale.script or full.script, locale.territory or full.territory)
    return (locale.language, locale.script, locale.territory)


def matching_locale(tag: str, existing: list[str]) -> str | None:
    """The scenario locale a file's language means, when it is not one of them by name.

    Tags match when CLDR's likely subtags make them the same language in the same script,
    and the region agrees where the scenario's tag names one: `zh-CN` is `zh-Hans`, `zh-TW` is
    `zh-Hant`, `pt-BR` is `pt` (but not `pt-PT`); of several that fit, the most specific
    (`zh-Hans` rather than `zh`). None when none fits, or two fit equally.
    """
    if tag in existing:
        return tag
    wanted = _likely(tag)
    if wanted is None:
        return None
    found: dict[int, list[str]] = {}
    for candidate in existing:
        have = _likely(candidate)
        if have is None or have[:2] != wanted[:2]:
            continue
        last = candidate.split("-")[-1]
        names_region = "-" in candidate and (last.isupper() or last.isdigit())
        if names_region and have[2] != wanted[2]:
            continue
        found.setdefault(candidate.count("-"), []).append(candidate)
    best = found[max(found)] if found else []  # the most specific: zh-Hans before zh
    return best[0] if len(best) == 1 else None
