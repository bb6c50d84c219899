"""`sandtable edit FOLDER` and `sandtable-editor`: open a scenario in the editor.

The editor is an optional part (`pip install -e ".[editor]"` in a clone), since Qt is large and the
command-line tools do not need it; without it, both commands say what to install.
"""
from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

from ..cli import EXIT_USAGE, UsageError

# Sandtable is installed from a clone of its repository (it is not on PyPI), so the hint says so.
EDITOR_MISSING = ('the editor is not installed: it needs Qt for Python (PySide6). Install it, in the\n'
                  "clone of Sandtable's repository, with\n"
                  '    python3 -m pip install -e ".[editor]"')


def register(commands) -> None:
    parser = commands.add_parser("edit", help="open a scenario in the editor",
                                 description="Open a scenario folder in the Sandtable editor "
                                 '(installed, in the clone, with pip install -e ".[editor]").')
    parser.add_argument("folder", metavar="FOLDER")
    parser.set_defaults(run=run)


def editor_installed() -> bool:
    try:
        return importlib.util.find_spec("PySide6") is not None
    except (ImportError, ValueError):  # a broken or blocked installation counts as missing
        return False


def run(args) -> int:
    folder = Path(args.folder)
    if not (folder / "scenario.yaml").is_file():
        raise UsageError(f"{args.folder}: no scenario.yaml here")
    if not editor_installed():
        raise UsageError(EDITOR_MISSING)
    from editor.app import main
    return main([str(folder)])


def editor_main(argv: list[str] | None = None) -> int:
    """The `sandtable-editor` command."""
    if not editor_installed():
        print(f"sandtable-editor: {EDITOR_MISSING}", file=sys.stderr)
        return EXIT_USAGE
    from editor.app import main
    return main(argv)
