"""Reading untrusted XML safely, remembering the line and column of every element.

The standard library's expat parser is used directly, with every door to the outside shut: no
document type definition is read, parameter entities are never parsed, and any declaration that
could define an entity (an internal DTD subset, an ENTITY or NOTATION declaration) stops the parse
at once, before anything is expanded. That refuses "billion laughs" expansions and external entity
tricks alike. A bare `<!DOCTYPE game SYSTEM "game.dtd">` line, as game files carry, only names a
DTD; it is noted and never fetched; so is one with an empty internal subset (`"game.dtd"[]`),
which declares nothing. Size, depth and element count are limited.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from xml.parsers import expat

from .diagnostics import Diagnostic, Location, error, info

MAX_XML_BYTES = 16 * 1024 * 1024
MAX_XML_DEPTH = 64
MAX_XML_ELEMENTS = 500_000


@dataclass
class Element:
    """One XML element: its tag, attributes, children and where its start tag begins."""

    tag: str
    attrs: dict[str, str]
    line: int
    column: int
    children: list[Element] = field(default_factory=list)
    text: str = ""

    def find_all(self, tag: str) -> list[Element]:
        return [child for child in self.children if child.tag == tag]

    def find(self, tag: str) -> Element | None:
        return next((child for child in self.children if child.tag == tag), None)

    def iter(self, tag: str):
        """Every descendant with this tag, in document order."""
        stack = list(reversed(self.children))
        while stack:
            element = stack.pop()
            if element.tag == tag:
                yield element
            stack.extend(reversed(element.children))


class XmlRefused(Exception):
    """The XML was refused (malformed, hostile or too large); carries the diagnostic."""

    def __init__(self, diagnostic: Diagnostic):
        super().__init__(diagnostic.message)
        self.diagnostic = diagnostic


class _Stop(Exception):
    def __init__(self, code: str, message: str, hint: str | None = None):
        super().__init__(message)
        self.code, self.message, self.hint = code, message, hint


@dataclass
class XmlDocument:
    path: Path
    root: Element
    notes: list[Diagnostic] = field(default_factory=list)

    def where(self, element: Element) -> Location:
        return Location(self.path, element.line, element.column)


def read_xml_file(path: Path | str, max_bytes: int = MAX_XML_BYTES) -> XmlDocument:
    """Read and parse an XML file. OSError propagates (an I/O problem); XmlRefused otherwise."""
    path = Path(path)
    size = path.stat().st_size
    if size > max_bytes:
        raise XmlRefused(error("TPL003", f"the file is {size} bytes; the limit is {max_bytes}",
                               Location(path, 0, 0), hint="a game file is far smaller than this"))
    return parse_xml(path.read_bytes(), path, max_bytes)


def parse_xml(data: bytes, path: Path | str, max_bytes: int = MAX_XML_BYTES) -> XmlDocument:
    path = Path(path)
    if len(data) > max_bytes:
        raise XmlRefused(error("TPL003", f"the document is {len(data)} bytes; the limit is {max_bytes}",
                               Location(path, 0, 0)))
    builder = _Builder(path, _has_empty_subset(data))
    parser = builder.parser
    try:
        parser.Parse(data, True)
    except _Stop as stop:
        where = Location(path, parser.CurrentLineNumber, parser.CurrentColumnNumber + 1)
        raise XmlRefused(error(stop.code, stop.message, where, hint=stop.hint)) from None
    except expat.ExpatError as problem:
        message = expat.ErrorString(problem.code) if problem.code else str(problem)
        where = Location(path, problem.lineno, problem.offset + 1)
        raise XmlRefused(error("TPL001", f"malformed XML: {message}", where,
                               hint="fix the XML at this place; the file was not imported")) from None
    except LookupError as problem:  # an encoding Python does not know, named in the declaration
        raise XmlRefused(error("TPL001", f"malformed XML: {problem}", Location(path, 1, 1),
                               hint="save the file as UTF-8 and declare encoding=\"UTF-8\"")) from None
    except ValueError:  # expat reads UTF-8, UTF-16 and one-byte encodings, no other (UTF-7, Shift JIS ...)
        declared = _DECLARED_ENCODING.search(data[:200])
        name = declared.group(2).decode("ascii", "replace") if declared else "?"
        column = declared.start(1) + 1 if declared else 1
        raise XmlRefused(error("TPL001", f"the file declares the encoding {name!r}, which the XML reader does not "
                               "read (it reads UTF-8, UTF-16 and one-byte encodings)", Location(path, 1, column),
                               hint="save the file as UTF-8 and declare encoding=\"UTF-8\"")) from None
    _refuse_unresolved_entities(data, path)
    if builder.root is None:
        raise XmlRefused(error("TPL001", "malformed XML: no root element", Location(path, 1, 1)))
    return XmlDocument(path, builder.root, builder.notes)


_EMPTY_SUBSET = re.compile(rb"<!DOCTYPE[^\[>]*\[\s*\]\s*>")
_DECLARED_ENCODING = re.compile(rb"<\?xml[^>]*?(encoding)\s*=\s*[\"']([A-Za-z0-9._-]{1,40})[\"']")


def _has_empty_subset(data: bytes) -> bool:
    """Whether the document type declaration's internal subset is `[]`: nothing declared."""
    start = data.find(b"<!DOCTYPE")
    return start >= 0 and _EMPTY_SUBSET.match(data, start) is not None


_PREDEFINED = r"(?:lt|gt|amp|quot|apos|#[0-9]+|#x[0-9a-fA-F]+)"
_ENTITY_REFERENCE = re.compile(rb"&(?!" + _PREDEFINED.encode() + rb";)([A-Za-z_:][-A-Za-z0-9._:]*);")
_OPAQUE = re.compile(rb"<!--.*?-->|<!\[CDATA\[.*?\]\]>", re.DOTALL)


def _refuse_unresolved_entities(data: bytes, path: Path) -> None:
    """Refuse references to entities a named (and never read) DTD might define.

    With an external DTD named, expat cannot know such an entity and leaves it out of attribute
    values without a word; a reference to it would silently lose text, so it is refused here.
    Comments and CDATA sections are masked first (their text is not parsed for entities).
    """
    if b"<!DOCTYPE" not in data:
        return  # expat itself reports an undefined entity as an error
    masked = _OPAQUE.sub(lambda m: re.sub(rb"[^\n]", b" ", m.group(0)), data)
    found = _ENTITY_REFERENCE.search(masked)
    if found:
        line = masked.count(b"\n", 0, found.start()) + 1
        column = found.start() - (masked.rfind(b"\n", 0, found.start()) + 1) + 1
        raise XmlRefused(error("TPL002", f"the document uses the entity "
                               f"{found.group(1).decode('utf-8', 'replace')!r}, which is never read from a DTD",
                               Location(path, line, column), hint="replace the entity reference by its text"))


class _Builder:
    """Builds Elements from expat's callbacks and refuses every kind of declaration."""

    def __init__(self, path: Path, empty_subset: bool = False):
        self.path = path
        self.empty_subset = empty_subset
        self.root: Element | None = None
        self.stack: list[Element] = []
        self.count = 0
        self.notes: list[Diagnostic] = []
        parser = expat.ParserCreate()
        parser.SetParamEntityParsing(expat.XML_PARAM_ENTITY_PARSING_NEVER)
        parser.buffer_text = True
        parser.StartDoctypeDeclHandler = self.doctype
        parser.EntityDeclHandler = self.entity
        parser.UnparsedEntityDeclHandler = self.entity
        parser.NotationDeclHandler = self.notation
        parser.ExternalEntityRefHandler = self.external_entity
        parser.SkippedEntityHandler = self.skipped_entity
        parser.StartElementHandler = self.start
        parser.EndElementHandler = self.end
        parser.CharacterDataHandler = self.characters
        self.parser = parser

    def _here(self) -> Location:
        return Location(self.path, self.parser.CurrentLineNumber, self.parser.CurrentColumnNumber + 1)

    def doctype(self, name, system_id, public_id, has_internal_subset):
        if has_internal_subset and not self.empty_subset:
            raise _Stop("TPL002", f"the document type declaration of <{name}> has an internal "
                        "subset; declarations inside a document are refused",
                        "entity declarations can expand without bound or read local files; "
                        "remove the [...] part of the DOCTYPE")
        self.notes.append(info("TPL008", f"the document names the DTD {system_id or public_id!r}; "
                               "it was not read", self._here()))

    def entity(self, name, *rest):
        raise _Stop("TPL002", f"the document declares the entity {name!r}; entity declarations "
                    "are refused", "remove the ENTITY declaration")

    def notation(self, name, *rest):
        raise _Stop("TPL002", f"the document declares the notation {name!r}; declarations are refused")

    def external_entity(self, context, base, system_id, public_id):
        raise _Stop("TPL002", f"the document refers to the external entity {system_id!r}; "
                    "external entities are never read")

    def skipped_entity(self, name, is_parameter_entity):
        raise _Stop("TPL002", f"the document uses the undeclared entity {name!r}",
                    "replace the entity reference by its text")

    def start(self, tag, attrs):
        self.count += 1
        if self.count > MAX_XML_ELEMENTS:
            raise _Stop("TPL003", f"the document has more than {MAX_XML_ELEMENTS} elements")
        if len(self.stack) >= MAX_XML_DEPTH:
            raise _Stop("TPL003", f"elements nest more than {MAX_XML_DEPTH} deep")
        element = Element(tag, dict(attrs), self.parser.CurrentLineNumber,
                          self.parser.CurrentColumnNumber + 1)
        if self.stack:
            self.stack[-1].children.append(element)
        else:
            self.root = element
        self.stack.append(element)

    def end(self, tag):
        self.stack.pop()

    def characters(self, text):
        if self.stack:
            self.stack[-1].text += text
