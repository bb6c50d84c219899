"""XLIFF 1.2 files, the same model as the PO files, for tools that prefer XML.

A trans-unit is one text: its id is the stable key, <source> the source text, <target> the
translation with a state (translated, or needs-review-translation for a stale one, whose old
source is given in an <alt-trans>). Reading uses expat directly and refuses any DOCTYPE, so a
file can declare no entities, external or otherwise.
"""
from __future__ import annotations

import xml.etree.ElementTree as ET
from dataclasses import dataclass, field
from pathlib import Path
from xml.parsers import expat

from ..scenario import Scenario
from .exchange import ExchangeError, Incoming
from .model import State, describe, source_language, translation_units
from .po import where_written

XLIFF_NS = "urn:oasis:names:tc:xliff:document:1.2"
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
            state = "needs-review-translation" if unit.state is State.STALE else "translated"
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


@dataclass
class _Node:
    name: str  # local name, without the namespace
    attributes: dict[str, str]
    line: int
    column: int
    text: str = ""
    children: list["_Node"] = field(default_factory=list)

    def child(self, name: str) -> "_Node | None":
        return next((c for c in self.children if c.name == name), None)


class _Refused(Exception):
    pass


def _parse(data: bytes) -> _Node:
    parser = expat.ParserCreate(namespace_separator=" ")
    parser.SetParamEntityParsing(expat.XML_PARAM_ENTITY_PARSING_NEVER)
    stack: list[_Node] = []
    roots: list[_Node] = []

    def refuse_doctype(*_):
        raise _Refused("the file has a DOCTYPE; XLIFF needs none, and entities are not read")

    def start(name, attributes):
        node = _Node(name.rsplit(" ", 1)[-1], {k.rsplit(" ", 1)[-1]: v for k, v in attributes.items()},
                     parser.CurrentLineNumber, parser.CurrentColumnNumber + 1)
        (stack[-1].children if stack else roots).append(node)
        stack.append(node)

    def end(_name):
        stack.pop()

    def characters(text):
        if stack:
            stack[-1].text += text

    parser.StartDoctypeDeclHandler = refuse_doctype
    parser.EntityDeclHandler = refuse_doctype
    parser.ExternalEntityRefHandler = refuse_doctype
    parser.StartElementHandler = start
    parser.EndElementHandler = end
    parser.CharacterDataHandler = characters
    parser.Parse(data, True)
    return roots[0]


def read_xliff(path: Path) -> tuple[str | None, list[Incoming]]:
    """The locale the file declares (its target-language) and its entries."""
    try:
        if path.stat().st_size > MAX_FILE_BYTES:
            raise ExchangeError(f"{path}: the file is over the limit of {MAX_FILE_BYTES:,} bytes")
        root = _parse(path.read_bytes())
    except OSError as problem:
        raise ExchangeError(f"{path}: {problem.strerror or problem}") from None
    except _Refused as problem:
        raise ExchangeError(f"{path}: {problem}") from None
    except expat.ExpatError as problem:
        raise ExchangeError(f"{path}: not well-formed XML at line {problem.lineno}, column "
                            f"{problem.offset + 1}: {expat.errors.messages[problem.code]}") from None
    if root.name != "xliff" or root.attributes.get("version") != "1.2":
        raise ExchangeError(f"{path}: not an XLIFF 1.2 file")
    languages = set()
    incoming = []
    for file in (c for c in root.children if c.name == "file"):
        if file.attributes.get("target-language"):
            languages.add(file.attributes["target-language"])
        body = file.child("body")
        for unit in _trans_units(body) if body else []:
            incoming.append(_incoming(unit))
    if len(languages) > 1:
        raise ExchangeError(f"{path}: the file has several target languages "
                            f"({', '.join(sorted(languages))}); give one per file")
    return (languages.pop() if languages else None), incoming


def _trans_units(node: _Node):
    for child in node.children:
        if child.name == "trans-unit":
            yield child
        elif child.name == "group":
            yield from _trans_units(child)


def _incoming(unit: _Node) -> Incoming:
    source, target = unit.child("source"), unit.child("target")
    unsupported = None
    if any(part is not None and part.children for part in (source, target)):
        unsupported = "inline markup in <source> or <target> is not used by scenario texts"
    state = target.attributes.get("state", "translated") if target is not None else "new"
    translation = target.text if target is not None and state not in UNTRANSLATED_STATES else ""
    notes = [n.text for n in unit.children if n.name == "note" and n.attributes.get("from") == "translator"]
    return Incoming(
        key=unit.attributes.get("id") or None, source=source.text if source is not None else "",
        translation=translation, needs_review=state in REVIEW_STATES,
        note="\n".join(notes) or None, line=unit.line, column=unit.column,
        translation_line=target.line if target is not None else 0,
        translation_column=target.column if target is not None else 0,
        unsupported=unsupported)
