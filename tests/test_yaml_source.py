"""The safe YAML reader: YAML 1.2 scalars, positions by JSON pointer, limits."""
from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from sandtable import yamlsource
from sandtable.yamlsource import YamlRefused, parse_yaml, resolve_plain

HERE = Path("example.yaml")


def read(text: str):
    return parse_yaml(text, HERE)


@pytest.mark.parametrize("text, value", [
    ("NO", "NO"), ("no", "no"), ("yes", "yes"), ("on", "on"), ("Off", "Off"), ("y", "y"),
    ("2021-01-01", "2021-01-01"), ("1:30", "1:30"), ("190:20:30", "190:20:30"),
    ("true", True), ("False", False), ("null", None), ("~", None), ("", None),
    ("12", 12), ("-3", -3), ("0x1F", 31), ("0o17", 15), ("1.5", 1.5), ("1e3", 1000.0),
    ("1_000", "1_000"), ("0b101", "0b101"), ("+.5", 0.5),
])
def test_plain_scalars_follow_the_yaml_1_2_core_schema(text, value):
    assert resolve_plain(text) == value and type(resolve_plain(text)) is type(value)


def test_norway_stays_norway():
    doc = read("nations: [NO, SE, DK]\ncountry: NO\n")
    assert doc.data == {"nations": ["NO", "SE", "DK"], "country": "NO"}


def test_quoted_scalars_are_always_text():
    assert read("a: '12'\nb: \"true\"\n").data == {"a": "12", "b": "true"}


def test_every_value_and_key_has_its_line_and_column():
    doc = read("spaces:\n  - id: karelia\n    value: 2\n  - {id: archangel, value: 1}\n")
    assert doc.positions["/spaces/0/id"] == (2, 9)
    assert doc.positions["/spaces/0/value"] == (3, 12)
    assert doc.key_positions["/spaces/0/value"] == (3, 5)
    assert doc.positions["/spaces/1/value"] == (4, 28)
    assert doc.locate("/spaces/1/name").line == 4  # a missing value falls back to its parent


def test_pointer_tokens_are_escaped():
    doc = read("entries:\n  a/b~c: 1\n")
    assert doc.positions["/entries/a~1b~0c"] == (2, 10)


def test_keys_are_always_text():
    assert read("1: one\ntrue: yes\n").data == {"1": "one", "true": "yes"}


def test_small_aliases_are_expanded_as_copies():
    doc = read("base: &b {attack: 1}\nother: *b\n")
    assert doc.data == {"base": {"attack": 1}, "other": {"attack": 1}}
    doc.data["other"]["attack"] = 5
    assert doc.data["base"]["attack"] == 1


@pytest.mark.parametrize("text, code", [
    ("a: 1\na: 2\n", "YAML004"),
    ("a: !!python/name:os.system x\n", "YAML007"),
    ("a: !custom x\n", "YAML007"),
    ("a: !!int twelve\n", "YAML007"),
    ("a: [1, 2\n", "YAML001"),
    ("a: 1\n---\nb: 2\n", "YAML005"),
    ("? {a: 1}\n: x\n", "YAML006"),
    ("a: *nowhere\n", "YAML001"),
    ("a: \x07\n", "YAML001"),
])
def test_refusals_carry_a_diagnostic(text, code):
    with pytest.raises(YamlRefused) as refused:
        read(text)
    assert refused.value.diagnostic.code == code
    assert refused.value.diagnostic.line >= 1


@pytest.mark.parametrize("loader", ["CSafeLoader", "SafeLoader"])  # libyaml's, and PyYAML's own
@pytest.mark.parametrize("depth", [65, 999, 1000, 5000])  # libyaml (PyYAML 6.0.4) refuses 1000 itself
def test_deep_nesting_is_refused_by_our_limit_at_its_place(monkeypatch, loader, depth):
    if not hasattr(yaml, loader):
        pytest.skip(f"PyYAML was built without {loader}")
    monkeypatch.setattr(yamlsource, "_LOADER", getattr(yaml, loader))
    with pytest.raises(YamlRefused) as refused:
        read("a: " + "[" * depth + "]" * depth)
    found = refused.value.diagnostic
    # The mapping is level 1, so the 64th `[` (column 3 + 64) is the 65th level.
    assert (found.code, found.line, found.column) == ("YAML008", 1, 3 + yamlsource.MAX_DEPTH)


def test_block_nesting_is_refused_by_our_limit_too():
    text = "".join(" " * level + f"k{level}:\n" for level in range(1100)) + " " * 1100 + "end\n"
    with pytest.raises(YamlRefused) as refused:
        read(text)
    found = refused.value.diagnostic
    # k0's mapping is level 1 at line 1, so level 65 opens at line 65, column 65.
    level = yamlsource.MAX_DEPTH + 1
    assert (found.code, found.line, found.column) == ("YAML008", level, level)


def test_billion_laughs_is_refused_quickly():
    lines = ["a: &a [x, x, x, x, x, x, x, x, x, x]"]
    for prev, name in zip("abcdefgh", "bcdefghi", strict=True):
        lines.append(f"{name}: &{name} [" + ", ".join(f"*{prev}" for _ in range(10)) + "]")
    with pytest.raises(YamlRefused) as refused:
        read("\n".join(lines))
    assert refused.value.diagnostic.code == "YAML009"


# -- numbers no scenario can use ----------------------------------------------------------------
@pytest.mark.parametrize("text", [
    "a: 1" + "0" * 4300,                  # Python refuses to convert more than 4,300 digits
    "a: 1" + "0" * 309,                   # beyond any float: overflowed the systems' checks
    "a: 0x" + "f" * 40,
    "a: 10000000000000000000000",         # a count of 10**22
    "a: 9007199254740992",                # 2**53, the first integer JSON cannot hold exactly
    "a: -9007199254740992",
    "a: 1e999",                           # overflows to infinity
    "a: .nan",
    "a: -.inf",
    "a: !!float .nan",
])
def test_numbers_beyond_exact_json_are_refused_at_their_place(text):
    with pytest.raises(YamlRefused) as refused:
        read("# costs\n" + text + "\n")
    d = refused.value.diagnostic
    assert (d.code, d.line, d.column) == ("YAML010", 2, 4)


def test_the_largest_exact_integers_are_read():
    assert read("a: 9007199254740991\nb: -9007199254740991\nc: 0o777\nd: 1e300\n").data == \
        {"a": 2 ** 53 - 1, "b": -(2 ** 53 - 1), "c": 511, "d": 1e300}


def test_a_quoted_big_number_is_text():
    assert read("a: '" + "1" * 5000 + "'\n").data == {"a": "1" * 5000}


# -- U+0085, U+2028, U+2029: text under YAML 1.2, not line breaks ------------------------------------
def test_next_line_and_line_separator_are_text_and_do_not_move_lines():
    doc = read("a: x\u0085y\nb: 'p\u2028q'\nc: r\u2029s\nd: 1\n")
    assert doc.data == {"a": "x\u0085y", "b": "p\u2028q", "c": "r\u2029s", "d": 1}
    assert doc.positions["/d"] == (4, 4)
    assert doc.line_text(2) == "b: 'p\u2028q'"


def test_a_syntax_error_after_a_line_separator_is_on_its_own_line():
    with pytest.raises(YamlRefused) as refused:
        read("a: 'x\u2028y'\nb: [1,\n")
    d = refused.value.diagnostic
    assert (d.code, d.line) == ("YAML001", 3)


# -- linear time -------------------------------------------------------------------------------------
def test_many_aliases_are_read_in_linear_time():
    """8,000 aliases in a 181 KB file took 29 s when each alias scanned every position read so
    far. 16,000 would take about two minutes that way; the bound is generous."""
    import time
    text = ("base: &a {attack: 1, defense: [2, 3]}\nitems:\n" + "- *a\n" * 16_000
            + "".join(f"k{i}: {i}\n" for i in range(16_000)))
    start = time.perf_counter()
    doc = read(text)
    assert time.perf_counter() - start < 10
    assert doc.data["items"][15_999] == {"attack": 1, "defense": [2, 3]}
    assert doc.positions["/items/15999/defense/1"] == (16_002, 3)


def test_an_anchored_key_used_as_a_value_copies_nothing_else():
    doc = read("a: {x: 1}\n&k key: 1\nb: *k\n")
    assert doc.data == {"a": {"x": 1}, "key": 1, "b": "key"}
    assert not [p for p in doc.positions if p.startswith("/b/")]
