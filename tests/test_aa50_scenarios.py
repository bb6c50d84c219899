"""Facts of the AA50 1941 and 1942 scenarios, as the rulebook gives them."""
from __future__ import annotations

import pytest

from sandtable.cli import main
from sandtable.scenario import load_scenario
from validators import build_index, validate
from validators.systems import aa50

from helpers import REPO

SCENARIOS = REPO / "scenarios"


@pytest.fixture(scope="module")
def y1941():
    return load_scenario(SCENARIOS / "aa50-1941")


@pytest.fixture(scope="module")
def y1942():
    return load_scenario(SCENARIOS / "aa50-1942")


def nations(scenario):
    return {n["id"]: n for _, n in scenario.entities("scenario", "nations")}


def control(scenario):
    return build_index(scenario).starting_control()


def test_both_scenarios_and_the_example_validate_clean_in_strict_mode():
    paths = [str(SCENARIOS / name) for name in ("aa50-1941", "aa50-1942", "northern-front")]
    assert main(["validate", *paths, "--strict", "--color", "never"]) == 0


def test_seven_nations_two_sides_china_played_by_the_united_states(y1941, y1942):
    for scenario in (y1941, y1942):
        sides = {n: data["side"] for n, data in nations(scenario).items()}
        assert sides == {"germany": "axis", "japan": "axis", "italy": "axis", "soviet-union": "allies",
                         "united-kingdom": "allies", "united-states": "allies", "china": "allies"}
        assert nations(scenario)["china"]["played_by"] == "united-states"


def test_turn_orders_of_both_years(y1941, y1942):
    # rulebook §5
    assert y1941.manifest["turn_order"] == ["germany", "soviet-union", "japan", "united-kingdom", "italy",
                                            "united-states"]
    assert y1942.manifest["turn_order"] == ["japan", "soviet-union", "germany", "united-kingdom", "italy",
                                            "united-states"]


def test_starting_ipcs(y1941, y1942):
    # 1941: rulebook §3.1; 1942: the production of the 1942 board (the rulebook's §3.2 table repeats 1941)
    def income(scenario):
        return {n: d.get("income") for n, d in nations(scenario).items()}
    assert income(y1941) == {"germany": 31, "soviet-union": 30, "japan": 17, "united-kingdom": 43, "italy": 10,
                             "united-states": 40, "china": None}
    assert income(y1942) == {"germany": 37, "soviet-union": 24, "japan": 31, "united-kingdom": 31, "italy": 10,
                             "united-states": 38, "china": None}
    assert any("repeats the 1941 figures" in note for note in y1942.doc("setup")["notes"])


CITIES_1941 = {
    "germany": {"germany", "france", "poland"}, "japan": {"japan", "kiangsu"}, "italy": {"italy"},
    "united-states": {"eastern-united-states", "western-united-states", "hawaiian-islands", "philippine-islands"},
    "united-kingdom": {"united-kingdom", "india", "australia", "kwangtung", "eastern-canada"},
    "soviet-union": {"russia", "caucasus", "karelia-ssr"},
}


def held_cities(scenario):
    index = build_index(scenario)
    tagged = {s for s, e in index.spaces.items() if "victory_city" in (e.data.get("tags") or [])}
    held = {}
    for space, holder in index.starting_control().items():
        if space in tagged:
            held.setdefault(holder, set()).add(space)
    return held


def test_victory_city_holders(y1941, y1942):
    assert held_cities(y1941) == CITIES_1941
    expected = dict(CITIES_1941)
    expected["japan"] = {"japan", "kiangsu", "kwangtung", "philippine-islands"}   # + Hong Kong, Manila
    expected["united-states"] = {"eastern-united-states", "western-united-states", "hawaiian-islands"}
    expected["united-kingdom"] = {"united-kingdom", "india", "australia", "eastern-canada"}
    assert held_cities(y1942) == expected
    assert y1941.manifest["rules"]["starting_victory_cities"] == {"axis": 6, "allies": 12}
    assert y1942.manifest["rules"]["starting_victory_cities"] == {"axis": 8, "allies": 10}
    cities = {c["space"]: c["name"] for c in y1941.manifest["rules"]["victory_cities"]}
    assert len(cities) == 18 and cities["kwangtung"] == "Hong Kong" and cities["caucasus"] == "Stalingrad"


def test_victory_thresholds_13_15_18(y1941):
    victory = {v["id"]: v for v in y1941.manifest["victory"]}
    counts = {v["option"]: v["when"]["victory_cities"]["count"] for v in victory.values()}
    assert counts == {"projection": 13, "surrender-with-honor": 15, "total-war": 18}
    defaults = {o["id"]: o["default"] for o in y1941.manifest["options"]}
    assert defaults["surrender-with-honor"] is True
    assert defaults["projection"] is False and defaults["total-war"] is False
    assert {v["side"] for v in victory.values()} == {"axis", "allies"}


def test_neutral_territories_of_the_rulebook(y1941):
    neutral = {s["id"] for _, s in y1941.entities("map", "spaces") if "neutral" in s.get("tags", [])}
    assert neutral == {"northern-south-america", "peruvian-central", "argentina-chile", "eire", "sweden",
                       "switzerland", "spain", "sahara", "angola", "mozambique", "turkey", "saudi-arabia",
                       "afghanistan", "himalaya", "mongolia"}
    assert not neutral & set(control(y1941))


def test_wrap_around_borders_and_canals(y1941):
    wraps = {frozenset(b["between"]) for _, b in y1941.entities("map", "borders") if b["kind"] == "wrap"}
    assert wraps == {frozenset({"sz-20", "sz-55"}), frozenset({"sz-21", "sz-44"}), frozenset({"sz-25", "sz-43"})}
    canals = {c["id"]: (set(c["joins"]), c["controlled_by"]) for _, c in y1941.entities("map", "canals")}
    assert canals == {"suez": ({"sz-15", "sz-34"}, ["egypt", "trans-jordan"]),
                      "panama": ({"sz-19", "sz-20"}, ["panama"])}
    assert y1941.manifest["rules"]["canals"] == {"control": "side_holds_all", "held_since_turn_start": True,
                                                 "source": "rulebook §2.6"}


def test_islands(y1941):
    islands = {s["id"] for _, s in y1941.entities("map", "spaces") if "island" in s.get("tags", [])}
    assert {"hawaiian-islands", "iwo-jima", "wake-island", "midway", "japan", "philippine-islands"} <= islands
    assert "united-kingdom" not in islands  # borders Eire by land


UNIT_VALUES = {  # rulebook §7: cost, attack, defense, movement
    "infantry": (3, 1, 2, 1), "artillery": (4, 2, 2, 1), "armour": (5, 3, 3, 2), "fighter": (10, 3, 4, 4),
    "bomber": (12, 4, 1, 6), "battleship": (20, 4, 4, 2), "carrier": (14, 1, 2, 2), "cruiser": (12, 3, 3, 2),
    "destroyer": (8, 2, 2, 2), "submarine": (6, 2, 1, 2), "transport": (7, 0, 0, 2),
}


def test_unit_values(y1941):
    units = {u["id"]: u for _, u in y1941.entities("units", "unit_types")}
    for unit_id, (cost, attack, defense, movement) in UNIT_VALUES.items():
        stats = units[unit_id]["stats"]
        assert (units[unit_id]["cost"], stats["attack"], stats["defense"], stats["movement"]) == \
            (cost, attack, defense, movement), unit_id
    assert units["aa-gun"]["cost"] == 6 and units["aa-gun"]["stats"] == {"movement": 1}
    assert units["factory"]["cost"] == 15 and "stats" not in units["factory"]


def test_unit_abilities(y1941):
    abilities = {u["id"]: {a["kind"]: a for a in u.get("abilities", [])}
                 for _, u in y1941.entities("units", "unit_types")}
    assert abilities["artillery"]["artillery_support"] == {"kind": "artillery_support", "types": ["infantry"],
                                                           "per_unit": 1, "bonus": 1}
    assert "blitz" in abilities["armour"]
    assert "two_hits" in abilities["battleship"]
    assert abilities["carrier"]["carrier"]["capacity"] == 2
    assert {"submerge", "surprise_strike", "sub_movement", "cannot_hit_air"} <= set(abilities["submarine"])
    assert "anti_submarine" in abilities["destroyer"]
    assert abilities["transport"]["transport"]["capacity"] == 5
    assert abilities["infantry"]["transportable"]["size"] == 2 and abilities["armour"]["transportable"]["size"] == 3
    assert abilities["aa-gun"]["anti_aircraft"]["hit_on"] == 1
    assert abilities["factory"]["factory"]["max_damage_factor"] == 2
    assert {"offshore_bombardment"} <= set(abilities["cruiser"]) & set(abilities["battleship"])


def test_research_charts(y1941):
    research = y1941.manifest["rules"]["research"]
    assert (research["token_cost"], research["success_roll"]) == (5, 6)
    charts = {c["id"]: [b["id"] for b in sorted(c["breakthroughs"], key=lambda b: b["roll"])]
              for c in research["charts"]}
    assert charts == {
        "chart-1": ["advanced-artillery", "rockets", "paratroopers", "increased-factory-production", "war-bonds",
                    "mechanized-infantry"],
        "chart-2": ["super-submarines", "jet-fighters", "improved-shipyards", "radar", "long-range-aircraft",
                    "heavy-bombers"]}
    shipyards = next(b for c in research["charts"] for b in c["breakthroughs"] if b["id"] == "improved-shipyards")
    assert {c["type"]: c["cost"] for c in shipyards["changes"]} == {
        "battleship": 17, "carrier": 11, "cruiser": 10, "destroyer": 7, "transport": 6, "submarine": 3}


def test_china_rules(y1941):
    china = y1941.manifest["rules"]["china"]
    assert set(china["territories"]) == {"manchuria", "kiangsu", "suiyuan", "ningxia", "chinghai", "fukien",
                                         "hupeh", "sikang", "kwangtung", "yunnan"}
    assert (china["infantry_per_territories"], china["placement_limit"]) == (2, 3)
    assert china["collects_income"] is False and china["may_use_transports"] is False
    assert china["recapture_only"] == ["kwangtung"]


BONUSES = {  # rulebook §5.8.1
    "germany": [5, 5, 5], "japan": [5, 5, 5], "italy": [5, 5], "united-states": [5, 5, 5, 5],
    "united-kingdom": [5, 5, 5], "soviet-union": [10, 5],
}


def test_national_objective_bonuses(y1941):
    found = {}
    for _, objective in y1941.entities("objectives", "objectives"):
        found.setdefault(objective["owner"], []).append(objective["award"]["amount"])
        assert objective["option"] == "national-objectives"
    assert found == BONUSES


def objectives_met(scenario):
    return {o["id"]: r.met for o, r in aa50.objective_report(scenario, build_index(scenario))}


def test_objectives_on_the_starting_positions(y1941, y1942):
    met_1941 = objectives_met(y1941)
    assert {k for k, v in met_1941.items() if v} == {
        "germany-western-europe", "japan-china-indochina", "italy-mediterranean", "united-states-homeland",
        "united-states-philippines", "united-states-pacific", "united-kingdom-empire", "soviet-union-archangel"}
    met_1942 = objectives_met(y1942)
    assert met_1942["germany-eastern-europe"] and met_1942["japan-south-seas"]
    assert not met_1942["italy-mediterranean"]      # a British destroyer in sea zone 15
    assert not met_1942["united-states-philippines"]


def test_uk_objective_counts_every_territory_japan_held_at_the_1941_opening(y1941, y1942):
    """§5.8.1.5 with note 6: 'when the game started' is the 1941 opening, in both scenarios."""
    japanese = {s for s, n in control(y1941).items() if n == "japan"}
    for scenario in (y1941, y1942):
        objective = next(o for _, o in scenario.entities("objectives", "objectives")
                         if o["id"] == "united-kingdom-japanese-territory")
        assert set(objective["when"]["controls"]["spaces"]) == japanese
        assert objective["when"]["controls"]["count"] == 1


def test_explain_lists_met_objectives_and_bonus(capsys):
    assert main(["validate", str(SCENARIOS / "aa50-1941"), "--explain", "--color", "never"]) == 0
    out = capsys.readouterr().out
    assert "soviet-union-eastern-europe          not met   +10 ipc" in out
    assert "bonus income at the start (option national-objectives is off by default): germany +5, italy +5, " \
           "japan +5, soviet-union +5, united-kingdom +5, united-states +15" in out


def test_1942_holds_only_what_differs():
    folder = SCENARIOS / "aa50-1942"
    assert sorted(p.name for p in folder.glob("*.yaml")) == [
        "map.yaml", "objectives.yaml", "scenario.yaml", "setup.yaml"]
    scenario = load_scenario(folder)
    assert scenario.manifest["extends"] == "../aa50-1941"
    assert len(scenario.doc("map")["spaces"]) == 162
    raw_map = (folder / "map.yaml").read_text(encoding="utf-8")
    assert "borders" not in raw_map


def test_chinese_names_of_the_rulebook(y1941, y1942):
    entries = y1941.locale("zh-Hans")["entries"]
    assert entries["spaces.kiangsu.name"]["text"] == "江苏"
    assert entries["spaces.karelia-ssr.name"]["text"] == "卡累利阿"
    assert entries["spaces.sz-13.name"]["text"] == "海域 13"
    assert entries["scenario.rules.victory_cities.caucasus.name"]["text"] == "斯大林格勒"
    assert entries["unit_types.transport.name"]["text"] == "运输艇"
    assert entries["scenario.rules.research.charts.chart-2.breakthroughs.heavy-bombers.name"]["text"] == "重型轰炸机"
    assert y1942.locale("zh-Hans")["entries"]["scenario.name"]["text"] == "轴心和同盟 50 周年纪念版：1942 年设定"
    assert [d for d in validate(y1942) if d.code.startswith("LOC")] == []
