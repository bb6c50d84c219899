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
import re

import numpy as np
import pytest

from engine.calculator import parse_force, run_battle
from playtest.fairness import find_fair_value
from playtest.knob import KnobError, find_knob, with_knob
from playtest.stats import chi2_survival, fit_logistic, holm, independent_shift, paired_shift
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
    assert axis["test"] == "paired" and axis["p_value"] < 1e-6 and axis["p_adjusted"] < 1e-6
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
    # every plot is described in words for a reader who cannot see it, not named by its file
    alts = re.findall(r'<img src="[^"]+" alt="([^"]+)"', page)
    assert alts[:2] == ["who wins in each of the two scenarios, with 95% intervals",
                        "each group of changes applied alone to the parent: the shift it gives "
                        "each side, with its 95% interval"]
    assert not any(alt.endswith(".png") for alt in alts)
    single = (tmp_path / "page" / "new" / "index.html").read_text(encoding="utf-8")
    assert 'alt="who wins: the share of the games each side wins, with its 95% interval"' in single
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
    assert "❌ moved beyond 5 points |" in out and "| Axis |" in out
    code, out, _ = run(capsys, "games", DUEL, "--games", 200, *GAME, "--baseline", baseline,
                       "--max-shift", 0.05)
    assert code == 0
    assert "balance check passed: no side's win rate moved beyond 5 points" in out
    assert "the gate: each side's shift tested one-sided against the tolerance" in out
    assert "no game changed its result: the studies are the same games" in out
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
    assert not found["paired"]
    assert found["test"] == "Newcombe's interval for independent studies, Holm-corrected over the sides"


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
def paired_games(rng, n: int, base_rate: float, changed: float, new_rate: float):
    """n games paired by seed: a share `changed` of them replayed with another result."""
    base = rng.random(n) < base_rate
    flip = rng.random(n) < changed
    return list(base), list(np.where(flip, rng.random(n) < new_rate, base))


def test_the_star_and_the_interval_always_agree():
    """One coherent answer: p < 0.05 exactly when the 95% interval leaves out 0."""
    rng = np.random.default_rng(3)
    for _ in range(400):
        shift = paired_shift(*paired_games(rng, int(rng.integers(20, 300)), 0.45, 0.2, 0.45))
        low, high = shift.interval
        assert shift.significant == (not low <= 0 <= high) or abs(shift.p_value - 0.05) < 1e-9
        old_wins, new_wins = map(int, rng.integers(1, 50, 2))
        unpaired = independent_shift(old_wins, 60, new_wins, 60)
        low, high = unpaired.interval
        assert unpaired.significant == (not low <= 0 <= high) or abs(unpaired.p_value - 0.05) < 1e-9


def test_a_shift_inside_the_tolerance_rarely_fails_the_gate():
    """A real +4-point change against a 5-point tolerance failed 23-26% of 200-game
    runs when the gate tested "shift != 0"; tested against the tolerance it fails at most 5%."""
    rng = np.random.default_rng(8)
    runs, failed, caught = 300, 0, 0
    for _ in range(runs):
        old, new = paired_games(rng, 200, 0.45, 0.2, 0.65)       # +4 points on average
        failed += paired_shift(old, new).beyond(0.05) < 0.05
        old, new = paired_games(rng, 200, 0.45, 0.5, 0.85)       # +20 points: beyond it
        caught += paired_shift(old, new).beyond(0.05) < 0.05
    assert failed / runs <= 0.05
    assert caught / runs >= 0.9


def test_the_sides_are_one_family_so_the_verdict_keeps_its_level():
    """With draws, either side's shift can be significant by chance; Holm's correction over the
    sides keeps the chance that any is at about 5% (uncorrected: 5.8-7.0%)."""
    from playtest.compare import correct_family
    rng = np.random.default_rng(12)
    alarms, runs = 0, 600
    for _ in range(runs):
        n = 200
        old = rng.choice(3, n, p=[0.4, 0.4, 0.2])            # 0 axis, 1 allies, 2 draw
        flip = rng.random(n) < 0.3
        new = np.where(flip, rng.choice(3, n, p=[0.4, 0.4, 0.2]), old)
        family = {side: paired_shift(list(old == side), list(new == side)).as_dict()
                  for side in (0, 1)}
        alarms += any(found["significant"] for found in correct_family(family).values())
    assert alarms / runs <= 0.06


def test_holm_and_the_chi_squared_tail_agree_with_scipy():
    stats = pytest.importorskip("scipy.stats")
    assert holm([0.01, 0.04, 0.03, 0.2]) == pytest.approx([0.04, 0.09, 0.09, 0.2])
    assert holm([0.5, float("nan")]) == [1.0, 1.0]
    for x, df in [(23.9, 13), (0.5, 1), (100.0, 50), (3.0, 4), (1e-6, 2), (400.0, 3)]:
        assert chi2_survival(x, df) == pytest.approx(stats.chi2.sf(x, df), rel=1e-10, abs=1e-300)


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
    assert len(examples) == 6
    for command, shown in examples:
        code, out, err = run(capsys, *shlex.split(command)[1:])
        assert code in (0, 1, 2) and out + err == shown, command


# -- a baseline is checked before any game is played -------------------------------------------
def damaged(report: dict, change) -> dict:
    found = json.loads(json.dumps(report))
    change(found)
    return found


@pytest.mark.parametrize("change, message", [
    (lambda r: r.clear() or r.update(format="sandtable-playtest-report"), "'version' is a required property"),
    (lambda r: r.pop("round_limit"), "'round_limit' is a required property"),
    (lambda r: r.update(series=None), "/series: None is not of type 'object'"),
    (lambda r: r["sides"]["axis"].update(wins="many"), "/sides/axis/wins: 'many' is not of type 'integer'"),
    (lambda r: r.update(version=99), "/version: 1 was expected"),
    (lambda r: r.update(finished=-5), "/finished: -5 is less than the minimum of 0"),
    (lambda r: r.update(outcomes="1" * len(r["outcomes"])), "games won by axis, but /sides/axis/wins"),
    (lambda r: r.update(outcomes=r["outcomes"][:-1]), "outcomes for 200 games"),
])
def test_a_damaged_baseline_is_refused_before_any_game(capsys, baseline, tmp_path, change, message):
    report = json.loads(baseline.read_text(encoding="utf-8"))
    broken = tmp_path / "broken.json"
    broken.write_text(json.dumps(damaged(report, change)), encoding="utf-8")
    code, out, err = run(capsys, "games", DUEL, "--games", 1, *GAME, "--baseline", broken,
                         "--max-shift", 0.05)
    assert code == 2 and not out and "Traceback" not in err
    assert "is a damaged playtest report" in err or "not a playtest report" in err
    assert message in err


def test_a_baseline_of_other_sides_is_refused(capsys, baseline, tmp_path):
    report = json.loads(baseline.read_text(encoding="utf-8"))
    report["meta"]["sides"] = ["axis", "comintern"]
    report["sides"]["comintern"] = report["sides"].pop("allies")
    renamed = tmp_path / "renamed.json"
    renamed.write_text(json.dumps(report), encoding="utf-8")
    code, out, err = run(capsys, "games", DUEL, "--games", 1, *GAME, "--baseline", renamed)
    assert code == 2 and not out
    assert "has the sides axis, comintern and the scenario has axis, allies" in err


def test_a_baseline_that_is_no_file_or_too_deep_is_refused(capsys, tmp_path):
    import os
    deep = tmp_path / "deep.json"
    deep.write_text("[" * 100_000 + "]" * 100_000, encoding="utf-8")
    code, _, err = run(capsys, "games", DUEL, "--games", 1, *GAME, "--baseline", deep)
    assert code == 2 and "nested too deeply" in err
    fifo = tmp_path / "fifo.json"
    os.mkfifo(fifo)
    code, _, err = run(capsys, "games", DUEL, "--games", 1, *GAME, "--baseline", fifo)
    assert code == 2 and "not a file" in err


def test_a_crossing_whose_interval_leaves_the_range_is_not_found():
    """A fair value of 1.44 (95% -24.55 to 13.12) for a knob searched in 0:72 is no
    answer: an interval outside the range is "not found"."""
    rng = np.random.default_rng(2)

    def play(value, games, _number):
        chance = 1 / (1 + math.exp(-0.04 * (value - 6)))        # shallow, crossing near the end
        return int((rng.random(games) < chance).sum()), games

    answer = find_fair_value(play, 0, 72, 0.5, 150)
    assert not answer["found"]
    assert "reaches outside the range searched (0 to 72)" in answer["why"]


def test_the_fit_of_the_logistic_curve_is_checked():
    """A win rate that is not logistic in the knob (a step, flat on both sides) is flagged; a
    logistic one is not (Pearson's chi-squared)."""
    def answer_for(truth, seed):
        rng = np.random.default_rng(seed)

        def play(value, games, _number):
            return int((rng.random(games) < truth(value)).sum()), games
        return find_fair_value(play, 0, 40, 0.5, 2000)

    step = answer_for(lambda v: 0.2 if v < 15 else 0.45 if v < 25 else 0.8, 4)
    assert step["fit"]["df"] > 0 and not step["fit"]["fits"] and step["fit"]["p"] < 0.05
    smooth = answer_for(lambda v: 1 / (1 + math.exp(-0.3 * (v - 20))), 4)
    assert smooth["fit"]["fits"] and smooth["found"]


def test_the_gate_says_how_many_games_its_tolerance_needs():
    """The interval's half-width is about z * sqrt(changed share / n): at 20% changed games, a
    5-point tolerance needs about 1.96^2 * 0.2 / 0.05^2 = 308 games."""
    from playtest.compare import games_needed
    from playtest.stats import games_to_decide
    assert games_to_decide(0.2, 0.05) == 308
    rng = np.random.default_rng(1)
    old, new = paired_games(rng, 400, 0.45, 0.2, 0.45)
    shift = paired_shift(old, new).as_dict()
    comparison = {"paired": True, "sides": {"axis": shift}}
    changed = (shift["won_only_in_new"] + shift["won_only_in_old"]) / 400
    assert games_needed(comparison, 0.05) == games_to_decide(changed, 0.05)
    assert games_needed(dict(comparison, paired=False), 0.05) is None


def test_the_progress_of_a_comparison_never_counts_past_its_total(capsys, monkeypatch):
    """`compare` with --ablation-games and no change to try counted 20/16 (it played
    the parent again for an ablation that did not run)."""
    import sandtable.commands.playtest_balance as command
    seen = []

    class Recording:
        def __init__(self, total, quiet=False, label="games"):
            self.total = total

        def __enter__(self):
            return lambda done, total: seen.append((done, total, self.total))

        def __exit__(self, *exc):
            return False

    monkeypatch.setattr(command, "progress_bar", Recording)
    code, _, _ = run(capsys, "compare", REINFORCED, "--games", 8, "--ablation-games", 4,
                     "--ablation", "none", *GAME)
    assert code == 0 and seen
    assert all(done <= total == bar for done, total, bar in seen)
    assert seen[-1][0] == seen[-1][2] == 16
    seen.clear()
    code, _, _ = run(capsys, "compare", REINFORCED, "--games", 8, "--ablation-games", 4, *GAME)
    assert code == 0 and seen[-1][0] == seen[-1][2] == 16 + 4 + 4 * 4


@pytest.mark.parametrize("argv, message", [
    (["games", DUEL, "--seed", "-1"], "--seed must be a whole number from 0"),
    (["compare", REINFORCED, "--seed", "-1"], "--seed must be a whole number from 0"),
    (["balance", DUEL, "--knob", "/setup/spaces/2/units/0/count", "--seed", "-1"],
     "--seed must be a whole number from 0"),
    (["balance", DUEL, "--knob", "/setup/spaces/²/units/0/count"], "--knob"),
    (["balance", DUEL, "--knob", "/setup/spaces/2/units/0/count", "--range=-inf:inf"],
     "give finite values"),
    (["balance", DUEL, "--knob", "/setup/spaces/2/units/0/count", "--range=-1e308:1e308"],
     "give finite values"),
])
def test_hostile_study_arguments_exit_2_without_a_traceback(capsys, argv, message):
    code, out, err = run(capsys, *argv, "--games", 2, *GAME)
    assert code == 2 and message in err and "Traceback" not in err and not out


def test_a_study_whose_games_all_fail_is_no_report(capsys, monkeypatch):
    """A study in which every game stopped by a rules error exits 1, not 0."""
    from engine.aa50.system import AA50

    def broken(self, options, rng, max_rounds=None):
        raise ZeroDivisionError("a rule divided by nothing")
    monkeypatch.setattr(AA50, "new_game", broken)
    code, out, err = run(capsys, "games", DUEL, "--games", 3, *GAME)
    assert code == 1 and "every game stopped by a rules error (3 of 3)" in err
    assert "rules error" in out


def test_a_mean_and_its_interval_agree_with_the_standard_library():
    """playtest.stats.mean_interval, which the benchmarks print margins with: the mean and
    1.96 standard errors (the sample's deviation over the square root of its size)."""
    import statistics

    from playtest.stats import mean_interval
    values = [-24.0, -19.5, -30.25, -22.0, -18.0, -27.5]
    mean, low, high = mean_interval(values)
    half = statistics.NormalDist().inv_cdf(0.975) * statistics.stdev(values) / len(values) ** 0.5
    assert mean == pytest.approx(statistics.fmean(values))
    assert (low, high) == pytest.approx((mean - half, mean + half))
    assert mean_interval([3.0]) == (3.0, 3.0, 3.0)
