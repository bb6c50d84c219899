"""`sandtable-editor [FOLDER]`: start the editor, optionally with a scenario open."""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

from .fonts import prefer_cjk_fallbacks


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="sandtable-editor",
                                     description="Edit, validate and playtest a scenario folder.")
    parser.add_argument("folder", nargs="?", help="a scenario folder to open")
    args = parser.parse_args(argv)
    from PySide6.QtWidgets import QApplication

    from .main_window import MainWindow

    app = QApplication.instance() or QApplication(sys.argv[:1])
    app.setOrganizationName("Sandtable")
    app.setApplicationName("Sandtable Editor")
    prefer_cjk_fallbacks(app)
    window = MainWindow()
    window.show()
    if args.folder:
        folder = Path(args.folder)
        if not (folder / "scenario.yaml").is_file():
            print(f"sandtable-editor: {folder}: no scenario.yaml here", file=sys.stderr)
            return 2
        window.open_folder(folder)
    return app.exec()


if __name__ == "__main__":
    raise SystemExit(main())
