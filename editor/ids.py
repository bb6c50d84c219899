"""New ids: made from a name, kept unique."""
from __future__ import annotations

import unicodedata


def slug(name: str) -> str:
    """`Sea Zone 5` -> `sea-zone-5`: an id as the format allows (a-z, 0-9, '-')."""
    plain = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode().lower()
    out, dash = [], False
    for char in plain:
        if char.isalnum():
            out.append(char)
            dash = False
        elif not dash and out:
            out.append("-")
            dash = True
    return "".join(out).strip("-")


def unique_id(base: str, taken) -> str:
    """`base`, or `base-2`, `base-3` ... whichever is not taken yet."""
    if base not in taken:
        return base
    number = 2
    while f"{base}-{number}" in taken:
        number += 1
    return f"{base}-{number}"
