"""Malformed input of every format gets the same answer: exit 1, a diagnostic code, the file,
line and column. I/O and usage errors exit 2. Importers write only what the loader reads."""
from __future__ import annotations

import shutil
import time
from pathlib import Path

import pytest

from sandtable import yamlsource, yamlwrite
from sandtable.cli import main
from sandtable.diagnostics import Location, error
from sandtable.scenario import load_scenario
from validators.reporters import Result, render_text

from helpers import FIXTURES

I18N = FIXTURES / "i18n"
HEADER = 'msgid ""\nmsgstr ""\n"Language: de\\n"\n"Content-Type: text/plain; charset=UTF-8\\n"\n\n'
ENTRY = 'msgctxt "spaces.norway.name"\nmsgid "Norway"\nmsgstr "Norwegen"\n'


@pytest.fixture
def tiny(tmp_path) -> Path:
    shutil.copytree(I18N / "tiny", tmp_path / "tiny")
    return tmp_path / "tiny"


def po_file(tmp_path, body: bytes | str, header: str = HEADER) -> Path:
    path = tmp_path / "de.po"
    path.write_bytes((header.encode() if isinstance(body, str) else header.encode())
                     + (body.encode() if isinstance(body, str) else body))
    return path


@pytest.mark.parametrize("body, line, column, message", [
    ('msgctxt "spaces.norway.name"\nmsgid "Norway"\nmsgstr "Norwegen\n', 8, 8, "the string is not closed"),
    ('msgctxt "spaces.norway.name"\nmsgid "Norway"\nmsgstr "Nor\\qwegen"\n', 8, 12, "the escape \\q"),
    ('msgctxt "spaces.norway.name"\nmsgid "Norway"\nmsgstr "Norwegen" x\n', 8, 18, "nothing may follow"),
    ('msgctxt "spaces.norway.name"\nmsgid Norway\nmsgstr "Norwegen"\n', 7, 7, "a quoted string was expected"),
    (b'msgctxt "spaces.norway.name"\nmsgid "Norway"\nmsgstr "Nor\0wegen"\n', 8, 12, "the file holds a NUL byte"),
    (b'msgctxt "spaces.norway.name"\nmsgid "Norway"\nmsgstr "Norw\xe9gen"\n', 8, 13, "byte 0xe9 is not UTF-8"),
])
def test_a_malformed_po_file_is_refused_with_its_place(tiny, tmp_path, capsys, body, line, column,
                                                       message):
    path = po_file(tmp_path, body)
    assert main(["i18n", "import", str(tiny), str(path)]) == 1
    err = capsys.readouterr().err
    assert f"de.po:{line}:{column}: error I18N011: malformed PO file: {message}" in err
    assert not (tiny / "locales" / "de.yaml").exists()


def test_a_po_file_in_another_charset_is_refused(tiny, tmp_path, capsys):
    path = po_file(tmp_path, ENTRY, HEADER.replace("UTF-8", "ISO-8859-1"))
    assert main(["i18n", "import", str(tiny), str(path)]) == 1
    assert "de.po:4:28: error I18N011: the file says its charset is ISO-8859-1" in capsys.readouterr().err


def test_a_missing_po_file_is_a_usage_error(tiny, tmp_path, capsys):
    assert main(["i18n", "import", str(tiny), str(tmp_path / "nothing.po")]) == 2
    assert "no such file" in capsys.readouterr().err


def test_a_translation_with_a_next_line_character_is_kept_as_written(tiny, tmp_path):
    path = po_file(tmp_path, ENTRY.replace("Norwegen", "Nor\u0085wegen\u2028!"))
    assert main(["i18n", "import", str(tiny), str(path)]) == 0
    scenario = load_scenario(tiny)
    assert scenario.locale("de")["entries"]["spaces.norway.name"]["text"] == "Nor\u0085wegen\u2028!"


@pytest.mark.parametrize("command", [
    ["import", "triplea", "{file}", "{out}"],
    ["i18n", "import", "{tiny}", "{file}"],
])
def test_an_unknown_xml_encoding_is_malformed_input(tiny, tmp_path, capsys, command):
    file = tmp_path / "game.xlf"
    file.write_text('<?xml version="1.0" encoding="klingon"?>\n<game/>\n', encoding="ascii")
    argv = [a.format(file=file, out=tmp_path / "out", tiny=tiny) for a in command]
    assert main(argv) == 1
    err = capsys.readouterr().err
    assert "game.xlf:1:1: error" in err and "unknown encoding: klingon" in err
    assert ("TPL001" if command[0] == "import" else "I18N012") in err


def test_import_writes_nothing_the_loader_would_refuse_for_size(tmp_path, monkeypatch, capsys):
    """The writer checks the limit the loader reads with: a game whose map.yaml would be over
    it is refused as a whole, and no file is written."""
    monkeypatch.setattr(yamlsource, "MAX_FILE_BYTES", 600)
    monkeypatch.setattr(yamlwrite, "MAX_FILE_BYTES", 600)
    out = tmp_path / "game"
    assert main(["import", "triplea", str(FIXTURES / "triplea" / "small-game.xml"), str(out)]) == 1
    assert "over the limit of 600 that scenario files are read with" in capsys.readouterr().err
    assert not out.exists()


def test_i18n_import_writes_nothing_the_loader_would_refuse_for_size(tiny, tmp_path, monkeypatch,
                                                                       capsys):
    monkeypatch.setattr(yamlwrite, "MAX_FILE_BYTES", 100)
    path = po_file(tmp_path, ENTRY)
    assert main(["i18n", "import", str(tiny), str(path)]) == 1
    assert "over the limit of 100" in capsys.readouterr().err
    assert not (tiny / "locales" / "de.yaml").exists()


def test_the_text_report_of_many_diagnostics_takes_linear_time(tmp_path):
    """20,000 diagnostics took 14 s when each quoted line split the whole file again."""
    path = tmp_path / "map.yaml"
    path.write_text("".join(f"unknown{i}: {i}\n" for i in range(40_000)), encoding="utf-8")
    doc = yamlsource.read_yaml_file(path)
    diagnostics = [error("SCH001", f"unknown key 'unknown{i}'", Location(path, i + 1, 1))
                   for i in range(40_000)]
    start = time.perf_counter()
    text = render_text([Result(tmp_path, diagnostics, lambda file, line: doc.line_text(line))])
    assert time.perf_counter() - start < 10
    assert "40000 | unknown39999: 39999" in text


@pytest.mark.parametrize("command", ["validate", "format"])
def test_a_number_beyond_any_float_in_an_aa50_map_is_a_diagnostic_not_a_traceback(tmp_path, capsys,
                                                                                   command):
    """`1` and 309 zeros once overflowed the AA50 checks (validate) and the line fitting of
    format; the reader refuses it at its place."""
    folder = tmp_path / "board"
    shutil.copytree(FIXTURES / "engine" / "aa50-combat", folder)
    text = (folder / "map.yaml").read_text(encoding="utf-8")
    (folder / "map.yaml").write_text(text.replace("value: 2}", "value: 1" + "0" * 309 + "}", 1),
                                     encoding="utf-8")
    assert main([command, str(folder)]) == 1
    captured = capsys.readouterr()
    assert "map.yaml:3:62: error YAML010: the integer 100000000000...000000 (310 characters) is " \
           "beyond" in captured.out + captured.err


def test_a_system_name_that_is_no_id_is_a_schema_error_not_a_file_name(tmp_path, capsys):
    """`system:` names a schema file and an engine module; 300 characters once failed the
    file lookup with 'File name too long'."""
    folder = tmp_path / "board"
    shutil.copytree(FIXTURES / "engine" / "aa50-combat", folder)
    text = (folder / "scenario.yaml").read_text(encoding="utf-8")
    (folder / "scenario.yaml").write_text(text.replace("system: aa50", "system: aa" + "1" * 300),
                                          encoding="utf-8")
    assert main(["validate", str(folder)]) == 1
    assert "scenario.yaml:4:9: error SCH004: 'aa111" in capsys.readouterr().out
    assert main(["playtest", "battle", str(folder), "--attacker", "germany: 1 infantry",
                 "--defender", "soviet-union: 1 infantry", "--at", "karelia-ssr"]) == 2


def test_two_nations_with_one_impassable_capital_are_both_told(tmp_path, capsys):
    """Found by the fuzzer: the second nation's capital tag was removed twice (a traceback)."""
    text = (FIXTURES / "triplea" / "impassable-capital.xml").read_text(encoding="utf-8")
    text = text.replace('<player name="Chinese"/>', '<player name="Chinese"/><player name="Mongols"/>')
    text = text.replace('<option name="capital" value="Chinese"/>',
                        '<option name="capital" value="Chinese"/><option name="capital" value="Mongols"/>')
    game = tmp_path / "game.xml"
    game.write_text(text, encoding="utf-8")
    assert main(["import", "triplea", str(game), str(tmp_path / "out")]) == 0
    assert capsys.readouterr().err.count("warning TPL009") == 2
