"""XLIFF 1.2 files, the same model as the PO files, for tools that prefer XML.

A trans-unit is one text: its id is the stable key, <source> the source text, <target> the
translation with a state (translated and approved, or needs-review-translation for a stale one,
whose old source is given in an <alt-trans>). Reading goes through sandtable.safexml, which
refuses every entity declaration and never reads a DTD or an external entity.

XLIFF 1.1 is read too, as translate-toolkit's po2xliff writes it: its header unit is skipped, and
its units, whose ids are numbers, are matched by source text and the place their `po-reference`
context gives (see exchange.py).
"""
from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from pathlib import Path

from ..diagnostics import Location, error
from ..safexml import Element, XmlRefused, read_xml_file
from ..scenario import Scenario
from .exchange import ExchangeError, Incoming
from .model import State, describe, source_language, translation_units, where_written
from .tags import tag_from_gettext

XLIFF_NS = "urn:oasis:names:tc:xliff:document:1.2"
VERSIONS = ("1.2", "1.1")
XML_SPACE = "{http://www.w3.org/XML/1998/namespace}space"
MAX_FILE_BYTES = 16 * 1024 * 1024
REVIEW_STATES = {"needs-review-translation", "needs-review-adaptation", "needs-review-l10n",
                 "needs-adaptation", "needs-l10n"}
UNTRANSLATED_STATES = {"new", "needs-translation"}


def export_xliff(scenario: Scenario, tag: str) -> str:
    root = ET.Element("xliff", {"version": "1.2", "xmlns": XLIFF_NS})
    file = ET.SubElement(root, "file", {
        "original": scenario.id, "datatype": "plaintext",
        "source-language": source_language(scenario), "target-language": tag})
    body = ET.SubElement(file, "body")
    for unit in translation_units(scenario, tag):
        if unit.state is State.UNKNOWN:
            continue
        element = ET.SubElement(body, "trans-unit", {"id": unit.key, "resname": unit.key,
                                                     XML_SPACE: "preserve"})
        ET.SubElement(element, "source").text = unit.source
        if unit.translation is not None:
            review = unit.state is State.STALE or unit.needs_review
            state = "needs-review-translation" if review else "translated"
            if not review:
                element.set("approved", "yes")  # xliff2po marks every unapproved unit fuzzy
            ET.SubElement(element, "target", {"state": state}).text = unit.translation
        if unit.state is State.STALE and unit.previous_source is not None:
            previous = ET.SubElement(element, "alt-trans", {"origin": "previous-source"})
            ET.SubElement(previous, "source").text = unit.previous_source
            ET.SubElement(previous, "target").text = unit.translation
        place = where_written(scenario, unit)
        where = f"{place[0]}:{place[1]}: " if place else ""
        ET.SubElement(element, "note", {"from": "developer"}).text = where + describe(unit.key)
        if unit.note:
            ET.SubElement(element, "note", {"from": "translator"}).text = unit.note
    ET.indent(root, space="  ")
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(root, encoding="unicode") + "\n"


def _name(element: Element) -> str:
    """An element's local name: XLIFF is read by name, whatever prefix its namespace has."""
    return element.tag.rsplit(":", 1)[-1]


def _child(element: Element, name: str) -> Element | None:
    return next((c for c in element.children if _name(c) == name), None)


def read_xliff(path: Path) -> tuple[str | None, list[Incoming]]:
    """The locale the file declares (its target-language) and its entries."""
    try:
        root = read_xml_file(path, max_bytes=MAX_FILE_BYTES).root
    except OSError as problem:
        raise ExchangeError(f"{path}: {problem.strerror or problem}") from None
    except XmlRefused as refused:
        d = refused.diagnostic
        raise ExchangeError(f"{path}:{d.line}:{d.column}: {d.message}", [error(
            "I18N012", f"malformed XLIFF file: {d.message.removeprefix('malformed XML: ')}",
            Location(path, d.line, d.column), hint=d.hint)]) from None
    if _name(root) != "xliff" or root.attrs.get("version") not in VERSIONS:
        raise ExchangeError(f"{path}: not an XLIFF 1.2 (or 1.1) file")
    languages = set()
    incoming = []
    for file in (c for c in root.children if _name(c) == "file"):
        if file.attrs.get("target-language"):
            languages.add(tag_from_gettext(file.attrs["target-language"]))
        body = _child(file, "body")
        for unit in _trans_units(body) if body else []:
            if unit.attrs.get("restype") != "x-gettext-domain-header":  # po2xliff's PO header
                incoming.append(_incoming(unit))
    if len(languages) > 1:
        raise ExchangeError(f"{path}: the file has several target languages "
                            f"({', '.join(sorted(languages))}); give one per file")
    return (languages.pop() if languages else None), incoming


def _trans_units(node: Element):
    for child in node.children:
        if _name(child) == "trans-unit":
            yield child
        elif _name(child) == "group":
            yield from _trans_units(child)


def _incoming(unit: Element) -> Incoming:
    source, target = _child(unit, "source"), _child(unit, "target")
    unsupported = None
    if any(part is not None and part.children for part in (source, target)):
        unsupported = "inline markup in <source> or <target> is not used by scenario texts"
    state = target.attrs.get("state", "translated") if target is not None else "new"
    notes = [n for n in unit.children if _name(n) == "note"]
    translator_notes = [n.text for n in notes if n.attrs.get("from") in ("translator", "po-translator")]
    developer_notes = "\n".join(n.text for n in notes if n.attrs.get("from") == "developer")
    return Incoming(
        key=unit.attrs.get("id") or None, source=source.text if source is not None else "",
        translation=target.text if target is not None else "",
        needs_review=state in REVIEW_STATES,
        untranslated_state=state if state in UNTRANSLATED_STATES else None,
        note="\n".join(translator_notes) or None, line=unit.line, column=unit.column,
        translation_line=target.line if target is not None else 0,
        translation_column=target.column if target is not None else 0,
        unsupported=unsupported, places=_places(unit, developer_notes),
        previous_key=_previous_key(unit))


def _contexts(node: Element, group_name: str) -> list[dict[str, str]]:
    """The <context>s of each <context-group> of a name, as {context-type: text}."""
    groups = []
    for group in node.children:
        if _name(group) == "context-group" and group.attrs.get("name") == group_name:
            groups.append({c.attrs.get("context-type", ""): c.text for c in group.children
                           if _name(c) == "context"})
    return groups


def _places(unit: Element, developer_notes: str) -> tuple[tuple[str, int], ...]:
    """Where the unit's text is written: po2xliff's `po-reference` contexts, or the place our
    developer note starts with."""
    found = [(group["sourcefile"], int(group["linenumber"])) for group in _contexts(unit, "po-reference")
             if group.get("sourcefile") and group.get("linenumber", "").isdigit()]
    found += [(file, int(line)) for file, line in _PLACE_IN_NOTE.findall(developer_notes)]
    return tuple(found)


_PLACE_IN_NOTE = re.compile(r"^(\S+\.ya?ml):(\d+): ", re.MULTILINE)


def _previous_key(unit: Element) -> str | None:
    """The msgctxt po2xliff keeps with a fuzzy entry's previous source."""
    for alternative in (c for c in unit.children if _name(c) == "alt-trans"):
        for group in _contexts(alternative, "po-entry"):
            if group.get("x-po-msgctxt"):
                return group["x-po-msgctxt"]
    return None
