"""Finding values in scenario data by a simple path pattern, such as `borders/*/between/*`."""
from __future__ import annotations

from collections.abc import Iterator

from sandtable.yamlsource import join_pointer


def find(data, pattern: str) -> Iterator[tuple[str, object]]:
    """(JSON pointer, value) for each value the pattern reaches, in document order.

    `*` matches any key or index. Expanding one level at a time keeps document order.
    """
    level = [("", data)]
    for token in (t for t in pattern.split("/") if t):
        following = []
        for pointer, value in level:
            if isinstance(value, dict):
                keys = value if token == "*" else ((token,) if token in value else ())
                following += [(join_pointer(pointer, key), value[key]) for key in keys]
            elif isinstance(value, list):
                if token == "*":
                    following += [(f"{pointer}/{i}", item) for i, item in enumerate(value)]
                elif token.isdigit() and int(token) < len(value):
                    following.append((f"{pointer}/{token}", value[int(token)]))
        level = following
    yield from level


def parent_pointer(pointer: str) -> str:
    return pointer.rsplit("/", 1)[0]
