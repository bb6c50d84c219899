"""Reading YAML safely, remembering where every value came from.

PyYAML's own loaders keep the last of two duplicate keys, read `NO` as false and `1:30` as a
number, and recurse without bound. This reader walks PyYAML's event stream (iterative, no
recursion) and builds plain Python data itself, with the YAML 1.2 core schema for plain scalars,
hard limits, and the line and column of every value, reachable by JSON pointer.
"""
from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, NoReturn

import yaml
from yaml import events

from .diagnostics import Diagnostic, Location, error

MAX_FILE_BYTES = 8 * 1024 * 1024
MAX_DEPTH = 64
MAX_ALIAS_NODES = 100_000
# libyaml's parser when PyYAML was built with it (several times faster on large maps); the same
# events and marks either way.
_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)

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


def resolve_plain(text: str):
    """The value of an unquoted scalar under the YAML 1.2 core schema.

    Anything that is not null, a boolean or a number stays a string: `NO`, `yes`, `2021-01-01`
    and `1:30` are strings here.
    """
    if _NULL.match(text):
        return None
    if text in _BOOL:
        return _BOOL[text]
    if _INT10.match(text):
        return int(text)
    if _INT8.match(text):
        return int(text[2:], 8)
    if _INT16.match(text):
        return int(text[2:], 16)
    if _FLOAT.match(text):
        return float(text)
    if _INF.match(text):
        return -math.inf if text.startswith("-") else math.inf
    if _NAN.match(text):
        return math.nan
    return text


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
        lines = self.text.splitlines()
        return lines[line - 1] if 0 < line <= len(lines) else ""


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
        size = path.stat().st_size
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
    return parse_yaml(decode_source(raw, path), path)


def parse_yaml(text: str, path: Path) -> SourceDoc:
    """Parse YAML text into a SourceDoc. Raises YamlRefused with a diagnostic on any problem."""
    builder = _Builder(path)
    try:
        for event in yaml.parse(text, Loader=_LOADER):
            builder.feed(event)
    except YamlRefused:
        raise
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        problem = exc.problem or exc.context or "invalid YAML"
        raise YamlRefused(error("YAML001", f"YAML syntax error: {problem}",
                                _mark_location(path, mark))) from None
    except yaml.YAMLError as exc:
        line, column = _reader_error_position(exc, text)
        raise YamlRefused(error("YAML001", f"YAML syntax error: {_one_line(exc)}",
                                Location(path, line, column))) from None
    return SourceDoc(path, builder.result, text, builder.positions, builder.key_positions)


def _reader_error_position(exc, text: str) -> tuple[int, int]:
    position = getattr(exc, "position", None)
    if position is None:
        return 1, 1
    before = text[:position]
    return before.count("\n") + 1, position - (before.rfind("\n") + 1) + 1


def _one_line(exc) -> str:
    return " ".join(str(exc).split())


class _Container:
    __slots__ = ("value", "pointer", "anchor", "pending_key", "pending_key_mark", "is_map")

    def __init__(self, value, pointer, anchor, is_map):
        self.value = value
        self.pointer = pointer
        self.anchor = anchor
        self.is_map = is_map
        self.pending_key = None
        self.pending_key_mark = None


class _Builder:
    """Turns PyYAML events into data and positions, enforcing the limits."""

    def __init__(self, path: Path):
        self.path = path
        self.stack: list[_Container] = []
        self.result = None
        self.positions: dict[str, tuple[int, int]] = {}
        self.key_positions: dict[str, tuple[int, int]] = {}
        self.anchors: dict[str, tuple[object, str]] = {}
        self.alias_nodes = 0
        self.documents = 0

    def refuse(self, code: str, message: str, mark, hint: str | None = None) -> NoReturn:
        raise YamlRefused(error(code, message, _mark_location(self.path, mark), hint=hint))

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
            self.key_positions[pointer] = top.pending_key_mark
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
        pointer = self._next_pointer(mark)
        if pointer is None:  # a mapping key: always text, as in JSON
            self._take_key(event.value, mark)
            if event.anchor:
                self.anchors[event.anchor] = (event.value, "")
            return
        if event.tag and event.tag != "!" and event.tag in _ALLOWED_TAGS:
            try:
                value = _resolve_tagged(event.tag, event.value)
            except ValueError as exc:
                self.refuse("YAML007", str(exc), mark)
        elif not event.style and event.tag != "!":  # plain: None (Python parser) or "" (libyaml)
            value = resolve_plain(event.value)
        else:
            value = event.value
        self.positions[pointer] = (mark.line + 1, mark.column + 1)
        self._attach(value, pointer, mark)
        if event.anchor:
            self.anchors[event.anchor] = (value, pointer)

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
        self.positions[pointer] = (mark.line + 1, mark.column + 1)
        self._attach(value, pointer, mark)
        self.stack.append(_Container(value, pointer, event.anchor, is_map))

    def _end(self) -> None:
        done = self.stack.pop()
        if done.anchor:
            self.anchors[done.anchor] = (done.value, done.pointer)

    def _alias(self, event) -> None:
        mark = event.start_mark
        if event.anchor not in self.anchors:
            self.refuse("YAML001", f"unknown alias *{event.anchor}", mark)
        value, source_pointer = self.anchors[event.anchor]
        pointer = self._next_pointer(mark)
        if pointer is None:
            if not isinstance(value, str):
                self.refuse("YAML006", "a mapping key must be plain text", mark)
            self._take_key(value, mark)
            return
        copy, nodes = _copy_counting(value, MAX_ALIAS_NODES - self.alias_nodes)
        self.alias_nodes += nodes
        if copy is _TOO_MANY:
            self.refuse("YAML009", f"aliases expand to more than {MAX_ALIAS_NODES:,} values",
                        mark, hint="this looks like an alias bomb; write the data out instead")
        self._copy_positions(source_pointer, pointer, mark)
        self._attach(copy, pointer, mark)

    def _copy_positions(self, source: str, target: str, mark) -> None:
        here = (mark.line + 1, mark.column + 1)
        self.positions[target] = here
        prefix = source + "/"
        for table in (self.positions, self.key_positions):
            for key in [k for k in table if k.startswith(prefix)]:
                table[target + key[len(source):]] = here


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
