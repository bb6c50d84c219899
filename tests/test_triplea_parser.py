"""TripleA's own parser on our exports: TripleA opens what `sandtable export triplea` writes.

tools/triplea/ParseGame.java loads a game file with TripleA's GameParser (Debian's `triplea`
package, TripleA 1.9), makes the check TripleA's game chooser makes (a mapName), and checks the
game against a map folder's geometry with TripleA's MapData.verify; it prints what TripleA made of
the game. These tests run it where Java and TripleA's jar are present (TRIPLEA_JAR names another
jar) and are skipped, with the reason, elsewhere.

Every bundled AA50-family scenario is exported and accepted, on the World War II v3 map where the
map folder is beside the repository; aa50-1941 and aa50-1942 come back from TripleA's parse with
the same territories, connections, units, players and production.
"""
from __future__ import annotations

import json
import os
import shutil
import subprocess
from collections import Counter
from pathlib import Path

import pytest

from sandtable.scenario import load_scenario
from sandtable.triplea import import_game
from sandtable.triplea.export import PLAYERS, RESOURCE_NAMES, UNIT_NAMES, export_game
from sandtable.triplea.names import triplea_territory_name
from sandtable.yamlwrite import save_yaml

from helpers import FIXTURES, REPO

JAR = Path(os.environ.get("TRIPLEA_JAR", "/usr/share/games/triplea/bin/triplea.jar"))
DRIVER = REPO / "tools" / "triplea" / "ParseGame.java"
WW2V3 = REPO.parent / "shared" / "reference" / "triplea-maps" / "world_war_ii_v3"
AA50_FAMILY = ["aa50-1941", "aa50-1942", "northern-front"]


def _why_not() -> str | None:
    if shutil.which("java") is None:
        return "java is not installed (TripleA's parser runs on Java)"
    if not JAR.is_file():
        return f"TripleA's jar is not at {JAR}: apt-get install triplea, or set TRIPLEA_JAR"
    return None


needs_triplea = pytest.mark.skipif(_why_not() is not None, reason=_why_not() or "")


def triplea_parse(game: Path, map_dir: Path | None = None) -> dict:
    """What TripleA makes of a game file; fails the test with TripleA's words when it refuses it."""
    command = ["java", "-Djava.awt.headless=true", "-cp", str(JAR), str(DRIVER), str(game.resolve())]
    if map_dir is not None:
        command.append(str(map_dir.resolve()))
    # TripleA reads its settings (game_engine.properties) from the folder it runs in
    done = subprocess.run(command, cwd=JAR.parent, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(done.stdout)


def _map_dir() -> Path | None:
    return WW2V3 if WW2V3.is_dir() else None


@pytest.fixture(scope="module")
def parsed(tmp_path_factory):
    """Each bundled AA50-family scenario exported and parsed by TripleA, on its map where it is here."""
    folder = tmp_path_factory.mktemp("exports")
    results = {}
    for name in AA50_FAMILY:
        scenario = load_scenario(REPO / "scenarios" / name)
        path = folder / f"{name}.xml"
        path.write_text(export_game(scenario), encoding="utf-8")
        results[name] = (scenario, triplea_parse(path, _map_dir()))
    return results


# -- what the scenario says, in TripleA's names ------------------------------------------------
def _territory(space: dict) -> str:
    return space.get("triplea_name") or triplea_territory_name(space["name"])


def _player(nation: dict) -> str:
    return nation.get("triplea_name") or PLAYERS.get(nation["id"], nation["id"])


def expected(scenario) -> dict:
    """The game a scenario's export holds, as the ParseGame summary says it."""
    spaces = {s["id"]: s for _, s in scenario.entities("map", "spaces")}
    nations = {n["id"]: n for _, n in scenario.entities("scenario", "nations")}
    sides = {s["id"]: s["name"] for _, s in scenario.entities("scenario", "sides")}
    units = {u["id"]: u for _, u in scenario.entities("units", "unit_types")}
    placed: Counter = Counter()
    for _, entry in scenario.entities("setup", "spaces"):
        for stack in entry.get("units") or []:
            owner = nations[stack.get("owner", entry.get("control"))]
            placed[(_territory(spaces[entry["space"]]), UNIT_NAMES.get(stack["type"], stack["type"]),
                    _player(owner))] += stack["count"]
    given: dict = {}
    for _, entry in scenario.entities("setup", "resources"):
        given.setdefault(_player(nations[entry["owner"]]), {})[RESOURCE_NAMES.get(entry["resource"])] = entry["amount"]
    costs = {UNIT_NAMES.get(u["id"], u["id"]): u["cost"] for u in units.values() if "cost" in u}
    return {
        "territories": {_territory(s): s["kind"] == "sea" for s in spaces.values()},
        "values": {_territory(s): s.get("value", 0) for s in spaces.values() if s["kind"] == "land"},
        "connections": {frozenset(_territory(spaces[x]) for x in b["between"])
                        for _, b in scenario.entities("map", "borders")},
        "units": dict(placed),
        "players": {_player(n): [sides[n["side"]]] for n in nations.values() if _player(n) != "Neutral"},
        "resources": given,
        "production": {_player(n): costs for n in nations.values() if _player(n) != "Neutral"},
    }


def found(summary: dict) -> dict:
    """The same, from what TripleA's parser made of the file."""
    territories = summary["territories"]
    units = Counter({(t["name"], unit, owner): count for t in territories for unit, owner, count in t["units"]})
    return {
        "territories": {t["name"]: t["water"] for t in territories},
        "values": {t["name"]: t.get("production", 0) for t in territories if not t["water"]},
        "connections": {frozenset(pair) for pair in summary["connections"]},
        "units": dict(units),
        "players": {p["name"]: p["alliances"] for p in summary["players"]},
        "resources": {p["name"]: {r: n for r, n in p["resources"].items() if n} for p in summary["players"]
                      if any(p["resources"].values())},
        "production": {p["name"]: {next(iter(rule["results"])): rule["costs"]["PUs"] for rule in p["production"]}
                       for p in summary["players"]},
    }


# -- the tests ---------------------------------------------------------------------------------
@needs_triplea
@pytest.mark.parametrize("name", AA50_FAMILY)
def test_triplea_opens_every_bundled_aa50_scenario(parsed, name):
    scenario, summary = parsed[name]
    assert summary["mapName"] == "world_war_ii_v3" and summary["version"] == "1.0"
    assert summary["mapVerified"] == ("ok" if _map_dir() else None)   # the map knows every territory
    assert len(summary["territories"]) == len(list(scenario.entities("map", "spaces")))


@needs_triplea
@pytest.mark.parametrize("name", ["aa50-1941", "aa50-1942"])
def test_the_aa50_games_come_back_from_triplea_the_same(parsed, name):
    scenario, summary = parsed[name]
    ours, theirs = expected(scenario), found(summary)
    # the resources TripleA holds at zero (research tokens) are left out of both
    ours["resources"] = {p: {r: n for r, n in given.items() if n} for p, given in ours["resources"].items()
                         if any(given.values())}
    assert {k for k in ours if ours[k] != theirs[k]} == set()
    assert len(theirs["territories"]) == 162 and len(theirs["connections"]) == 407
    assert theirs["players"]["Chinese"] == ["Allies"] and theirs["production"]["Germans"]["infantry"] == 3
    assert "Argentina Chile" in theirs["territories"] and "Argentina/Chile" not in theirs["territories"]


@needs_triplea
def test_neutral_units_are_placed_without_an_owner(tmp_path):
    imported = import_game(FIXTURES / "triplea" / "neutral-units.xml", "neutral-units")
    folder = tmp_path / "neutral-units"
    folder.mkdir()
    for kind, data in imported.files.items():
        save_yaml(folder / f"{kind}.yaml", data, kind=kind, within=folder)
    text = export_game(load_scenario(folder))
    assert '<unitPlacement unitType="infantry" territory="Sweden" quantity="2" />' in text
    assert 'name="Neutral"' not in text and 'alliance="Neutral"' not in text
    game = tmp_path / "neutral-units.xml"
    game.write_text(text, encoding="utf-8")
    summary = triplea_parse(game, _map_dir())
    assert [p["name"] for p in summary["players"]] == ["Germans", "Russians", "Americans"]
    sweden = next(t for t in summary["territories"] if t["name"] == "Sweden")
    assert (sweden["owner"], sweden["units"]) == ("Neutral", [["infantry", "Neutral", 2]])
