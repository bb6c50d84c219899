"""Every OCS diagnostic code against its broken fixture: code, file, line and column."""
from __future__ import annotations

import pytest

from helpers import FIXTURES, diagnostics_of, find_code, place

OCS = FIXTURES / "ocs"

# fixture folder, code, file (relative to tests/fixtures/ocs), line, column, words of the message
CASES = [
    ("ocs001-ragged-table", "OCS001", "ocs001-ragged-table/tables.yaml", 12, 5,
     "2 entries, but axis 'roll' has 3 values"),
    ("ocs002-unknown-notation", "OCS002", "ocs002-unknown-notation/tables.yaml", 4, 12,
     "unknown result notation 'percentage'"),
    ("ocs003-unreadable-cell", "OCS003", "ocs003-unreadable-cell/tables.yaml", 9, 20,
     "cannot read 'x1'"),
    ("ocs004-data-disagrees", "OCS004", "ocs004-data-disagrees/tables.yaml", 9, 5,
     "does not say what '2' says"),
    ("ocs005-wrong-shape", "OCS005", "ocs005-wrong-shape/tables.yaml", 9, 32,
     "'retreat' was unexpected"),
    ("ocs006-not-monotone", "OCS006", "ocs006-not-monotone/tables.yaml", 13, 7,
     "'AL2' is worse for the attacker than 'AL1o1'"),
    ("ocs007-shift-off-table", "OCS007", "ocs007-shift-off-table/tables.yaml", 13, 89,
     "a shift of 3 leaves a table of 3 columns"),
    ("ocs007-shifts-together", "OCS007", "ocs007-shifts-together/tables.yaml", 12, 3,
     "move 3 columns right"),
    ("ocs008-unknown-terrain", "OCS008", "ocs008-unknown-terrain/map.yaml", 4, 53,
     "hex '0102' has terrain 'forest'"),
]


@pytest.mark.parametrize("folder, code, file, line, column, words", CASES, ids=[c[0] for c in CASES])
def test_broken_fixture(folder, code, file, line, column, words):
    diagnostics = diagnostics_of(OCS / folder)
    found = find_code(diagnostics, code)
    assert [place(d, OCS) for d in found] == [(file, line, column)]
    assert words in found[0].message
    assert [d.code for d in diagnostics] == [code], "the fixture breaks one rule only"


def test_grouped_shifts_count_once_and_left_shifts_apart():
    """Density bands exclude each other: +1 and +2 in one group and +1 alone make 3, not 4."""
    found = find_code(diagnostics_of(OCS / "ocs007-shifts-together"), "OCS007")
    assert len(found) == 1 and "left" not in found[0].message


def test_monotone_check_names_the_earlier_cell():
    found = find_code(diagnostics_of(OCS / "ocs006-not-monotone"), "OCS006")
    assert [(r.line, r.column) for r in found[0].related] == [(10, 7)]
    assert "the attacker loses 2 step(s), not 1" in found[0].message
