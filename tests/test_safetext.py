"""Text from data never reaches a terminal as control sequences, and never makes a report of a
tool's format ill-formed: ESC, U+FFFE and names that are not UTF-8, in every output."""
from __future__ import annotations

import json
import os
import shutil
import xml.etree.ElementTree as ET

import pytest

from sandtable.cli import main
from sandtable.safetext import visible, visible_line

from helpers import FIXTURES, REPO

TITLE_AND_CLEAR = "\x1b]0;pwned\x07\x1b[2J"   # sets the window title, clears the screen


@pytest.mark.parametrize("text, shown", [
    ("plain, 省 and ü\tand\nlines", "plain, 省 and ü\tand\nlines"),
    (TITLE_AND_CLEAR + "x", "\\u001b]0;pwned\\u0007\\u001b[2Jx"),
    ("over\rwritten", "over\\u000dwritten"),
    ("next\x85line\x9b", "next\\u0085line\\u009b"),
    ("a\ufffe\uffffb", "a\\ufffe\\uffffb"),
    (os.fsdecode(b"\xff\xfe.yaml"), "\\xff\\xfe.yaml"),
    ("\ud800", "\\ud800"),
])
def test_visible_writes_controls_as_escapes(text, shown):
    assert visible(text) == shown
    assert visible(shown) == shown                     # nothing left to escape
    shown.encode("utf-8")                              # always valid UTF-8


def test_a_line_keeps_to_one_line():
    assert visible_line("a\nb\tc") == "a\\u000ab\\u0009c"


@pytest.fixture
def strange_names(tmp_path):
    """A scenario with stray files whose names hold ESC sequences, U+FFFE and bytes that are not
    UTF-8 (each a warning SCN002 naming the file)."""
    folder = tmp_path / "s"
    shutil.copytree(FIXTURES / "core" / "base", folder)
    names = [TITLE_AND_CLEAR + "x.yaml", "a\ufffe.yaml"]
    for name in names:
        (folder / name).write_text("a: 1\n", encoding="utf-8")
    try:
        with open(os.path.join(os.fsencode(folder), b"\xff\xfe.yaml"), "w") as stream:
            stream.write("a: 1\n")
        names.append(os.fsdecode(b"\xff\xfe.yaml"))
    except (OSError, UnicodeError):   # a file system that takes UTF-8 names only
        pass
    return folder, names


def _validate(capfdbinary, folder, fmt) -> bytes:
    assert main(["validate", "--format", fmt, folder.name]) == 0
    out = capfdbinary.readouterr().out
    out.decode("utf-8")                                  # valid UTF-8, whatever the names
    assert b"\x1b" not in out and b"\x07" not in out and "\ufffe".encode() not in out
    return out


def test_text_output_escapes_file_names(strange_names, capfdbinary, monkeypatch):
    folder, names = strange_names
    monkeypatch.chdir(folder.parent)
    text = _validate(capfdbinary, folder, "text").decode("utf-8")
    assert "s/\\u001b]0;pwned\\u0007\\u001b[2Jx.yaml:1:1: warning SCN002: \\u001b]0;pwned\\u0007" \
        "\\u001b[2Jx.yaml is not a scenario file kind and was not read" in text
    assert "s/a\\ufffe.yaml:1:1: warning SCN002" in text
    if len(names) == 3:
        assert "s/\\xff\\xfe.yaml:1:1: warning SCN002: \\xff\\xfe.yaml is not" in text


def test_junit_stays_well_formed(strange_names, capfdbinary, monkeypatch):
    folder, names = strange_names
    monkeypatch.chdir(folder.parent)
    tree = ET.fromstring(_validate(capfdbinary, folder, "junit"))
    cases = sorted(case.get("name") for case in tree.iter("testcase"))
    assert "s/\\u001b]0;pwned\\u0007\\u001b[2Jx.yaml" in cases and "s/a\\ufffe.yaml" in cases
    assert len([case for case in cases if not case.endswith(("scenario.yaml", "map.yaml", "units.yaml",
                                                              "setup.yaml", "decks.yaml", "objectives.yaml",
                                                              "tables.yaml"))]) == len(names)


def test_json_and_sarif_stay_valid_and_sarif_points_at_the_real_file(strange_names, capfdbinary, monkeypatch):
    folder, names = strange_names
    monkeypatch.chdir(folder.parent)
    report = json.loads(_validate(capfdbinary, folder, "json"))
    files = {d["file"] for s in report["scenarios"] for d in s["diagnostics"]}
    assert "s/a\\ufffe.yaml" in files
    sarif = json.loads(_validate(capfdbinary, folder, "sarif"))
    uris = {r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] for r in sarif["runs"][0]["results"]}
    assert "s/%1B%5D0%3Bpwned%07%1B%5B2Jx.yaml" in uris and "s/a%EF%BF%BE.yaml" in uris
    if len(names) == 3:
        assert "s/%FF%FE.yaml" in uris                   # the file's own bytes


def test_colours_are_the_only_escape_sequences_printed(strange_names, capsys, monkeypatch):
    """validate's own styles reach the terminal (rich writes them past the guard); the ESC
    sequences of a file name do not."""
    import re
    folder, _ = strange_names
    monkeypatch.chdir(folder.parent)
    assert main(["validate", "--color", "always", folder.name]) == 0
    out = capsys.readouterr().out
    assert "\x1b[1;33mwarning\x1b[0m SCN002: \\u001b]0;pwned" in out
    assert out.count("\x1b") == len(re.findall("\x1b\\[[0-9;]*m", out)) > 0   # styles only


def test_a_replays_recorded_error_is_printed_escaped(tmp_path, capsys):
    folder = tmp_path / "replays"
    assert main(["playtest", "games", "--games", "1", "--workers", "1", "--max-rounds", "2",
                 "--replays", str(folder), str(REPO / "scenarios" / "northern-front")]) == 0
    lines = (folder / "game-000000.jsonl").read_text(encoding="utf-8").splitlines()
    lines = [line for line in lines if not line.startswith('{"result"')]
    lines.append(json.dumps({"error": "boom" + TITLE_AND_CLEAR}))
    replay = tmp_path / "stopped.jsonl"
    replay.write_text("\n".join(lines) + "\n", encoding="utf-8")
    capsys.readouterr()
    main(["playtest", "replay", str(replay)])
    out = capsys.readouterr().out
    assert "the game had stopped with: boom\\u001b]0;pwned\\u0007\\u001b[2J" in out
    assert "\x1b" not in out and "\x07" not in out


def test_json_printed_by_a_command_stays_json(capsys):
    """The guard's escapes are JSON's own: a C1 character inside a JSON string printed by any
    command reads back as itself."""
    import sys

    from sandtable.safetext import guarded_output
    with guarded_output():
        sys.stdout.write(json.dumps({"name": "a\x85b\x9b"}, ensure_ascii=False))
    out = capsys.readouterr().out
    assert "\x85" not in out and json.loads(out) == {"name": "a\x85b\x9b"}


def test_a_diagnostic_message_is_always_safe_to_show():
    from sandtable.diagnostics import error
    problem = error("SCN002", "bad" + TITLE_AND_CLEAR, hint="x\x1b")
    assert problem.message == "bad\\u001b]0;pwned\\u0007\\u001b[2J" and problem.hint == "x\\u001b"
