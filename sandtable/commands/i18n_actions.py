"""The actions of `sandtable i18n` (status, export, import, show); i18n.py builds their parser."""
from __future__ import annotations

import json
import sys
from pathlib import Path

from ..cli import EXIT_OK, EXIT_PROBLEMS, UsageError
from ..diagnostics import one_line, shown_path
from ..i18n import (
    ExchangeError,
    State,
    Translator,
    export_po,
    export_xliff,
    locale_status,
    plan_import,
    plural_forms,
    read_po,
    read_xliff,
    scenario_status,
    source_language,
    write_import,
)
from ..i18n.exchange import locale_by_content
from ..i18n.tags import language_name, matching_locale
from ..safewrite import atomic_write_text
from ..scenario import is_locale_tag, load_scenario
from ..texts import catalog
from ..yamlwrite import SaveRefused
from .paths import scenario_folders


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
            atomic_write_text(Path(args.output), text, within=None)   # a file the user named
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
        if not problem.diagnostics:
            raise UsageError(str(problem)) from None
        for d in problem.diagnostics:   # a malformed file, like malformed YAML or XML: exit 1
            print(_diagnostic_line(d), file=sys.stderr)
        print(f"nothing was imported: {shown_path(file)} is malformed", file=sys.stderr)
        return EXIT_PROBLEMS
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
        except SaveRefused as problem:
            print(f"sandtable i18n import: {problem}", file=sys.stderr)
            return EXIT_PROBLEMS
        except ExchangeError as problem:
            raise UsageError(str(problem)) from None
        except OSError as problem:
            raise UsageError(f"{shown_path(result.target)}: {problem.strerror or problem}; "
                             "nothing was written") from None
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
    with file.open("rb") as stream:
        head = stream.read(200).lstrip()
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
