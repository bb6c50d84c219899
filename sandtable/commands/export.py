"""`sandtable export triplea SCENARIO OUT.xml`: a TripleA game file from an AA50-family scenario."""
from __future__ import annotations

import sys
from pathlib import Path

from ..cli import EXIT_OK, EXIT_PROBLEMS, EXIT_USAGE


def register(commands) -> None:
    parser = commands.add_parser(
        "export", help="write a scenario as another program's game file",
        description="Write a scenario (a variant merged over its parent) as another program's game "
        "file. Exit 0 when written, 1 when the scenario has errors or holds something the format "
        "cannot say (nothing is written), 2 on a usage or I/O error.")
    formats = parser.add_subparsers(dest="format", metavar="FORMAT", required=True)
    triplea = formats.add_parser(
        "triplea", help="a TripleA game XML file (AA50-family scenarios)",
        description="Write a TripleA game file (valid against TripleA's game.dtd) for an AA50-family "
        "scenario; `sandtable import triplea` of it gives the same scenario back.")
    triplea.add_argument("scenario", metavar="SCENARIO", help="the scenario folder")
    triplea.add_argument("output", metavar="OUT.xml", help="the game file to write")
    triplea.add_argument("--force", action="store_true",
                         help="overwrite OUT.xml if it exists (a link there is replaced, never written through)")
    triplea.set_defaults(run=run)


def run(args) -> int:
    from ..safewrite import atomic_write_text
    from ..scenario import load_scenario
    from ..triplea.export import ExportError, export_game
    from .import_ import print_diagnostic

    folder, output = Path(args.scenario), Path(args.output)
    if not (folder / "scenario.yaml").is_file():
        print(f"sandtable export: {folder}: no scenario.yaml here", file=sys.stderr)
        return EXIT_USAGE
    if (output.exists() or output.is_symlink()) and not args.force:
        print(f"sandtable export: {output} exists{' (a link)' if output.is_symlink() else ''}; use --force to "
              "overwrite", file=sys.stderr)
        return EXIT_USAGE
    if not output.parent.is_dir():
        print(f"sandtable export: {output.parent}: no such folder", file=sys.stderr)
        return EXIT_USAGE
    from validators import validate
    scenario = load_scenario(folder)
    errors = [d for d in validate(scenario) if d.is_error]
    if errors:
        for diagnostic in errors:
            print_diagnostic(diagnostic)
        print("nothing was written: the scenario has errors (sandtable validate shows them)", file=sys.stderr)
        return EXIT_PROBLEMS
    try:
        text = export_game(scenario)
    except ExportError as refused:
        for problem in refused.problems:
            print(f"{folder}: {problem}", file=sys.stderr)
        print("nothing was written: TripleA's game file cannot say all of the scenario", file=sys.stderr)
        return EXIT_PROBLEMS
    try:
        # a file the user named (no folder to keep to); a link there is replaced, never written through
        atomic_write_text(output, text, within=None, follow_link=False)
    except OSError as problem:
        print(f"sandtable export: {output}: {problem.strerror or problem}", file=sys.stderr)
        return EXIT_USAGE
    print(f"wrote {output}: a TripleA game for {scenario.id}")
    return EXIT_OK
