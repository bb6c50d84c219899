"""Writing YAML canonically and atomically.

Canonical: keys in a stable order (identity and name first, the rest alphabetical), short leaf
lists and mappings on one line, text never folded. A list whose schema says `x-flow` (an outline's
ring of points) is written on one line however long, so that moving one point changes one line.
The same data always gives the same bytes, so a save changes only the lines whose values changed.

Atomic: the text goes to a temporary file beside the target, which is then renamed over it; a
crash leaves either the old file or the new one, never half of one. Before anything is written the
text is read back and compared with the data, so a save can never silently change a value.
"""
from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path

import yaml

from .schemas import SchemaNode, root_node
from .yamlsource import parse_yaml, resolve_plain

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
    text = json.dumps(value, ensure_ascii=False)
    return len(text) - text.count('"') <= FLOW_WIDTH  # plain YAML needs no quotes


class _CanonicalDumper(yaml.SafeDumper):
    root_written = False

    def ignore_aliases(self, data):
        return True

    def is_root(self) -> bool:
        """True once: for the document's top-level value, which is always written in block style."""
        if self.root_written:
            return False
        self.root_written = True
        return True


def _represent_str(dumper, value: str):
    style = None
    if not isinstance(resolve_plain(value), str):
        style = "'"  # would read back as a number, boolean or null under YAML 1.2
    if "\n" in value:
        style = "|"
    return dumper.represent_scalar("tag:yaml.org,2002:str", value, style=style)


def _represent_dict(dumper, value: dict):
    flow = not dumper.is_root() and bool(value) and _flows(value) and _fits(value)
    return dumper.represent_mapping("tag:yaml.org,2002:map", value.items(), flow_style=flow)


def _represent_list(dumper, value: list):
    flow = not dumper.is_root() and _flows(value) and _fits(value) \
        and all(not isinstance(v, (dict, list)) for v in value)
    return dumper.represent_sequence("tag:yaml.org,2002:seq", value, flow_style=flow)


def _represent_flow_list(dumper, value: _FlowList):
    return dumper.represent_sequence("tag:yaml.org,2002:seq", value, flow_style=True)


_CanonicalDumper.add_representer(str, _represent_str)
_CanonicalDumper.add_representer(_FlowList, _represent_flow_list)
_CanonicalDumper.add_representer(dict, _represent_dict)
_CanonicalDumper.add_representer(list, _represent_list)


def dump_canonical(data, header: str = "", kind: str | None = None) -> str:
    """Canonical YAML text for `data` (a file of `kind`), after an optional leading comment block."""
    body = yaml.dump(canonical(data, root_node(kind) if kind else None), Dumper=_CanonicalDumper, sort_keys=False,
                     allow_unicode=True, width=LINE_WIDTH, default_flow_style=False, indent=2)
    if header and not header.endswith("\n"):
        header += "\n"
    return header + body


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


class SaveRefused(Exception):
    """The text would not read back as the same data; nothing was written."""


def atomic_write_text(path: Path, text: str) -> None:
    """Write `text` to `path` through a temporary file and a rename."""
    path = Path(path)
    mode = path.stat().st_mode & 0o777 if path.exists() else None
    fd, temp_name = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as handle:
            handle.write(text)
            handle.flush()
            os.fsync(handle.fileno())
        if mode is not None:
            os.chmod(temp_name, mode)
        os.replace(temp_name, path)
    except BaseException:
        try:
            os.unlink(temp_name)
        except FileNotFoundError:
            pass
        raise


def save_yaml(path: Path, data, header: str = "", kind: str | None = None) -> str:
    """Save data canonically and atomically; returns the text written.

    `kind` (a file kind such as "map", or "locale") orders keys as its schema lists them;
    without it, the file kind is guessed from the file name.
    """
    kind = kind or kind_of_path(Path(path))
    text = dump_canonical(data, header, kind)
    reread = parse_yaml(text, Path(path)).data
    if reread != data:
        raise SaveRefused(f"{path}: the data would not read back unchanged; nothing was written")
    atomic_write_text(Path(path), text)
    return text


def kind_of_path(path: Path) -> str | None:
    """The file kind a scenario file's name implies (map.yaml -> map, locales/x.yaml -> locale)."""
    from .scenario import FILE_KINDS, LOCALE_DIR
    if path.parent.name == LOCALE_DIR:
        return "locale"
    for kind, name in FILE_KINDS.items():
        if path.name == name:
            return kind
    return None
