"""Finding values in scenario data by a simple path pattern, such as `borders/*/between/*`."""
from __future__ import annotations

from collections.abc import Iterator

from sandtable.yamlsource import join_pointer


def find(data, pattern: str) -> Iterator[tuple[str, object]]:
    """(JSON pointer, value) for each value the pattern reaches; `*` matches any key or index."""
    tokens = [t for t in pattern.split("/") if t]
    stack = [("", data, 0)]
    results = []
    while stack:
        pointer, value, depth = stack.pop()
        if depth == len(tokens):
            results.append((pointer, value))
            continue
        token = tokens[depth]
        if isinstance(value, dict):
            keys = list(value) if token == "*" else ([token] if token in value else [])
            for key in keys:
                stack.append((join_pointer(pointer, key), value[key], depth + 1))
        elif isinstance(value, list):
            if token == "*":
                indices = range(len(value))
            elif token.isdigit() and int(token) < len(value):
                indices = [int(token)]
            else:
                indices = []
            for index in indices:
                stack.append((join_pointer(pointer, index), value[index], depth + 1))
    results.sort(key=lambda item: _order(item[0]))
    yield from results


def _order(pointer: str):
    return [(0, int(t), "") if t.isdigit() else (1, 0, t) for t in pointer.split("/")]


def parent_pointer(pointer: str) -> str:
    return pointer.rsplit("/", 1)[0]
