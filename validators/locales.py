"""Locales: keys that exist, translations that are present, current and keep their placeholders."""
from __future__ import annotations

import difflib
from collections.abc import Iterator

from sandtable.diagnostics import Diagnostic, error, warning
from sandtable.scenario import Scenario, locale_kind
from sandtable.texts import catalog, fingerprint, placeholders


def source_language(scenario: Scenario) -> str:
    value = scenario.manifest.get("source_language")
    return value if isinstance(value, str) else "en"


def check_locales(scenario: Scenario) -> Iterator[Diagnostic]:
    tags = scenario.locale_tags
    if not tags:
        return
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
        entries = data.get("entries") if isinstance(data.get("entries"), dict) else {}
        yield from _entries(scenario, kind, tag, entries, texts)
        missing = [key for key in texts if key not in entries]
        if missing:
            sample = ", ".join(missing[:3]) + (" ..." if len(missing) > 3 else "")
            yield warning("LOC002", f"{len(missing)} of {len(texts)} text(s) have no {tag} "
                          f"translation ({sample})", scenario.locate(kind, "/entries", key=True),
                          hint="run `sandtable i18n status` for the full list")


def _entries(scenario, kind, tag, entries, texts) -> Iterator[Diagnostic]:
    for key, entry in entries.items():
        pointer = f"/entries/{key}"
        if key not in texts:
            close = difflib.get_close_matches(key, list(texts), n=1, cutoff=0.8)
            yield error("LOC001", f"{key!r} is not a text of this scenario",
                        scenario.locate(kind, pointer, key=True),
                        hint=f"did you mean {close[0]!r}?" if close else
                        "the entity was renamed or removed; delete or re-key the entry")
            continue
        if not isinstance(entry, dict) or not isinstance(entry.get("text"), str):
            continue
        source = texts[key].text
        wanted, found = placeholders(source), placeholders(entry["text"])
        if wanted != found:
            lost = ", ".join("{" + p + "}" for p in sorted(wanted - found))
            extra = ", ".join("{" + p + "}" for p in sorted(found - wanted))
            detail = "; ".join(part for part in (f"missing {lost}" if lost else "",
                                                 f"unknown {extra}" if extra else "") if part)
            yield error("LOC003", f"the {tag} text of {key!r} does not keep the source's "
                        f"placeholders ({detail})", scenario.locate(kind, pointer + "/text"))
        stamp = entry.get("source")
        if isinstance(stamp, str) and stamp != fingerprint(source):
            yield warning("LOC004", f"the {tag} text of {key!r} translates an older source text",
                          scenario.locate(kind, pointer + "/source"),
                          hint=f"the source now reads {source!r}; update the translation and its fingerprint")
