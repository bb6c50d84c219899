"""Every diagnostic code the project can report is documented and asserted by a test."""
from __future__ import annotations

import re

from helpers import REPO

CODE = re.compile(r"""["']([A-Z]{2,4}[0-9]{3})["']""")
SOURCES = ["sandtable", "validators", "engine", "playtest"]


def codes_in_source() -> set[str]:
    found = set()
    for folder in SOURCES:
        for path in (REPO / folder).rglob("*.py"):
            found |= set(CODE.findall(path.read_text(encoding="utf-8")))
    return found


def test_codes_are_found():
    assert {"YAML004", "REF001", "MAP003", "LOC003"} <= codes_in_source()


def test_every_code_is_documented():
    documented = set(re.findall(r"^\| `([A-Z]{2,4}[0-9]{3})`", (REPO / "docs" / "diagnostics.md")
                                .read_text(encoding="utf-8"), re.MULTILINE))
    assert sorted(codes_in_source() - documented) == []


def test_every_code_is_asserted_by_a_test():
    tested = set()
    for path in (REPO / "tests").glob("test_*.py"):
        if path.name != "test_diagnostic_codes.py":
            tested |= set(CODE.findall(path.read_text(encoding="utf-8")))
    assert sorted(codes_in_source() - tested) == []
