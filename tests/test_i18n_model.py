"""Translation status, the display fallback and plural rules (sandtable.i18n)."""
import gettext
import shutil
from pathlib import Path

import polib
import pytest

from sandtable.i18n import (
    State,
    Translator,
    describe,
    display_text,
    export_po,
    fallback_chain,
    locale_status,
    plural_forms,
    scenario_status,
    translation_units,
)
from sandtable.i18n.plural_forms import PLURAL_FORMS
from sandtable.scenario import load_scenario
from validators import validate

from helpers import place

FIXTURES = Path(__file__).parent / "fixtures" / "i18n"


@pytest.fixture
def tiny():
    return load_scenario(FIXTURES / "tiny")


@pytest.fixture
def variant():
    return load_scenario(FIXTURES / "tiny-variant")


def test_status_counts_each_state_of_the_base_scenario(tiny):
    status = {s.locale: s for s in scenario_status(tiny)}
    assert sorted(status) == ["zh", "zh-Hans"]
    zh_hans = status["zh-Hans"]
    assert zh_hans.texts == 7
    assert zh_hans.keys[State.TRANSLATED] == ["scenario.name", "spaces.norway.name"]
    assert zh_hans.keys[State.STALE] == ["spaces.finland.name"]
    assert zh_hans.keys[State.UNKNOWN] == ["spaces.leningrad.name"]
    assert zh_hans.keys[State.MISSING] == ["scenario.description", "scenario.sides.axis.name",
                                           "scenario.sides.allies.name", "spaces.karelia-ssr.name"]
    assert zh_hans.percent == 28.6
    assert zh_hans.has_problems
    assert status["zh"].as_dict()["translated"] == 2 and not status["zh"].has_problems


def test_a_stale_unit_remembers_the_source_it_was_translated_from(tiny):
    finland = next(u for u in translation_units(tiny, "zh-Hans") if u.key == "spaces.finland.name")
    assert finland.state is State.STALE
    assert finland.source == "Finland"
    assert finland.previous_source == "Finland (1941)"
    assert finland.note == "Keep the year in brackets."
    assert (finland.where.file.name, finland.where.line) == ("map.yaml", 4)


def test_a_variant_inherits_translations_and_overrides_them(tiny, variant):
    status = locale_status(variant, "zh-Hans")
    assert status.texts == 8  # the variant adds Sweden
    assert status.keys[State.TRANSLATED] == ["spaces.norway.name", "spaces.sweden.name"]
    # The variant renamed the scenario, so the inherited translation of its name is stale.
    assert status.keys[State.STALE] == ["scenario.name", "spaces.finland.name"]
    assert Translator(variant, "zh-Hans").text("spaces.norway.name") == "挪威王国"
    assert Translator(tiny, "zh-Hans").text("spaces.norway.name") == "挪威"
    assert Translator(variant, "zh-Hans").text("spaces.sweden.name") == "瑞典"


def test_fallback_chain_drops_one_subtag_at_a_time_then_the_source_language():
    assert fallback_chain("zh-Hant-TW") == ["zh-Hant-TW", "zh-Hant", "zh", "en"]
    assert fallback_chain("zh-Hant") == ["zh-Hant", "zh", "en"]
    assert fallback_chain("ja", source_language="de") == ["ja", "de"]
    assert fallback_chain("en-GB") == ["en-GB", "en"]


def test_display_falls_back_past_missing_and_stale_translations(tiny):
    traditional = Translator(tiny, "zh-Hant")
    assert traditional.resolve("spaces.karelia-ssr.name") == ("卡累利阿", "zh")
    assert traditional.resolve("scenario.name") == ("Tiny Front", "en")
    simplified = Translator(tiny, "zh-Hans")
    assert simplified.resolve("scenario.name") == ("小战线", "zh-Hans")
    # zh-Hans translates an older Finland; the current zh translation is shown instead.
    assert simplified.resolve("spaces.finland.name") == ("芬蘭", "zh")
    assert display_text(tiny, "spaces.norway.name", "en") == "Norway"
    assert display_text(tiny, "spaces.norway.name", "ja") == "Norway"
    with pytest.raises(KeyError):
        display_text(tiny, "spaces.leningrad.name", "zh-Hans")


def test_a_translation_that_lost_its_placeholder_is_not_shown(tmp_path):
    folder = tmp_path / "one"
    (folder / "locales").mkdir(parents=True)
    (folder / "scenario.yaml").write_text(
        "id: one\nname: One\nsystem: aa50\ndescription: Hold {count} cities.\n", encoding="utf-8")
    (folder / "locales" / "ja.yaml").write_text(
        "locale: ja\nentries:\n  scenario.description: {text: 都市を守る。}\n", encoding="utf-8")
    assert display_text(load_scenario(folder), "scenario.description", "ja") == "Hold {count} cities."
    assert locale_status(load_scenario(folder), "ja").broken_placeholders == ["scenario.description"]


@pytest.mark.parametrize("tag, language", [
    ("zh-Hans", "zh"), ("ja", "ja"), ("en", "en"), ("fr", "fr"), ("pt", "pt"),
    ("pt-BR", "pt"),       # CLDR's `pt` is Brazilian Portuguese
    ("pt-PT", "pt_PT"), ("ru", "ru"), ("sr-Latn", "sr"), ("cs", "cs"),
])
def test_plural_forms_per_locale(tiny, tag, language):
    count, rule = PLURAL_FORMS[language]
    assert plural_forms(tag) == f"nplurals={count}; plural={rule};"
    header = polib.pofile(export_po(tiny, tag)).metadata
    assert header["Plural-Forms"] == f"nplurals={count}; plural={rule};"
    assert header["Language"] == tag.replace("-", "_")


def test_the_plural_header_does_not_follow_the_installed_babel(tiny, monkeypatch):
    from babel.messages import plurals
    monkeypatch.setattr(plurals, "PLURALS", {"fr": (9, "n % 9")})
    count, rule = PLURAL_FORMS["fr"]
    assert polib.pofile(export_po(tiny, "fr")).metadata["Plural-Forms"] == f"nplurals={count}; plural={rule};"


# Enough numbers to see every form of every language: the last two digits, the thousands, and
# the millions that CLDR gives their own form in French, Spanish, Italian and Portuguese.
NUMBERS = [*range(0, 1100), 10_000, 100_000, 10**6, 10**6 + 1, 2 * 10**6]


def _forms(count: int, rule: str) -> tuple[int, frozenset[frozenset[int]]]:
    """How a rule sorts NUMBERS into forms, whatever it calls them and however it is spelled."""
    form_of = gettext.c2py(rule)  # the standard library's reader of Plural-Forms expressions
    groups: dict[int, set[int]] = {}
    for n in NUMBERS:
        form = form_of(n)
        assert 0 <= form < count, (rule, n)
        groups.setdefault(form, set()).add(n)
    return count, frozenset(frozenset(group) for group in groups.values())


def test_the_pinned_plural_rules_agree_with_the_installed_babel():
    # Babel respells its rules between releases; what must agree is which numbers share a form.
    # A failure means CLDR has moved: run tools/pin_plural_forms.py if the headers should follow.
    from babel import __version__ as babel_version
    from babel.messages.plurals import PLURALS
    differ = [language for language in sorted(set(PLURAL_FORMS) & set(PLURALS))
              if _forms(*PLURAL_FORMS[language]) != _forms(*PLURALS[language])]
    assert not differ, f"Babel {babel_version} sorts numbers differently for {differ}"
    assert len(set(PLURAL_FORMS) & set(PLURALS)) > 200  # the comparison covered them


def test_no_plural_rule_is_guessed_for_an_unlisted_language(tiny):
    assert plural_forms("tlh") is None
    assert "Plural-Forms" not in polib.pofile(export_po(tiny, "tlh")).metadata


def test_describe_says_which_entity_a_key_belongs_to():
    assert describe("scenario.name") == "name of the scenario"
    assert describe("scenario.sides.axis.name") == "name of side axis"
    assert describe("spaces.karelia-ssr.name") == "name of space karelia-ssr"
    assert describe("decks.japan.cards.j01.title") == "title of card j01 in deck japan"
    assert describe("unit_types.aa-gun.name") == "name of unit type aa-gun"


# -- a variant that removes what its parent translates -------------------------------------------

@pytest.fixture
def family(tmp_path) -> Path:
    shutil.copytree(FIXTURES / "tiny", tmp_path / "tiny")
    shutil.copytree(FIXTURES / "tiny-variant", tmp_path / "tiny-variant")
    return tmp_path


def test_a_variant_that_removes_an_entity_is_not_blamed_for_its_parents_translation(family):
    # tiny's zh-Hans and zh files translate Finland; the variant takes Finland out. The entries
    # are in the parent's files, which the variant's author must not edit: no LOC001 for them.
    (family / "tiny-variant" / "map.yaml").write_text(
        "spaces:\n- {id: sweden, name: Sweden, kind: land}\n- {id: finland, remove: true}\n"
        "borders:\n- {between: [sweden, norway], kind: land}\n"
        "- {between: [norway, finland], remove: true}\n- {between: [finland, karelia-ssr], remove: true}\n",
        encoding="utf-8")
    variant = load_scenario(family / "tiny-variant")
    assert [(d.code, d.message) for d in validate(variant) if d.code.startswith(("LOC001", "VAR", "REF"))] == []
    assert locale_status(variant, "zh-Hans").count(State.UNKNOWN) == 0
    assert "spaces.finland.name" not in {entry.msgctxt for entry in polib.pofile(export_po(variant, "zh-Hans"))}
    # The parent still answers for its own file: its unknown key (Leningrad) is reported there.
    parent = [place(d, family) for d in validate(load_scenario(family / "tiny")) if d.code == "LOC001"]
    assert parent == [("tiny/locales/zh-Hans.yaml", 6, 3)]


def test_a_variant_locale_can_drop_its_parents_translation(family):
    (family / "tiny-variant" / "locales" / "zh-Hans.yaml").write_text(
        "locale: zh-Hans\nentries:\n  spaces.finland.name: {remove: true}\n"
        "  spaces.sweden.name: {text: 瑞典, source: '8536371365'}\n", encoding="utf-8")
    variant = load_scenario(family / "tiny-variant")
    # zh-Hans no longer translates Finland: the display falls back to zh, and the text is missing
    assert Translator(variant, "zh-Hans").resolve("spaces.finland.name") == ("芬蘭", "zh")
    units = {u.key: u for u in translation_units(variant, "zh-Hans")}
    assert units["spaces.finland.name"].state is State.MISSING
    assert units["spaces.norway.name"].translation == "挪威"   # the rest is still inherited
    assert not [d for d in validate(variant) if d.code in ("SCH001", "SCH002", "VAR003")]


def test_a_variant_locale_that_removes_an_entry_its_parent_lacks_is_told(family):
    (family / "tiny-variant" / "locales" / "zh-Hans.yaml").write_text(
        "locale: zh-Hans\nentries:\n  spaces.finnland.name: {remove: true}\n", encoding="utf-8")
    found = [(d.code, d.message, place(d, family)) for d in validate(load_scenario(family / "tiny-variant"))
             if d.code == "VAR003"]
    assert found == [("VAR003", "removes entry 'spaces.finnland.name', which the parent does not have",
                      ("tiny-variant/locales/zh-Hans.yaml", 3, 26))]


def test_importing_a_translation_over_a_removed_entry_restores_it(family, capsys):
    from sandtable.cli import main
    own = family / "tiny-variant" / "locales" / "zh-Hans.yaml"
    own.write_text("locale: zh-Hans\nentries:\n  spaces.finland.name: {remove: true}\n", encoding="utf-8")
    po = polib.pofile(export_po(load_scenario(family / "tiny-variant"), "zh-Hans"))
    for entry in po:
        if entry.msgctxt == "spaces.finland.name":
            entry.msgstr = "芬兰（冬）"
    po.save(str(family / "zh-Hans.po"))
    assert main(["i18n", "import", str(family / "tiny-variant"), str(family / "zh-Hans.po")]) == 0
    assert Translator(load_scenario(family / "tiny-variant"), "zh-Hans").resolve("spaces.finland.name") \
        == ("芬兰（冬）", "zh-Hans")
    assert "remove" not in own.read_text(encoding="utf-8")
