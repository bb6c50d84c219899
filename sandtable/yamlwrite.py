"""Writing YAML canonically and atomically.

Canonical: keys in a stable order (identity and name first, the rest alphabetical), short leaf
lists and mappings on one line, text never folded. A list whose schema says `x-flow` (an outline's
ring of points) is written on one line however long, so that moving one point changes one line.
The same data always gives the same bytes, so a save changes only the lines whose values changed.

Safe: before anything is written the text is read back and compared with the data, so a save can
never silently change a value; it is then written by sandtable/safewrite.py (atomically, inside
its folder, and never over another program's save made meanwhile).
"""
from __future__ import annotations

import io
import json
import re
from collections import Counter
from pathlib import Path

import yaml

from .safewrite import ANY, Fingerprint, Unchecked, atomic_write_text
from .schemas import SchemaNode, root_node
from .yamlcomments import anchor_comments, comment_texts, follow, place_comments, read_comments, without_comments
from .yamlpatch import NotAValueChange, patch_values, same_value
from .yamlsource import MAX_FILE_BYTES, SourceDoc, YamlRefused, join_pointer, parse_yaml, reads_back_as_text

# With no schema to follow, these keys lead a mapping and the rest follow alphabetically.
LEADING_KEYS = ("locale", "id", "space", "between", "op", "kind", "name", "short_name", "title")
FLOW_WIDTH = 100
# PyYAML breaks lines longer than its width; no line of ours is broken (text is never folded).
LINE_WIDTH = 1 << 30


def _fallback_order(key: str):
    try:
        return (0, LEADING_KEYS.index(key), "")
    except ValueError:
        return (1, 0, key)


class _FlowList(list):
    """A list the schema asks to write on one line (`x-flow`)."""


def canonical(data, schema: SchemaNode | None = None):
    """The same data with every mapping's keys in canonical order: the schema's, then A-Z."""
    if isinstance(data, dict):
        order = schema.property_order() if schema is not None else []

        def rank(key):
            if key in order:
                return (0, order.index(key), "")
            return (1,) + _fallback_order(key)[1:] if schema is None else (1, 0, key)
        return {key: canonical(data[key], schema.child(key) if schema else None)
                for key in sorted(data, key=rank)}
    if isinstance(data, list):
        items = [canonical(item, schema.child(0) if schema else None) for item in data]
        return _FlowList(items) if schema is not None and schema.schema.get("x-flow") else items
    return data


def _flows(value, depth: int = 0) -> bool:
    """Short mappings and lists of plain values (nested at most once) are written on one line."""
    if isinstance(value, str):
        return "\n" not in value
    if isinstance(value, _FlowList):
        return depth == 0  # always on a line of its own, never inside a parent's line
    if not isinstance(value, (dict, list)):
        return True
    if depth >= 2 or not value:
        return depth > 0
    children = value.values() if isinstance(value, dict) else value
    return all(_flows(child, depth + 1) for child in children)


def _fits(value) -> bool:
    try:
        text = json.dumps(value, ensure_ascii=False)
    except (ValueError, OverflowError):   # a number of thousands of digits
        return False
    return len(text) - text.count('"') <= FLOW_WIDTH  # plain YAML needs no quotes


class _CanonicalDumper(yaml.SafeDumper):
    root_written = False
    block_ids: frozenset[int] = frozenset()   # collections kept in block style (they hold comments)

    def ignore_aliases(self, data):
        return True

    def is_root(self) -> bool:
        """True once: for the document's top-level value, which is always written in block style."""
        if self.root_written:
            return False
        self.root_written = True
        return True


# Characters a YAML 1.1 reader takes for line breaks (or drops) inside plain, single-quoted
# and block text: written as escapes in double quotes, they read back as themselves.
_ESCAPED_ONLY = re.compile("[\r\x85\u2028\u2029\ufeff]")


def _represent_str(dumper, value: str):
    style = None
    if not reads_back_as_text(value):
        style = "'"  # would read back as a number, boolean or null under YAML 1.2
    if "\n" in value:
        style = "|"
    if _ESCAPED_ONLY.search(value):
        style = '"'
    return dumper.represent_scalar("tag:yaml.org,2002:str", value, style=style)


def _represent_dict(dumper, value: dict):
    flow = not dumper.is_root() and bool(value) and id(value) not in dumper.block_ids \
        and _flows(value) and _fits(value)
    return dumper.represent_mapping("tag:yaml.org,2002:map", value.items(), flow_style=flow)


def _represent_list(dumper, value: list):
    flow = not dumper.is_root() and id(value) not in dumper.block_ids \
        and _flows(value) and _fits(value) and all(not isinstance(v, (dict, list)) for v in value)
    return dumper.represent_sequence("tag:yaml.org,2002:seq", value, flow_style=flow)


def _represent_flow_list(dumper, value: _FlowList):
    return dumper.represent_sequence("tag:yaml.org,2002:seq", value, flow_style=True)


_CanonicalDumper.add_representer(str, _represent_str)
_CanonicalDumper.add_representer(_FlowList, _represent_flow_list)
_CanonicalDumper.add_representer(dict, _represent_dict)
_CanonicalDumper.add_representer(list, _represent_list)


def dump_canonical(data, header: str = "", kind: str | None = None,
                   block: frozenset[str] = frozenset()) -> str:
    """Canonical YAML text for `data` (a file of `kind`), after an optional leading comment block.
    The collections at the pointers in `block` are written in block style, one entry a line."""
    ordered = canonical(data, root_node(kind) if kind else None)
    dumper = type("_Dumper", (_CanonicalDumper,), {"block_ids": _ids_at(ordered, block)})
    body = yaml.dump(ordered, Dumper=dumper, sort_keys=False, allow_unicode=True,
                     width=LINE_WIDTH, default_flow_style=False, indent=2)
    if header and not header.endswith("\n"):
        header += "\n"
    return header + body


def _ids_at(data, pointers: frozenset[str]) -> frozenset[int]:
    if not pointers:
        return frozenset()
    found = set()
    work = [(data, "")]
    while work:
        value, pointer = work.pop()
        if isinstance(value, (dict, list)) and pointer in pointers:
            found.add(id(value))
            items = value.items() if isinstance(value, dict) else enumerate(value)
            work += [(child, join_pointer(pointer, key)) for key, child in items]
    return frozenset(found)


def leading_comments(text: str) -> str:
    """The comment block at the top of a file (such as the schema line), kept across saves."""
    kept: list[str] = []
    for line in text.splitlines():
        if line.startswith("#") or (kept and not line.strip()):
            kept.append(line)
        else:
            break
    while kept and not kept[-1].strip():
        kept.pop()
    return "\n".join(kept) + ("\n" if kept else "")


def render_scalar(value, style: str | None = None, in_flow: bool = True) -> str:
    """One scalar as YAML text: in a flow collection (on one line) or as a block mapping's
    value (a literal block for text of several lines). A string keeps the quotes `style` names
    where they can hold it; otherwise it is written as canonical text would write it."""
    stream = io.StringIO()
    dumper = _CanonicalDumper(stream, allow_unicode=True, width=LINE_WIDTH,
                              default_flow_style=False, sort_keys=False)
    node = dumper.represent_data(value)
    if isinstance(value, str) and style in ("'", '"') and node.style in (None, "'"):
        node.style = style
    if in_flow:
        root = yaml.SequenceNode("tag:yaml.org,2002:seq", [node], flow_style=True)
    else:
        key = yaml.ScalarNode("tag:yaml.org,2002:str", "k")
        root = yaml.MappingNode("tag:yaml.org,2002:map", [(key, node)], flow_style=False)
    dumper.open()
    dumper.serialize(root)
    dumper.close()
    text = stream.getvalue()
    if in_flow:
        return text[1:-2]
    value_text = text[3:]
    return value_text if value_text[:1] in ("|", ">") else value_text.rstrip("\n")


class SaveRefused(Exception):
    """The text would not read back as the same data (or would be refused by the reader);
    nothing was written."""


def render_yaml(data, kind: str | None = None, original: str | None = None, header: str = "",
                path: Path = Path("<data>")) -> str:
    """The text to write for `data`, checked to read back as the same data.

    Written fresh (no `original`): canonical, after `header`. Written over an `original` text,
    every comment and blank line is kept where it stood, and
    - a file in canonical form stays canonical: only the lines whose data changed change;
    - in a file of another layout, changed values are rewritten where they stand and nothing
      else moves; when entries were added or removed, it is written canonically (comments kept).
    Raises SaveRefused when the text would not read back as `data`.
    """
    old = _parse_original(original, path)
    if old is None:
        return _checked(dump_canonical(data, header, kind), data, path)
    if same_value(old.data, data):
        return old.text
    found = read_comments(old.text)
    anchored = anchor_comments(old, found)
    comments = comment_texts(old.text, found)
    bare = without_comments(old.text, found)
    if bare + "\n" == dump_canonical(old.data, "", kind, _holding_comments(anchored)):
        return _canonical_with_comments(data, follow(anchored, old, data), kind, path, comments)
    try:
        return _checked(patch_values(old, data, render_scalar), data, path, comments)
    except (NotAValueChange, SaveRefused):
        return _canonical_with_comments(data, follow(anchored, old, data), kind, path, comments)


def format_text(text: str, kind: str | None = None, path: Path = Path("<data>")) -> str:
    """A file's text in canonical form, with every comment where it stood. Formatting the
    result again gives it back unchanged. Raises YamlRefused for a file that cannot be read,
    SaveRefused when the result would not read back as the same data."""
    doc = parse_yaml(text, path)
    data = doc.data if doc.data is not None else {}
    found = read_comments(text)
    return _canonical_with_comments(data, anchor_comments(doc, found), kind, path,
                                    comment_texts(text, found))


def _parse_original(original: str | None, path: Path) -> SourceDoc | None:
    if not original or not original.strip():
        return None
    try:
        doc = parse_yaml(original, path, spans=True)
    except YamlRefused:
        return None   # an unreadable file is replaced, as the editor asked
    if doc.data is None:  # comments only
        return None
    return doc


def _holding_comments(anchored) -> frozenset[str]:
    """The collections that hold a comment inside: they stay in block style, one entry a
    line, so that the comment can stay beside its entry."""
    found: set[str] = set()
    for item in anchored:
        if item.pointer is not None:
            parts = item.pointer.split("/")
            found.update("/".join(parts[:n]) for n in range(1, len(parts) + item.after))
    return frozenset(found)


def _canonical_with_comments(data, anchored, kind, path, comments: Counter) -> str:
    text = dump_canonical(data, "", kind, _holding_comments(anchored))
    if not anchored:
        return _checked(text, data, path, comments)
    if all(a.pointer == "" and a.comment.own_line and not a.after for a in anchored):
        # only a leading block (such as the schema line): no positions needed to put it back
        return _checked("".join(a.comment.text + "\n" for a in anchored) + text, data, path, comments)
    doc = _reread(text, data, path)
    try:
        return _checked(place_comments(doc, anchored), data, path, comments)
    except SaveRefused:
        # an end-of-line comment that would change a value: every comment on its own line
        return _checked(place_comments(doc, anchored, all_own_line=True), data, path, comments)


def _reread(text: str, data, path: Path) -> SourceDoc:
    try:
        doc = parse_yaml(text, path)
    except YamlRefused as refused:
        raise SaveRefused(f"{path}: the data cannot be written as YAML that reads back "
                          f"({refused.diagnostic.message}); nothing was written") from None
    if not same_value(doc.data, data):
        raise SaveRefused(f"{path}: the data would not read back unchanged; nothing was written")
    return doc


def _checked(text: str, data, path: Path, comments: Counter | None = None) -> str:
    """`text`, once it is known to read back as `data`, to hold every comment counted in
    `comments` (those of the original text), and to fit the reader's size limit."""
    size = len(text.encode("utf-8"))
    if size > MAX_FILE_BYTES:
        raise SaveRefused(f"{path}: the file would be {size:,} bytes, over the limit of "
                          f"{MAX_FILE_BYTES:,} that scenario files are read with; nothing was written")
    _reread(text, data, path)
    if comments and comment_texts(text) != comments:
        raise SaveRefused(f"{path}: the comments could not all be kept; nothing was written")
    return text


class _Existing:
    """The default of save_yaml's `original`: the text of the file at `path`, if there is one."""


EXISTING = _Existing()


def save_yaml(path: Path, data, header: str = "", kind: str | None = None,
              original: str | None | _Existing = EXISTING, *, within: Path | None,
              unchanged_since: Fingerprint | None | Unchecked = ANY) -> str:
    """Save data atomically, inside the folder `within` (see sandtable/safewrite.py); returns
    the text written.

    `original` is the text the data was read from (by default, what the file holds now, and then
    the file is replaced only if it still holds it when the text is ready): its comments and
    layout are kept as render_yaml says. None writes a fresh, canonical file after `header`.
    `unchanged_since` is the fingerprint of the file as the caller read it (the file must still
    match it, or ChangedOnDisk is raised). `kind` (a file kind such as "map", or "locale") orders
    keys as its schema lists them; without it, the file kind is guessed from the file name.
    """
    path = Path(path)
    kind = kind or kind_of_path(path)
    current, now = _current(path)
    if isinstance(original, _Existing):
        original = current
        if isinstance(unchanged_since, Unchecked):
            unchanged_since = now
    text = render_yaml(data, kind, original, header, path)
    if now is None or now != Fingerprint.of(text.encode("utf-8")):
        atomic_write_text(path, text, within=within, unchanged_since=unchanged_since)
    return text


def _current(path: Path) -> tuple[str | None, Fingerprint | None]:
    """The text of the file now (None if absent or not text) and its fingerprint."""
    try:
        raw = path.read_bytes() if path.is_file() else None
    except OSError:
        return None, None
    if raw is None:
        return None, None
    try:
        return raw.decode("utf-8").replace("\r\n", "\n").replace("\r", "\n"), Fingerprint.of(raw)
    except UnicodeDecodeError:
        return None, Fingerprint.of(raw)


def kind_of_path(path: Path) -> str | None:
    """The file kind a scenario file's name implies (map.yaml -> map, locales/x.yaml -> locale)."""
    from .scenario import FILE_KINDS, LOCALE_DIR
    if path.parent.name == LOCALE_DIR:
        return "locale"
    for kind, name in FILE_KINDS.items():
        if path.name == name:
            return kind
    return None
