"""`sandtable format`: rewrite scenario files in canonical form (or check that they are)."""
from __future__ import annotations

import sys

from ..cli import EXIT_OK, EXIT_PROBLEMS, EXIT_USAGE
from ..diagnostics import one_line, shown_path
from .paths import scenario_folders


def register(commands) -> None:
    parser = commands.add_parser("format", help="rewrite scenario files canonically",
                                 description="Rewrite each YAML file of the scenarios in canonical "
                                 "form (stable key order), atomically, keeping every comment. "
                                 "With --check, only report. Exit 0 when done (or, with --check, "
                                 "when every file is canonical), 1 when a file cannot be read or "
                                 "is not canonical, 2 on a usage or I/O error.")
    parser.add_argument("paths", nargs="*", default=["."], metavar="PATH",
                        help="a scenario folder or a folder of them (default: the current folder)")
    parser.add_argument("--check", action="store_true", help="exit 1 if a file is not canonical")
    parser.set_defaults(run=run)


# Another program may save a file while it is being formatted (an editor, on a large map.yaml
# that takes a second or more): the file is then read and formatted again, this many times in
# all, and left alone if it keeps changing.
ATTEMPTS = 3


def run(args) -> int:
    from ..paths import PathEscape
    from ..safewrite import ChangedOnDisk
    from ..scenario import scenario_files

    changed, broken, failed, notes = [], [], [], []
    for folder in scenario_folders(args.paths):
        variant, schemas = _modeline_facts(folder)
        files, refused = scenario_files(folder)
        broken += [one_line(d) for d in refused]
        for _, path in files:
            for _attempt in range(ATTEMPTS):
                try:
                    outcome = _format_one(path, folder, variant, schemas, args.check)
                except ChangedOnDisk:
                    continue
                except (OSError, PathEscape) as problem:
                    outcome = ("failed", f"sandtable format: {shown_path(path)}: "
                               f"{getattr(problem, 'strerror', None) or problem}; the file was left as it was",
                               None)
                break
            else:
                outcome = ("failed", f"sandtable format: {shown_path(path)}: another program kept "
                           f"saving it while it was formatted ({ATTEMPTS} attempts); the file was "
                           "left as it was", None)
            verdict, detail, note = outcome
            if note:
                notes.append(note)
            if verdict == "broken":
                broken.append(detail)
            elif verdict == "failed":
                changed.append(path)
                failed.append(detail)
            elif verdict == "changed":
                changed.append(path)
    for line in notes + broken + failed:
        print(line, file=sys.stderr)
    verb = "would reformat" if args.check else "reformatted"
    for path in changed:
        print(f"{verb} {path}")
    done = len(changed) - len(failed)
    print(f"{done} file(s) {verb}, {len(broken)} unreadable" +
          (f", {len(failed)} could not be written" if failed else ""))
    if failed:
        return EXIT_USAGE
    return EXIT_PROBLEMS if broken or (args.check and changed) else EXIT_OK


def _format_one(path, folder, variant: bool, schemas: str | None,
                check: bool) -> tuple[str, str, str | None]:
    """Format one file: ("same" | "changed" | "broken", what to say, a note or None). The file
    is replaced only if it still holds the bytes that were formatted (else ChangedOnDisk, and
    nothing is written)."""
    from ..safewrite import atomic_write_text
    from ..schemas import modeline_schemas, resolves, with_modeline
    from ..yamlsource import YamlRefused, read_yaml_file
    from ..yamlwrite import SaveRefused, format_text, kind_of_path, leading_comments
    note = None
    try:
        doc = read_yaml_file(path)
        kind = kind_of_path(path)
        source = doc.text
        header = leading_comments(source)
        if kind and source.startswith(header):
            # A modeline that points nowhere is repointed at a copy of the schemas kept with
            # the scenarios, never at this installation's: the output must not depend on the
            # machine, or two installs would rewrite each other's line forever.
            fixed = with_modeline(header, kind, variant, _from(path.parent, folder, schemas),
                                  path, installed=False)
            source = fixed + source[len(header):]
            named = modeline_schemas(fixed)
            if named is not None and not resolves(named, kind, variant, path):
                note = (f"note: {shown_path(path)}: its schema modeline points nowhere here; keep "
                        "a copy of the schemas with the scenarios (docs/format.md#schema-modelines)")
        text = format_text(source, kind, path)
    except YamlRefused as refused_file:
        return "broken", one_line(refused_file.diagnostic), note
    except SaveRefused as problem:
        return "broken", str(problem), note
    if text == doc.text:
        return "same", "", note
    if not check:
        atomic_write_text(path, text, within=folder, unchanged_since=doc.fingerprint)
    return "changed", "", note


def _modeline_facts(folder) -> tuple[bool, str | None]:
    """Is the folder a variant, and where are the schemas (as its scenario.yaml's modeline says)?"""
    from ..scenario import FILE_KINDS
    from ..schemas import modeline_schemas
    from ..yamlsource import YamlRefused, read_yaml_file
    try:
        doc = read_yaml_file(folder / FILE_KINDS["scenario"])
    except YamlRefused:
        return False, None
    variant = isinstance(doc.data, dict) and "extends" in doc.data
    return variant, modeline_schemas(doc.text)


def _from(where, folder, schemas: str | None) -> str | None:
    """The schemas' location as seen from a subfolder (locales/) when it is a relative path."""
    import posixpath
    if schemas is None or where == folder or "://" in schemas or posixpath.isabs(schemas):
        return schemas
    return posixpath.join("..", schemas)
