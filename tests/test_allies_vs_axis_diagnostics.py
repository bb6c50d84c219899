"""Every AVA code against its broken fixture: code, file, line and column.

Each fixture in tests/fixtures/allies_vs_axis/ is a small variant that `extends: ../allies-vs-axis`
and breaks one rule. The test puts a copy of the bundled scenario beside it, so the fixtures hold
only what they break and stay in step with the scenario they break.
"""
from __future__ import annotations

import shutil

import pytest

from helpers import FIXTURES, REPO, diagnostics_of, find_code, place

BUNDLED = REPO / "scenarios" / "allies-vs-axis"
BROKEN = FIXTURES / "allies_vs_axis"

# fixture folder, code, file (relative to the fixture folder), line, column, words of the message
CASES = [
    ("ava001-square-count", "AVA001", "map.yaml", 1, 1, "the board has 35 squares"),
    ("ava002-composition", "AVA002", "map.yaml", 1, 1, "the board has 25 territories; the rules give 24"),
    ("ava003-wrong-way", "AVA003", "map.yaml", 2, 35, "leads to square 31 (mexico); clockwise it leads to square 33"),
    ("ava003-not-a-ring", "AVA003", "map.yaml", 1, 11, "the Allies vs. Axis board is a ring"),
    ("ava004-secret-moved", "AVA004", "map.yaml", 2, 7, "square 5 is 'neutral-bank', which is not a secret territory"),
    ("ava004-secret-moved", "AVA004", "map.yaml", 6, 10, "secret territory 'sweden' is square 6"),
    ("ava005-first-square", "AVA005", "map.yaml", 4, 7, "square 1 is 'ireland'"),
    ("ava006-fortune-yields", "AVA006", "map.yaml", 3, 3, "'fortune-1' is a fortune square and yields nothing"),
    ("ava007-unknown-parameter", "AVA007", "scenario.yaml", 7, 31, "unknown parameter 'ransom_bas'"),
    ("ava008-wrong-example", "AVA008", "scenario.yaml", 8, 17,
     "invasion_power gives 16 for this example; the rule book says 22"),
    ("ava009-secret-start", "AVA009", "scenario.yaml", 7, 52, "a side cannot start with 'neutral-bank'"),
    ("ava009-two-modes-on", "AVA009", "scenario.yaml", 5, 12, "2 options of group 'mode' are on by default"),
    ("eff001-unknown-card-effect", "EFF001", "decks.yaml", 5, 20, "unknown effect 'gian'"),
    ("ava007-natural-ally", "AVA007", "scenario.yaml", 4, 28, "natural ally 'canada' is not a special territory"),
    # The data held to the page: each message names the page's value ("Game modes", "Penalty
    # cost", "Army unit comparison", the fixed costs, "Spinner", four spy cards).
    ("ava010-fierce-battle", "AVA010", "scenario.yaml", 6, 44,
     "game mode 'fierce-battle' starts allies with united-kingdom; "
     "the page starts allies with united-kingdom and france"),
    ("ava010-fierce-battle", "AVA010", "scenario.yaml", 9, 51,
     "game mode 'fierce-battle' sets penalty_rate to 'normal'; the page says 'high'"),
    ("ava011-penalty-rates", "AVA011", "scenario.yaml", 6, 22, "the high penalty rate is 0.6; the page says 0.5 (50%)"),
    ("ava011-penalty-rates", "AVA011", "scenario.yaml", 6, 35,
     "the medium penalty rate is 0.25; the page says the rate is between 30% and 50%"),
    ("ava011-luck-order", "AVA011", "scenario.yaml", 6, 22, "luck 'high' (0.5) is not above 'normal' (0.75)"),
    ("ava012-unit-table", "AVA012", "units.yaml", 3, 9, "infantry costs $M 60; the page's army unit table says $M 50"),
    ("ava012-unit-table", "AVA012", "units.yaml", 4, 10,
     "infantry is recruited at most 30 a turn; the page's army unit table says 24 a turn"),
    ("ava012-unit-table", "AVA012", "units.yaml", 6, 30,
     "tank gives defence support +2; the page's army unit table says +1"),
    ("ava013-fixed-costs", "AVA013", "scenario.yaml", 5, 31, "secret_base_cost is 600; the page says 500"),
    ("ava013-fixed-costs", "AVA013", "scenario.yaml", 6, 28, "special_alliance_cost is 2500; the page says 2000"),
    ("ava013-fixed-costs", "AVA013", "scenario.yaml", 7, 20, "the spinner has 8 faces"),
    ("ava013-fixed-costs", "AVA013", "decks.yaml", 5, 12, "there are 3 spy cards; the page says only 4"),
    ("ava014-unmarked", "AVA014", "map.yaml", 2, 7, "the page does not give the yield or place of 'ireland'"),
    ("ava014-unmarked", "AVA014", "decks.yaml", 4, 9, "the page does not give the effect of card 'war-bonds'"),
    ("ava014-unmarked", "AVA014", "scenario.yaml", 6, 22,
     "the page does not give the penalty_rate level 'medium'"),
]


@pytest.fixture(scope="module")
def workspace(tmp_path_factory):
    """The bundled scenario and every broken variant of it, side by side."""
    root = tmp_path_factory.mktemp("allies-vs-axis")
    shutil.copytree(BUNDLED, root / "allies-vs-axis")
    for fixture in BROKEN.iterdir():
        shutil.copytree(fixture, root / fixture.name)
    return root


@pytest.mark.parametrize("fixture, code, file, line, column, words", CASES,
                         ids=[f"{case[0]}:{case[3]}" for case in CASES])
def test_broken_fixture(workspace, fixture, code, file, line, column, words):
    folder = workspace / fixture
    found = [d for d in find_code(diagnostics_of(folder), code) if words in d.message]
    assert found, f"no {code} saying {words!r}"
    assert place(found[0], folder) == (file, line, column)


def test_every_fixture_is_used():
    assert {case[0] for case in CASES} == {path.name for path in BROKEN.iterdir()}


def test_the_effect_hint_names_the_known_operation(workspace):
    problem = find_code(diagnostics_of(workspace / "eff001-unknown-card-effect"), "EFF001")[0]
    assert problem.hint == "did you mean 'gain'?"


def test_an_unchanged_variant_is_clean(workspace):
    variant = workspace / "unchanged"
    variant.mkdir()
    (variant / "scenario.yaml").write_text("id: unchanged\nextends: ../allies-vs-axis\n", encoding="utf-8")
    assert [f"{d.code} {d.message}" for d in diagnostics_of(variant)] == []


MALFORMED_SCENARIO = """\
id: malformed
extends: ../allies-vs-axis
rules:
  main_territories: [germany]
  army_resources: {tank: [tanks]}
  neutral_invasion_units: infantry
  levels: {luck: [1, 2]}
  formulas:
    ransom_cost:
      inputs: [{a: 1}]
      value: {sum: 5}
      examples: [{counters: [1], result: x}]
    treaty_cost:
      examples: [{inputs: {defence_power: 10}, result: x}]
options:
- id: mode-regular
  changes:
  - {op: start_with, side: [allies], spaces: [{x: 1}, 3]}
  - {op: set_level, setting: [luck], level: 2}
"""
MALFORMED_MAP = """\
spaces:
- {id: united-kingdom, index: [1], tags: secret, stats: [1]}
"""


def test_malformed_rules_are_schema_errors_not_crashes(workspace):
    variant = workspace / "malformed"
    variant.mkdir()
    (variant / "scenario.yaml").write_text(MALFORMED_SCENARIO, encoding="utf-8")
    (variant / "map.yaml").write_text(MALFORMED_MAP, encoding="utf-8")
    codes = {d.code for d in diagnostics_of(variant)}
    assert {"SCH003", "SCH007"} <= codes
