"""What TripleA accepts, the importer accepts: the idioms of real game files, one fixture each.

players-and-board.xml: neutral placements, helper and idle players, players in no alliance,
several capitals, a connection given twice, an off-board box and a lake, ten-sided dice,
per-alliance victory thresholds, purchases that give resources or several units, an empty
DOCTYPE subset. objectives-and-variables.xml: variables and foreach, territory-list keywords,
same-named objectives, conditions joined by OR. canals-and-borders.xml: canals on land, border
kinds kept by the export. old-spelling.xml: `<attatchmentList>`. production-only.xml: values
without unit production. neutral-units.xml: a map name, units without an owner.
"""
from __future__ import annotations

from pathlib import Path

import pytest

from sandtable.cli import main
from sandtable.scenario import load_scenario
from sandtable.triplea import import_game
from validators import validate

from helpers import FIXTURES

TRIPLEA = FIXTURES / "triplea"


def _found(imported, code: str):
    return [(Path(d.file).name, d.line, d.column, d.severity.value) for d in imported.diagnostics if d.code == code]


@pytest.fixture(scope="module")
def board():
    return import_game(TRIPLEA / "players-and-board.xml", "pb")


@pytest.fixture(scope="module")
def lists():
    return import_game(TRIPLEA / "objectives-and-variables.xml", "ov")


# -- players ---------------------------------------------------------------------------------
def test_a_game_not_on_aa50_rules_gets_the_triplea_rule_family(board):
    assert board.system == "triplea" and board.files["scenario"]["system"] == "triplea"
    assert _found(board, "TPL011") == [("players-and-board.xml", 3, 1, "info")]
    assert board.files["scenario"]["rules"]["dice_sides"] == 10


def test_aa50_games_are_recognised_and_the_family_can_be_chosen():
    assert import_game(TRIPLEA / "small-game.xml").system == "aa50"
    forced = import_game(TRIPLEA / "small-game.xml", system="triplea")
    assert forced.system == "triplea" and _found(forced, "TPL011") == []
    assert forced.files["scenario"]["rules"]["dice_sides"] == 6


def test_helpers_and_idle_players_take_no_turn_and_unallied_players_get_a_side(board):
    scenario = board.files["scenario"]
    assert scenario["turn_order"] == ["franks", "saxons"]
    nations = {n["id"]: n for n in scenario["nations"]}
    assert {n: (v["side"], v.get("passive", False)) for n, v in nations.items()} == {
        "franks": ("west", False), "saxons": ("saxons", False), "wardens": ("wardens", True),
        "hermits": ("hermits", True), "neutral": ("neutral", True)}
    assert _found(board, "TPL012") == [("players-and-board.xml", 44, 7, "info")]   # Wardens' first step


def test_units_without_an_owner_are_neutral_and_an_unknown_owner_is_reported(board):
    setup = {e["space"]: e for e in board.files["setup"]["spaces"]}
    assert setup["brabant"] == {"space": "brabant", "units": [{"type": "spearman", "count": 4, "owner": "neutral"}]}
    assert _found(board, "TPL014") == [("players-and-board.xml", 120, 7, "warning")]


def test_several_capitals_are_kept(board):
    nations = {n["id"]: n for n in board.files["scenario"]["nations"]}
    spaces = {s["id"]: s for s in board.files["map"]["spaces"]}
    assert nations["franks"]["capital"] == "arden"
    assert "capital" in spaces["arden"]["tags"] and "capital" in spaces["calais"]["tags"]
    assert _found(board, "TPL015") == [("players-and-board.xml", 107, 7, "info")]


# -- the board -------------------------------------------------------------------------------
def test_a_connection_given_twice_is_one_border(board):
    pairs = [frozenset(b["between"]) for b in board.files["map"]["borders"]]
    assert pairs.count(frozenset(("arden", "brabant"))) == 1
    assert _found(board, "TPL010") == [("players-and-board.xml", 16, 5, "info")]


def test_boxes_off_the_board_and_lakes_are_tagged(board):
    tags = {s["id"]: s.get("tags", []) for s in board.files["map"]["spaces"]}
    assert tags["info-box"] == ["off_board"] and tags["mere"] == ["lake"] and tags["channel"] == []
    assert _found(board, "TPL016") == [("players-and-board.xml", 11, 5, "info")]
    assert _found(board, "TPL017") == [("players-and-board.xml", 14, 5, "info")]


def test_victory_cities_count_as_many_as_the_game_says(board):
    spaces = {s["id"]: s for s in board.files["map"]["spaces"]}
    assert spaces["arden"]["stats"] == {"victory_cities": 2} and "stats" not in spaces["calais"]
    nations = {n["id"]: n for n in board.files["scenario"]["nations"]}
    assert nations["franks"]["victory_cities"] == 3
    assert board.files["scenario"]["victory"] == [{
        "id": "west-total-war", "name": "West win: Total Victory", "side": "west", "option": "total-war",
        "when": {"victory_cities": {"side": "west", "count": 3}}}]


def test_units_carry_triplea_options(board):
    units = {u["id"]: u for u in board.files["units"]["unit_types"]}
    assert units["knight"]["stats"] == {"attack": 7, "defense": 5, "movement": 2, "attack_rolls": 2, "hit_points": 2}
    assert units["knight"]["abilities"] == [{"kind": "support", "types": ["spearman"], "bonus": 2, "per_unit": 1,
                                             "attack": True, "defense": True}]
    assert units["spearman"]["abilities"] == [{"kind": "marine", "bonus": 2}] and units["spearman"]["cost"] == 3
    assert units["cog"]["tags"] == ["surface_warship"]


def test_purchases_of_resources_and_of_several_units_are_carried(board):
    assert board.files["scenario"]["rules"]["purchases"] == [
        {"id": "buy-ore", "costs": [{"resource": "pus", "amount": 5}], "gives": [{"resource": "ore", "amount": 2}]},
        {"id": "buy-two-knights", "costs": [{"resource": "pus", "amount": 7}, {"resource": "ore", "amount": 1}],
         "gives": [{"unit": "knight", "count": 2}]}]


def test_an_aa50_scenario_reports_purchases_it_cannot_carry():
    imported = import_game(TRIPLEA / "players-and-board.xml", "pb", system="aa50")
    assert _found(imported, "TPL013") == [("players-and-board.xml", 56, 5, "warning"),   # gives a resource
                                          ("players-and-board.xml", 60, 5, "warning")]   # two knights
    assert "purchases" not in imported.files["scenario"].get("rules", {})


def test_the_imported_board_validates_clean(tmp_path, capsys):
    out = tmp_path / "pb"
    assert main(["import", "triplea", str(TRIPLEA / "players-and-board.xml"), str(out), "--quiet"]) == 0
    assert [(d.code, d.message) for d in validate(load_scenario(out)) if d.severity.value != "info"] == []
    assert "TPL014" in capsys.readouterr().err


# -- lists, variables and objectives -----------------------------------------------------------
def test_foreach_and_variables_are_expanded(lists):
    spaces = {s["id"]: s for s in lists.files["map"]["spaces"]}
    assert {s: (v.get("value"), v.get("original_owner")) for s, v in spaces.items()} == {
        "ardennes": (3, "blue"), "lys": (3, "red"), "meuse": (1, "blue"), "sambre": (None, None),
        "bight": (None, None)}
    assert _found(lists, "TPL020") == [("objectives-and-variables.xml", 58, 5, "info")]


def test_territory_keywords_are_expanded_as_triplea_does(lists):
    objectives = {o["id"]: o for o in lists.files["objectives"]["objectives"]}
    # original: what Blue and its ally Green held at the start
    assert objectives["blue-1"]["when"] == {"controls": {"owner": "blue", "spaces": ["ardennes", "meuse", "sambre"],
                                                         "allied": True}}
    assert objectives["red-1"]["when"] == {"all": [
        {"controls": {"owner": "red", "spaces": ["lys", "meuse"], "count": 1}}, {"turn": {"min": 2}}]}
    assert objectives["hold"]["when"] == {"controls_count": {"owner": "red", "count": 3, "kind": "land"}}
    assert objectives["hold-2"]["when"] == {"any": [
        {"controls": {"owner": "green", "spaces": ["ardennes", "lys", "meuse", "sambre", "bight"], "count": 2}},
        {"not": {"at_war": {"owner": "green", "with": "red"}}}]}


def test_an_objective_with_a_check_that_has_no_counterpart_is_left_out_whole(lists):
    ids = [o["id"] for o in lists.files["objectives"]["objectives"]]
    assert ids == ["blue-1", "red-1", "hold", "hold-2"]
    found = [d for d in lists.diagnostics if d.code == "TPL005" and "objectiveAttachment2" in d.message]
    assert [(d.line, d.severity.value) for d in found] == [(88, "warning")] and "unitPresence" in found[0].message


def test_same_named_alliances_and_victories_get_distinct_ids(lists):
    scenario = lists.files["scenario"]
    assert [s["id"] for s in scenario["sides"]] == ["allies", "allies-2"]
    assert [(v["id"], v["when"]["victory_cities"]["count"]) for v in scenario["victory"]] == [
        ("allies-surrender-with-honor", 4), ("allies-2-surrender-with-honor", 15)]


def test_a_foreach_over_variables_of_different_lengths_is_refused_as_triplea_does(tmp_path):
    text = (TRIPLEA / "objectives-and-variables.xml").read_text(encoding="utf-8")
    broken = tmp_path / "broken.xml"
    broken.write_text(text.replace('<element name="Blue"/>\n    </variable>', '</variable>'), encoding="utf-8")
    imported = import_game(broken)
    assert _found(imported, "TPL006") == [("broken.xml", 53, 5, "error")] and imported.files == {}


# -- canals and border kinds -----------------------------------------------------------------
def test_canals_join_each_pair_of_their_sea_zones_and_land_canals_are_reported():
    imported = import_game(TRIPLEA / "canals-and-borders.xml")
    canals = [(c["id"], c["joins"]) for c in imported.files["map"]["canals"]]
    assert canals == [("grand", ["sz-1", "sz-2"]), ("grand-2", ["sz-1", "sz-3"]), ("grand-3", ["sz-2", "sz-3"])]
    assert _found(imported, "TPL018") == [("canals-and-borders.xml", 43, 5, "warning")]
    kinds = {frozenset(b["between"]): b["kind"] for b in imported.files["map"]["borders"]}
    assert kinds[frozenset(("sz-3", "sz-4"))] == "wrap"                 # kept in sandtable.borders
    assert kinds[frozenset(("bridgehead", "far-bank"))] == "land"       # the land canal's border stays open
    assert _found(imported, "TPL019") == [("canals-and-borders.xml", 53, 5, "warning")]


def test_an_empty_doctype_subset_is_accepted_and_a_declaring_one_refused(tmp_path):
    from sandtable.safexml import XmlRefused, parse_xml
    assert parse_xml(b'<!DOCTYPE game SYSTEM "game.dtd"[ ]>\n<game/>', "a.xml").root.tag == "game"
    with pytest.raises(XmlRefused) as caught:
        parse_xml(b'<!DOCTYPE game SYSTEM "game.dtd"[<!ENTITY a "b">]>\n<game/>', "b.xml")
    assert caught.value.diagnostic.code == "TPL002"


# -- the checks of the triplea family and the tags the import gives ---------------------------
def test_the_map_checks_know_off_board_and_lake(tmp_path):
    from helpers import diagnostics_of
    out = tmp_path / "pb"
    assert main(["import", "triplea", str(TRIPLEA / "players-and-board.xml"), str(out), "--quiet"]) == 0
    path = out / "map.yaml"
    text = path.read_text(encoding="utf-8")
    path.write_text(text.replace("tags: [off_board]", "tags: []").replace("tags: [lake]", "tags: []"), encoding="utf-8")
    found = sorted((d.code, d.message.split(" ")[0]) for d in diagnostics_of(out) if d.severity.value != "info")
    assert found == [("MAP006", "sea"), ("MAP007", "'info-box'")]


def test_abilities_and_purchases_name_what_exists(tmp_path):
    from helpers import diagnostics_of
    out = tmp_path / "pb"
    assert main(["import", "triplea", str(TRIPLEA / "players-and-board.xml"), str(out), "--quiet"]) == 0
    units = out / "units.yaml"
    units.write_text(units.read_text(encoding="utf-8").replace("types: [spearman]", "types: [spearmen]"),
                     encoding="utf-8")
    scenario = out / "scenario.yaml"
    text = scenario.read_text(encoding="utf-8")
    scenario.write_text(text.replace("{count: 2, unit: knight}", "{count: 2, unit: knigt}"), encoding="utf-8")
    found = [(d.code, Path(d.file).name, d.hint) for d in diagnostics_of(out) if d.code == "TRP001"]
    assert found == [("TRP001", "scenario.yaml", "did you mean 'knight'?"),
                     ("TRP001", "units.yaml", "did you mean 'spearman'?")]


# -- what TripleA reads, the importer reads ------------------------------------------------------
def test_the_old_spelling_attatchment_is_read_as_tripleA_reads_it():
    imported = import_game(TRIPLEA / "old-spelling.xml", "old")
    assert imported.files["units"]["unit_types"] == [
        {"id": "legion", "name": "Legion", "domain": "land", "stats": {"attack": 3, "defense": 2, "movement": 1}}]
    assert {s["id"]: s.get("value") for s in imported.files["map"]["spaces"]} == {"rome": 5, "ostia": None}
    assert [d for d in imported.diagnostics if d.severity.value != "info"] == []


def test_production_only_gives_the_value_and_no_unit_production():
    imported = import_game(TRIPLEA / "production-only.xml", "po")
    assert {s["id"]: s.get("value") for s in imported.files["map"]["spaces"]} == {"vienna": 4, "linz": 2}
    # TripleA's factory in Vienna produces 1 unit, in Linz none: here the value is the limit
    assert [(d.code, d.line, d.column, d.message) for d in imported.diagnostics if d.severity.value != "info"] == [
        ("TPL005", 15, 7, "Vienna may produce 1 units but is worth 4; a factory's limit is the territory's value "
         "here; 1 more like it (Linz)")]


def test_the_map_name_and_the_tripleA_names_are_kept():
    imported = import_game(TRIPLEA / "neutral-units.xml", "nu")
    scenario = imported.files["scenario"]
    assert scenario["triplea_map"] == "world_war_ii_v3"
    assert {n["id"]: n["triplea_name"] for n in scenario["nations"]} == {
        "germany": "Germans", "soviet-union": "Russians", "united-states": "Americans", "neutral": "Neutral"}
    assert {s["id"]: s["triplea_name"] for s in imported.files["map"]["spaces"]} == {
        "germany": "Germany", "sweden": "Sweden", "karelia-ssr": "Karelia S.S.R.", "sz-5": "5 Sea Zone"}
    assert not any("mapName" in d.message for d in imported.diagnostics)
