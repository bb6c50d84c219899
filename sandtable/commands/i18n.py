"""`sandtable i18n`: translation status, PO/XLIFF export and import, text with fallback."""
from __future__ import annotations

EXCHANGE_FORMATS = ("po", "xliff")


def register(commands) -> None:
    parser = commands.add_parser(
        "i18n", help="translation status, PO/XLIFF export and import",
        description="Work on translations. Exit 0 when all is well, 1 when there are problems, "
        "2 on a usage or I/O error.")
    actions = parser.add_subparsers(dest="action", metavar="ACTION", required=True)

    status = actions.add_parser(
        "status", help="translated, missing, stale and unknown texts per locale",
        description="Show, per scenario and locale, how many texts are translated, missing, "
        "stale (their source text changed) or unknown (no longer a text of the scenario). "
        "Exit 1 if any locale has stale or unknown entries or broken placeholders.")
    status.add_argument("paths", nargs="+", metavar="PATH", help="a scenario folder or a folder of them")
    status.add_argument("--format", choices=("text", "json"), default="text")
    status.add_argument("--list", action="store_true",
                        help="also list the keys that are missing, stale or unknown")
    status.set_defaults(run=_action("run_status"))

    export = actions.add_parser(
        "export", help="write a PO or XLIFF file for translators",
        description="Write the texts of one scenario and their translations into LOCALE as a "
        "PO file (Poedit, Weblate, Crowdin) or XLIFF 1.2. Stale translations are marked fuzzy "
        "(needs-review in XLIFF) with the source text they were made from.")
    export.add_argument("path", metavar="PATH", help="a scenario folder")
    export.add_argument("--locale", required=True, metavar="TAG", help="e.g. zh-Hans, ja, de")
    export.add_argument("--format", choices=EXCHANGE_FORMATS, default="po")
    export.add_argument("-o", "--output", metavar="FILE", help="write here instead of to stdout")
    export.set_defaults(run=_action("run_export"))

    take = actions.add_parser(
        "import", help="take translations back from a PO or XLIFF file",
        description="Update the scenario's locale file from a translated PO or XLIFF file. Only "
        "changed entries are written; entries that cannot be taken are reported with their "
        "line in FILE (exit 1).")
    take.add_argument("path", metavar="PATH", help="a scenario folder")
    take.add_argument("file", metavar="FILE", help="the translated .po or .xlf file")
    take.add_argument("--locale", metavar="TAG", help="the locale (default: the one FILE declares)")
    take.add_argument("--format", choices=EXCHANGE_FORMATS,
                      help="the file's format (default: from its extension)")
    take.add_argument("--dry-run", action="store_true", help="report what would change, write nothing")
    take.set_defaults(run=_action("run_import"))

    show = actions.add_parser(
        "show", help="the text shown in a locale, with fallback",
        description="Print the text a player sees in LOCALE for each --key (all texts if none is "
        "given), and the locale it comes from: zh-Hant falls back to zh, then the source.")
    show.add_argument("path", metavar="PATH", help="a scenario folder")
    show.add_argument("--key", dest="keys", action="append", default=[], metavar="KEY",
                      help="a text key such as spaces.norway.name (repeat for more)")
    show.add_argument("--locale", required=True, metavar="TAG")
    show.set_defaults(run=_action("run_show"))


def _action(name: str):
    """The action `name` of i18n_actions.py, imported when it runs: building the parser for any
    command must not import the translation package."""
    def run(args) -> int:
        from . import i18n_actions
        return getattr(i18n_actions, name)(args)
    return run

