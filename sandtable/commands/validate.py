"""`sandtable validate`: check scenario folders and report in the format CI wants."""
from __future__ import annotations

import os
import sys

from .. import __version__
from ..cli import EXIT_OK, EXIT_PROBLEMS, UsageError
from .paths import scenario_folders

FORMATS = ("text", "json", "github", "sarif", "junit")
DOCS_URL_VARIABLE = "SANDTABLE_DOCS_URL"


def register(commands) -> None:
    parser = commands.add_parser("validate", help="check scenarios and report problems",
                                 description="Check scenario folders. Exit 0 when clean, 1 when "
                                 "there are problems, 2 on a usage or I/O error.")
    parser.add_argument("paths", nargs="*", default=["."], metavar="PATH",
                        help="a scenario folder or a folder of them (default: the current folder)")
    parser.add_argument("--format", choices=FORMATS, default="text")
    parser.add_argument("--strict", action="store_true", help="warnings fail too")
    parser.add_argument("--explain", action="store_true",
                        help="also explain rules-specific evaluations (e.g. national objectives)")
    parser.add_argument("--color", choices=("auto", "always", "never"), default="auto")
    parser.add_argument("--docs-url", metavar="URL", default=os.environ.get(DOCS_URL_VARIABLE),
                        help="absolute address of the diagnostics page (docs/diagnostics.md) for "
                        f"SARIF rules' help links; default ${DOCS_URL_VARIABLE}, else no links")
    parser.set_defaults(run=run)


def run(args) -> int:
    from urllib.parse import urlsplit

    from sandtable.scenario import load_scenario
    from validators import explain, validate
    from validators.reporters import Result, render_github, render_json, render_junit, render_sarif, text_report
    if args.docs_url and not urlsplit(args.docs_url).scheme:
        raise UsageError(f"--docs-url must be an absolute address such as https://..., not {args.docs_url!r}")
    results = []
    explanations = []
    for folder in scenario_folders(args.paths):
        scenario = load_scenario(folder)
        diagnostics = validate(scenario)
        results.append(Result(folder, diagnostics, _line_reader(scenario), sorted(scenario.sources)))
        if args.explain:
            explanations.append(explain(scenario))
    if args.format == "text":
        _console(args.color).print(text_report(results), end="")
        for text in explanations:
            if text:
                sys.stdout.write(text)
    elif args.format == "json":
        sys.stdout.write(render_json(results))
    elif args.format == "github":
        sys.stdout.write(render_github(results))
    elif args.format == "sarif":
        sys.stdout.write(render_sarif(results, __version__, args.docs_url or None))
    else:
        sys.stdout.write(render_junit(results, strict=args.strict))
    failing = any(d.is_error or (args.strict and d.severity.value == "warning")
                  for r in results for d in r.diagnostics)
    return EXIT_PROBLEMS if failing else EXIT_OK


def _console(color: str):
    """Where the text report goes. `auto` leaves it to rich: colour on a terminal, none when
    NO_COLOR is set or TERM is dumb; `always` and `never` override both, as no-color.org asks."""
    from functools import partial

    from rich.console import Console

    from ..safetext import unguarded
    # Its own styles reach the terminal; every text in the report was made visible before.
    console = partial(Console, file=unguarded(sys.stdout), highlight=False, soft_wrap=True, emoji=False,
                      markup=False)
    if color == "always":
        return console(force_terminal=True, no_color=False, color_system="standard")
    if color == "never":
        return console(no_color=True, color_system=None)
    return console()


def _line_reader(scenario):
    def line_of(path, line):
        source = scenario.sources.get(path)
        return source.line_text(line) if source else ""
    return line_of
