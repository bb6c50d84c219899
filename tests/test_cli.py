"""`sandtable validate` and `sandtable format`: exit codes and every output format."""
from __future__ import annotations

import argparse
import json
import shutil
import sys
import xml.etree.ElementTree as ET

import pytest

from sandtable.cli import main

from helpers import FIXTURES, REPO

CORE = FIXTURES / "core"


def run(capsys, *args):
    code = main(list(map(str, args)))
    out, err = capsys.readouterr()
    return code, out, err


def test_clean_scenario_exits_zero(capsys):
    code, out, _ = run(capsys, "validate", CORE / "base")
    assert code == 0 and out.strip() == "1 scenario checked: 0 errors, 0 warnings"


def test_errors_exit_one_and_show_the_line_with_a_caret(capsys):
    code, out, _ = run(capsys, "validate", CORE / "ref001-unknown-reference")
    assert code == 1
    lines = out.splitlines()
    assert lines[0].endswith("ref001-unknown-reference/setup.yaml:5:12: error REF001: unknown unit type 'infantery'")
    assert lines[1] == "    5 |   - {type: infantery, count: 1}"
    assert lines[2] == "      |            ^"
    assert lines[3] == "      = hint: did you mean 'infantry'?"


def test_warnings_pass_unless_strict(capsys):
    assert run(capsys, "validate", CORE / "map009-unmarked-island")[0] == 0
    assert run(capsys, "validate", "--strict", CORE / "map009-unmarked-island")[0] == 1


def test_missing_path_is_a_usage_error(capsys, tmp_path):
    code, _, err = run(capsys, "validate", tmp_path / "nothing")
    assert code == 2 and "no such file or folder" in err


def test_folder_without_scenarios_is_a_usage_error(capsys, tmp_path):
    code, _, err = run(capsys, "validate", tmp_path)
    assert code == 2 and "no scenario.yaml" in err


def test_json_format(capsys):
    code, out, _ = run(capsys, "validate", "--format", "json", CORE / "map001-self-border")
    payload = json.loads(out)
    [diagnostic] = payload["scenarios"][0]["diagnostics"]
    assert code == 1
    assert {k: diagnostic[k] for k in ("code", "severity", "line", "column", "pointer")} == \
        {"code": "MAP001", "severity": "error", "line": 2, "column": 13, "pointer": "/borders/6/between"}
    assert payload["summary"] == {"scenarios": 1, "errors": 1, "warnings": 0, "notes": 0}


def test_github_format(capsys):
    _, out, _ = run(capsys, "validate", "--format", "github", CORE / "map001-self-border")
    assert out.startswith("::error file=") and ",line=2,col=13,title=MAP001::" in out


def test_sarif_format(capsys):
    _, out, _ = run(capsys, "validate", "--format", "sarif", CORE / "map001-self-border")
    log = json.loads(out)
    [result] = log["runs"][0]["results"]
    assert log["version"] == "2.1.0" and result["ruleId"] == "MAP001"
    assert result["locations"][0]["physicalLocation"]["region"] == {"startLine": 2, "startColumn": 13}


def test_junit_format(capsys):
    _, out, _ = run(capsys, "validate", "--format", "junit", CORE / "map001-self-border", CORE / "base")
    suites = ET.fromstring(out)
    assert suites.get("failures") == "1" and len(suites.findall("testsuite")) == 2


def test_a_folder_of_scenarios_is_searched(capsys, tmp_path):
    shutil.copytree(CORE / "base", tmp_path / "collection" / "base")
    shutil.copytree(CORE / "map001-self-border", tmp_path / "collection" / "broken")
    code, out, _ = run(capsys, "validate", tmp_path / "collection")
    assert code == 1 and "2 scenarios checked: 1 error, 0 warnings" in out


def test_format_check_and_rewrite(capsys, tmp_path):
    shutil.copytree(CORE / "base", tmp_path / "base")
    units = tmp_path / "base" / "units.yaml"
    units.write_text(units.read_text().replace("{id: ship, name: Ship, domain: sea, cost: 8,",
                                               "{cost: 8, domain: sea, id: ship, name: Ship,"))
    assert run(capsys, "format", "--check", tmp_path / "base")[0] == 1
    assert run(capsys, "format", tmp_path / "base")[0] == 0
    assert run(capsys, "format", "--check", tmp_path / "base")[0] == 0
    assert "{id: ship, name: Ship, domain: sea, cost: 8," in units.read_text()


def _saving_while_formatting(monkeypatch, path, saves: list[str]):
    """`format` formatting `path` while another program saves it: each call of format_text on
    that file first writes the next of `saves` (deterministically, with no timing involved)."""
    import sandtable.yamlwrite as yamlwrite
    real = yamlwrite.format_text

    def format_text(text, kind=None, where=None):
        if where == path and saves:
            path.write_text(saves.pop(0), encoding="utf-8")
        return real(text, kind, where)
    monkeypatch.setattr(yamlwrite, "format_text", format_text)


def test_format_never_undoes_a_save_made_while_it_worked(capsys, tmp_path, monkeypatch):
    """An editor's save in the window between `format` reading a file and replacing it was
    silently undone; now the file is read and formatted again, the save kept."""
    shutil.copytree(CORE / "base", tmp_path / "base")
    units = tmp_path / "base" / "units.yaml"
    text = units.read_text(encoding="utf-8")
    units.write_text(text.replace("cost: 8,", "cost:   8,"), encoding="utf-8")
    _saving_while_formatting(monkeypatch, units, [text.replace("cost: 8,", "cost:  9,")])
    code, out, _ = run(capsys, "format", tmp_path / "base")
    assert code == 0 and "1 file(s) reformatted" in out
    assert units.read_text(encoding="utf-8") == text.replace("cost: 8,", "cost: 9,")   # their 9, formatted


def test_format_leaves_a_file_that_keeps_changing_and_says_so(capsys, tmp_path, monkeypatch):
    shutil.copytree(CORE / "base", tmp_path / "base")
    units = tmp_path / "base" / "units.yaml"
    text = units.read_text(encoding="utf-8").replace("cost: 8,", "cost:   8,")
    units.write_text(text, encoding="utf-8")
    saves = [text.replace("cost:   8,", f"cost:   {n},") for n in (10, 11, 12)]
    _saving_while_formatting(monkeypatch, units, list(saves))
    assert main(["format", str(tmp_path / "base")]) == 2
    captured = capsys.readouterr()
    assert "units.yaml: another program kept saving it while it was formatted (3 attempts); " \
        "the file was left as it was" in captured.err
    assert units.read_text(encoding="utf-8") == saves[-1]
    assert [p.name for p in units.parent.iterdir() if p.name.startswith(".")] == []


def _every_parser(parser):
    yield parser
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for sub in action.choices.values():
                yield from _every_parser(sub)


def test_every_command_help_reads_as_written():
    """Descriptions are printed as written and help strings %-formatted by argparse: an escaped
    percent sign belongs in the second only ("95%% interval" must never reach the reader)."""
    from sandtable.cli import build_parser
    pages = [p.format_help() for p in _every_parser(build_parser())]
    assert len(pages) > 20
    assert not [page.splitlines()[0] for page in pages if "%%" in page]


def test_a_reader_that_stops_early_gets_no_traceback():
    """`sandtable ... | head -1`: the reader has gone when the command writes; the command
    stops quietly with 141, as Unix tools do."""
    import os
    import subprocess
    import sys
    command = [sys.executable, "-m", "sandtable", "i18n", "export",
               str(REPO / "scenarios" / "gj69-southern-operation"), "--locale", "zh-Hans",
               "--format", "xliff"]
    reading, writing = os.pipe()
    os.close(reading)                          # the reader is gone before the first byte
    try:
        done = subprocess.run(command, stdout=writing, stderr=subprocess.PIPE, timeout=60)
    finally:
        os.close(writing)
    assert (done.returncode, done.stderr.decode()) == (141, "")


@pytest.mark.parametrize("module", ["sandtable", "sandtable.cli"])
def test_python_dash_m_runs_the_command_line(module):
    import os
    import subprocess
    import sys
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    done = subprocess.run([sys.executable, "-m", module, "validate", str(CORE / "ref001-unknown-reference")],
                          capture_output=True, text=True, timeout=60, env=env, cwd=REPO)
    assert done.returncode == 1
    assert "error REF001: unknown unit type 'infantery'" in done.stdout
    # a usage error is the command's message, not a traceback (the commands raise the package's
    # UsageError, which a second copy of the module run as __main__ would not catch)
    done = subprocess.run([sys.executable, "-m", module, "validate", "no-such-folder"],
                          capture_output=True, text=True, timeout=60, env=env, cwd=REPO)
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr == "sandtable validate: no-such-folder: no such file or folder\n"


def validate_on_a_terminal(env_changes: dict[str, str | None], *flags: str) -> str:
    """What `sandtable validate` writes to a terminal (a pseudo-terminal), with these variables."""
    import os
    import pty
    import subprocess
    import sys
    env = {**os.environ, "PYTHONPATH": str(REPO), "TERM": "xterm-256color"}
    for name in ("NO_COLOR", "FORCE_COLOR", "CLICOLOR_FORCE", "TTY_COMPATIBLE", "TTY_INTERACTIVE"):
        env.pop(name, None)
    env.update({k: v for k, v in env_changes.items() if v is not None})
    reading, writing = pty.openpty()
    try:
        done = subprocess.run([sys.executable, "-m", "sandtable", "validate", *flags,
                               str(CORE / "ref001-unknown-reference")],
                              stdout=writing, stderr=subprocess.PIPE, env=env, cwd=REPO, timeout=60)
    finally:
        os.close(writing)
    chunks = []
    while True:
        try:
            chunk = os.read(reading, 65536)
        except OSError:   # EIO: the terminal's other end is closed and everything was read
            break
        if not chunk:
            break
        chunks.append(chunk)
    os.close(reading)
    assert done.returncode == 1, done.stderr
    return b"".join(chunks).decode()


@pytest.mark.skipif(sys.platform == "win32", reason="pseudo-terminals are POSIX")
@pytest.mark.parametrize("env, flags, severity", [
    ({}, [], "\x1b[1;31merror\x1b[0m"),                # a terminal: bold red
    ({"NO_COLOR": "1"}, [], "\x1b[1merror\x1b[0m"),    # no-color.org: no colour (bold is not one)
    ({"TERM": "dumb"}, [], "error"),                    # a terminal that shows no styles at all
    ({"NO_COLOR": "1"}, ["--color", "always"], "\x1b[1;31merror\x1b[0m"),  # the command line overrides
    ({}, ["--color", "never"], "error"),
])
def test_validate_colours_as_the_terminal_and_no_color_say(env, flags, severity):
    out = validate_on_a_terminal(env, *flags)
    assert out.splitlines()[0].endswith(f"setup.yaml:5:12: {severity} REF001: unknown unit type 'infantery'")
    assert out.count("\x1b[") == severity.count("\x1b[")   # nothing else is styled
