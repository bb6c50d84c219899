"""Reading the printed result cells of the OCS v4.3 charts into data."""
from __future__ import annotations

import pytest

from sandtable.ocs_results import NOTATIONS, ResultSyntaxError, cell, parse, worse_for_attacker
from validators.schema import profile

COMBAT = [
    ("AL2", {"attacker": {"loss": 2}}),
    ("AL1o1", {"attacker": {"loss": 1, "option": 1}}),
    ("AL1o1 Do1", {"attacker": {"loss": 1, "option": 1}, "defender": {"option": 1}}),
    ("AL1 Do1", {"attacker": {"loss": 1}, "defender": {"option": 1}}),
    ("AL1 DL1o1", {"attacker": {"loss": 1}, "defender": {"loss": 1, "option": 1}}),
    ("Ao1 Do1", {"attacker": {"option": 1}, "defender": {"option": 1}}),
    ("Ao1 DL1o1", {"attacker": {"option": 1}, "defender": {"loss": 1, "option": 1}}),
    ("Ao1 DL1o2", {"attacker": {"option": 1}, "defender": {"loss": 1, "option": 2}}),
    ("Ao1 e4 DL1o2", {"attacker": {"option": 1, "exploit": 4}, "defender": {"loss": 1, "option": 2}}),
    ("Ae4 DL1o2", {"attacker": {"exploit": 4}, "defender": {"loss": 1, "option": 2}}),
    ("Ae3 DL2o2DG", {"attacker": {"exploit": 3},
                     "defender": {"loss": 2, "option": 2, "disorganized": True}}),
    ("Ae2 DL2o3DG", {"attacker": {"exploit": 2},
                     "defender": {"loss": 2, "option": 3, "disorganized": True}}),
]


@pytest.mark.parametrize("printed, outcome", COMBAT)
def test_combat_results_read_as_9_10_explains_them(printed, outcome):
    assert parse("combat", printed) == outcome


@pytest.mark.parametrize("printed, offset, words", [
    ("L2", 0, "starts with A"),
    ("AL2 AL1", 4, "written twice"),
    ("A", 1, "is empty"),
    ("AL1 De4", 5, "belongs to the attacker"),
    ("ADG", 1, "belongs to the defender"),
    ("AL1L2", 3, "repeats"),
    ("AL1 Dx1", 5, "cannot read 'x1'"),
    ("AL1  Do1", 4, "two spaces"),
])
def test_unreadable_combat_results_say_where_reading_stopped(printed, offset, words):
    with pytest.raises(ResultSyntaxError) as raised:
        parse("combat", printed)
    assert raised.value.offset == offset
    assert words in str(raised.value)


@pytest.mark.parametrize("printed, outcome", [
    ("-", {"effect": "none"}),
    ("DG", {"effect": "disorganized"}),
    ("1/2", {"effect": "half"}),
    ("[1/2]", {"effect": "half", "bracketed": True}),
    ("1", {"effect": "steps", "steps": 1}),
    ("3", {"effect": "steps", "steps": 3}),
])
def test_barrage_results(printed, outcome):
    assert parse("barrage", printed) == outcome


@pytest.mark.parametrize("printed, outcome", [
    ("-", {}),
    ("(6)", {"aircraft": 6}),
    ("(5)", {"aircraft": 5}),
    ("1(5)", {"hits": 1, "aircraft": 5}),
    ("* (6)", {"trainbusting": True, "aircraft": 6}),
    ("1 * (5)", {"hits": 1, "trainbusting": True, "aircraft": 5}),
    ("2 * (3)", {"hits": 2, "trainbusting": True, "aircraft": 3}),
])
def test_facility_barrage_results(printed, outcome):
    assert parse("facility-barrage", printed) == outcome


@pytest.mark.parametrize("notation, printed, outcome", [
    ("percent", "25", {"percent": 25}),
    ("percent", "0", {"percent": 0}),
    ("percent", "80%", {"percent": 80}),
    ("percent", "100", {"percent": 100}),
    ("supply", "10T", {"tokens": 10}),
    ("supply", "1T per step", {"tokens": 1, "per": "step"}),
    ("supply", "2T per combat", {"tokens": 2, "per": "combat"}),
    ("roll-range", "4 or less", {"max": 4}),
    ("roll-range", "7 or more", {"min": 7}),
    ("roll-range", "2-8", {"min": 2, "max": 8}),
    ("roll-range", "11", {"min": 11, "max": 11}),
    ("roll-range", "13+", {"min": 13}),
    ("roll-range", "-", {"never": True}),
    ("odds", "1:5", {"attacker": 1, "defender": 5}),
    ("odds", "52:1", {"attacker": 52, "defender": 1}),
    ("mission-loss", "#3", {"aircraft": 3}),
    ("mission-loss", "W", {"aircraft": "weakest"}),
    ("mission-loss", "S", {"aircraft": "strongest"}),
    ("multiplier", "x1.5", {"terrain": 1.5}),
    ("multiplier", "x2", {"terrain": 2}),
    ("rating", "-1", {"add": -1}),
    ("rating", "=0", {"set": 0}),
    ("air-combat", "Both return", {"returns": ["attacker", "defender"]}),
    ("loss", "Lose all steps", {"steps": "all"}),
    ("flak-roll", "In an enemy patrol zone", {"flak": "patrol-zone"}),
    ("actor", "Defender, then both players", {"turns": [["defender"], ["attacker", "defender"]]}),
])
def test_other_notations(notation, printed, outcome):
    assert parse(notation, printed) == outcome


@pytest.mark.parametrize("notation, printed", [
    ("barrage", "1/3"), ("barrage", "0"), ("facility-barrage", "(7)"), ("facility-barrage", "**"),
    ("percent", "101"), ("supply", "2 T"), ("roll-range", "8-2"), ("odds", "0:1"),
    ("mission-loss", "#0"), ("multiplier", "2"), ("rating", "1"), ("loss", "no loss"),
    ("combat", " AL2"), ("combat", ""),
])
def test_text_that_is_not_a_result_is_refused(notation, printed):
    with pytest.raises(ResultSyntaxError):
        parse(notation, printed)


def test_a_cell_keeps_its_printed_text_beside_the_outcome():
    assert cell("combat", "Ao1 e4 DL1o2") == {
        "printed": "Ao1 e4 DL1o2",
        "attacker": {"option": 1, "exploit": 4},
        "defender": {"loss": 1, "option": 2},
    }


def test_word_results_are_fresh_copies():
    first = parse("air-combat", "Both return")
    first["returns"].append("nobody")
    assert parse("air-combat", "Both return") == {"returns": ["attacker", "defender"]}


def test_every_notation_has_a_cell_shape_in_the_profile_schema():
    shapes = {name[len("cell_"):] for name in profile("ocs") if name.startswith("cell_")}
    assert shapes == set(NOTATIONS)


@pytest.mark.parametrize("later, earlier, reason", [
    ("AL2", "AL1o1", "the attacker loses 2 step(s), not 1"),
    ("AL1o1", "AL1 Do1", "the attacker risks 2 step(s), not 1"),
    ("Ao1 Do1", "Ao1 DL1o1", "the defender loses 0 step(s), not 1"),
    ("Ao1 DL1o1", "Ao1 DL1o2", "the defender risks 2 step(s), not 3"),
    ("Ae4 DL1o2", "Ae3 DL2o2DG", "fewer attackers exploit"),
    ("Ao1 DL1o2", "Ao1 e4 DL1o2", "no attacker exploits"),
    ("Ae3 DL2o2", "Ae3 DL2o2DG", "the defender is no longer disorganized"),
])
def test_worse_for_the_attacker(later, earlier, reason):
    assert reason in worse_for_attacker(parse("combat", later), parse("combat", earlier))


@pytest.mark.parametrize("later, earlier", [
    ("AL1o1", "AL2"),              # an option in place of a loss
    ("AL1 Do1", "AL1o1 Do1"),
    ("Ao1 e4 DL1o2", "Ao1 DL1o2"),  # roll 14 after 13 in the open 1:1 column
    ("Ae2 DL2o3DG", "Ae2 DL2o3DG"),
])
def test_not_worse_for_the_attacker(later, earlier):
    assert worse_for_attacker(parse("combat", later), parse("combat", earlier)) == []
