"""Reading YAML safely, remembering where every value came from.

PyYAML's own loaders keep the last of two duplicate keys, read `NO` as false and `1:30` as a
number, and recurse without bound. This reader walks PyYAML's event stream (iterative, no
recursion) and builds plain Python data itself, with the YAML 1.2 core schema for plain scalars,
hard limits, and the line and column of every value, reachable by JSON pointer.
"""
from __future__ import annotations

import math
import re
import stat
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, NoReturn

import yaml
from yaml import events

from .diagnostics import Diagnostic, Location, error
from .safewrite import Fingerprint

MAX_FILE_BYTES = 8 * 1024 * 1024
MAX_DEPTH = 64
MAX_ALIAS_NODES = 100_000
# libyaml's parser when PyYAML was built with it (several times faster on large maps); the same
# events and marks either way.
_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
# The integers every JSON reader holds exactly (RFC 7493); scenario numbers are far smaller.
MAX_EXACT_INT = 2 ** 53 - 1

_CORE_TAG = "tag:yaml.org,2002:"
_ALLOWED_TAGS = {_CORE_TAG + t for t in ("str", "int", "float", "bool", "null", "map", "seq")}

_NULL = re.compile(r"^(?:~|null|Null|NULL|)$")
_BOOL = {"true": True, "True": True, "TRUE": True, "false": False, "False": False, "FALSE": False}
_INT10 = re.compile(r"^[-+]?[0-9]+$")
_INT8 = re.compile(r"^0o[0-7]+$")
_INT16 = re.compile(r"^0x[0-9a-fA-F]+$")
_FLOAT = re.compile(r"^[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?$")
_INF = re.compile(r"^[-+]?\.(?:inf|Inf|INF)$")
_NAN = re.compile(r"^\.(?:nan|NaN|NAN)$")


class NumberOutOfRange(ValueError):
    """A number no scenario can use: not finite, or an integer beyond what JSON holds exactly."""


def resolve_plain(text: str):
    """The value of an unquoted scalar under the YAML 1.2 core schema.

    Anything that is not null, a boolean or a number stays a string: `NO`, `yes`, `2021-01-01`
    and `1:30` are strings here. Raises NumberOutOfRange for `.nan`, `.inf`, a float literal
    that overflows (`1e999`) and an integer beyond +-(2**53 - 1): JSON Schema cannot check them,
    and no count, cost or value needs them.
    """
    if _NULL.match(text):
        return None
    if text in _BOOL:
        return _BOOL[text]
    if _INT10.match(text):
        return _exact_int(text.lstrip("+-"), 10, text.startswith("-"), text)
    if _INT8.match(text):
        return _exact_int(text[2:], 8, False, text)
    if _INT16.match(text):
        return _exact_int(text[2:], 16, False, text)
    if _FLOAT.match(text):
        value = float(text)
        if math.isinf(value):
            raise NumberOutOfRange(f"the number {_shortened(text)} is too large")
        return value
    if _INF.match(text) or _NAN.match(text):
        raise NumberOutOfRange(f"{text} is not a number a scenario can use")
    return text


def _exact_int(digits: str, base: int, negative: bool, text: str) -> int:
    digits = digits.lstrip("0") or "0"
    # Checked by length first: converting thousands of digits is slow, or refused by Python.
    if len(digits) > {8: 18, 10: 16, 16: 14}[base] or int(digits, base) > MAX_EXACT_INT:
        raise NumberOutOfRange(f"the integer {_shortened(text)} is beyond +-{MAX_EXACT_INT:,}")
    value = int(digits, base)
    return -value if negative else value


def _shortened(text: str) -> str:
    return text if len(text) <= 24 else f"{text[:12]}...{text[-6:]} ({len(text)} characters)"


def reads_back_as_text(text: str) -> bool:
    """Whether `text`, written unquoted, would read back as this same string."""
    try:
        return isinstance(resolve_plain(text), str)
    except NumberOutOfRange:
        return False


def _resolve_tagged(tag: str, text: str):
    kind = tag[len(_CORE_TAG):]
    if kind == "str":
        return text
    value = resolve_plain(text)
    expected: Any = {"int": int, "float": (int, float), "bool": bool, "null": type(None)}[kind]
    if kind == "int" and isinstance(value, bool) or not isinstance(value, expected):
        raise ValueError(f"{text!r} is not a valid !!{kind}")
    return float(value) if kind == "float" else value


def escape_pointer_token(token) -> str:
    return str(token).replace("~", "~0").replace("/", "~1")


def join_pointer(base: str, token) -> str:
    return f"{base}/{escape_pointer_token(token)}"


@dataclass
class SourceDoc:
    """One YAML file: its data and the position of each value and key."""

    path: Path
    data: object
    text: str
    positions: dict[str, tuple[int, int]] = field(default_factory=dict)
    key_positions: dict[str, tuple[int, int]] = field(default_factory=dict)
    # Only when asked for (parse_yaml(..., spans=True)), for rewriting values in place:
    spans: dict[str, ScalarSpan] = field(default_factory=dict)
    uses_aliases: bool = False
    fingerprint: Fingerprint | None = None   # of the bytes read, when read from a file

    def locate(self, pointer: str, key: bool = False) -> Location:
        """The place of the value at `pointer` (or of its key), falling back to its parent."""
        table = self.key_positions if key and pointer in self.key_positions else self.positions
        probe = pointer
        while True:
            if probe in table:
                line, column = table[probe]
                return Location(self.path, line, column, pointer)
            if not probe:
                return Location(self.path, 1, 1, pointer)
            probe = probe.rsplit("/", 1)[0]
            table = self.positions

    def line_text(self, line: int) -> str:
        """The text of a line (counted as editors count them: U+2028 and U+0085 do not break)."""
        if self._lines is None:
            self._lines = LINE_BREAK.split(self.text)
        return self._lines[line - 1] if 0 < line <= len(self._lines) else ""

    _lines: list[str] | None = field(default=None, init=False, repr=False, compare=False)


LINE_BREAK = re.compile(r"\r\n|\r|\n")
# YAML 1.1 readers (PyYAML) also break lines at these; YAML 1.2 and editors do not.
_OTHER_BREAKS = "\x85\u2028\u2029"


class YamlRefused(Exception):
    """The file cannot be read; carries the diagnostic that says why."""

    def __init__(self, diagnostic: Diagnostic):
        super().__init__(diagnostic.message)
        self.diagnostic = diagnostic


def _mark_location(path: Path, mark, pointer: str = "") -> Location:
    if mark is None:
        return Location(path, 1, 1, pointer)
    return Location(path, mark.line + 1, mark.column + 1, pointer)


def decode_source(raw: bytes, path: Path) -> str:
    """UTF-8 text of a file, or a diagnostic at the first byte that is not UTF-8."""
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        before = raw[:exc.start]
        line = before.count(b"\n") + 1
        column = exc.start - (before.rfind(b"\n") + 1) + 1
        raise YamlRefused(error(
            "YAML003", f"the file is not UTF-8: byte 0x{raw[exc.start]:02x} cannot be decoded",
            Location(path, line, column),
            hint="save the file as UTF-8 (without changing its characters)")) from None


def read_yaml_file(path: Path, max_bytes: int | None = None) -> SourceDoc:
    """Read and parse one YAML file. Raises YamlRefused with a diagnostic on any problem."""
    max_bytes = MAX_FILE_BYTES if max_bytes is None else max_bytes
    try:
        status = path.stat()
        if not stat.S_ISREG(status.st_mode):  # a FIFO or a device would block or never end
            raise YamlRefused(error("IO001", "cannot read the file: it is not a regular file",
                                    Location(path, 1, 1), hint="replace it by a YAML file"))
        size = status.st_size
        if size > max_bytes:
            raise YamlRefused(error(
                "YAML002", f"the file is {size:,} bytes, over the limit of {max_bytes:,}",
                Location(path, 1, 1), hint="split the data or check that this is the right file"))
        raw = path.read_bytes()
    except OSError as exc:
        raise YamlRefused(error("IO001", f"cannot read the file: {exc.strerror}",
                                Location(path, 1, 1))) from None
    if len(raw) > max_bytes:
        raise YamlRefused(error("YAML002", f"the file is over the limit of {max_bytes:,} bytes",
                                Location(path, 1, 1)))
    doc = parse_yaml(decode_source(raw, path), path)
    doc.fingerprint = Fingerprint.of(raw)
    return doc


@dataclass(frozen=True)
class ScalarSpan:
    """Where a scalar value is written: text[start:end], in which style, in a flow collection?"""

    start: int
    end: int
    style: str | None      # None (plain), "'", '"', "|" or ">"
    in_flow: bool


def parse_yaml(text: str, path: Path, spans: bool = False) -> SourceDoc:
    """Parse YAML text into a SourceDoc. Raises YamlRefused with a diagnostic on any problem.
    With `spans`, also record where each scalar value is written (SourceDoc.spans)."""
    stand_ins = StandIns.for_text(text)
    try:
        return _parse(text, path, spans, stand_ins, _LOADER)
    except _LibraryNestingLimit:
        # The libyaml in PyYAML's wheels (6.0.4 on) refuses 1000 levels itself, and meets them
        # before the builder has seen our 65th: inside `[[[...` its scanner reads ahead along the
        # line for a key. PyYAML's Python parser has no such limit and gives the same events, so
        # the refused file is read again with it and our limit (YAML008, at its place) decides.
        return _parse(text, path, spans, stand_ins, yaml.SafeLoader)


class _LibraryNestingLimit(Exception):
    """libyaml refused the nesting depth before our own limit could."""


def _parse(text: str, path: Path, spans: bool, stand_ins: StandIns, loader) -> SourceDoc:
    builder = _Builder(path, stand_ins, spans)
    try:
        for event in yaml.parse(stand_ins.hide(text), Loader=loader):
            builder.feed(event)
    except YamlRefused:
        raise
    except yaml.MarkedYAMLError as exc:
        if exc.problem == "exceeded maximum nesting depth" and loader is not yaml.SafeLoader:
            raise _LibraryNestingLimit from None
        mark = exc.problem_mark or exc.context_mark
        problem = stand_ins.show(exc.problem or exc.context or "invalid YAML")
        raise YamlRefused(error("YAML001", f"YAML syntax error: {problem}",
                                _mark_location(path, mark))) from None
    except yaml.YAMLError as exc:
        line, column = _reader_error_position(exc, text)
        raise YamlRefused(error("YAML001", f"YAML syntax error: {stand_ins.show(_one_line(exc))}",
                                Location(path, line, column))) from None
    return SourceDoc(path, builder.result, text, builder.positions, builder.key_positions,
                     builder.spans or {}, builder.uses_aliases)


class StandIns:
    """U+0085, U+2028 and U+2029 are text under YAML 1.2 but line breaks to PyYAML, which would
    fold them into spaces and count lines differently from every editor. They are read as
    unused noncharacters instead, and given back in the values."""

    def __init__(self, pairs: dict[str, str]):
        self.hidden = str.maketrans(pairs)
        self.shown = str.maketrans({v: k for k, v in pairs.items()})
        self.active = bool(pairs)

    @classmethod
    def for_text(cls, text: str) -> StandIns:
        wanted = [ch for ch in _OTHER_BREAKS if ch in text]
        if not wanted:
            return cls({})
        free = (chr(c) for c in range(0xFDD0, 0xFDF0) if chr(c) not in text)
        return cls(dict(zip(wanted, free, strict=False)))

    def hide(self, text: str) -> str:
        return text.translate(self.hidden) if self.active else text

    def show(self, text: str) -> str:
        return text.translate(self.shown) if self.active else text


def _reader_error_position(exc, text: str) -> tuple[int, int]:
    position = getattr(exc, "position", None)
    if position is None:
        return 1, 1
    before = text[:position]
    return before.count("\n") + 1, position - (before.rfind("\n") + 1) + 1


def _one_line(exc) -> str:
    return " ".join(str(exc).split())


class _Container:
    __slots__ = ("value", "pointer", "anchor", "pending_key", "pending_key_mark", "is_map",
                 "first_position", "first_key_position", "flow")

    def __init__(self, value, pointer, anchor, is_map, first_position, first_key_position,
                 flow=False):
        self.value = value
        self.pointer = pointer
        self.anchor = anchor
        self.is_map = is_map
        self.flow = flow
        self.pending_key = None
        self.pending_key_mark = None
        # Where this container's descendants begin in the builder's lists of recorded
        # positions: they are recorded one after another, so an alias copies them by slice.
        self.first_position = first_position
        self.first_key_position = first_key_position


@dataclass
class _Anchor:
    """An anchored value, and its descendants' entries in _Builder.position_order (and
    key_position_order)."""

    value: object
    pointer: str
    positions: slice = field(default_factory=lambda: slice(0, 0))
    key_positions: slice = field(default_factory=lambda: slice(0, 0))


class _Builder:
    """Turns PyYAML events into data and positions, enforcing the limits."""

    def __init__(self, path: Path, stand_ins: StandIns, spans: bool = False):
        self.path = path
        self.stand_ins = stand_ins
        self.spans: dict[str, ScalarSpan] | None = {} if spans else None
        self.flow_depth = 0
        self.uses_aliases = False
        self.stack: list[_Container] = []
        self.result = None
        self.positions: dict[str, tuple[int, int]] = {}
        self.key_positions: dict[str, tuple[int, int]] = {}
        self.position_order: list[str] = []       # the keys of `positions`, in order recorded
        self.key_position_order: list[str] = []
        self.anchors: dict[str, _Anchor] = {}
        self.alias_nodes = 0
        self.documents = 0

    def refuse(self, code: str, message: str, mark, hint: str | None = None) -> NoReturn:
        raise YamlRefused(error(code, message, _mark_location(self.path, mark), hint=hint))

    def _place(self, pointer: str, mark) -> None:
        self.positions[pointer] = (mark.line + 1, mark.column + 1)
        self.position_order.append(pointer)

    # -- where the next value goes ------------------------------------------------------------
    def _next_pointer(self, mark) -> str | None:
        """The pointer of the value about to be added, or None when it is a mapping key."""
        if not self.stack:
            return ""
        top = self.stack[-1]
        if top.is_map:
            if top.pending_key is None:
                return None
            return join_pointer(top.pointer, top.pending_key)
        return join_pointer(top.pointer, len(top.value))

    def _attach(self, value, pointer: str, mark) -> None:
        if not self.stack:
            self.result = value
            return
        top = self.stack[-1]
        if top.is_map:
            key = top.pending_key
            top.value[key] = value
            if top.pending_key_mark is not None:
                self.key_positions[pointer] = top.pending_key_mark
            self.key_position_order.append(pointer)
            top.pending_key = None
        else:
            top.value.append(value)

    def _take_key(self, key_text: str, mark) -> None:
        top = self.stack[-1]
        if key_text in top.value:
            first = self.key_positions.get(join_pointer(top.pointer, key_text))
            where = f" (first at line {first[0]}, column {first[1]})" if first else ""
            self.refuse("YAML004", f"duplicate key {key_text!r}{where}", mark,
                        hint="YAML keeps only one of the two values; remove or rename one")
        top.pending_key = key_text
        top.pending_key_mark = (mark.line + 1, mark.column + 1)

    def _check_tag(self, tag, mark) -> None:
        if tag and tag not in ("!", "?") and tag not in _ALLOWED_TAGS:
            self.refuse("YAML007", f"the tag {tag!r} is not allowed", mark,
                        hint="scenario files hold plain data: remove the tag")

    # -- events ---------------------------------------------------------------------------------
    def feed(self, event) -> None:
        if isinstance(event, events.DocumentStartEvent):
            self.documents += 1
            if self.documents > 1:
                self.refuse("YAML005", "a scenario file holds one YAML document, this is the second",
                            event.start_mark)
        elif isinstance(event, events.ScalarEvent):
            self._scalar(event)
        elif isinstance(event, (events.MappingStartEvent, events.SequenceStartEvent)):
            self._start(event)
        elif isinstance(event, (events.MappingEndEvent, events.SequenceEndEvent)):
            self._end()
        elif isinstance(event, events.AliasEvent):
            self._alias(event)

    def _scalar(self, event) -> None:
        mark = event.start_mark
        self._check_tag(event.tag, mark)
        text = self.stand_ins.show(event.value)
        pointer = self._next_pointer(mark)
        if pointer is None:  # a mapping key: always text, as in JSON
            self._take_key(text, mark)
            if event.anchor:
                self.anchors[event.anchor] = _Anchor(text, "")
            return
        try:
            if event.tag and event.tag != "!" and event.tag in _ALLOWED_TAGS:
                value = _resolve_tagged(event.tag, text)
            elif not event.style and event.tag != "!":  # plain: None (Python) or "" (libyaml)
                value = resolve_plain(text)
            else:
                value = text
        except NumberOutOfRange as exc:
            self.refuse("YAML010", str(exc), mark,
                        hint="scenario numbers are finite and below 2**53; quote the value if it is text")
        except ValueError as exc:
            self.refuse("YAML007", str(exc), mark)
        self._place(pointer, mark)
        self._attach(value, pointer, mark)
        if self.spans is not None:
            self.spans[pointer] = ScalarSpan(mark.index, event.end_mark.index, event.style,
                                             self.flow_depth > 0)
        if event.anchor:
            self.uses_aliases = True
            self.anchors[event.anchor] = _Anchor(value, pointer)

    def _start(self, event) -> None:
        mark = event.start_mark
        self._check_tag(event.tag, mark)
        pointer = self._next_pointer(mark)
        if pointer is None:
            self.refuse("YAML006", "a mapping key must be plain text, not a mapping or a list", mark)
        if len(self.stack) >= MAX_DEPTH:
            self.refuse("YAML008", f"the data nests deeper than {MAX_DEPTH} levels", mark)
        is_map = isinstance(event, events.MappingStartEvent)
        value: dict | list = {} if is_map else []
        self._place(pointer, mark)
        self._attach(value, pointer, mark)
        flow = bool(event.flow_style)
        self.stack.append(_Container(value, pointer, event.anchor, is_map,
                                     len(self.position_order), len(self.key_position_order), flow))
        self.flow_depth += flow
        self.uses_aliases |= bool(event.anchor)

    def _end(self) -> None:
        done = self.stack.pop()
        self.flow_depth -= done.flow
        if done.anchor:
            self.anchors[done.anchor] = _Anchor(
                done.value, done.pointer,
                slice(done.first_position, len(self.position_order)),
                slice(done.first_key_position, len(self.key_position_order)))

    def _alias(self, event) -> None:
        mark = event.start_mark
        self.uses_aliases = True
        if event.anchor not in self.anchors:
            self.refuse("YAML001", f"unknown alias *{event.anchor}", mark)
        anchor = self.anchors[event.anchor]
        pointer = self._next_pointer(mark)
        if pointer is None:
            if not isinstance(anchor.value, str):
                self.refuse("YAML006", "a mapping key must be plain text", mark)
            self._take_key(anchor.value, mark)
            return
        copy, nodes = _copy_counting(anchor.value, MAX_ALIAS_NODES - self.alias_nodes)
        self.alias_nodes += nodes
        if copy is _TOO_MANY:
            self.refuse("YAML009", f"aliases expand to more than {MAX_ALIAS_NODES:,} values",
                        mark, hint="this looks like an alias bomb; write the data out instead")
        self._copy_positions(anchor, pointer, mark)
        self._attach(copy, pointer, mark)

    def _copy_positions(self, anchor: _Anchor, target: str, mark) -> None:
        """Every value of the copy is placed at the alias. The anchored value's descendants are
        a slice of the recorded positions, so this costs the size of the copy (which the alias
        budget bounds), never the size of the file."""
        here = (mark.line + 1, mark.column + 1)
        self._place(target, mark)
        cut = len(anchor.pointer)
        for order, table, part in ((self.position_order, self.positions, anchor.positions),
                                   (self.key_position_order, self.key_positions, anchor.key_positions)):
            for key in order[part]:
                copied = target + key[cut:]
                table[copied] = here
                order.append(copied)


_TOO_MANY = object()


def _copy_counting(value, budget: int):
    """A deep copy of plain data and its node count, or _TOO_MANY past the budget."""
    count = 0
    root: list = [None]
    work: list[tuple[Any, Any, Any]] = [(value, root, 0)]
    while work:
        item, parent, slot = work.pop()
        count += 1
        if count > budget:
            return _TOO_MANY, count
        if isinstance(item, dict):
            mapping: dict = {}
            parent[slot] = mapping
            for key, child in item.items():
                mapping[key] = None
                work.append((child, mapping, key))
        elif isinstance(item, list):
            sequence: list = [None] * len(item)
            parent[slot] = sequence
            for index, child in enumerate(item):
                work.append((child, sequence, index))
        else:
            parent[slot] = item
    return root[0], count
