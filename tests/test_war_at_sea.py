"""The bundled War at Sea scenario says what the rules say (rules text 002, 大西洋海戰)."""
from __future__ import annotations

import pytest

from sandtable.scenario import load_scenario
from sandtable.texts import catalog

from helpers import REPO, diagnostics_of

FOLDER = REPO / "scenarios" / "war-at-sea"


@pytest.fixture(scope="module")
def scenario():
    return load_scenario(FOLDER)


def by_id(items):
    return {item["id"]: item for item in items}


def spaces(scenario):
    return by_id(scenario.doc("map")["spaces"])


def units(scenario):
    return by_id(scenario.doc("units")["unit_types"])


def rules(scenario):
    return scenario.manifest["rules"]


def test_validates_clean_even_strictly():
    assert diagnostics_of(FOLDER) == []


# -- the map (§2) --------------------------------------------------------------------------------

def test_six_sea_areas_each_with_a_value_for_each_side(scenario):
    points = {space_id: (s["stats"]["allied_points"], s["stats"]["axis_points"])
              for space_id, s in spaces(scenario).items() if s["kind"] == "sea"}
    assert points == {
        "barents-sea": (1, 2), "north-sea": (1, 2), "north-atlantic": (1, 3),
        "south-atlantic": (1, 3), "baltic-sea": (1, 1), "mediterranean": (1, 2),
    }


def test_ports_allied_axis_and_neutral(scenario):
    ports = {space_id: s["tags"][0] for space_id, s in spaces(scenario).items() if s["kind"] == "port"}
    assert ports == {
        "usa": "allied-port", "britain": "allied-port", "malta": "allied-port",
        "russia": "allied-port", "leningrad": "allied-port",
        "germany-norway": "axis-port", "france": "axis-port", "italy": "axis-port",
        "south-america": "neutral-port",
    }


def test_germany_and_norway_are_one_port(scenario):
    names = [s["name"] for s in spaces(scenario).values()]
    assert "Germany and Norway" in names
    assert not any(name == "Norway" for name in names)


def test_france_repairs_three_and_every_port_has_a_repair_value(scenario):
    ports = {space_id: s for space_id, s in spaces(scenario).items() if s["kind"] == "port"}
    assert ports["france"]["stats"]["repair"] == 3
    assert "reconstructed" not in ports["france"]
    assert all(isinstance(p["stats"]["repair"], int) for p in ports.values())


def test_only_german_and_soviet_ships_enter_the_baltic(scenario):
    nations = {n["id"] for n in scenario.manifest["nations"]}
    closed = set(spaces(scenario)["baltic-sea"]["closed_to"])
    assert nations - closed == {"germany", "ussr"}


def test_borders_join_ports_by_coast_and_seas_by_sea(scenario):
    kinds = {s_id: s["kind"] for s_id, s in spaces(scenario).items()}
    for border in scenario.doc("map")["borders"]:
        pair_kinds = sorted(kinds[s] for s in border["between"])
        assert border["kind"] == ("sea" if pair_kinds == ["sea", "sea"] else "coast")
    assert {"between": ["south-america", "south-atlantic"], "kind": "coast",
            "source": "rules §15.5"} in scenario.doc("map")["borders"]


def test_the_appendix_notes_are_data(scenario):
    returns = by_id(rules(scenario)["return_rules"])
    assert returns["south-atlantic-disabled"]["to"] == ["south-america"]
    assert returns["mediterranean-british-disabled"]["to"] == ["malta"]
    assert returns["north-atlantic-german"]["port_turns"] == {"france": {"from": 2, "until": 6}}
    assert returns["barents-british-early"]["to"] == ["britain"]
    assert returns["barents-british-late"] == {
        "id": "barents-british-late", "space": "barents-sea", "nation": "britain", "must": True,
        "to": ["russia"], "from_turn": 3, "source": "rules appendix"}
    with_text = {s_id for s_id, s in spaces(scenario).items() if "text" in s}
    assert {"barents-sea", "north-atlantic", "south-atlantic", "mediterranean"} <= with_text


# -- the turn (§5) and scoring (§17) -------------------------------------------------------------

def test_turn_sequence_of_section_5(scenario):
    assert [p["id"] for p in scenario.manifest["phases"]] == [
        "reinforcements", "movement", "submarines", "air-strikes", "combat", "sea-control",
        "return-to-port", "scoring"]
    combat = by_id(scenario.manifest["phases"])["combat"]
    assert [s["id"] for s in combat["steps"]] == [
        "anti-submarine-combat", "air-strike-combat", "surface-combat"]
    assert scenario.manifest["turns"]["count"] == 8


def test_score_track_is_capped_at_ten(scenario):
    scoring = rules(scenario)["scoring"]
    assert scoring["track_max"] == 10
    assert scoring["track_min"] == -10
    assert scoring["track_start"] == 0
    assert {"owner": "axis", "resource": "score-track", "amount": 0} in scenario.doc("setup")["resources"]


def test_convoys_score_one_in_britain_and_three_in_the_soviet_union(scenario):
    convoys = {(c["from_space"], c["to_space"]): c["points"] for c in rules(scenario)["scoring"]["convoy_points"]}
    assert convoys == {("north-atlantic", "britain"): 1, ("barents-sea", "russia"): 3}


def test_victory_after_turn_eight_by_the_sign_of_the_marker(scenario):
    victory = by_id(scenario.manifest["victory"])
    assert set(victory) == {"axis-victory", "allied-victory", "draw"}
    assert victory["axis-victory"]["when"]["all"] == [
        {"turn": {"min": 8}}, {"resource": {"owner": "axis", "resource": "score-track", "min": 1}}]
    assert "side" not in victory["draw"]


def test_refuelling_at_sea_gets_harder_each_turn(scenario):
    refuelling = rules(scenario)["refuelling"]
    assert refuelling["success_at_most"] == {"1": 5, "2": 4, "3": 3}
    assert refuelling["spaces"] == ["north-atlantic", "south-atlantic"]


# -- ships (§3) ----------------------------------------------------------------------------------

def values(unit):
    stats = unit["stats"]
    return stats["gunnery"], stats["armour"], stats["speed"]


def test_the_four_italian_cruisers_are_1_1_7(scenario):
    italian_cruisers = {u_id: values(u) for u_id, u in units(scenario).items()
                        if u.get("nation") == "italy" and u.get("class") == "ca"}
    assert italian_cruisers == {name: (1, 1, 7) for name in ("pola", "zara", "fiume", "gorizia")}


def test_bismarck_and_tirpitz_have_armour_nine_and_the_variant_makes_it_seven(scenario):
    assert units(scenario)["bismarck"]["stats"]["armour"] == 9
    assert units(scenario)["tirpitz"]["stats"]["armour"] == 9
    option = by_id(scenario.manifest["options"])["weaker-bismarck-class"]
    assert option["changes"] == [
        {"op": "set_stat", "units": ["bismarck", "tirpitz"], "stat": "armour", "from": 9, "to": 7}]


def test_every_ship_has_a_nationality_and_its_values(scenario):
    nations = {"germany", "italy", "britain", "usa", "ussr"}
    for unit in units(scenario).values():
        assert unit["nation"] in nations
        if unit["domain"] == "sea" and unit["class"] != "uboat":
            assert all(isinstance(v, int) for v in values(unit))
        if unit.get("class") == "cv":
            assert unit["stats"]["air_strike"] >= 1


def test_anti_submarine_values_are_one_for_warships_and_three_for_carriers_and_convoys(scenario):
    for unit in units(scenario).values():
        if unit["domain"] == "sea" and unit["class"] != "uboat":
            assert unit["stats"]["anti_submarine"] == (3 if unit["class"] in ("cv", "convoy") else 1)


def test_uboats_convoys_and_air_units(scenario):
    every = units(scenario)
    assert every["uboat"]["limit"] == 7 == rules(scenario)["uboat_limit"]
    assert every["uboat"]["stats"] == {"gunnery": 1, "armour": 0}
    assert every["convoy"]["limit"] == 3
    assert every["allied-air-unit"]["stats"] == {"air_strike": 3}
    assert every["axis-air-unit"]["stats"] == {"air_strike": 3}


# -- setup and the turn track (§4, §16) ----------------------------------------------------------

def starting(scenario, space):
    entry = next(e for e in scenario.doc("setup")["spaces"] if e["space"] == space)
    return {s["type"]: s["count"] for s in entry.get("units", [])}


def test_starting_fleets_are_in_their_own_countries(scenario):
    assert starting(scenario, "germany-norway")["uboat"] == 3
    assert len(starting(scenario, "italy")) == 10
    assert len(starting(scenario, "britain")) == 28  # 27 ships and the air unit
    assert set(starting(scenario, "leningrad")) == {"marat", "oktyabrskaya-revolutsiya", "kirov"}


def test_reinforcement_turns(scenario):
    arrivals = {}
    for entry in scenario.doc("setup")["reinforcements"]:
        for stack in entry["units"]:
            arrivals.setdefault(stack["type"], []).append(entry["turn"])
    assert arrivals["uboat"] == [2, 3, 4, 5, 6, 7, 8]
    assert arrivals["convoy"] == [3, 4, 5]
    assert arrivals["bismarck"] == [2]
    assert arrivals["tirpitz"] == [3]
    assert arrivals["washington"] == [4]
    turns = {entry["turn"] for entry in scenario.doc("setup")["reinforcements"]}
    assert turns == set(range(2, 9))


def test_the_soviet_union_joins_in_turn_three_and_the_united_states_in_turn_four(scenario):
    entry = {e["nation"]: e for e in rules(scenario)["entry_into_war"]}
    assert (entry["ussr"]["turn"], entry["ussr"]["roll_at_least"]) == (3, 5)
    assert (entry["usa"]["turn"], entry["usa"]["roll_at_least"], entry["usa"]["easier_each_turn"]) == (4, 6, 1)


def test_nationality_movement_limits(scenario):
    limits = by_id(rules(scenario)["movement_limits"])
    assert limits["soviet-waters"]["only"] == ["baltic-sea", "leningrad"]
    assert limits["american-waters"]["only"] == ["north-atlantic", "usa"]
    assert limits["italian-cruisers"]["forbidden"] == ["north-sea", "barents-sea"]


def test_six_variant_rules_each_saying_what_they_change(scenario):
    options = scenario.manifest["options"]
    assert len(options) == 6
    assert all(o["changes"] and o["default"] is False for o in options)
    assert [o["source"].split()[1] for o in options] == ["§18.1", "§18.2", "§18.3", "§18.4", "§18.5", "§18.6"]


# -- the source's wording (zh-Hans) --------------------------------------------------------------

def test_zh_hans_carries_the_source_wording_for_every_text(scenario):
    entries = scenario.locale("zh-Hans")["entries"]
    assert set(entries) == set(catalog(scenario))
    assert entries["unit_types.bismarck.name"]["text"] == "卑斯麦号"
    assert entries["unit_types.tirpitz.name"]["text"] == "堤毕兹号"
    assert entries["spaces.barents-sea.name"]["text"] == "巴伦兹海"
    assert entries["spaces.south-america.name"]["text"] == "南美洲"
    assert entries["scenario.options.weaker-bismarck-class.description"]["text"] == \
        "将两艘德国战舰“卑斯麦号”与“堤毕兹号”的装甲值从九降为七。"


def test_zh_hans_is_written_in_simplified_characters(scenario):
    traditional = set("國艦軍戰雙潛襲對擊進優據點補給鬥區號爾麥畢茲倫聯羅陸權")
    for key, entry in scenario.locale("zh-Hans")["entries"].items():
        assert not traditional & set(entry["text"]), key


SEED = REPO.parent / "shared" / "seeds" / "002_49fff522289f8e4e.txt"


def test_zh_hant_keeps_the_appendix_and_variant_rules_word_for_word(scenario):
    entries = scenario.locale("zh-Hant")["entries"]
    assert entries["spaces.baltic-sea.text"]["text"] == "祇有德國和蘇聯船艦可以進入波羅的海。"
    assert entries["unit_types.bismarck.name"]["text"] == "卑斯麥號"
    if not SEED.is_file():
        pytest.skip("the rules text is not beside the repository")
    # The rules text is set in two columns; a sentence may run over a line break.
    printed = "".join(SEED.read_text(encoding="utf-8").split())
    quoted = [key for key in entries if key.startswith("spaces.") and key.endswith(".text")
              or key.startswith("scenario.options.") and key.endswith(".description")]
    assert len(quoted) == 11
    for key in quoted:
        assert entries[key]["text"] in printed, key
