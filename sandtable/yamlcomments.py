"""The comments of a YAML file, carried across a rewrite.

A comment belongs to data: a comment on a line of its own (and a blank line) to the value that
follows it, a comment at the end of a line to the outermost value that starts on that line. So
each comment is anchored to a JSON pointer, and after the file is written again, whatever the
layout, it is put back before (or at the end of) the line where that value now starts. When the
data changed in between, the anchors follow it: list entries are matched by their identity (or
their content), and a comment whose value was removed moves to the value that followed it.

Why not ruamel.yaml: it attaches a comment to the value *before* it, so removing or reordering
entries drops or moves the comments of their neighbours; and it reads YAML differently from
sandtable's own reader (which refuses what ruamel accepts). Anchoring to the value that follows,
by the positions sandtable's reader already records, keeps each comment with what it describes.
"""
from __future__ import annotations

import bisect
import difflib
import json
import re
from collections import Counter
from dataclasses import dataclass, replace

import yaml

from .merge import identity
from .yamlsource import LINE_BREAK, SourceDoc, StandIns, join_pointer


@dataclass(frozen=True)
class Comment:
    """A comment exactly as written ('# ...'), or '' for a blank line."""

    text: str
    own_line: bool       # on a line of its own; else at the end of a line of data
    gap: int = 2         # spaces between the data and an end-of-line comment


@dataclass(frozen=True)
class Anchored:
    comment: Comment
    pointer: str | None  # the value it belongs to; None: the end of the document
    key: bool = False    # at the key of that mapping entry (else at the value itself)
    after: bool = False  # after the last entry of the collection at `pointer`, inside it


# -- finding comments ------------------------------------------------------------------------
_MAYBE_COMMENTED = re.compile(r"#|(?:^|[\r\n])[ \t]*[\r\n]")  # a comment, or a blank line


def read_comments(text: str) -> list[tuple[int, int, Comment]]:
    """(line from 1, column from 0, comment) for each comment and blank line outside the data,
    in order. Blank lines at the end of the file are left out: they are not the writer's."""
    if not _MAYBE_COMMENTED.search(text):
        return []
    hidden = StandIns.for_text(text).hide(text)
    spans = _token_spans(hidden)
    found: list[tuple[int, int, Comment]] = []
    token = 0
    start = 0
    for number, line in enumerate(LINE_BREAK.split(text), start=1):
        end = start + len(line)
        while token < len(spans) and spans[token][1] <= start:
            token += 1
        comment = _comment_in(line, start, spans, token)
        if comment is not None:
            found.append((number, len(line) - len(line.lstrip(" \t")), comment))
        elif not line.strip() and not _covered(start, end, spans, token):
            found.append((number, 0, Comment("", True)))
        start = end + (2 if text.startswith("\r\n", end) else 1)
    last_data_line = hidden.count("\n", 0, spans[-1][1]) + 1 if spans else 0
    while found and found[-1][2].text == "" and found[-1][0] > last_data_line:
        found.pop()
    return found


def _token_spans(text: str) -> list[tuple[int, int]]:
    """Where the tokens of a YAML text are. libyaml's scanner when it is installed (ten times
    quicker; positions count characters, as PyYAML's do), PyYAML's own otherwise."""
    for loader in (getattr(yaml, "CSafeLoader", None), yaml.SafeLoader):
        if loader is None:
            continue
        try:
            return [(t.start_mark.index, t.end_mark.index) for t in yaml.scan(text, Loader=loader)
                    if t.end_mark.index > t.start_mark.index]
        except yaml.YAMLError:
            if loader is yaml.SafeLoader:
                raise
    return []


def without_comments(text: str, found: list[tuple[int, int, Comment]]) -> str:
    """The text with its comments and blank lines taken out (lines joined by \\n)."""
    own = {line for line, _, c in found if c.own_line}
    ends = {line: c for line, _, c in found if not c.own_line}
    kept = []
    for number, line in enumerate(LINE_BREAK.split(text), start=1):
        if number in own:
            continue
        if number in ends:
            line = line.rstrip()[:-len(ends[number].text)].rstrip()
        kept.append(line)
    return "\n".join(kept)


def _comment_in(line: str, start: int, spans, token: int) -> Comment | None:
    column = line.find("#")
    while column >= 0:
        index = start + column
        at = token
        while at < len(spans) and spans[at][1] <= index:
            at += 1
        inside = at < len(spans) and spans[at][0] <= index
        if not inside and (column == 0 or line[column - 1] in " \t"):
            before = line[:column]
            own = not before.strip()
            gap = len(before) - len(before.rstrip())
            return Comment(line[column:].rstrip(), own, max(gap, 1))
        column = line.find("#", column + 1)
    return None


def _covered(start: int, end: int, spans, token: int) -> bool:
    """Whether a token (a block scalar, a quoted scalar over several lines) covers this line."""
    return token < len(spans) and spans[token][0] <= max(start, end - 1) and spans[token][1] > start


# -- anchoring them to values ----------------------------------------------------------------
class _Starts:
    """Where each value and key of a document starts, in document order: (line, column,
    depth, 0 for a key or 1 for a value, pointer)."""

    def __init__(self, doc: SourceDoc):
        entries = [(line, column, pointer.count("/"), 0 if key else 1, pointer)
                   for table, key in ((doc.key_positions, True), (doc.positions, False))
                   for pointer, (line, column) in table.items()]
        entries.sort()
        self.entries = entries
        self.lines = [e[0] for e in entries]
        self.keyed = doc.key_positions

    def on_line(self, line: int) -> list:
        return self.entries[bisect.bisect_left(self.lines, line):bisect.bisect_right(self.lines, line)]

    def next_line_after(self, line: int) -> int | None:
        at = bisect.bisect_right(self.lines, line)
        return self.lines[at] if at < len(self.lines) else None

    def owner(self, line: int):
        """The entry a comment on (or just before) `line` belongs to: the outermost mapping
        entry (by its key) or list entry that starts on the line."""
        here = self.on_line(line)
        # a mapping entry by its key, a list entry by its value; the whole document (which
        # starts where its first key does) only when nothing else starts on the line
        entries = [e for e in here if e[3] == 0 or (e[4] not in self.keyed and e[4])] or here
        return min(entries, key=lambda e: (e[2], e[3], e[1])) if entries else None

    def line_owner(self, line: int):
        """The entry a comment at the end of `line` belongs to: a list entry written on this
        line alone, else the outermost mapping entry whose key is on the line (so that the entry
        holding it stays one field a line, as it was written)."""
        found = self.owner(line)
        if found is None or found[3] == 0 or not self._goes_on(found[4], line):
            return found
        keys = [e for e in self.on_line(line) if e[3] == 0 and e[4].startswith(found[4] + "/")]
        return min(keys, key=lambda e: (e[2], e[1])) if keys else found

    def _goes_on(self, pointer: str, line: int) -> bool:
        """Whether the value at `pointer`, which starts on `line`, goes on after it."""
        at = bisect.bisect_right(self.lines, line)
        return at < len(self.entries) and self.entries[at][4].startswith(pointer + "/")


def anchor_comments(doc: SourceDoc, found: list | None = None) -> list[Anchored]:
    """The comments of a parsed document (`found` by read_comments, if already), each anchored
    to the value it belongs to."""
    found = read_comments(doc.text) if found is None else found
    if not found:
        return []
    starts = _Starts(doc)
    anchored = []
    for line, column, comment in found:
        if not comment.own_line:
            owner = starts.line_owner(line)
            if owner is not None:
                anchored.append(Anchored(comment, owner[4], owner[3] == 0))
                continue
            comment = replace(comment, own_line=True)  # after the end of a flow collection
        following = starts.next_line_after(line)
        if comment.text and (following is None or column > _indent(doc.line_text(following))):
            holder = _holder(doc, starts, line, column, following)   # indented as the entries above it
            if holder is not None:
                anchored.append(Anchored(comment, holder, after=True))
                continue
        if following is not None and following == doc.positions.get("", (0, 0))[0]:
            anchored.append(Anchored(comment, ""))   # above the first line: stays at the top
            continue
        owner = starts.owner(following) if following is not None else None
        anchored.append(Anchored(comment, owner[4], owner[3] == 0) if owner else Anchored(comment, None))
    return anchored


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip(" "))


def _holder(doc: SourceDoc, starts: _Starts, line: int, column: int, following: int | None) -> str | None:
    """The innermost collection that a comment on `line`, indented by `column`, ends: among
    the collections holding the last value above it, the deepest whose entries are indented
    no deeper than the comment, and that the value on the `following` line is not in (a comment
    between two one-line entries ends neither: it belongs to the entry below)."""
    at = bisect.bisect_left(starts.lines, line) - 1
    if at < 0:
        return None
    next_value = starts.owner(following) if following is not None else None
    parts = starts.entries[at][4].split("/")
    for depth in range(len(parts), 0, -1):
        pointer = "/".join(parts[:depth])
        if next_value is not None and (next_value[4] + "/").startswith(pointer + "/"):
            return None   # the collection goes on after the comment, so the comment does not end it
        indent = entry_indent(doc, pointer)
        if indent is not None and indent <= column:
            return pointer
    return None


def entry_indent(doc: SourceDoc, pointer: str) -> int | None:
    """How far the entries of the collection at `pointer` are indented, or None if it is not a
    collection with entries."""
    value = value_at(doc.data, pointer)
    if isinstance(value, dict) and value:
        found = doc.key_positions.get(join_pointer(pointer, next(iter(value))))
        return found[1] - 1 if found else None
    if isinstance(value, list) and value:
        found = doc.positions.get(join_pointer(pointer, 0))
        return _indent(doc.line_text(found[0])) if found else None
    return None


def value_at(data, pointer: str):
    for token in pointer.split("/")[1:]:
        token = token.replace("~1", "/").replace("~0", "~")
        if isinstance(data, dict):
            data = data.get(token)
        elif isinstance(data, list) and token.isdigit() and int(token) < len(data):
            data = data[int(token)]
        else:
            return None
    return data


# -- following the data through a change -----------------------------------------------------
def follow(anchored: list[Anchored], old_doc: SourceDoc, new_data) -> list[Anchored]:
    """The anchors moved to where their values are in `new_data`. A comment whose value is
    gone moves to the next value (in the old document's order) that is still there."""
    if not anchored:
        return []
    matched = matched_pointers(old_doc.data, new_data)
    starts = _Starts(old_doc)
    order = [e[4] for e in starts.entries]
    keys = [e[3] == 0 for e in starts.entries]
    index: dict[tuple[str, bool], int] = {}
    for at, (pointer, key) in enumerate(zip(order, keys, strict=True)):
        index.setdefault((pointer, key), at)
    surviving_after: list[int | None] = [None] * (len(order) + 1)
    for at in range(len(order) - 1, -1, -1):
        surviving_after[at] = at if order[at] in matched else surviving_after[at + 1]
    moved = []
    for item in anchored:
        if item.pointer is None:
            moved.append(item)
        elif item.pointer in matched:
            moved.append(Anchored(item.comment, matched[item.pointer], item.key, item.after))
        else:
            found = index.get((item.pointer, item.key), index.get((item.pointer, not item.key)))
            next_at = surviving_after[found] if found is not None else None
            comment = replace(item.comment, own_line=True)
            if next_at is None:
                moved.append(Anchored(comment, None))
            else:
                moved.append(Anchored(comment, matched[order[next_at]], keys[next_at]))
    return moved


SEQUENCE_MATCH_LIMIT = 2000   # beyond this many differing entries, match by identity alone


def matched_pointers(old, new) -> dict[str, str]:
    """Old pointer -> new pointer for every value of `old` still present in `new` (changed or
    not): mapping entries by key, list entries by identity or content."""
    found = {"": ""}
    work = [(old, new, "", "")]
    while work:
        before, after, old_at, new_at = work.pop()
        if isinstance(before, dict) and isinstance(after, dict):
            pairs = [(k, k) for k in before if k in after]
        elif isinstance(before, list) and isinstance(after, list):
            pairs = pair_entries(before, after)
        else:
            continue
        for old_key, new_key in pairs:
            old_child, new_child = join_pointer(old_at, old_key), join_pointer(new_at, new_key)
            found[old_child] = new_child
            work.append((before[old_key], after[new_key], old_child, new_child))
    return found


def pair_entries(before: list, after: list) -> list[tuple[int, int]]:
    """(old index, new index) of the list entries that are the same entry, changed or not."""
    old_keys, new_keys = [_entry_key(v) for v in before], [_entry_key(v) for v in after]
    head = 0
    while head < min(len(old_keys), len(new_keys)) and old_keys[head] == new_keys[head]:
        head += 1
    tail = 0
    while (tail < min(len(old_keys), len(new_keys)) - head
           and old_keys[-1 - tail] == new_keys[-1 - tail]):
        tail += 1
    pairs = [(i, i) for i in range(head)]
    middle_old, middle_new = old_keys[head:len(old_keys) - tail], new_keys[head:len(new_keys) - tail]
    if len(middle_old) + len(middle_new) > SEQUENCE_MATCH_LIMIT:
        by_key: dict[tuple, int] = {}
        for j, key in enumerate(middle_new):
            by_key.setdefault(key, j)
        pairs += [(head + i, head + by_key[key]) for i, key in enumerate(middle_old)
                  if key in by_key and key[0] != "value"]
    else:
        matcher = difflib.SequenceMatcher(None, middle_old, middle_new, autojunk=False)
        for tag, i1, i2, j1, j2 in matcher.get_opcodes():
            if tag in ("equal", "replace"):  # a replaced entry is the same entry, edited
                pairs += [(head + i1 + k, head + j1 + k) for k in range(min(i2 - i1, j2 - j1))]
    pairs += [(len(old_keys) - tail + k, len(new_keys) - tail + k) for k in range(tail)]
    return pairs


def _entry_key(value):
    found = identity(value)
    return found if found is not None else ("value", json.dumps(value, sort_keys=True, default=str))


# -- putting them back -----------------------------------------------------------------------
def place_comments(doc: SourceDoc, anchored: list[Anchored], all_own_line: bool = False) -> str:
    """`doc`'s text with the comments put back where their values now start."""
    if not anchored:
        return doc.text
    lines = LINE_BREAK.split(doc.text)
    ends_with_break = lines and lines[-1] == ""
    if ends_with_break:
        lines.pop()
    before: dict[int, list[str]] = {}
    after: dict[int, list[Comment]] = {}
    at_end: list[str] = []
    ends = _Ends(doc)
    for item in anchored:
        if item.after and item.pointer is not None:
            line, indent = ends.after(item.pointer)
            written = " " * indent + item.comment.text
            (at_end if line is None else before.setdefault(line, [])).append(written)
            continue
        line = _line_of(doc, item)
        if line is None or line > len(lines):
            at_end.append(item.comment.text)
        elif item.comment.own_line or all_own_line or after.get(line):
            text = item.comment.text
            before.setdefault(line, []).append(" " * _indent(lines[line - 1]) + text if text else "")
        else:
            after.setdefault(line, []).append(item.comment)
    out = []
    for number, text in enumerate(lines, start=1):
        out += before.get(number, [])
        if number in after:
            comment = after[number][0]
            text = text + " " * comment.gap + comment.text
        out.append(text)
    while at_end and not at_end[-1].strip():
        at_end.pop()   # blank lines at the end are not kept (read_comments leaves them out too)
    out += at_end
    return "\n".join(out) + ("\n" if out else "")


class _Ends:
    """Where a comment that ends a collection goes in a document: before the line of the first
    value after the collection (None: at the end), indented as the collection's entries."""

    def __init__(self, doc: SourceDoc):
        self.doc = doc
        self.starts: _Starts | None = None

    def after(self, pointer: str) -> tuple[int | None, int]:
        if self.starts is None:
            self.starts = _Starts(self.doc)
        indent = entry_indent(self.doc, pointer) or 0
        first = self.doc.positions.get(pointer)
        if first is None:
            return None, indent
        entries = self.starts.entries
        at = bisect.bisect_left(self.starts.lines, first[0])
        inside = pointer + "/"
        while at < len(entries) and (entries[at][0] == first[0] or entries[at][4] == pointer
                                     or entries[at][4].startswith(inside)):
            at += 1
        return (entries[at][0] if at < len(entries) else None), indent


def _line_of(doc: SourceDoc, item: Anchored) -> int | None:
    if item.pointer is None:
        return None
    table = doc.key_positions if item.key and item.pointer in doc.key_positions else doc.positions
    found = table.get(item.pointer)
    return found[0] if found else None


def comment_texts(text: str, found: list | None = None) -> Counter:
    """The comments of a text (not its blank lines), to check that none was lost."""
    found = read_comments(text) if found is None else found
    return Counter(c.text for _, _, c in found if c.text)
