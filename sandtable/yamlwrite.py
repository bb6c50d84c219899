"""Writing YAML canonically and atomically.

Canonical: keys in a stable order (identity and name first, the rest alphabetical), short leaf
lists and mappings on one line, text never folded. The same data always gives the same bytes, so a
save changes only the lines whose values changed.

Atomic: the text goes to a temporary file beside the target, which is then renamed over it; a
crash leaves either the old file or the new one, never half of one. Before anything is written the
text is read back and compared with the data, so a save can never silently change a value.
"""
from __future__ import annotations

import os
import tempfile
from pathlib import Path

import yaml

from .yamlsource import parse_yaml, resolve_plain

# Keys that lead an entity, in this order; all other keys follow alphabetically.
LEADING_KEYS = ("locale", "id", "space", "between", "op", "name", "short_name", "title", "kind",
                "system", "extends")
FLOW_WIDTH = 100


def _key_order(key: str):
    try:
        return (0, LEADING_KEYS.index(key), "")
    except ValueError:
        return (1, 0, key)


def canonical(data):
    """The same data with every mapping's keys in canonical order."""
    if isinstance(data, dict):
        return {key: canonical(data[key]) for key in sorted(data, key=_key_order)}
    if isinstance(data, list):
        return [canonical(item) for item in data]
    return data


def _is_scalar(value) -> bool:
    return not isinstance(value, (dict, list))


class _CanonicalDumper(yaml.SafeDumper):
    def ignore_aliases(self, data):
        return True


def _represent_str(dumper, value: str):
    style = None
    if not isinstance(resolve_plain(value), str):
        style = "'"  # would read back as a number, boolean or null under YAML 1.2
    if "\n" in value:
        style = "|"
    return dumper.represent_scalar("tag:yaml.org,2002:str", value, style=style)


def _flow_fits(items) -> bool:
    return all(_is_scalar(v) for v in items) and len(repr(list(items))) <= FLOW_WIDTH


def _represent_dict(dumper, value: dict):
    flow = bool(value) and _flow_fits(value.values()) and len(repr(value)) <= FLOW_WIDTH
    return dumper.represent_mapping("tag:yaml.org,2002:map", value.items(), flow_style=flow)


def _represent_list(dumper, value: list):
    flow = _flow_fits(value) and not any(isinstance(v, str) and "\n" in v for v in value)
    return dumper.represent_sequence("tag:yaml.org,2002:seq", value, flow_style=flow)


_CanonicalDumper.add_representer(str, _represent_str)
_CanonicalDumper.add_representer(dict, _represent_dict)
_CanonicalDumper.add_representer(list, _represent_list)


def dump_canonical(data, header: str = "") -> str:
    """Canonical YAML text for `data`, after an optional leading comment block."""
    body = yaml.dump(canonical(data), Dumper=_CanonicalDumper, sort_keys=False,
                     allow_unicode=True, width=4096, default_flow_style=False, indent=2)
    if header and not header.endswith("\n"):
        header += "\n"
    return header + body


def leading_comments(text: str) -> str:
    """The comment block at the top of a file (such as the schema line), kept across saves."""
    kept = []
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


def save_yaml(path: Path, data, header: str = "") -> str:
    """Save data canonically and atomically; returns the text written."""
    text = dump_canonical(data, header)
    reread = parse_yaml(text, Path(path)).data
    if reread != canonical(data):
        raise SaveRefused(f"{path}: the data would not read back unchanged; nothing was written")
    atomic_write_text(Path(path), text)
    return text
