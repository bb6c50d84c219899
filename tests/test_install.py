"""The command-line tools install and run without Qt; the pre-commit hooks work as shipped.

`pre-commit try-repo` installs this repository into a fresh environment the way a scenario
repository's hook would (the command-line install only), and runs the hooks there.
"""
from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import textwrap
import tomllib

import pytest
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

from helpers import FIXTURES, REPO

# Runs a sandtable command with Qt made impossible to import, then says whether Qt was imported.
WITHOUT_QT = textwrap.dedent("""
    import importlib.abc, sys

    class NoQt(importlib.abc.MetaPathFinder):
        def find_spec(self, name, path=None, target=None):
            if name.split(".")[0] in ("PySide6", "shiboken6"):
                raise ModuleNotFoundError(f"No module named {name!r}", name=name)
            return None

    sys.meta_path.insert(0, NoQt())
    from sandtable.cli import main
    code = main(sys.argv[1:])
    print("exit", code, "Qt imported:", any(m.split(".")[0] == "PySide6" for m in sys.modules))
""")


def without_qt(*args, cwd=REPO) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    return subprocess.run([sys.executable, "-c", WITHOUT_QT, *map(str, args)], cwd=cwd, env=env,
                          capture_output=True, text=True, timeout=120)


@pytest.mark.parametrize("args, exit_code", [
    (["validate", "scenarios/aa50-1942"], 0),
    (["validate", "--format", "sarif", "tests/fixtures/core/ref001-unknown-reference"], 1),
    (["format", "--check", "scenarios/ocs-charts-demo"], 0),
    (["i18n", "status", "scenarios/gj69-southern-operation"], 0),
    (["playtest", "battle", "scenarios/aa50-1941", "--attacker", "germany: 3 infantry",
      "--defender", "soviet-union: 2 infantry", "--at", "karelia-ssr"], 0),
])
def test_command_line_tools_run_without_qt(args, exit_code):
    done = without_qt(*args)
    assert done.stdout.splitlines()[-1] == f"exit {exit_code} Qt imported: False", done.stderr


def test_edit_says_what_to_install_when_the_editor_is_missing(tmp_path):
    done = without_qt("edit", "scenarios/aa50-1941")
    assert done.stdout.splitlines()[-1] == "exit 2 Qt imported: False"
    assert 'python3 -m pip install -e ".[editor]"' in done.stderr and "sandtable[" not in done.stderr
    assert "needs Qt for Python (PySide6)" in done.stderr


def test_validate_and_format_default_to_the_current_folder(tmp_path):
    shutil.copytree(FIXTURES / "core" / "base", tmp_path / "scenarios" / "base")
    done = without_qt("validate", cwd=tmp_path)
    assert "1 scenario checked: 0 errors, 0 warnings" in done.stdout
    done = without_qt("format", "--check", cwd=tmp_path)
    assert done.stdout.splitlines()[-1] == "exit 0 Qt imported: False", done.stdout + done.stderr


def consumer_repository(root):
    """A scenario repository: a clean scenario and one with an unknown unit type, both canonical."""
    shutil.copytree(FIXTURES / "core" / "base", root / "scenarios" / "base")
    shutil.copytree(FIXTURES / "core" / "base", root / "scenarios" / "broken")
    manifest = root / "scenarios" / "broken" / "scenario.yaml"
    manifest.write_text(manifest.read_text(encoding="utf-8").replace("id: base", "id: broken"), encoding="utf-8")
    setup = root / "scenarios" / "broken" / "setup.yaml"
    text = setup.read_text(encoding="utf-8")
    assert "type: infantry" in text
    setup.write_text(text.replace("type: infantry", "type: infantery", 1), encoding="utf-8")
    subprocess.run(["git", "init", "-q"], cwd=root, check=True)
    subprocess.run(["git", "add", "-A"], cwd=root, check=True)


NETWORK_TROUBLE = ("Could not find a version", "NewConnectionError", "Temporary failure in name resolution",
                   "No matching distribution", "Network is unreachable", "ConnectTimeout")


@pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")
def test_pre_commit_try_repo_runs_the_hooks_without_args(tmp_path):
    pytest.importorskip("pre_commit", reason="pre-commit is not installed")
    consumer = tmp_path / "consumer"
    consumer_repository(consumer)
    env = {**os.environ, "PRE_COMMIT_HOME": str(tmp_path / "cache"), "PYTHONPROFILEIMPORTTIME": "1"}
    env.pop("PYTHONPATH", None)
    done = subprocess.run([sys.executable, "-m", "pre_commit", "try-repo", str(REPO), "--all-files", "--verbose"],
                          cwd=consumer, env=env, capture_output=True, text=True, timeout=600)
    if done.returncode == 3 or any(sign in done.stdout + done.stderr for sign in NETWORK_TROUBLE):
        pytest.skip("the hook's environment could not be installed (no package index reachable?): "
                    + (done.stdout + done.stderr).strip().splitlines()[-1])
    out = done.stdout
    assert done.returncode == 1, out
    assert "sandtable format --check....." in out and "0 file(s) would reformat, 0 unreadable" in out
    assert "scenarios/broken/setup.yaml:" in out and "error REF001: unknown unit type 'infantery'" in out
    assert "2 scenarios checked: 1 error, 0 warnings" in out
    # The hooks ran in the fresh environment pre-commit installed (their imports are traced), without Qt.
    imported = set(re.findall(r"^import time:.*\|\s+([\w.]+)$", out, re.MULTILINE))
    assert {"yaml", "sandtable.cli", "validators"} <= imported and not any(m.startswith("PySide6") for m in imported)


# -- the lock: constraints.txt, which .ci/run and README's test command install with -------------

def locked() -> dict[str, str]:
    pins = {}
    for line in (REPO / "constraints.txt").read_text(encoding="utf-8").splitlines():
        if line and not line.startswith("#"):
            name, version = line.split("==")
            pins[canonicalize_name(name)] = version
    return pins


def test_the_lock_pins_every_requirement_within_what_pyproject_allows():
    project = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    wanted = [Requirement(text) for text in project["dependencies"]]
    for extra in project["optional-dependencies"].values():
        wanted.extend(Requirement(text) for text in extra)
    pins = locked()
    outside = [(str(requirement), pins.get(canonicalize_name(requirement.name))) for requirement in wanted
               if (not requirement.marker or requirement.marker.evaluate({"extra": ""}))
               and not requirement.specifier.contains(pins.get(canonicalize_name(requirement.name), "0"),
                                                      prereleases=True)]
    assert not outside  # e.g. PySide6 must stay below 6.12, as pyproject.toml says
    assert "sandtable" not in pins


def test_ci_runs_the_readme_test_command_with_the_lock():
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    command = ('python3 -m pip install -e ".[editor,test]" -c constraints.txt'
               " && QT_QPA_PLATFORM=offscreen python3 -m pytest -q")
    assert command in readme
    run = (REPO / ".ci" / "run").read_text(encoding="utf-8")
    assert command.replace("-c constraints.txt", '"${lock[@]}"') in run
    assert "lock=(-c constraints.txt)" in run


# -- README ---------------------------------------------------------------------------------------

def test_readme_sets_up_a_virtual_environment_before_installing():
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    set_up = readme[readme.index("## Set up"):readme.index("## Using it")]
    assert set_up.index("python3 -m venv .venv && . .venv/bin/activate") < set_up.index("python3 -m pip install")
    # Sandtable is installed from the clone: no name on PyPI is given to install
    assert "sandtable[" not in readme and "sandtable[" not in (REPO / "docs" / "install.md").read_text(encoding="utf-8")


def test_readme_lists_each_page_of_the_docs_once_and_every_link_leads_somewhere():
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    listed = re.findall(r"^- \[docs/([\w.-]+)\]\(docs/\1\)", readme, re.MULTILINE)
    assert len(listed) == len(set(listed)) >= 9
    assert all((REPO / "docs" / name).is_file() for name in re.findall(r"\]\((docs/[\w.-]+)", readme)
               for name in [name.removeprefix("docs/")])
