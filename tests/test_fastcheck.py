"""The compiled yes/no schema check agrees with jsonschema on every input."""
from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st
from jsonschema import Draft202012Validator

from sandtable.scenario import FILE_KINDS
from sandtable.schemas import KIND_SCHEMAS, SCHEMA_DIR, bundled_schema
from validators.fastcheck import compile_schema, json_equal

from helpers import FIXTURES, REPO

PAIRS = {kind: (compile_schema(bundled_schema(name)), Draft202012Validator(bundled_schema(name)))
         for kind, name in KIND_SCHEMAS.items()}
LEAF = st.one_of(st.none(), st.booleans(), st.integers(-3, 3), st.floats(allow_nan=False, width=16),
                 st.sampled_from(["land", "sea", "x", "", "Bad Id", "sz-1", "2d6", "#12ab34", "zh-Hans"]))
KEYS = st.sampled_from(["id", "name", "kind", "between", "space", "units", "type", "count", "owner",
                        "controls", "spaces", "when", "award", "amount", "cards", "stats", "tags",
                        "axes", "cells", "values", "entries", "text", "side", "locale", "all",
                        "not", "turn", "min", "domain", "cost", "spaces.a.name", "unknown"])
DATA = st.recursive(LEAF, lambda inner: st.one_of(st.lists(inner, max_size=4),
                                                  st.dictionaries(KEYS, inner, max_size=4)),
                    max_leaves=30)


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(sorted(KIND_SCHEMAS)), DATA)
def test_random_data_gets_the_same_verdict(kind, data):
    fast, reference = PAIRS[kind]
    assert fast(data) == reference.is_valid(data)


def _kind_of(path: Path) -> str | None:
    if path.parent.name == "locales":
        return "locale"
    return next((k for k, name in FILE_KINDS.items() if name == path.name), None)


def _scenario_files():
    """Every bundled and fixture file of a scenario file kind that reads as YAML (the reader's
    own fixtures of broken YAML are its tests' business)."""
    paths = sorted((REPO / "scenarios").rglob("*.yaml")) + sorted((FIXTURES).rglob("*.yaml"))
    found = []
    for path in paths:
        if not path.is_file() or path.is_symlink() or _kind_of(path) is None:
            continue
        try:
            data = yaml.safe_load(path.read_text(encoding="utf-8"))
        except (yaml.YAMLError, UnicodeDecodeError):
            continue
        found.append(pytest.param(path, data, id=str(path.relative_to(REPO))))
    return found


@pytest.mark.parametrize("path, data", _scenario_files())
def test_every_bundled_and_fixture_file_gets_the_same_verdict(path, data):
    fast, reference = PAIRS[_kind_of(path)]
    assert fast(data) == reference.is_valid(data)


def test_every_schema_and_profile_definition_compiles():
    for name in KIND_SCHEMAS.values():
        assert compile_schema(bundled_schema(name)) is not None, name
    for path in sorted((SCHEMA_DIR / "systems").glob("*.schema.json")):
        for definition in json.loads(path.read_text(encoding="utf-8")).get("$defs", {}):
            assert compile_schema(bundled_schema(f"systems/{path.name}", definition)) is not None


def test_an_unknown_keyword_means_no_fast_check():
    assert compile_schema({"type": "string", "format": "date"}) is None


@pytest.mark.parametrize("a, b, equal", [(1, 1.0, True), (True, 1, False), ([1, {"a": 2}], [1.0, {"a": 2}], True),
                                         ("1", 1, False), (None, False, False)])
def test_json_equality(a, b, equal):
    assert json_equal(a, b) is equal
