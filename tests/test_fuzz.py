"""Random and mutated input never makes the loader or the validators raise: only diagnostics."""
from __future__ import annotations

import tempfile
from pathlib import Path

import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sandtable.scenario import FILE_KINDS, load_scenario
from sandtable.yamlsource import YamlRefused, parse_yaml
from validators import validate

from helpers import FIXTURES

BASE = FIXTURES / "core" / "base"
BASE_FILES = {name: (BASE / name).read_text(encoding="utf-8") for name in FILE_KINDS.values()
              if (BASE / name).exists()}
YAML_CHARS = st.sampled_from(list(":-[]{}#&*!|>'\"%@`,? \n\t") + ["id", "NO", "~", "0x", "ü", "省"])
FUZZ = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@FUZZ
@given(st.text(max_size=300))
def test_random_text_gives_data_or_a_diagnostic(text):
    try:
        parse_yaml(text, Path("fuzz.yaml"))
    except YamlRefused as refused:
        assert refused.diagnostic.code.startswith("YAML")


def _mutate(text: str, edits) -> str:
    for position, action, token in edits:
        if not text:
            break
        at = position % len(text)
        if action == 0:
            text = text[:at] + text[at + 1:]
        elif action == 1:
            text = text[:at] + token + text[at:]
        else:
            lines = text.splitlines(keepends=True)
            line = at % len(lines)
            text = "".join(lines[:line] + [lines[line]] + lines[line:])
    return text


def _check_folder(files: dict[str, str]) -> None:
    with tempfile.TemporaryDirectory() as temp:
        folder = Path(temp) / "fuzzed"
        folder.mkdir()
        for name, text in files.items():
            (folder / name).write_text(text, encoding="utf-8")
        for problem in validate(load_scenario(folder)):
            assert problem.code and problem.message


@FUZZ
@given(st.sampled_from(sorted(BASE_FILES)),
       st.lists(st.tuples(st.integers(0, 10_000), st.integers(0, 2), YAML_CHARS), min_size=1, max_size=6))
def test_mutated_scenario_files_give_diagnostics_not_tracebacks(name, edits):
    files = dict(BASE_FILES)
    files[name] = _mutate(files[name], edits)
    _check_folder(files)


JSON_LEAF = st.one_of(st.none(), st.booleans(), st.integers(-5, 5), st.floats(allow_nan=False),
                      st.sampled_from(["red-coast", "infantry", "redland", "land", "sea", "x", ""]))
KEYS = st.sampled_from(["id", "name", "kind", "between", "space", "units", "type", "count", "owner",
                        "controls", "spaces", "when", "award", "cards", "stats", "tags", "axes",
                        "cells", "values", "entries", "text", "side", "capital", "extends", "value"])
JSON_DATA = st.recursive(JSON_LEAF, lambda inner: st.one_of(
    st.lists(inner, max_size=4), st.dictionaries(KEYS, inner, max_size=4)), max_leaves=25)


@FUZZ
@given(st.sampled_from(sorted(BASE_FILES)), st.dictionaries(KEYS, JSON_DATA, max_size=5))
def test_well_formed_yaml_of_the_wrong_shape_gives_diagnostics(name, data):
    files = dict(BASE_FILES)
    files[name] = yaml.safe_dump(data, allow_unicode=True)
    _check_folder(files)


def _replace_somewhere(data, path: list[int], replacement):
    """`data` with the node that `path` picks (each step an index among children) replaced."""
    if not path or not isinstance(data, (dict, list)) or not data:
        return replacement
    step, rest = path[0], path[1:]
    if isinstance(data, dict):
        key = list(data)[step % len(data)]
        return {**data, key: _replace_somewhere(data[key], rest, replacement)}
    at = step % len(data)
    return data[:at] + [_replace_somewhere(data[at], rest, replacement)] + data[at + 1:]


@FUZZ
@given(st.sampled_from(sorted(BASE_FILES)), st.lists(st.integers(0, 50), max_size=6), JSON_DATA)
def test_any_value_of_a_valid_file_replaced_by_anything_gives_diagnostics(name, path, replacement):
    files = dict(BASE_FILES)
    data = yaml.safe_load(files[name])
    files[name] = yaml.safe_dump(_replace_somewhere(data, path, replacement), allow_unicode=True)
    _check_folder(files)


# -- every reader and command, through tests/fuzzing.py ------------------------------------------
# A short seeded slice of the campaign `python benchmarks/fuzz.py --minutes N` runs: each input
# must get an answer (data or a diagnostic) within fuzzing.TIME_LIMIT seconds, and no format
# round trip or save may change data or drop a comment.
import fuzzing  # noqa: E402

SLICE = settings(max_examples=25, deadline=None, derandomize=True, database=None,
                 suppress_health_check=list(HealthCheck))


def _kept(category: str, rnd) -> None:
    outcome = fuzzing.run(category, rnd)
    assert outcome.kept, outcome.report()


@SLICE
@given(st.randoms(use_true_random=False))
def test_fuzz_yaml_reader_format_and_saves(rnd):
    _kept("yaml", rnd)


@SLICE
@given(st.randoms(use_true_random=False))
def test_fuzz_scenario_load_validate_format_report(rnd):
    _kept("scenario", rnd)


@SLICE
@given(st.randoms(use_true_random=False))
def test_fuzz_triplea_import(rnd):
    _kept("triplea", rnd)


@SLICE
@given(st.randoms(use_true_random=False))
def test_fuzz_i18n_import_of_po_files(rnd):
    _kept("po", rnd)


@SLICE
@given(st.randoms(use_true_random=False))
def test_fuzz_i18n_import_of_xliff_files(rnd):
    _kept("xliff", rnd)


@SLICE
@given(st.randoms(use_true_random=False))
def test_fuzz_playtest_arguments(rnd):
    _kept("playtest", rnd)


@SLICE
@given(st.randoms(use_true_random=False))
def test_fuzz_recovery_files(rnd):
    _kept("recovery", rnd)


@SLICE
@given(st.randoms(use_true_random=False))
def test_fuzz_triplea_map_folders(rnd):
    _kept("mapfolder", rnd)


def test_the_fuzzer_notices_a_write_outside_the_scenario(monkeypatch, tmp_path):
    """The recovery category can fail: an autosave that wrote through the link planted in
    place of the recovery file is a broken promise."""
    import random

    from editor import recovery
    from sandtable import safewrite
    real = safewrite.atomic_write_text

    def through_links(path, text, *, within, follow_link=True, unchanged_since=safewrite.ANY):
        real(path, text, within=None, unchanged_since=unchanged_since)
    monkeypatch.setattr(recovery, "atomic_write_text", through_links)
    for linked, verdict in ((False, "refused"), (True, "changed")):
        monkeypatch.setitem(fuzzing.CATEGORIES, "recovery", (lambda rnd, linked=linked: ("files: {}\n", linked),
                                                             fuzzing.try_recovery))
        outcome = fuzzing.run("recovery", random.Random(1))
        assert outcome.verdict == verdict, outcome.report()
    assert "a file outside the scenario folder changed" in outcome.detail


def test_the_fuzzer_notices_a_traceback_a_hang_and_a_changed_round_trip(monkeypatch):
    """The slice above can fail: each broken promise is told apart."""
    import random
    monkeypatch.setitem(fuzzing.CATEGORIES, "boom", (lambda rnd: "x", lambda made: 1 / 0))
    monkeypatch.setitem(fuzzing.CATEGORIES, "slow", (lambda rnd: "x", lambda made: __import__("time").sleep(5)))
    monkeypatch.setitem(fuzzing.CATEGORIES, "bent", (
        lambda rnd: "x", lambda made: (_ for _ in ()).throw(fuzzing.Broken("changed", "data changed"))))
    assert fuzzing.run("boom", random.Random(1)).verdict == "traceback"
    assert fuzzing.run("slow", random.Random(1), limit=0.5).verdict == "hang"
    assert fuzzing.run("bent", random.Random(1)).verdict == "changed"


@SLICE
@given(st.randoms(use_true_random=False))
def test_fuzz_replays(rnd):
    _kept("replay", rnd)


@SLICE
@given(st.randoms(use_true_random=False))
def test_fuzz_baselines(rnd):
    _kept("baseline", rnd)


def test_the_fuzzer_notices_a_baseline_refused_after_the_games(monkeypatch):
    """The baseline slice can fail: a baseline refused (exit 2) once games were played."""
    import random

    import fuzzing_studies
    monkeypatch.setattr(fuzzing_studies, "_answer", lambda argv: (2, '{"games": 2}'))
    outcome = fuzzing.run("baseline", random.Random(1))
    assert outcome.verdict == "changed" and "refused after the games" in outcome.detail
