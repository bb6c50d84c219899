"""`sandtable i18n`: translation status, PO/XLIFF export and import, text with fallback."""
from __future__ import annotations

import json
import sys
from pathlib import Path

from ..cli import EXIT_OK, EXIT_PROBLEMS, UsageError
from ..diagnostics import one_line, shown_path
from ..i18n import (ExchangeError, State, Translator, export_po, export_xliff, locale_status,
                    plan_import, plural_forms, read_po, read_xliff, scenario_status,
                    source_language, write_import)
from ..i18n.exchange import locale_by_content
from ..i18n.tags import is_locale_tag, language_name, matching_locale
from ..scenario import load_scenario
from ..texts import catalog
from ..yamlwrite import atomic_write_text
from .paths import scenario_folders

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
    status.set_defaults(run=run_status)

    export = actions.add_parser(
        "export", help="write a PO or XLIFF file for translators",
        description="Write the texts of one scenario and their translations into LOCALE as a "
        "PO file (Poedit, Weblate, Crowdin) or XLIFF 1.2. Stale translations are marked fuzzy "
        "(needs-review in XLIFF) with the source text they were made from.")
    export.add_argument("path", metavar="PATH", help="a scenario folder")
    export.add_argument("--locale", required=True, metavar="TAG", help="e.g. zh-Hans, ja, de")
    export.add_argument("--format", choices=EXCHANGE_FORMATS, default="po")
    export.add_argument("-o", "--output", metavar="FILE", help="write here instead of to stdout")
    export.set_defaults(run=run_export)

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
    take.set_defaults(run=run_import)

    show = actions.add_parser(
        "show", help="the text shown in a locale, with fallback",
        description="Print the text a player sees in LOCALE for each --key (all texts if none is "
        "given), and the locale it comes from: zh-Hant falls back to zh, then the source.")
    show.add_argument("path", metavar="PATH", help="a scenario folder")
    show.add_argument("--key", dest="keys", action="append", default=[], metavar="KEY",
                      help="a text key such as spaces.norway.name (repeat for more)")
    show.add_argument("--locale", required=True, metavar="TAG")
    show.set_defaults(run=run_show)


# -- status ----------------------------------------------------------------------------------
def run_status(args) -> int:
    reports, failing = [], False
    for folder in scenario_folders(args.paths):
        scenario = load_scenario(folder)
        problems = _locale_load_problems(scenario)
        locales = scenario_status(scenario)
        failing = failing or bool(problems) or any(s.has_problems for s in locales)
        reports.append((folder, scenario, len(catalog(scenario)), locales, problems))
    if args.format == "json":
        document = {"scenarios": [
            {"id": scenario.id, "path": str(folder), "source_language": source_language(scenario),
             "texts": texts, "locales": [s.as_dict() for s in locales],
             "problems": [d.as_dict() for d in problems]}
            for folder, scenario, texts, locales, problems in reports]}
        sys.stdout.write(json.dumps(document, ensure_ascii=False, indent=2) + "\n")
    else:
        for folder, scenario, texts, locales, problems in reports:
            sys.stdout.write(_status_text(folder, scenario, texts, locales, problems,
                                          args.list))
    return EXIT_PROBLEMS if failing else EXIT_OK


def _status_text(folder, scenario, texts, locales, problems, listing: bool) -> str:
    out = [f"{scenario.id} ({shown_path(folder)}): {texts} texts, source language "
           f"{source_language(scenario)}"]
    if not locales:
        out.append("  no translations yet (add locales/<tag>.yaml, or run `sandtable i18n export`)")
    else:
        out.append(f"  {'locale':<10} {'translated':>10} {'missing':>8} {'stale':>6} "
                   f"{'unknown':>8} {'done':>7}")
        for s in locales:
            out.append(f"  {s.locale:<10} {s.count(State.TRANSLATED):>10} "
                       f"{s.count(State.MISSING):>8} {s.count(State.STALE):>6} "
                       f"{s.count(State.UNKNOWN):>8} {s.percent:>6.1f}%")
        for s in locales:
            if s.broken_placeholders:
                out.append(f"  {s.locale}: {len(s.broken_placeholders)} translation(s) do not keep "
                           f"the source's placeholders: {', '.join(s.broken_placeholders)}")
            if listing:
                for state in (State.MISSING, State.STALE, State.UNKNOWN):
                    for key in s.keys[state]:
                        out.append(f"  {s.locale:<10} {state.value:<8} {key}")
    for d in problems:
        out.append(_diagnostic_line(d))
    return "\n".join(out) + "\n"


def _locale_load_problems(scenario) -> list:
    """Locale files that could not be read (the rest of the scenario is `validate`'s business)."""
    return [d for d in scenario.diagnostics
            if d.file is not None and Path(d.file).parent.name == "locales"]


# -- export ----------------------------------------------------------------------------------
def run_export(args) -> int:
    scenario = _one_scenario(args.path)
    tag = _checked_tag(scenario, args.locale)
    known = matching_locale(tag, scenario.locale_tags)
    if known and known != tag:
        print(f"note: {tag} is taken as {known}, the scenario's locale for the same language and "
              f"script ({language_name(known)})", file=sys.stderr)
        tag = known
    if _refuse_broken(scenario):
        return EXIT_PROBLEMS
    text = (export_po if args.format == "po" else export_xliff)(scenario, tag)
    if args.output:
        try:
            atomic_write_text(Path(args.output), text)
        except OSError as problem:
            raise UsageError(f"{args.output}: {problem.strerror or problem}") from None
        status = locale_status(scenario, tag)
        print(f"wrote {args.output}: {status.texts} texts, {status.count(State.MISSING)} to "
              f"translate, {status.count(State.STALE)} to review", file=sys.stderr)
    else:
        sys.stdout.write(text)
    if args.format == "po" and plural_forms(tag) is None:
        print(f"note: no plural rule is known for {tag}; set Plural-Forms in your PO editor",
              file=sys.stderr)
    return EXIT_OK


# -- import ----------------------------------------------------------------------------------
def run_import(args) -> int:
    scenario = _one_scenario(args.path)
    file = Path(args.file)
    if not file.is_file():
        raise UsageError(f"{args.file}: no such file")
    kind = args.format or _format_of(file)
    try:
        declared, incoming = (read_po if kind == "po" else read_xliff)(file)
    except ExchangeError as problem:
        raise UsageError(str(problem)) from None
    tag = _checked_tag(scenario, _import_locale(scenario, args, declared, incoming))
    if _refuse_broken(scenario):
        return EXIT_PROBLEMS
    result = plan_import(scenario, tag, incoming, file)
    if result.matched_without_key:
        print(f"note: {result.matched_without_key} entries name no text key (as converters such as "
              "po2xliff and xliff2po leave them); they were matched by source text and place")
    for d in sorted(result.diagnostics, key=lambda d: (d.line, d.column, d.code)):
        print(_diagnostic_line(d))
    for change in result.changes:
        verb = "added" if change.before is None else "updated"
        print(f"  {verb} {change.key}" + (" (stale: translates an older source)" if change.stale else ""))
    if not args.dry_run:
        try:
            write_import(scenario, result)
        except (ExchangeError, OSError) as problem:
            raise UsageError(str(problem)) from None
    added = sum(1 for c in result.changes if c.before is None)
    verb = "would change" if args.dry_run else "changed"
    print(f"{tag}: {added} added, {len(result.changes) - added} updated, {result.unchanged} "
          f"unchanged, {result.untranslated} untranslated, {result.refused} refused; "
          f"{verb} {shown_path(result.target) if result.changes else 'nothing'}")
    return EXIT_PROBLEMS if result.refused else EXIT_OK


def _import_locale(scenario, args, declared: str | None, incoming) -> str:
    """The locale to import into: --locale, or the file's language as the scenario knows it
    (`zh_CN` is its `zh-Hans`), or, for a file that does not say, the locale its translations
    come from. Each choice that is not literal is said."""
    existing = scenario.locale_tags
    if args.locale:
        if declared and matching_locale(declared, [args.locale]) != args.locale:
            raise UsageError(f"{args.file} is for {declared}, not {args.locale}")
        return args.locale
    if declared:
        tag = matching_locale(declared, existing) or declared
        if tag != declared:
            print(f"note: {args.file} is for {declared}, taken as {tag}: the scenario's locale "
                  f"for the same language and script ({language_name(tag)})")
        return tag
    guess = locale_by_content(scenario, incoming)
    if guess is None:
        raise UsageError(f"{args.file} does not say its language; give --locale")
    tag, found, total = guess
    print(f"note: {args.file} does not say its language; taken as {tag}, whose translations "
          f"{found} of its {total} translated entries are")
    return tag


def _format_of(file: Path) -> str:
    if file.suffix.lower() in (".xlf", ".xliff", ".xml"):
        return "xliff"
    if file.suffix.lower() in (".po", ".pot"):
        return "po"
    head = file.read_bytes()[:200].lstrip()
    return "xliff" if head.startswith(b"<") else "po"


# -- show ------------------------------------------------------------------------------------
def run_show(args) -> int:
    scenario = _one_scenario(args.path)
    tag = _checked_tag(scenario, args.locale, allow_source=True)
    translator = Translator(scenario, tag)
    unknown = [key for key in args.keys if key not in translator.keys()]
    if unknown:
        raise UsageError(f"not a text of {scenario.id}: {', '.join(unknown)}")
    for key in args.keys or translator.keys():
        text, origin = translator.resolve(key)
        print(f"{key}\t{origin}\t{text}")
    return EXIT_OK


# -- shared ----------------------------------------------------------------------------------
def _one_scenario(path: str):
    folders = scenario_folders([path])
    if len(folders) != 1:
        raise UsageError(f"{path} holds {len(folders)} scenarios; give one scenario folder")
    return load_scenario(folders[0])


def _checked_tag(scenario, tag: str, allow_source: bool = False) -> str:
    if not is_locale_tag(tag):
        raise UsageError(f"{tag!r} is not a locale tag such as zh-Hans, ja or pt-BR")
    if not allow_source and tag == source_language(scenario):
        raise UsageError(f"{tag} is the source language of {scenario.id}; there is nothing to translate")
    return tag


def _refuse_broken(scenario) -> bool:
    """A scenario with unreadable files would export or import only part of its texts."""
    broken = [d for d in scenario.diagnostics if d.is_error] if scenario.failed_kinds else []
    for d in broken:
        print(_diagnostic_line(d), file=sys.stderr)
    if broken:
        print("fix these first (`sandtable validate` shows all problems)", file=sys.stderr)
    return bool(broken)


def _diagnostic_line(d) -> str:
    return one_line(d) + (f"\n      = hint: {d.hint}" if d.hint else "")
