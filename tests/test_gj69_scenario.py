"""GJ69 Southern Operation 1941: the bundled scenario says what the rulebook says."""
from __future__ import annotations

from collections import Counter

import pytest

from sandtable.scenario import load_scenario
from validators import build_index, validate

from helpers import REPO

FOLDER = REPO / "scenarios" / "gj69-southern-operation"


@pytest.fixture(scope="module")
def scenario():
    return load_scenario(FOLDER)


@pytest.fixture(scope="module")
def index(scenario):
    return build_index(scenario)


def test_validates_without_errors_or_warnings(scenario):
    assert [f"{d.code} {d.file}:{d.line}: {d.message}" for d in validate(scenario)] == []


def counts_in(scenario, index, space: str) -> Counter:
    """(owner, unit class) -> number of counters that start in the space."""
    found = Counter()
    for _, entry in scenario.entities("setup", "spaces"):
        if entry["space"] == space:
            for stack in entry.get("units", []):
                unit = index.unit_types[stack["type"]].data
                kind = unit["class"] if unit["domain"] == "sea" else unit["domain"]
                if stack["type"] == "macarthur":
                    kind = "macarthur"
                found[(stack["owner"], kind)] += stack["count"]
    return found


# §3.0(2) and §3.0(3): area -> {(owner, land | air | ship class | macarthur): count}
SETUP = {
    "luzon-strait": {("japan", "land"): 6, ("japan", "ca"): 2, ("japan", "dd"): 2},
    "cambodia": {("japan", "land"): 8},
    "canton": {("japan", "land"): 5},
    "coast-of-malay": {("japan", "land"): 8, ("japan", "ca"): 2, ("japan", "dd"): 2,
                       ("united-kingdom", "bb"): 1, ("united-kingdom", "bc"): 1, ("united-kingdom", "dd"): 1},
    "south-china-sea": {("japan", "land"): 1, ("japan", "bb"): 2, ("japan", "ca"): 2, ("japan", "dd"): 2},
    "pacific-ocean": {("japan", "land"): 1, ("japan", "cvl"): 1, ("japan", "dd"): 2},
    "south-west-pacific": {("japan", "land"): 2},
    "japan-homeland": {("japan", "land"): 10},
    "taiwan": {("japan", "air"): 4},
    "sth-indochina": {("japan", "air"): 4},
    "luzon": {("united-states", "land"): 5, ("united-states", "air"): 4},
    "mindanao": {("united-states", "land"): 3},
    "manila": {("united-states", "land"): 7, ("united-states", "macarthur"): 1},
    "celebes-sea": {("united-states", "ca"): 1, ("united-states", "dd"): 1},
    "java-sea": {("united-states", "dd"): 1, ("united-kingdom", "ca"): 1, ("united-kingdom", "dd"): 1,
                 ("netherlands", "cl"): 1, ("netherlands", "dd"): 1},
    "malay": {("united-kingdom", "land"): 8},
    "rangoon": {("united-kingdom", "land"): 3},
    "lashio": {("united-kingdom", "land"): 2},
    "hong-kong": {("united-kingdom", "land"): 2},
    "singapore": {("united-kingdom", "land"): 3, ("united-kingdom", "air"): 2},
    "india": {("united-kingdom", "air"): 2},
    "batavia": {("netherlands", "land"): 3, ("netherlands", "air"): 2},
    "surabaya": {("netherlands", "land"): 2},
    "kunming": {("china", "land"): 3},
}


@pytest.mark.parametrize("space", sorted(SETUP))
def test_setup_per_area(scenario, index, space):
    assert counts_in(scenario, index, space) == Counter(SETUP[space])


def test_no_other_area_holds_units(scenario):
    occupied = {entry["space"] for _, entry in scenario.entities("setup", "spaces") if entry.get("units")}
    assert occupied == set(SETUP)


def test_japanese_formations_by_area(scenario):
    """§3.0(2)①: 14A 6, 15A 8, 23A 5, 25A 8, Kawaguchi 1, Sakaguchi 1, naval landing force 2, Res. 10."""
    by_formation = Counter()
    for _, entry in scenario.entities("setup", "spaces"):
        for stack in entry.get("units", []):
            for formation in ("14a", "15a", "23a", "25a", "kawaguchi", "sakaguchi", "snlf", "reserve"):
                if f"-{formation}" in stack["type"]:
                    by_formation[(formation, entry["space"])] += stack["count"]
    assert by_formation == {
        ("14a", "luzon-strait"): 6, ("15a", "cambodia"): 8, ("23a", "canton"): 5,
        ("25a", "coast-of-malay"): 8, ("kawaguchi", "south-china-sea"): 1,
        ("sakaguchi", "pacific-ocean"): 1, ("snlf", "south-west-pacific"): 2,
        ("reserve", "japan-homeland"): 10,
    }


def test_macarthur_starts_in_manila(scenario):
    manila = next(e for _, e in scenario.entities("setup", "spaces") if e["space"] == "manila")
    assert {"type": "macarthur", "owner": "united-states", "count": 1} in manila["units"]


def test_reinforcement_pool_holds_commonwealth_and_nationalist_units(scenario, index):
    pool = index.pools["allied-reinforcements"].data
    nations = {index.unit_types[s["type"]].data["nation"] for s in pool["units"]}
    assert pool["owner"] == "allies"
    assert nations == {"united-kingdom", "china"}
    assert any(index.unit_types[s["type"]].data["domain"] == "air" and s["owner"] == "china"
               for s in pool["units"])


def test_five_oil_field_markers_three_drawn(scenario, index):
    markers = [m.data for m in index.markers.values() if m.data["kind"] == "oil_field"]
    assert sum(m["count"] for m in markers) == 5
    assert all(m["hidden"] for m in markers)
    (draw,) = [d for _, d in scenario.entities("setup", "draws")]
    assert draw["to"] == ["brunei", "palembang", "balikpapan"]
    assert draw["face_down"] is True


def test_areas(index):
    spaces = {k: v.data for k, v in index.spaces.items()}
    assert len(spaces) == 29
    assert sorted(k for k, s in spaces.items() if s["kind"] == "fortress") == ["hong-kong", "manila", "singapore"]
    assert sorted(k for k, s in spaces.items() if s["kind"] == "sea") == [
        "celebes-sea", "coast-of-malay", "indian-ocean", "java-sea", "luzon-strait",
        "pacific-ocean", "south-china-sea", "south-west-pacific"]
    assert {k: s["closed_to"] for k, s in spaces.items() if "closed_to" in s} == {
        "japan-homeland": ["allies"], "india": ["japan"], "kunming": ["japan"], "indian-ocean": ["japan"]}
    assert sorted(k for k, s in spaces.items() if "oil_field" in s.get("tags", [])) == [
        "balikpapan", "brunei", "palembang"]


def test_supply_sources(scenario, index):
    """§2.2.2(3): Japan Homeland for Japan; India and Kunming for the Allies."""
    assert scenario.manifest["rules"]["supply_sources"] == {"japan": ["japan-homeland"],
                                                          "allies": ["india", "kunming"]}
    tagged = sorted(k for k, v in index.spaces.items() if "supply_source" in v.data.get("tags", []))
    assert tagged == ["india", "japan-homeland", "kunming"]


def test_stacking_on_every_land_area_and_none_at_sea(index):
    for space in index.spaces.values():
        if space.data["kind"] == "sea":
            assert "stacking" not in space.data
        else:
            assert space.data["stacking"] == {"land": 10, "air": 4}


def test_every_border_is_reconstructed_and_of_a_rules_kind(scenario):
    borders = [b for _, b in scenario.entities("map", "borders")]
    assert all(b["reconstructed"] for b in borders)
    assert {b["kind"] for b in borders} == {"land", "mountain", "sea", "coast"}


def test_eight_turns_and_the_length_options(scenario, index):
    assert scenario.manifest["turns"]["count"] == 8
    assert index.options["longer-game"].data["changes"] == [{"op": "set_turns", "count": 9}]
    assert index.options["shorter-game"].data["changes"] == [{"op": "set_turns", "count": 7}]


def test_special_rules_are_on_and_optional_rules_off(index):
    defaults = {k: v.data["default"] for k, v in index.options.items()}
    assert defaults == {"fortress-areas": True, "macarthur": True, "nationalist-army": True,
                        "longer-game": False, "shorter-game": False, "hiryu-soryu": False,
                        "indomitable": False, "holidays-japan": False, "holidays-allies": False}
    confine = index.options["nationalist-army"].data["changes"][0]
    assert confine == {"op": "confine_nation", "nation": "china", "spaces": ["kunming", "lashio", "mandalay"]}


def test_allies_score_one_vp_per_fortress_each_turn(index):
    per_turn = [o.data for o in index.objectives.values() if o.data["timing"] == "end_of_turn"]
    assert sorted(o["when"]["controls"]["spaces"][0] for o in per_turn) == ["hong-kong", "manila", "singapore"]
    assert all(o["owner"] == "allies" and o["award"] == {"resource": "vp", "amount": 1} for o in per_turn)


def test_area_vp_objectives_match_the_map(index):
    for objective in index.objectives.values():
        data = objective.data
        if data["timing"] == "end_of_game":
            (space,) = data["when"]["controls"]["spaces"]
            assert data["award"]["amount"] == index.spaces[space].data["value"]


def decks(scenario):
    return {deck["id"]: deck for _, deck in scenario.entities("decks", "decks")}


def test_two_decks_of_sixteen_with_hands_of_seven_and_five(scenario):
    found = decks(scenario)
    assert {k: (d["owner"], d["size"], len(d["cards"]), d["hand_size"]) for k, d in found.items()} == {
        "japan": ("japan", 16, 16, 7), "allies": ("allies", 16, 16, 5)}
    assert [c["id"] for c in found["japan"]["cards"]] == [f"j{n:02d}" for n in range(1, 17)]
    assert [c["id"] for c in found["allies"]["cards"]] == [f"a{n:02d}" for n in range(1, 17)]


def test_reaction_cards_are_ambush_and_force_z(scenario):
    reactions = {(deck_id, c["title"]) for deck_id, d in decks(scenario).items()
                 for c in d["cards"] if c.get("reaction")}
    assert reactions == {("japan", "Ambush"), ("allies", "Ambush"), ("allies", "Force Z")}


def test_cards_removed_after_use(scenario):
    removed = {(deck_id, c["title"]) for deck_id, d in decks(scenario).items()
               for c in d["cards"] if c.get("removed_after_use")}
    assert removed == {("japan", "Divine Soldiers from the Sky"), ("japan", "Hinode wa Yamagata"),
                       ("japan", "Bicycle Troops"), ("japan", "YES or NO?"), ("allies", "I Shall Return")}


def test_side_specific_cards(scenario):
    titles = {deck_id: {c["title"] for c in d["cards"]} for deck_id, d in decks(scenario).items()}
    assert {"Oxygen Torpedoes", "Landing Operation / Sea Transport", "Bicycle Troops"} <= titles["japan"]
    assert {"Submarines", "Oil Field Demolition", "Commonwealth Reinforcements", "Nationalist Reinforcements",
            "Air Force Replacements", "Sea Transport", "Force Z"} <= titles["allies"]
    assert not titles["japan"] & {"Force Z", "Submarines", "I Shall Return"}


def test_commonwealth_reinforcements_go_to_india_used(scenario):
    card = next(c for c in decks(scenario)["allies"]["cards"] if c["title"] == "Commonwealth Reinforcements")
    assert card["effects"] == [{"op": "reinforce", "pool": ["allied-reinforcements"], "nation": "united-kingdom",
                                "units": 3, "random": True, "spaces": ["india"], "face": "used"}]


def test_locales_carry_the_source_wording(scenario):
    zh = scenario.locale("zh-Hans")["entries"]
    ja = scenario.locale("ja")["entries"]
    assert zh["decks.japan.cards.j16.title"]["text"] == "埋伏"
    assert ja["decks.japan.cards.j16.title"]["text"] == "待ち伏せ"
    assert ja["decks.japan.cards.j11.title"]["text"] == "銀輪部隊"
    assert ja["decks.japan.cards.j01.title"]["text"] == "電撃戦"
    assert zh["spaces.singapore.name"]["text"] == "新加坡 (SINGAPOLE)"
    assert zh["spaces.japan-homeland.name"]["text"] == "日本本土"
    assert "note" in ja["decks.allies.cards.a16.title"]  # Z部隊: not printed in Japanese
    assert "note" not in ja["decks.allies.cards.a14.title"]  # I shall return: printed


def test_victory_points_on_the_starting_position(scenario, index):
    """The Allies hold the three fortress areas and every area with VP at the start."""
    from validators.systems.gj69 import victory_points_at_start
    assert victory_points_at_start(scenario, index) == {("allies", "end_of_turn"): 3,
                                                        ("allies", "end_of_game"): 17}


def test_explain_reports_the_starting_vp(scenario, index):
    from validators.systems.gj69 import explain
    text = explain(scenario, index)
    assert "allies   3 VP at the end of each turn, 17 VP" in text
    assert "japan    0 VP at the end of each turn, 0 VP" in text


def test_nobody_leads_at_the_start_so_the_victory_conditions_say_draw(scenario, index):
    from validators.conditions import Position, evaluate
    position = Position.starting(scenario, index)
    results = {v["id"]: evaluate(v["when"], position).met for _, v in scenario.entities("scenario", "victory")}
    assert results == {"japanese-victory": False, "allied-victory": False, "draw": True}
