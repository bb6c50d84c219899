"""Balance studies: compare a variant with its parent, ablate its changes, gate CI on a baseline,
find a knob's fair value.

The fixture tests/fixtures/balance/duel is a game decided by one sea battle in round 1: Germany's
cruisers attack the Soviet cruisers sharing their sea zone, nothing can move or be bought. With
equal fleets the battle is symmetric (both sides hit on 3, fire at once), so each side wins
equally often; the exact battle calculator gives every other case. duel-reinforced gives the
Soviet fleet two more cruisers, and makes three changes that cannot change a game.
"""
from __future__ import annotations

import json
import math

import numpy as np
import pytest

from engine.calculator import parse_force, run_battle
from playtest.fairness import find_fair_value
from playtest.knob import KnobError, find_knob, with_knob
from playtest.stats import binomial_two_sided, fit_logistic, mcnemar, paired_shift
from sandtable.cli import main
from sandtable.scenario import load_scenario
from sandtable.variant_changes import apply_changes, parent_of, variant_changes, without_documentation
from tests.helpers import FIXTURES, REPO

DUEL = FIXTURES / "balance" / "duel"
REINFORCED = FIXTURES / "balance" / "duel-reinforced"
GAME = ["--max-rounds", "1", "--workers", "1"]


def exact_odds(german: int, soviet: int) -> tuple[float, float]:
    """(Axis wins, Allies wins) of the duel: the battle's exact odds (the calculator's)."""
    report = run_battle(load_scenario(DUEL), parse_force(f"germany: {german} cruiser"),
                        [parse_force(f"soviet-union: {soviet} cruiser")], "sz-1", exact=True)
    return report.attacker_wins, report.defender_wins


def run(capsys, *argv) -> tuple[int, str, str]:
    code = main(["playtest", *map(str, argv)])
    out, err = capsys.readouterr()
    return code, out, err


# -- the changes of a variant --------------------------------------------------------------------
def test_a_variants_changes_are_each_entity_it_overrides_adds_or_removes():
    scenario = load_scenario(REINFORCED)
    changes = variant_changes(scenario, parent_of(scenario))
    assert [(c.kind, c.what, c.pointer, c.line) for c in changes] == [
        ("scenario", "override", "/nations/0", 12),
        ("setup", "override", "/spaces/0", 3),
        ("objectives", "removal", "/objectives/0", 3),
        ("objectives", "addition", "/objectives/1", 4)]
    assert changes[1].label == "space sz-1 changed (setup.yaml:3)"
    assert changes[1].group == "setup.yaml /spaces"


@pytest.mark.parametrize("variant", [REINFORCED, REPO / "scenarios" / "aa50-1942"])
def test_all_changes_applied_together_give_the_variant(variant):
    """What the ablation finds is the whole variant: nothing missed, nothing extra (the
    variant's own name, id and notes aside)."""
    scenario = load_scenario(variant)
    parent = parent_of(scenario)
    rebuilt = apply_changes(parent, variant_changes(scenario, parent))
    for kind in ("map", "units", "setup", "objectives"):
        assert without_documentation(rebuilt.doc(kind)) == \
            without_documentation(scenario.doc(kind)), kind
    described = {"id", "name", "extends", "year"}
    assert {k: v for k, v in without_documentation(rebuilt.doc("scenario")).items()
            if k not in described} == \
        {k: v for k, v in without_documentation(scenario.doc("scenario")).items()
         if k not in described}


def test_a_change_applied_alone_changes_that_only():
    scenario = load_scenario(REINFORCED)
    parent = parent_of(scenario)
    setup = next(c for c in variant_changes(scenario, parent) if c.kind == "setup")
    alone = apply_changes(parent, [setup])
    assert alone.doc("setup") == scenario.doc("setup")
    assert alone.doc("scenario") == parent.doc("scenario")
    assert alone.doc("objectives") == parent.doc("objectives")
    assert parent.doc("setup")["spaces"][2]["units"][1]["count"] == 4      # the parent is kept


# -- compare and ablation ------------------------------------------------------------------------
def test_compare_finds_the_shift_known_by_construction_and_the_change_that_made_it(capsys):
    code, out, _ = run(capsys, "compare", REINFORCED, "--games", 400, *GAME, "--format", "json")
    assert code == 0
    comparison = json.loads(out)
    assert comparison["paired"] and comparison["old"]["scenario"] == "duel"
    axis, allies = comparison["sides"]["axis"], comparison["sides"]["allies"]
    equal, _ = exact_odds(4, 4)
    weaker, stronger = exact_odds(4, 6)
    assert equal == pytest.approx(exact_odds(4, 4)[1])          # symmetric by construction
    assert axis["old_interval"][0] <= equal <= axis["old_interval"][1]
    assert axis["new_interval"][0] <= weaker <= axis["new_interval"][1]
    assert allies["new_interval"][0] <= stronger <= allies["new_interval"][1]
    assert axis["interval"][0] <= weaker - equal <= axis["interval"][1]
    assert axis["significant"] and axis["shift"] < -0.3 and allies["shift"] > 0.3
    assert axis["test"] == "mcnemar" and axis["p_value"] < 1e-6
    ablation = comparison["ablation"]
    assert ablation["by"] == "change" and ablation["parent"] == "duel"
    by_label = {item["label"]: item["sides"] for item in ablation["changes"]}
    assert len(by_label) == 4
    setup = by_label["space sz-1 changed (setup.yaml:3)"]
    # the set-up change alone plays the very games of the variant, seed for seed
    assert setup["axis"]["shift"] == axis["shift"] and setup["allies"]["shift"] == allies["shift"]
    for label, sides in by_label.items():
        if "setup" not in label:          # cannot change a game: the same games, won alike
            assert sides["axis"]["won_only_in_new"] == sides["axis"]["won_only_in_old"] == 0
            assert sides["axis"]["p_value"] == 1.0 and not sides["allies"]["significant"]


def test_compare_as_text_markdown_and_pages(capsys, tmp_path):
    code, out, err = run(capsys, "compare", REINFORCED, "--games", 60, *GAME,
                         "--report", tmp_path / "page")
    assert code == 0
    assert out.splitlines()[0] == ("duel-reinforced against duel: 60 games each, the same seed "
                                   "(1) and players (Axis heuristic, Allies heuristic)")
    assert "verdict: the balance moved: Axis down" in out
    assert "ablation: each change applied alone to duel (60 games each" in out
    assert "played in 1 local process" in out
    for name in ("index.html", "comparison.json", "outcome.png", "ablation.png",
                 "old/index.html", "new/index.html", "new/report.json"):
        assert (tmp_path / "page" / name).is_file(), name
    page = (tmp_path / "page" / "index.html").read_text(encoding="utf-8")
    assert "duel-reinforced against duel" in page and "space sz-1 changed" in page
    code, out, _ = run(capsys, "compare", REINFORCED, "--games", 60, *GAME,
                       "--format", "markdown", "--ablation", "none")
    assert code == 0 and out.startswith("### duel-reinforced against duel\n")
    assert "| Axis |" in out and "Ablation" not in out


def test_ablation_by_group_when_the_changes_are_many(capsys):
    code, out, _ = run(capsys, "compare", REINFORCED, "--games", 30, *GAME, "--max-changes", 3,
                       "--format", "json")
    ablation = json.loads(out)["ablation"]
    assert ablation["by"] == "group"
    assert [item["label"] for item in ablation["changes"]] == [
        "scenario.yaml /nations (1 change)", "setup.yaml /spaces (1 change)",
        "objectives.yaml /objectives (2 changes)"]
    assert "4 changes, more than --max-changes 3: tried by group" == ablation["note"]


def test_compare_needs_a_scenario_to_compare_with(capsys):
    code, _, err = run(capsys, "compare", DUEL, "--games", 10, *GAME)
    assert code == 2
    assert "extends no scenario: name the one to compare it with" in err
    code, out, _ = run(capsys, "compare", DUEL, REINFORCED, "--games", 20, *GAME,
                       "--format", "json")
    assert code == 0
    assert json.loads(out)["ablation"]["changes"] == []     # OTHER is not DUEL's parent


# -- the CI gate ---------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def baseline(tmp_path_factory):
    path = tmp_path_factory.mktemp("gate") / "baseline.json"
    assert main(["playtest", "games", str(DUEL), "--games", "200", *GAME,
                 "--report", str(path.parent / "page")]) == 0
    path.write_text((path.parent / "page" / "report.json").read_text(encoding="utf-8"))
    return path


def test_the_gate_fails_a_moved_balance_and_passes_a_kept_one(capsys, baseline):
    code, out, _ = run(capsys, "games", REINFORCED, "--games", 200, *GAME,
                       "--baseline", baseline, "--max-shift", 0.05, "--format", "markdown")
    assert code == 1
    assert "**Balance check failed:** axis: win rate" in out
    assert "❌ moved more than 5 points |" in out and "| Axis |" in out
    code, out, _ = run(capsys, "games", DUEL, "--games", 200, *GAME, "--baseline", baseline,
                       "--max-shift", 0.05)
    assert code == 0
    assert "balance check passed: no side's win rate moved by more than 5 points" in out
    # a shift smaller than the threshold passes even when it is significant
    code, out, _ = run(capsys, "games", REINFORCED, "--games", 200, *GAME,
                       "--baseline", baseline, "--max-shift", 0.9, "--json")
    report = json.loads(out)
    assert code == 0 and report["baseline"]["failures"] == []
    assert report["baseline"]["sides"]["axis"]["significant"]


def test_the_gate_tests_unpaired_baselines_as_independent_samples(capsys, baseline):
    code, out, _ = run(capsys, "games", DUEL, "--games", 150, "--seed", 9, *GAME,
                       "--baseline", baseline, "--max-shift", 0.05, "--format", "json")
    assert code == 0
    found = json.loads(out)["baseline"]
    assert not found["paired"] and found["test"] == "pooled two-proportion z test"


@pytest.mark.parametrize("argv, message", [
    (["--max-shift", "0.05"], "--max-shift needs --baseline REPORT.json"),
    (["--baseline", "missing.json"], "--baseline missing.json: cannot read it"),
    (["--baseline", str(DUEL / "setup.yaml")], "not JSON"),
])
def test_gate_usage_errors(capsys, argv, message, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    code, _, err = run(capsys, "games", DUEL, "--games", 5, *GAME, *argv)
    assert code == 2 and message in err


def test_a_baseline_must_be_a_playtest_report(capsys, tmp_path):
    other = tmp_path / "other.json"
    other.write_text('{"format": "sarif"}')
    code, _, err = run(capsys, "games", DUEL, "--games", 5, *GAME, "--baseline", other)
    assert code == 2 and "is not a playtest report" in err


# -- knobs and fair values -----------------------------------------------------------------------
def test_a_knob_is_a_number_named_by_file_kind_and_pointer():
    scenario = load_scenario(DUEL)
    knob = find_knob(scenario, "/setup/spaces/2/units/0/count")
    assert (knob.kind, knob.tokens, knob.value, knob.integer) == \
        ("setup", ("spaces", 2, "units", 0, "count"), 4, True)
    assert knob.label == "sz-1 › germany cruiser › count"
    changed = with_knob(scenario, knob, 6.4)
    assert changed.doc("setup")["spaces"][2]["units"][0]["count"] == 6
    assert scenario.doc("setup")["spaces"][2]["units"][0]["count"] == 4


@pytest.mark.parametrize("pointer, message", [
    ("/resources/0/amount", "names no file of the scenario: did you mean /setup/resources/0/amount?"),
    ("setup/resources/0/amount", "is not a JSON pointer"),
    ("/setup/resources/0/owner", "is a text ('germany'), not a number; numbers near it: "
                                 "/setup/resources/0/amount"),
    ("/setup/resources/0", "is a mapping, not a number"),
    ("/setup/resourcs/0/amount", "/setup has no 'resourcs'; did you mean /setup/resources?"),
    ("/setup/resources/7/amount", "it is a list of 2, numbered 0 to 1"),
])
def test_knob_errors_say_what_would_do(pointer, message):
    with pytest.raises(KnobError) as raised:
        find_knob(load_scenario(DUEL), pointer)
    assert message in str(raised.value)


def test_balance_usage_errors_exit_2(capsys):
    code, _, err = run(capsys, "balance", DUEL, "--knob", "/resources/0/amount", *GAME)
    assert code == 2 and "did you mean /setup/resources/0/amount?" in err
    code, _, err = run(capsys, "balance", DUEL, "--knob", "/setup/resources/0/amount", *GAME)
    assert code == 2 and "is 0 in the scenario: give the values to search with --range" in err
    code, _, err = run(capsys, "balance", DUEL, "--knob", "/setup/spaces/2/units/0/count",
                       "--side", "axsi", *GAME)
    assert code == 2 and "did you mean axis?" in err
    code, _, err = run(capsys, "balance", DUEL, "--knob", "/setup/spaces/2/units/0/count",
                       "--range", "5", *GAME)
    assert code == 2 and "give LOW:HIGH" in err


def test_the_fair_fleet_is_the_equal_one(capsys, tmp_path):
    """The duel is fair when the fleets are equal (symmetry): the search finds 4 cruisers."""
    axis, allies = exact_odds(4, 4)
    assert axis == pytest.approx(allies)
    code, out, _ = run(capsys, "balance", DUEL, "--knob", "/setup/spaces/2/units/0/count",
                       "--range", "1:8", "--games", 400, *GAME, "--format", "json",
                       "--report", tmp_path)
    assert code == 0
    answer = json.loads(out)
    assert json.loads((tmp_path / "fair-value.json").read_text(encoding="utf-8")) == answer
    assert (tmp_path / "curve.png").is_file()
    assert "fair value: 4.0" in (tmp_path / "index.html").read_text(encoding="utf-8")
    assert answer["found"] and answer["whole"] == 4
    low, high = answer["interval"]
    assert low <= 4 <= high and high - low < 1
    played = {point["value"]: point for point in answer["curve"]}
    assert sum(point["games"] for point in played.values()) == 400 == answer["games"]
    # most games went where the answer was uncertain, next to it
    assert sum(played[v]["games"] for v in (3.0, 4.0, 5.0) if v in played) > 0.6 * 400
    for value, point in played.items():           # the curve agrees with the exact odds
        if point["counted"] >= 30:
            wins, losses = exact_odds(int(value), 4)
            low, high = point["interval"]
            assert low <= wins / (wins + losses) <= high


def test_a_range_that_misses_the_fair_value_exits_1(capsys):
    code, out, _ = run(capsys, "balance", DUEL, "--knob", "/setup/spaces/2/units/0/count",
                       "--range", "7:9", "--games", 60, *GAME)
    assert code == 1
    assert ("no fair value found: the side wins more than 50% at every value played: the fair "
            "value lies outside the range; widen it") in out


# -- the statistics ------------------------------------------------------------------------------
def test_mcnemar_is_the_exact_binomial_test_of_the_changed_games():
    assert binomial_two_sided(0, 5) == pytest.approx(2 / 32)
    assert binomial_two_sided(3, 10) == pytest.approx(2 * (1 + 10 + 45 + 120) / 1024)
    assert mcnemar(0, 0) == 1.0
    assert mcnemar(30, 10) == pytest.approx(mcnemar(10, 30))


def test_the_paired_interval_covers_the_true_shift_95_percent_of_the_time():
    rng = np.random.default_rng(5)
    covered, trials, n = 0, 600, 150
    for _ in range(trials):
        base = rng.random(n) < 0.45             # correlated pairs: most games do not change
        flip = rng.random(n) < 0.15
        new = np.where(flip, rng.random(n) < 0.6, base)
        truth = 0.15 * (0.6 - 0.45)
        shift = paired_shift(list(base), list(new))
        covered += shift.interval[0] <= truth <= shift.interval[1]
    assert 0.92 <= covered / trials <= 0.985


def test_the_search_finds_a_known_crossing():
    rng = np.random.default_rng(11)

    def truth(value):
        return 1 / (1 + math.exp(-0.4 * (value - 23.5)))

    def play(value, games, _number):
        return int((rng.random(games) < truth(value)).sum()), games

    answer = find_fair_value(play, 0, 80, 0.5, 600, integer=False)
    assert answer["found"] and answer["interval"][0] <= 23.5 <= answer["interval"][1]
    assert answer["interval"][1] - answer["interval"][0] < 4
    fit = fit_logistic([0, 1, 2], [0, 5, 10], [10, 10, 10])     # separated data stays finite
    assert math.isfinite(fit.slope) and fit.root(0.5) == pytest.approx(1.0, abs=1e-6)


def test_the_examples_in_the_docs_are_what_the_commands_print(capsys, monkeypatch):
    """docs/balance.md shows commands on the duel with their output; they must not drift."""
    import re
    import shlex
    monkeypatch.chdir(REPO)
    page = (REPO / "docs" / "balance.md").read_text(encoding="utf-8")
    blocks = re.findall(r"```console\n(.*?)```", page, re.S)
    examples = [part.split("\n", 1) for block in blocks for part in block.split("$ sandtable ")
                if part]
    assert len(examples) == 5
    for command, shown in examples:
        code, out, err = run(capsys, *shlex.split(command)[1:])
        assert code in (0, 1, 2) and out + err == shown, command
