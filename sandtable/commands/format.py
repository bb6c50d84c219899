"""`sandtable format`: rewrite scenario files in canonical form (or check that they are)."""
from __future__ import annotations

import sys

from ..cli import EXIT_OK, EXIT_PROBLEMS
from .paths import scenario_folders


def register(commands) -> None:
    parser = commands.add_parser("format", help="rewrite scenario files canonically",
                                 description="Rewrite each YAML file of the scenarios in canonical "
                                 "form (stable key order), atomically. With --check, only report.")
    parser.add_argument("paths", nargs="*", default=["."], metavar="PATH",
                        help="a scenario folder or a folder of them (default: the current folder)")
    parser.add_argument("--check", action="store_true", help="exit 1 if a file is not canonical")
    parser.set_defaults(run=run)


def run(args) -> int:
    from ..schemas import with_modeline
    from ..yamlsource import YamlRefused, read_yaml_file
    from ..yamlwrite import atomic_write_text, dump_canonical, kind_of_path, leading_comments

    changed, broken = [], []
    for folder in scenario_folders(args.paths):
        variant, schemas = _modeline_facts(folder)
        for path in sorted(folder.glob("*.yaml")) + sorted((folder / "locales").glob("*.yaml")):
            try:
                doc = read_yaml_file(path)
            except YamlRefused as refused:
                d = refused.diagnostic
                broken.append(f"{path}:{d.line}:{d.column}: {d.code}: {d.message}")
                continue
            kind = kind_of_path(path)
            header = leading_comments(doc.text)
            if kind:
                header = with_modeline(header, kind, variant, _from(path.parent, folder, schemas))
            text = dump_canonical(doc.data if doc.data is not None else {}, header, kind)
            if text != doc.text:
                changed.append(path)
                if not args.check:
                    atomic_write_text(path, text)
    for line in broken:
        print(line, file=sys.stderr)
    verb = "would reformat" if args.check else "reformatted"
    for path in changed:
        print(f"{verb} {path}")
    print(f"{len(changed)} file(s) {verb}, {len(broken)} unreadable")
    return EXIT_PROBLEMS if broken or (args.check and changed) else EXIT_OK


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
