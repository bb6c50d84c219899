"""JSON Schema's `pattern`, matched as JSON Schema says: as an ECMA-262 regular expression.

Python's `re` reads the same text differently: `$` also matches before a final newline, so
`id: "marine\\n"` would pass `^[a-z0-9-]+$`, and `\\d` or `\\w` match any script's digits and letters.
check-jsonschema and VS Code's YAML extension match ECMA-262 (with the `u` flag), and so do we,
through regress (Rust's ECMA-262 engine, the one check-jsonschema uses): the same file passes or
fails the same pattern in all three.
"""
from __future__ import annotations

from collections.abc import Iterator
from functools import cache

import regress


@cache
def _compiled(pattern: str) -> regress.Regex:
    return regress.Regex(pattern, flags="u")


def matches(pattern: str, text: str) -> bool:
    """Whether `text` matches `pattern` anywhere (patterns anchor themselves with ^ and $)."""
    return _compiled(pattern).find(text) is not None


def pattern_keyword(validator, pattern: str, instance, schema) -> Iterator:
    """jsonschema's `pattern` keyword, with ECMA-262 matching (the words are jsonschema's own)."""
    from jsonschema.exceptions import ValidationError
    if validator.is_type(instance, "string") and not matches(pattern, instance):
        yield ValidationError(f"{instance!r} does not match {pattern!r}")
