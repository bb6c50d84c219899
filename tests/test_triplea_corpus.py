"""The TripleA corpus: 102 real game files (shared/reference/triplea-corpus) import, and their
validation reports only the problems docs/import-triplea.md lists and justifies.

The whole corpus runs in memory (import, then validate the translated files) in about ten
seconds; benchmarks/triplea.py times the full path through the files on disk.
"""
from __future__ import annotations

from collections import Counter

import pytest

from sandtable.safexml import XmlRefused
from sandtable.triplea import import_game
from validators import validate

from helpers import REPO, scenario_from_files

CORPUS = REPO.parent / "shared" / "reference" / "triplea-corpus"
GAMES = sorted(CORPUS.glob("*.xml")) if CORPUS.is_dir() else []
needs_corpus = pytest.mark.skipif(not GAMES, reason="shared/reference/triplea-corpus is not beside the repository")

# What validation still reports on the corpus, by (code, severity): docs/import-triplea.md says
# why each is a real problem of the game under the rules it is checked by.
EXPECTED = Counter({("AXA001", "warning"): 4, ("AXA006", "error"): 1, ("SET009", "warning"): 3})


@pytest.fixture(scope="module")
def corpus():
    results = {}
    for path in GAMES:
        try:
            results[path.name] = import_game(path)
        except XmlRefused as refused:
            results[path.name] = refused.diagnostic
    return results


@needs_corpus
def test_the_corpus_is_complete(corpus):
    assert len(corpus) == 102


@needs_corpus
def test_at_least_99_games_import_without_an_error(corpus):
    failed = {name: [d.message for d in imported.diagnostics if d.is_error][:2]
              for name, imported in corpus.items()
              if not hasattr(imported, "files") or imported.has_errors}
    assert len(corpus) - len(failed) >= 99, failed
    assert failed == {}


@needs_corpus
def test_rule_families(corpus):
    families = Counter(imported.system for imported in corpus.values())
    assert families == Counter({"triplea": 95, "aa50": 7})


@needs_corpus
def test_validation_reports_only_the_documented_problems(corpus):
    found = Counter()
    where = {}
    for name, imported in corpus.items():
        for diagnostic in validate(scenario_from_files(CORPUS / name, imported.files)):
            if diagnostic.severity.value != "info":
                key = (diagnostic.code, diagnostic.severity.value)
                found[key] += 1
                where.setdefault(key, (name, diagnostic.message))
    assert found == EXPECTED, {k: where[k] for k in found if found[k] != EXPECTED.get(k)}


@needs_corpus
def test_steps_capped_above_once_repeat_every_round(corpus):
    """Small_Balanced_2_Player_across caps its round's steps at maxRunCount 1000 (its bids at 1):
    the capped steps are the round, so both players take turns."""
    imported = corpus["Small_Balanced_2_Player_across.xml"]
    assert imported.files["scenario"]["turn_order"] == ["soviet-union", "united-states"]


@needs_corpus
def test_dice_of_every_size_are_carried(corpus):
    sides = Counter(imported.files["scenario"].get("rules", {}).get("dice_sides", 6)
                    for imported in corpus.values())
    assert sides[10] == 3 and sides[12] == 11 and sides[8] == 1   # Invasion_USA comments its d10 out
