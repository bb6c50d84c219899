"""Locale tags: the fallback chain for display, and the plural rule a PO file declares."""
from __future__ import annotations

from ..scenario import LOCALE_TAG

# gettext Plural-Forms by primary language, as the GNU gettext manual and CLDR give them.
_ONE_FORM = "nplurals=1; plural=0;"
_ONE_OTHER = "nplurals=2; plural=(n != 1);"
_ZERO_ONE_OTHER = "nplurals=2; plural=(n > 1);"
_EAST_SLAVIC = ("nplurals=3; plural=(n%10==1 && n%100!=11 ? 0 : n%10>=2 && n%10<=4 && "
                "(n%100<10 || n%100>=20) ? 1 : 2);")
_POLISH = "nplurals=3; plural=(n==1 ? 0 : n%10>=2 && n%10<=4 && (n%100<10 || n%100>=20) ? 1 : 2);"
_CZECH = "nplurals=3; plural=(n==1) ? 0 : (n>=2 && n<=4) ? 1 : 2;"
_ROMANIAN = "nplurals=3; plural=(n==1 ? 0 : (n==0 || (n%100 > 0 && n%100 < 20)) ? 1 : 2);"
_LITHUANIAN = ("nplurals=3; plural=(n%10==1 && n%100!=11 ? 0 : n%10>=2 && "
               "(n%100<10 || n%100>=20) ? 1 : 2);")

PLURAL_FORMS = {
    **dict.fromkeys(("zh", "ja", "ko", "vi", "th", "id", "ms", "lo", "km", "my"), _ONE_FORM),
    **dict.fromkeys(("en", "de", "nl", "sv", "da", "nb", "nn", "no", "fi", "et", "it", "es",
                     "pt", "el", "hu", "bg", "ca", "eo", "af"), _ONE_OTHER),
    **dict.fromkeys(("fr", "oc", "br"), _ZERO_ONE_OTHER),
    **dict.fromkeys(("ru", "uk", "be", "sr", "hr", "bs"), _EAST_SLAVIC),
    "pl": _POLISH,
    **dict.fromkeys(("cs", "sk"), _CZECH),
    "ro": _ROMANIAN,
    "lt": _LITHUANIAN,
}
# Where a region changes the rule (Brazilian Portuguese counts 0 and 1 alike, as French does).
_REGIONAL_PLURAL_FORMS = {"pt-BR": _ZERO_ONE_OTHER}


def is_locale_tag(tag: str) -> bool:
    return bool(LOCALE_TAG.match(tag))


def fallback_chain(tag: str, source_language: str = "en") -> list[str]:
    """The locales to try, best first: the tag, then shorter by one subtag at a time, then the
    source language. `zh-Hant-TW` gives zh-Hant-TW, zh-Hant, zh, en."""
    parts = tag.split("-")
    chain = ["-".join(parts[:length]) for length in range(len(parts), 0, -1)]
    if source_language not in chain:
        chain.append(source_language)
    return chain


def plural_forms(tag: str) -> str | None:
    """The gettext Plural-Forms header for a locale, or None for a language not in the table."""
    for candidate in fallback_chain(tag, source_language=tag):
        if candidate in _REGIONAL_PLURAL_FORMS:
            return _REGIONAL_PLURAL_FORMS[candidate]
    return PLURAL_FORMS.get(tag.split("-")[0])


def gettext_language(tag: str) -> str:
    """The PO `Language:` value for a BCP 47 tag (gettext writes `_` between subtags)."""
    return tag.replace("-", "_")


def tag_from_gettext(language: str) -> str:
    """The BCP 47 tag for a PO `Language:` value such as `zh_Hans` or `pt_BR`."""
    return language.strip().split("@")[0].replace("_", "-")
