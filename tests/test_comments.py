"""Comments survive `format` and every save: each stays beside the data it was written beside."""
from __future__ import annotations

import copy
import difflib
import shutil
from pathlib import Path

import pytest

from sandtable.cli import main
from sandtable.yamlcomments import comment_texts
from sandtable.yamlsource import parse_yaml, read_yaml_file
from sandtable.yamlwrite import SaveRefused, format_text, render_yaml, save_yaml

from helpers import FIXTURES

COMMENTED = FIXTURES / "comments" / "map.yaml"   # comments at every level, blank lines, flow and block


def changed_lines(before: str, after: str) -> list[str]:
    return [line for line in difflib.ndiff(before.splitlines(), after.splitlines())
            if line[:1] in "+-"]


def data_of(text: str):
    return parse_yaml(text, Path("x.yaml")).data


def test_format_keeps_every_comment_beside_its_data_and_a_second_format_changes_nothing():
    original = COMMENTED.read_text(encoding="utf-8")
    formatted = format_text(original, "map")
    assert comment_texts(formatted) == comment_texts(original)
    assert data_of(formatted) == data_of(original)
    assert format_text(formatted, "map") == formatted
    lines = formatted.splitlines()
    # a comment on its own line stays just above its entry, an end-of-line one on its line
    assert lines[lines.index("# the capital comes first") + 1] == "- id: red-capital  # where Red starts"
    assert lines[lines.index("  # its name as printed on the board") + 1] == "  name: Red Capital"
    assert "  value: 5   # doubled in the 1942 rules" in lines
    assert "  tags: [capital]  # one tag only" in lines
    assert "spaces:  # every space of the board" in lines
    # a comment at the end of an entry, indented as its fields, stays inside it
    assert lines[lines.index("  # no value: seas earn nothing") - 1] == "  kind: sea"
    # entries without comments take their canonical form; those with comments stay in block
    assert "- {id: sea-b, name: Sea B, kind: sea}" in lines
    assert lines[lines.index("- between: [red-capital, red-coast]  # the only land border") + 1] \
        == "  kind: land"
    assert lines[-3:] == ["  - sea-b  # east", "  kind: sea", "# the end of the borders"]
    assert lines[:4] == [
        "# yaml-language-server: $schema=../../../schemas/map.schema.json",
        "# The map of the fixture, with comments at every level.", "", "spaces:  # every space of the board"]


def test_format_on_the_command_line_keeps_the_comments(tmp_path, capsys):
    folder = tmp_path / "commented"
    shutil.copytree(FIXTURES / "core" / "base", folder)
    shutil.copy(COMMENTED, folder / "map.yaml")
    assert main(["format", str(folder)]) == 0
    text = (folder / "map.yaml").read_text(encoding="utf-8")
    assert comment_texts(text) == comment_texts(COMMENTED.read_text(encoding="utf-8"))
    assert main(["format", "--check", str(folder)]) == 0


def test_a_one_value_edit_changes_one_line_of_a_canonical_file():
    text = format_text(COMMENTED.read_text(encoding="utf-8"), "map")
    data = data_of(text)
    data["spaces"][1]["value"] = 3
    after = render_yaml(data, "map", text)
    assert changed_lines(text, after) == [
        "- - {id: red-coast, name: Red Coast, kind: land, value: 2}  # a flow entry",
        "+ - {id: red-coast, name: Red Coast, kind: land, value: 3}  # a flow entry"]


def test_a_one_value_edit_changes_one_line_of_a_hand_formatted_file():
    text = ("# units, aligned by hand\nunit_types:\n    -   id: infantry     # the line\n"
            "        name:   'Infantry'\n        cost:   3\n")
    data = data_of(text)
    data["unit_types"][0]["name"] = "Foot"
    data["unit_types"][0]["cost"] = 4
    after = render_yaml(data, "units", text)
    assert changed_lines(text, after) == [
        "-         name:   'Infantry'", "+         name:   'Foot'",
        "-         cost:   3", "+         cost:   4"]


def test_a_multi_line_text_is_rewritten_as_a_block_where_it_stood():
    text = "notes: |\n    first\n    second\n# after\nid: x\n"
    data = data_of(text)
    data["notes"] = "first\nthird\n"
    assert render_yaml(data, None, text) == "notes: |\n    first\n    third\n# after\nid: x\n"


def test_removing_an_entry_keeps_the_comments_around_it():
    text = format_text(COMMENTED.read_text(encoding="utf-8"), "map")
    data = data_of(text)
    del data["spaces"][0]            # the commented capital
    after = render_yaml(data, "map", text)
    assert comment_texts(after) == comment_texts(text)
    assert data_of(after) == data


def test_adding_an_entry_leaves_the_comments_where_they_were():
    text = format_text(COMMENTED.read_text(encoding="utf-8"), "map")
    data = data_of(text)
    data["spaces"].insert(2, {"id": "isle", "name": "Isle", "kind": "land"})
    after = render_yaml(data, "map", text)
    assert changed_lines(text, after) == ["+ - {id: isle, name: Isle, kind: land}"]
    lines = after.splitlines()
    assert lines[lines.index("- {id: isle, name: Isle, kind: land}") + 1] == \
        "# two seas, in the order of the rule book"


def test_saving_unchanged_data_leaves_the_bytes_alone(tmp_path):
    path = tmp_path / "map.yaml"
    shutil.copy(COMMENTED, path)
    before = path.read_bytes()
    save_yaml(path, read_yaml_file(path).data, within=tmp_path)
    assert path.read_bytes() == before


def test_save_yaml_reads_the_file_it_replaces_and_keeps_its_comments(tmp_path):
    path = tmp_path / "map.yaml"
    shutil.copy(COMMENTED, path)
    data = copy.deepcopy(read_yaml_file(path).data)
    data["borders"].pop()
    save_yaml(path, data, within=tmp_path)
    assert comment_texts(path.read_text(encoding="utf-8")) == \
        comment_texts(COMMENTED.read_text(encoding="utf-8"))
    fresh = tmp_path / "fresh.yaml"
    save_yaml(fresh, data, "# new\n", kind="map", original=None, within=tmp_path)
    assert fresh.read_text(encoding="utf-8").startswith("# new\nspaces:\n")


@pytest.mark.parametrize("value", [float("nan"), float("inf"), 10 ** 30])
def test_a_value_that_cannot_be_read_back_is_refused_and_nothing_is_written(tmp_path, value):
    path = tmp_path / "units.yaml"
    path.write_text("unit_types: []\n", encoding="utf-8")
    with pytest.raises(SaveRefused):
        save_yaml(path, {"unit_types": [{"id": "x", "cost": value}]}, within=tmp_path)
    assert path.read_text(encoding="utf-8") == "unit_types: []\n"


def test_a_comment_is_only_a_comment_outside_the_data():
    text = "a: 'x # not a comment'\nb: |\n  # text, not a comment\n  more\nc: 1 # a comment\n"
    assert comment_texts(text) == {"# a comment": 1}
    assert format_text(text) == text


@pytest.mark.parametrize("text", ["\nkey: 1\n", "\rname\n", "a: |+\n  x\n\n\n# c\n", "# c\n\n- x\n\n"])
def test_format_of_odd_layouts_is_stable(text):
    """Found by the fuzzer: a blank first line, a lone CR, a kept block at the end."""
    once = format_text(text)
    assert data_of(once) == (data_of(text) if data_of(text) is not None else {})
    assert format_text(once) == once


UNITS_WITH_AN_INDENTED_COMMENT = (
    "unit_types:\n"
    "- {id: infantry, name: Infantry, cost: 3}\n"
    "  # armour: the 1941 rules' cost\n"
    "- {id: armour, name: Armour, cost: 5}\n"
    "- {id: fighter, name: Fighter, cost: 10}\n")


def test_an_indented_comment_between_one_line_entries_stays_before_the_entry_below():
    # The entry above has no fields of its own lines to end, so the comment belongs to the entry
    # below it (docs/format.md), and does not drop to the end of the file.
    formatted = format_text(UNITS_WITH_AN_INDENTED_COMMENT, "units")
    assert formatted.splitlines() == [
        "unit_types:",
        "- {id: infantry, name: Infantry, cost: 3}",
        "# armour: the 1941 rules' cost",
        "- {id: armour, name: Armour, cost: 5}",
        "- {id: fighter, name: Fighter, cost: 10}"]
    assert format_text(formatted, "units") == formatted


def test_an_indented_comment_after_a_block_entry_still_ends_it():
    text = UNITS_WITH_AN_INDENTED_COMMENT.replace(
        "- {id: infantry, name: Infantry, cost: 3}\n", "- id: infantry  # the line\n  name: Infantry\n  cost: 3\n")
    assert format_text(text, "units").splitlines()[1:6] == [
        "- id: infantry  # the line", "  name: Infantry", "  cost: 3", "  # armour: the 1941 rules' cost",
        "- {id: armour, name: Armour, cost: 5}"]
