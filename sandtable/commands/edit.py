"""`sandtable edit FOLDER`: open a scenario in the editor."""
from __future__ import annotations

from pathlib import Path

from ..cli import UsageError


def register(commands) -> None:
    parser = commands.add_parser("edit", help="open a scenario in the editor",
                                 description="Open a scenario folder in the Sandtable editor.")
    parser.add_argument("folder", metavar="FOLDER")
    parser.set_defaults(run=run)


def run(args) -> int:
    folder = Path(args.folder)
    if not (folder / "scenario.yaml").is_file():
        raise UsageError(f"{args.folder}: no scenario.yaml here")
    try:
        from editor.app import main
    except ImportError as missing:
        raise UsageError(f"the editor needs PySide6 ({missing})") from None
    return main([str(folder)])
