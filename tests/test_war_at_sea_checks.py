"""Every War at Sea diagnostic code against its broken fixture: code, file, line and column."""
from __future__ import annotations

import pytest

from helpers import FIXTURES, diagnostics_of, find_code, place

WAR_AT_SEA = FIXTURES / "war_at_sea"

# fixture folder, code, file (relative to tests/fixtures/war_at_sea), line, column, words of the message
CASES = [
    ("was001-sea-area-points", "WAS001", "was001-sea-area-points/map.yaml", 5, 10, "no axis_points"),
    ("was002-port-repair", "WAS002", "was002-port-repair/map.yaml", 2, 8, "no repair value"),
    ("was003-reinforcement-turn", "WAS003", "was003-reinforcement-turn/setup.yaml", 3, 9, "turn 9"),
    ("was004-counter-mix", "WAS004", "was004-counter-mix/setup.yaml", 7, 12, "2 'hood' counters"),
    ("was005-rule-reference", "WAS005", "was005-rule-reference/scenario.yaml", 9, 12, "'baltic-sea'"),
    ("was006-uboat-limit", "WAS006", "was006-uboat-limit/setup.yaml", 4, 26, "at most 7"),
    ("was006-uboat-counters", "WAS006", "was006-uboat-counters/units.yaml", 2, 22, "more than the 7"),
    ("was007-ship-values", "WAS007", "was007-ship-values/units.yaml", 7, 10, "no air_strike"),
    ("was007-no-nationality", "WAS007", "was007-no-nationality/units.yaml", 2, 7, "no nationality"),
    ("was008-option-from", "WAS008", "was008-option-from/scenario.yaml", 10, 55, "its armour is 4"),
    ("was009-nationality", "WAS009", "was009-nationality/setup.yaml", 7, 12, "placed for 'britain'"),
    ("was010-placement-limit", "WAS010", "was010-placement-limit/setup.yaml", 7, 12,
     "usa ships may only be in north-atlantic"),
    ("was011-enemy-port", "WAS011", "was011-enemy-port/setup.yaml", 7, 12,
     "a port of the axis side"),
]


@pytest.mark.parametrize("folder, code, file, line, column, words", CASES, ids=[c[0] for c in CASES])
def test_code_is_reported_where_the_mistake_is(folder, code, file, line, column, words):
    diagnostics = diagnostics_of(WAR_AT_SEA / folder)
    found = find_code(diagnostics, code)
    assert len(found) == 1
    assert place(found[0], WAR_AT_SEA) == (file, line, column)
    assert words in found[0].message
    assert found[0].is_error


@pytest.mark.parametrize("folder", [c[0] for c in CASES])
def test_each_broken_fixture_has_only_its_own_problem(folder):
    codes = {d.code for d in diagnostics_of(WAR_AT_SEA / folder)}
    assert codes == {next(c[1] for c in CASES if c[0] == folder)}


def test_the_base_fixture_is_clean():
    assert diagnostics_of(WAR_AT_SEA / "base") == []


def test_every_code_is_documented():
    from helpers import REPO
    page = (REPO / "docs" / "diagnostics.md").read_text(encoding="utf-8")
    section = page.split("## War at Sea codes", 1)[1]
    for code in sorted({c[1] for c in CASES}):
        assert f"`{code}`" in section


def test_reinforcements_must_name_an_existing_ship():
    """The generic reference check covers it; War at Sea adds no second code for the same mistake."""
    diagnostics = diagnostics_of(WAR_AT_SEA / "unknown-ship-reinforcement")
    assert [d.code for d in diagnostics] == ["REF001"]
    assert place(diagnostics[0], WAR_AT_SEA) == ("unknown-ship-reinforcement/setup.yaml", 7, 12)
    assert "'tirpiz'" in diagnostics[0].message
