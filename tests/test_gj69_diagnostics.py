"""Every GJ69 diagnostic code against its broken fixture: code, file, line and column.

Each fixture under tests/fixtures/gj69/ is a variant of the bundled scenario that breaks one rule;
the test copies the scenario and the fixture side by side so that `extends` finds its parent.
"""
from __future__ import annotations

import shutil

import pytest

from sandtable.diagnostics import Severity

from helpers import FIXTURES, REPO, diagnostics_of, find_code, place

GJ69 = FIXTURES / "gj69"
SCENARIO = REPO / "scenarios" / "gj69-southern-operation"

# fixture folder, code, file (relative to the fixture folder), line, column
CASES = [
    ("gjx001-stacking-limits", "GJX001", "map.yaml", 3, 13),
    ("gjx002-air-at-sea", "GJX002", "setup.yaml", 5, 12),
    ("gjx002-air-in-enemy-area", "GJX002", "setup.yaml", 5, 12),
    ("gjx003-closed-area", "GJX003", "setup.yaml", 5, 12),
    ("gjx003-nationalists-abroad", "GJX003", "setup.yaml", 5, 12),
    ("gjx003-card-places-in-closed-area", "GJX003", "decks.yaml", 11, 23),
    ("gjx004-strait", "GJX004", "map.yaml", 3, 9),
    ("gjx005-fortress-in-the-field", "GJX005", "setup.yaml", 5, 12),
    ("gjx005-fortress-rules-elsewhere", "GJX005", "scenario.yaml", 9, 13),
    ("gjx006-deck-size", "GJX006", "decks.yaml", 3, 9),
    ("gjx006-extra-card", "GJX006", "decks.yaml", 3, 3),
    ("gjx007-hand-size", "GJX007", "decks.yaml", 3, 14),
    ("gjx008-reaction-without-counterattack", "GJX008", "decks.yaml", 5, 15),
    ("gjx008-counterattack-without-reaction", "GJX008", "decks.yaml", 7, 12),
    ("gjx009-air-power-on-infantry", "GJX009", "units.yaml", 3, 50),
    ("gjx010-oil-draw", "GJX010", "setup.yaml", 3, 27),
    ("gjx011-supply-source", "GJX011", "scenario.yaml", 7, 29),
    ("gjx011-first-player", "GJX011", "scenario.yaml", 6, 17),
    ("gjx011-loss-vp-side", "GJX011", "scenario.yaml", 8, 40),
    ("gjx011-replacement-pool", "GJX011", "scenario.yaml", 6, 59),
    ("gjx012-airdrop-ship", "GJX012", "decks.yaml", 12, 39),
    ("gjx012-reinforce-from-empty-pool", "GJX012", "decks.yaml", 9, 13),
    ("gjx012-reinforce-at-sea", "GJX012", "decks.yaml", 11, 23),
    ("gjx012-act-again", "GJX012", "decks.yaml", 7, 31),
    ("gjx012-submarine-never", "GJX012", "decks.yaml", 10, 26),
    ("gjx013-card-for-enemy-units", "GJX013", "decks.yaml", 6, 46),
    ("gjx013-place-units-owner", "GJX013", "scenario.yaml", 12, 13),
]


@pytest.fixture(scope="module")
def workspace(tmp_path_factory):
    """The bundled scenario and every fixture, side by side in one folder."""
    root = tmp_path_factory.mktemp("gj69")
    shutil.copytree(SCENARIO, root / SCENARIO.name)
    for fixture in GJ69.iterdir():
        if fixture.is_dir():
            shutil.copytree(fixture, root / fixture.name)
    return root


@pytest.mark.parametrize("folder, code, file, line, column", CASES, ids=[c[0] for c in CASES])
def test_fixture_reports_its_code(workspace, folder, code, file, line, column):
    found = find_code(diagnostics_of(workspace / folder), code)
    assert [place(d, workspace / folder) for d in found] == [(file, line, column)]
    assert all(d.severity == Severity.ERROR for d in found)


def test_every_code_has_a_fixture():
    assert {case[1] for case in CASES} == {f"GJX{n:03d}" for n in range(1, 14)}


@pytest.mark.parametrize("folder", [c[0] for c in CASES])
def test_fixture_breaks_only_its_own_rule(workspace, folder):
    """A fixture shows one problem: no other GJX code, and no error from the generic checks."""
    code = next(c[1] for c in CASES if c[0] == folder)
    others = [d for d in diagnostics_of(workspace / folder)
              if d.code != code and (d.code.startswith("GJX") or d.severity == Severity.ERROR)]
    assert others == []


def test_unknown_card_effect_is_eff001(workspace):
    """The effect vocabulary is the profile schema's: an unknown op is EFF001 with a suggestion."""
    folder = workspace / "eff001-unknown-op"
    folder.mkdir(exist_ok=True)
    (folder / "scenario.yaml").write_text(
        "id: eff001-unknown-op\nname: Broken fixture\nsystem: gj69\nextends: ../gj69-southern-operation\n",
        encoding="utf-8")
    (folder / "decks.yaml").write_text(
        "decks:\n- id: japan\n  cards:\n  - id: j13\n    effects:\n"
        "    - {op: set_atack, domain: sea, attack: normal, value: 4}\n",
        encoding="utf-8")
    (found,) = find_code(diagnostics_of(folder), "EFF001")
    assert place(found, folder) == ("decks.yaml", 6, 12)
    assert "set_attack" in found.hint


def test_a_deck_without_a_side_is_gjx013(workspace):
    """§2.3, §3.0(7): each player has a deck of its own; a third deck that no side owns cannot
    be played (it holds 16 cards, so that only its owner is wrong)."""
    folder = workspace / "gjx013-deck-without-side"
    folder.mkdir(exist_ok=True)
    (folder / "scenario.yaml").write_text(
        "id: gjx013-deck-without-side\nname: Broken fixture\nsystem: gj69\n"
        "extends: ../gj69-southern-operation\n", encoding="utf-8")
    cards = "".join(f"  - {{id: n{i:02d}, title: Spare, effects: [{{op: activate_groups, groups: 1}}]}}\n"
                    for i in range(16))
    (folder / "decks.yaml").write_text("decks:\n- id: spare\n  name: Spare cards\n  cards:\n" + cards,
                                       encoding="utf-8")
    found = find_code(diagnostics_of(folder), "GJX013")
    assert [place(d, folder) for d in found] == [("decks.yaml", 2, 7)]
    assert [d.code for d in diagnostics_of(folder) if d.severity == Severity.ERROR] == ["GJX013"]
