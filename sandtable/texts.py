"""The translatable texts of a scenario, keyed by stable ids.

A text's key is the path of collection names and entity ids that leads to it, ending in the
field name: `spaces.kiangsu.name`, `decks.japan.cards.j01.title`, `scenario.name`. Keys never
contain display text, so renaming a space in English keeps its translations attached.
"""
from __future__ import annotations

import hashlib
import re
import unicodedata
from dataclasses import dataclass

from .merge import identity
from .scenario import FILE_KINDS, Scenario
from .yamlsource import join_pointer

TRANSLATABLE_FIELDS = ("name", "short_name", "title", "text", "description")
PLACEHOLDER = re.compile(r"\{([A-Za-z_][A-Za-z0-9_]*)\}")


@dataclass(frozen=True)
class SourceText:
    key: str
    text: str
    kind: str
    pointer: str


def fingerprint(text: str) -> str:
    """A short, stable fingerprint of a source text (NFC-normalised SHA-256)."""
    normalised = unicodedata.normalize("NFC", text)
    return hashlib.sha256(normalised.encode("utf-8")).hexdigest()[:10]


def placeholders(text: str) -> set[str]:
    return set(PLACEHOLDER.findall(text))


def catalog(scenario: Scenario) -> dict[str, SourceText]:
    """Every translatable text of the (merged) scenario, by key, in file order."""
    found: dict[str, SourceText] = {}
    for kind in FILE_KINDS:
        data = scenario.doc(kind)
        prefix = ["scenario"] if kind == "scenario" else []
        _walk(data, prefix, "", kind, found)
    return found


def _segment(item, index: int) -> str:
    key = identity(item)
    if key is None:
        return str(index)
    return "--".join(key[1]) if isinstance(key[1], tuple) else key[1]


def _walk(value, path: list[str], pointer: str, kind: str, found: dict[str, SourceText]) -> None:
    if isinstance(value, dict):
        for name, child in value.items():
            child_pointer = join_pointer(pointer, name)
            if name in TRANSLATABLE_FIELDS and isinstance(child, str) and child.strip():
                key = ".".join(path + [name])
                if "." in key and key not in found:
                    found[key] = SourceText(key, child, kind, child_pointer)
            elif isinstance(child, (dict, list)):
                _walk(child, path + [name], child_pointer, kind, found)
    elif isinstance(value, list):
        for index, item in enumerate(value):
            _walk(item, path + [_segment(item, index)], join_pointer(pointer, index), kind, found)
