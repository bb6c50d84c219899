"""Small values as one line of YAML flow text (`space: norway, count: 2`), and back, safely."""
from __future__ import annotations

from pathlib import Path
from typing import Any

from sandtable.yamlsource import YamlRefused, parse_yaml, resolve_plain

_FLOW_SPECIAL = set(",:[]{}#&*!|>'\"%@`")


def to_text(value) -> str:
    if isinstance(value, dict):
        return ", ".join(f"{k}: {to_text(v)}" for k, v in value.items())
    if isinstance(value, list):
        return "[" + ", ".join(to_text(v) for v in value) + "]"
    if isinstance(value, str):
        return value if _plain_is_safe(value) else "'" + value.replace("'", "''") + "'"
    if isinstance(value, bool):
        return "true" if value else "false"
    return "" if value is None else str(value)


def parse_value(text: str):
    """A scalar, list or mapping from flow text; ValueError when it is not valid YAML."""
    try:
        data: Any = parse_yaml(f"value: {text.strip() or '~'}\n", Path("<cell>")).data
        return data["value"]
    except YamlRefused as refused:
        raise ValueError(refused.diagnostic.message) from None


def parse_mapping(text: str) -> dict:
    """`a: 1, b: [x, y]` -> {"a": 1, "b": ["x", "y"]}; ValueError unless it is a mapping."""
    if not text.strip():
        return {}
    try:
        data = parse_yaml("{" + text + "}\n", Path("<parameters>")).data
    except YamlRefused as refused:
        raise ValueError(refused.diagnostic.message) from None
    if not isinstance(data, dict):
        raise ValueError("write parameters as name: value, name: value")
    return data


def _plain_is_safe(text: str) -> bool:
    """Whether `text` reads back as the same string without quotes."""
    return (bool(text) and text == text.strip() and isinstance(resolve_plain(text), str)
            and not (_FLOW_SPECIAL & set(text)) and not text.startswith(("-", "?")))
