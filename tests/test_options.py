"""Named settings on the command line: `--option NAME=VALUE` for battles and games."""
import pytest

from engine.options import Setting, SettingError, resolve, settings_of_position, settings_of_scenario
from engine.system import BattlePosition
from engine.war_at_sea.position import WaSPosition
from sandtable.scenario import load_scenario

from helpers import REPO

SCENARIOS = REPO / "scenarios"


def test_battle_settings_come_from_the_system_position_fields():
    settings = {s.name: s for s in settings_of_position(WaSPosition, BattlePosition)}
    assert sorted(settings) == ["aim-at-convoys", "air-strikes", "damaged", "escape",
                                "escape-after", "escape-groups", "pursue", "sheltered", "variant"]
    assert settings["escape-groups"].choices == ("together", "by-speed", "singly")
    assert settings["air-strikes"].choices == ("both", "allies", "axis", "none")
    assert all(s.help for s in settings.values())
    assert settings["escape-after"].kind == "int" and settings["escape-after"].default == 1
    assert settings["pursue"].kind == "bool" and settings["pursue"].default is True
    assert settings["escape"].optional and settings["damaged"].kind == "counts"
    chosen = resolve(["escape-after=2", "pursue=no", "damaged=battleship:2, cruiser:1",
                      "escape=none"], list(settings.values()))
    assert chosen == {"escape_after": 2, "pursue": False,
                      "damaged": {"battleship": 2, "cruiser": 1}, "escape": None}


def test_unknown_names_and_wrong_values_are_refused_with_a_suggestion():
    settings = settings_of_position(WaSPosition, BattlePosition)
    with pytest.raises(SettingError, match="unknown setting 'persue'; did you mean pursue"):
        resolve(["persue=true"], settings)
    with pytest.raises(SettingError, match="escape-after='two': expected a whole number"):
        resolve(["escape-after=two"], settings)
    with pytest.raises(SettingError, match="write NAME=VALUE"):
        resolve(["pursue"], settings)
    with pytest.raises(SettingError, match="expected a whole number"):
        resolve(["escape-after=" + "9" * 40], settings)


def test_scenario_options_become_switches_and_one_choice_per_group():
    """AA50 rulebook §5.2 and §5.8.1 (optional rules) and §6 (13/15/18 victory cities)."""
    scenario = load_scenario(SCENARIOS / "aa50-1941")
    settings = {s.name: s for s in settings_of_scenario(scenario.manifest["options"])}
    assert settings["research"].default is False and settings["research"].kind == "bool"
    assert settings["victory"].choices == ("projection", "surrender-with-honor", "total-war")
    assert settings["victory"].default == "surrender-with-honor"
    assert resolve(["victory=total-war", "research=on"], list(settings.values())) == {
        "victory": "total-war", "research": True}
    with pytest.raises(SettingError, match="choose one of .*did you mean total-war"):
        resolve(["victory=total-wr"], list(settings.values()))


def test_describe_names_the_values_and_the_default():
    assert Setting("pursue", True, "bool", "chase an escape").describe() == \
        "pursue=true|false (default true): chase an escape"
