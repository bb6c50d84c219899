"""`sandtable format`: rewrite scenario files in canonical form (or check that they are)."""
from __future__ import annotations

import sys

from ..cli import EXIT_OK, EXIT_PROBLEMS
from .paths import scenario_folders


def register(commands) -> None:
    parser = commands.add_parser("format", help="rewrite scenario files canonically",
                                 description="Rewrite each YAML file of the scenarios in canonical "
                                 "form (stable key order), atomically. With --check, only report.")
    parser.add_argument("paths", nargs="+", metavar="PATH")
    parser.add_argument("--check", action="store_true", help="exit 1 if a file is not canonical")
    parser.set_defaults(run=run)


def run(args) -> int:
    from ..yamlsource import YamlRefused, read_yaml_file
    from ..yamlwrite import atomic_write_text, dump_canonical, kind_of_path, leading_comments

    changed, broken = [], []
    for folder in scenario_folders(args.paths):
        for path in sorted(folder.glob("*.yaml")) + sorted((folder / "locales").glob("*.yaml")):
            try:
                doc = read_yaml_file(path)
            except YamlRefused as refused:
                d = refused.diagnostic
                broken.append(f"{path}:{d.line}:{d.column}: {d.code}: {d.message}")
                continue
            text = dump_canonical(doc.data if doc.data is not None else {},
                                  leading_comments(doc.text), kind_of_path(path))
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
