"""`sandtable import triplea GAME.xml OUTDIR`: a scenario folder from a TripleA game file."""
from __future__ import annotations

import sys
from pathlib import Path

from ..cli import EXIT_OK, EXIT_PROBLEMS, EXIT_USAGE

# kind -> file name, in the order the files are written.
OUTPUT_FILES = {kind: f"{kind}.yaml" for kind in ("scenario", "map", "units", "setup", "objectives")}


def register(commands) -> None:
    parser = commands.add_parser(
        "import", help="make a scenario folder from another program's game file",
        description="Translate a game file into a scenario folder. Everything that cannot be "
        "translated is reported with its line. Exit 0 when written, 1 when the file has errors "
        "(nothing is written), 2 on a usage or I/O error.")
    formats = parser.add_subparsers(dest="format", metavar="FORMAT", required=True)
    triplea = formats.add_parser("triplea", help="a TripleA game XML file",
                                 description="Import a TripleA game XML file (such as WW2v3-1941.xml).")
    triplea.add_argument("game", metavar="GAME.xml")
    triplea.add_argument("outdir", metavar="OUTDIR", help="the scenario folder to write (created if needed)")
    triplea.add_argument("--id", help="the scenario id (default: from the name of OUTDIR)")
    triplea.add_argument("--force", action="store_true", help="overwrite files already in OUTDIR")
    triplea.add_argument("--quiet", action="store_true", help="report warnings and errors only")
    triplea.add_argument("--system", choices=["aa50", "triplea"],
                         help="the rule family (default: aa50 for a game on AA50's rules, else triplea)")
    triplea.add_argument("--map-dir", metavar="DIR", help="a TripleA map folder whose centers.txt, "
                         "polygons.txt and name_place.txt give the spaces their positions and outlines")
    triplea.set_defaults(run=run)
    board = formats.add_parser(
        "triplea-map", help="a TripleA map folder's board geometry, into a scenario",
        description="Give the spaces of a scenario the positions, outlines and name places of a "
        "TripleA map folder (centers.txt, polygons.txt, name_place.txt). Spaces are matched by id "
        "to the territory names. map.yaml is rewritten canonically; exit 0 when written, 1 when it "
        "cannot be read, 2 on a usage or I/O error.")
    board.add_argument("map_dir", metavar="MAP_DIR", help="the map folder (or its map/ subfolder)")
    board.add_argument("scenario", metavar="SCENARIO", help="the scenario folder whose map.yaml gets the geometry")
    board.add_argument("--tolerance", type=float, default=None, metavar="PX",
                       help="how far a simplified outline may stray from the traced one, in board "
                       "pixels (default 1.5)")
    board.add_argument("--quiet", action="store_true", help="report warnings and errors only")
    board.set_defaults(run=run_map)


def run(args) -> int:
    from ..paths import PathEscape, is_inside
    from ..safewrite import atomic_write_text
    from ..safexml import XmlRefused
    from ..schemas import modeline, schemas_for
    from ..triplea import import_game, scenario_id
    from ..triplea.mapfolder import NotAMapFolder
    from ..yamlwrite import SaveRefused, kind_of_path, render_yaml

    game, outdir = Path(args.game), Path(args.outdir)
    if not game.is_file():
        print(f"sandtable import: {game}: no such file", file=sys.stderr)
        return EXIT_USAGE
    try:
        imported = import_game(game, args.id or scenario_id(outdir.name) or scenario_id(game.stem), args.system)
        if args.map_dir and not imported.has_errors:
            _add_board(imported, args.map_dir)
    except XmlRefused as refused:
        print_diagnostic(refused.diagnostic)
        return EXIT_PROBLEMS
    except NotAMapFolder as problem:
        print(f"sandtable import: {problem}", file=sys.stderr)
        return EXIT_USAGE
    except SaveRefused as problem:
        print(f"sandtable import: {problem}", file=sys.stderr)
        return EXIT_PROBLEMS
    except OSError as problem:
        print(f"sandtable import: {problem.filename or game}: {problem.strerror or problem}", file=sys.stderr)
        return EXIT_USAGE
    for diagnostic in imported.diagnostics:
        if not (args.quiet and diagnostic.severity.value == "info"):
            print_diagnostic(diagnostic)
    if imported.has_errors:
        print("nothing was written: the game file has errors", file=sys.stderr)
        return EXIT_PROBLEMS
    targets = {kind: outdir / name for kind, name in OUTPUT_FILES.items() if kind in imported.files}
    existing = [p for p in targets.values() if p.exists() or p.is_symlink()]
    if existing and not args.force:
        print(f"sandtable import: {existing[0]} exists; use --force to overwrite", file=sys.stderr)
        return EXIT_USAGE
    escaping = [p for p in existing if not is_inside(outdir, p)]
    if escaping:
        print(f"sandtable import: {escaping[0]} links to a file outside {outdir}; nothing was written",
              file=sys.stderr)
        return EXIT_USAGE
    schemas = schemas_for(outdir)
    try:  # every file is made (and checked to read back) before the first is written
        texts = {path: render_yaml(imported.files[kind], kind_of_path(path), None, modeline(kind, schemas), path)
                 for kind, path in targets.items()}
    except SaveRefused as problem:
        print(f"sandtable import: {problem}", file=sys.stderr)
        return EXIT_PROBLEMS
    try:
        outdir.mkdir(parents=True, exist_ok=True)
        for path, text in texts.items():
            atomic_write_text(path, text, within=outdir)
    except (OSError, PathEscape) as problem:
        print(f"sandtable import: {outdir}: {getattr(problem, 'strerror', None) or problem}", file=sys.stderr)
        return EXIT_USAGE
    counts = imported.counts
    print(f"wrote {outdir}: {counts.get('spaces', 0)} spaces, {counts.get('borders', 0)} borders, "
          f"{counts.get('placements', 0)} unit placements, {counts.get('unit_types', 0)} unit types, "
          f"{counts.get('objectives', 0)} objectives; {len(imported.diagnostics)} note(s) on what was "
          "not translated")
    return EXIT_OK


def _add_board(imported, map_dir: str) -> None:
    """Positions, outlines and the board's size from a map folder, matched by TripleA's names."""
    from ..triplea.mapfolder import apply_board, board_extent, read_board
    board = _fitting(read_board(map_dir))
    spaces = imported.files["map"]["spaces"]
    by_id = {space["id"]: space for space in spaces}
    imported.diagnostics += board.diagnostics + apply_board(
        spaces, board, lambda name: by_id.get(imported.territories.get(name)))
    extent = board_extent(board)
    if extent:
        imported.files["map"]["board"] = extent


def _fitting(board):
    """The board, once its outlines are known to fit in a map.yaml (SaveRefused otherwise)."""
    from ..triplea.mapfolder import outlines_too_large
    from ..yamlwrite import SaveRefused
    why = outlines_too_large(board)
    if why:
        raise SaveRefused(why)
    return board


def run_map(args) -> int:
    """Add a TripleA map folder's geometry to the map.yaml of an existing scenario."""
    from ..geometry import DEFAULT_TOLERANCE
    from ..paths import PathEscape, is_inside
    from ..triplea import territory_id
    from ..triplea.mapfolder import NotAMapFolder, apply_board, board_extent, read_board
    from ..yamlsource import YamlRefused, read_yaml_file
    from ..yamlwrite import SaveRefused, leading_comments, save_yaml

    folder = Path(args.scenario)
    map_path = folder / "map.yaml"
    if not map_path.is_file():
        print(f"sandtable import: {map_path}: no such file", file=sys.stderr)
        return EXIT_USAGE
    escaping = next((p for p in (folder / "scenario.yaml", map_path) if p.is_symlink() and not is_inside(folder, p)),
                    None)
    if escaping is not None:
        print(f"sandtable import: {escaping} links to a file outside {folder}; it was not read", file=sys.stderr)
        return EXIT_USAGE
    try:
        manifest = read_yaml_file(folder / "scenario.yaml").data if (folder / "scenario.yaml").is_file() else {}
        doc = read_yaml_file(map_path)
    except YamlRefused as refused:
        print_diagnostic(refused.diagnostic)
        return EXIT_PROBLEMS
    if isinstance(manifest, dict) and manifest.get("extends"):
        print(f"sandtable import: {folder} extends {manifest['extends']}: give the geometry to the "
              "scenario it extends; a variant inherits it", file=sys.stderr)
        return EXIT_USAGE
    data = doc.data if isinstance(doc.data, dict) else {}
    header = leading_comments(doc.text)
    tolerance = DEFAULT_TOLERANCE if args.tolerance is None else args.tolerance
    if tolerance < 0:
        print("sandtable import: --tolerance must not be negative", file=sys.stderr)
        return EXIT_USAGE
    try:
        board = read_board(args.map_dir, tolerance)
    except (NotAMapFolder, OSError) as problem:
        print(f"sandtable import: {problem}", file=sys.stderr)
        return EXIT_USAGE
    spaces = [s for s in data.get("spaces", []) if isinstance(s, dict)]
    by_id = {s["id"]: s for s in spaces if isinstance(s.get("id"), str)}
    by_name = {s["triplea_name"]: s for s in spaces if isinstance(s.get("triplea_name"), str)}
    diagnostics = board.diagnostics + apply_board(
        spaces, board, lambda name: by_name.get(name) or by_id.get(territory_id(name)))
    extent = board_extent(board)
    if extent:
        existing = data.get("board")
        data["board"] = {**extent, **(existing if isinstance(existing, dict) else {})}
    for diagnostic in diagnostics:
        if not (args.quiet and diagnostic.severity.value == "info"):
            print_diagnostic(diagnostic)
    try:  # over the text read: its comments are kept
        _fitting(board)
        save_yaml(map_path, data, header, "map", original=doc.text, within=folder,
                  unchanged_since=doc.fingerprint)
    except (SaveRefused, PathEscape) as problem:
        print(f"sandtable import: {problem}", file=sys.stderr)
        return EXIT_PROBLEMS
    except OSError as problem:
        print(f"sandtable import: {map_path}: {problem.strerror or problem}", file=sys.stderr)
        return EXIT_USAGE
    shaped = sum(1 for s in spaces if "shape" in s)
    print(f"wrote {map_path}: {shaped} of {len(spaces)} spaces have an outline")
    return EXIT_OK


def print_diagnostic(diagnostic) -> None:
    """One diagnostic on stderr, as `file:line:column: severity CODE: message (hint: ...)`."""
    from ..diagnostics import one_line
    text = one_line(diagnostic)
    if diagnostic.hint:
        text += f" (hint: {diagnostic.hint})"
    print(text, file=sys.stderr)
