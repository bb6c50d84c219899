"""Locales: keys that exist, translations that are present, current and keep their placeholders."""
from __future__ import annotations

import difflib
from collections.abc import Iterator

from sandtable.diagnostics import Diagnostic, error, warning
from sandtable.scenario import Scenario, locale_kind
from sandtable.texts import catalog, placeholders


def check_locales(scenario: Scenario) -> Iterator[Diagnostic]:
    tags = scenario.locale_tags
    if not tags:
        return
    from sandtable.i18n import State, source_language, translation_units  # only with locales
    texts = catalog(scenario)
    for tag in tags:
        kind = locale_kind(tag)
        data = scenario.locale(tag)
        declared = data.get("locale")
        if isinstance(declared, str) and declared != tag:
            yield error("LOC006", f"the file is {tag}.yaml but declares locale {declared!r}",
                        scenario.locate(kind, "/locale"), hint=f"set locale: {tag}, or rename the file")
        if tag == source_language(scenario):
            continue
        units = translation_units(scenario, tag)
        yield from _entries(scenario, kind, tag, units, texts)
        missing = [u.key for u in units if u.state is State.MISSING]
        if missing:
            sample = ", ".join(missing[:3]) + (" ..." if len(missing) > 3 else "")
            yield warning("LOC002", f"{len(missing)} of {len(texts)} text(s) have no {tag} "
                          f"translation ({sample})", scenario.locate(kind, "/entries", key=True),
                          hint="run `sandtable i18n status --list` for the full list")


def _entries(scenario, kind, tag, units, texts) -> Iterator[Diagnostic]:
    """Unknown keys, lost placeholders and stale entries, as sandtable.i18n classifies them."""
    from sandtable.i18n import State
    for unit in units:
        key = unit.key
        pointer = f"/entries/{key}"
        if unit.state is State.UNKNOWN:
            close = difflib.get_close_matches(key, list(texts), n=1, cutoff=0.8)
            yield error("LOC001", f"{key!r} is not a text of this scenario",
                        scenario.locate(kind, pointer, key=True),
                        hint=f"did you mean {close[0]!r}?" if close else
                        "the entity was renamed or removed; delete or re-key the entry")
            continue
        if unit.translation is None:
            continue
        if not unit.placeholders_kept:
            wanted, found = placeholders(unit.source), placeholders(unit.translation)
            lost = ", ".join("{" + p + "}" for p in sorted(wanted - found))
            extra = ", ".join("{" + p + "}" for p in sorted(found - wanted))
            detail = "; ".join(part for part in (f"missing {lost}" if lost else "",
                                                 f"unknown {extra}" if extra else "") if part)
            yield error("LOC003", f"the {tag} text of {key!r} does not keep the source's "
                        f"placeholders ({detail})", scenario.locate(kind, pointer + "/text"))
        if unit.state is State.STALE:
            yield warning("LOC004", f"the {tag} text of {key!r} translates an older source text",
                          scenario.locate(kind, pointer + "/source"),
                          hint=f"the source now reads {unit.source!r}; update the translation and its fingerprint")
