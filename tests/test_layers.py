"""The layers of the code (docs/architecture.md): the command line and the editor on top, then
studies (playtest/), the rules (engine/), the checks (validators/), the format (sandtable/). Read
from the code's imports by tools/layers.py."""
from __future__ import annotations

import importlib.util
import sys
import textwrap

import pytest

from helpers import REPO


def _load_layers():
    spec = importlib.util.spec_from_file_location("layers", REPO / "tools" / "layers.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules["layers"] = module          # dataclasses look their module up
    spec.loader.exec_module(module)
    return module


layers = _load_layers()


def test_the_code_keeps_the_import_rules():
    assert layers.broken_rules() == []


def test_the_rules_engine_imports_no_study_module():
    _, imports = layers.graph()
    from_engine = {i.target for i in imports if i.source.startswith("engine")}
    assert not {t for t in from_engine if t.startswith(("playtest", "editor", "matplotlib", "dask"))}


def test_the_architecture_page_shows_the_layers_as_the_imports_draw_them():
    page = (REPO / "docs" / "architecture.md").read_text(encoding="utf-8")
    assert layers.mermaid() in page, "docs/architecture.md is stale: python tools/layers.py"


@pytest.fixture
def tree(tmp_path, monkeypatch):
    """A small tree of the five packages, for the checker itself."""
    def write(files: dict[str, str]):
        for name, text in files.items():
            path = tmp_path / name
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(textwrap.dedent(text), encoding="utf-8")
        for package in layers.PACKAGES:
            (tmp_path / package).mkdir(exist_ok=True)
            (tmp_path / package / "__init__.py").touch()
        monkeypatch.setattr(layers, "ROOT", tmp_path)
        return layers.broken_rules()
    return write


def test_the_checker_finds_the_rules_engine_importing_a_study(tree):
    problems = tree({"engine/rules.py": "def f():\n    from playtest.study import run\n",
                     "playtest/study.py": "run = 1\n"})
    assert problems == ["engine/rules.py:2: engine imports playtest (playtest.study)"]


def test_the_checker_finds_plotting_in_the_rules(tree):
    assert tree({"engine/draw.py": "import matplotlib.pyplot as plt\n"}) == \
        ["engine/draw.py:1: engine imports matplotlib"]


def test_the_checker_finds_a_circle_through_a_lazy_import(tree):
    problems = tree({"engine/game/__init__.py": "from .system import S\n",
                     "engine/game/system.py": "from .heuristic import H\nS = 1\n",
                     "engine/game/heuristic.py": "def f():\n    from .system import S\nH = 1\n"})
    assert problems == ["import circle: engine.game.heuristic -> engine.game.system -> "
                        "engine.game.heuristic"]


def test_annotations_under_type_checking_are_no_circle(tree):
    assert tree({"engine/game/state.py": "from typing import TYPE_CHECKING\n"
                 "if TYPE_CHECKING:\n    from .moves import M\n",
                 "engine/game/moves.py": "from .state import S\n"}) == []


def test_the_command_line_may_import_every_layer_but_the_format_none(tree):
    problems = tree({"sandtable/commands/run.py": "import editor.app\nimport playtest.x\n",
                     "sandtable/load.py": "import validators.schema\n",
                     "editor/app.py": "", "playtest/x.py": "", "validators/schema.py": ""})
    assert problems == ["sandtable/load.py:1: sandtable imports validators (validators.schema)"]
