"""Writing diagnostics for people (text) and for tools (json, github, sarif, junit)."""
from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from rich.text import Text

from sandtable.diagnostics import Diagnostic, Severity, one_line, shown_path
from sandtable.safetext import visible

SEVERITY_STYLES = {Severity.ERROR: "bold red", Severity.WARNING: "bold yellow", Severity.INFO: "cyan"}


@dataclass
class Result:
    """The diagnostics of one scenario folder, and the text of its files for quoting lines."""

    folder: Path
    diagnostics: list[Diagnostic]
    line_of: Callable[[Path, int], str]
    files: list[Path] = field(default_factory=list)   # every file read (a variant's parents' too)


def _tally(results: list[Result]) -> tuple[int, int, int]:
    counts = {s: 0 for s in Severity}
    for result in results:
        for d in result.diagnostics:
            counts[d.severity] += 1
    return counts[Severity.ERROR], counts[Severity.WARNING], counts[Severity.INFO]


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" + ("" if n == 1 else "s")


def render_text(results: list[Result]) -> str:
    """The diagnostics for people, without colour (text_report has the styles)."""
    return text_report(results).plain


def text_report(results: list[Result]) -> Text:
    """The diagnostics for people, each severity styled: rich prints it in colour or not, as
    the terminal, NO_COLOR, TERM=dumb and --color say."""
    out = Text()
    for result in results:
        for d in result.diagnostics:
            place = shown_path(d.file) + (f":{d.line}:{d.column}" if d.line else "")
            out.append(f"{place}: ")
            out.append(d.severity.value, style=SEVERITY_STYLES[d.severity])
            out.append(f" {d.code}: {d.message}\n")
            source = result.line_of(d.file, d.line) if d.file and d.line else ""
            if source:
                gutter = f"{d.line:>5} | "
                out.append(gutter + visible(source.rstrip()) + "\n")
                out.append(" " * (len(gutter) - 2) + "| " + _caret_pad(source, d.column) + "^\n")
            if d.hint:
                out.append(f"      = hint: {d.hint}\n")
    errors, warnings, infos = _tally(results)
    summary = (f"{_plural(len(results), 'scenario')} checked: {_plural(errors, 'error')}, "
               f"{_plural(warnings, 'warning')}")
    if infos:
        summary += f", {_plural(infos, 'note')}"
    out.append(summary + "\n")
    return out


def _caret_pad(source: str, column: int) -> str:
    """Spaces (and tabs, where the source has them) up to the column, so the caret lines up."""
    prefix = visible(source[:max(column - 1, 0)])   # as shown: an escape is several columns
    return "".join("\t" if ch == "\t" else " " * _width(ch) for ch in prefix)


def _width(ch: str) -> int:
    import unicodedata
    return 2 if unicodedata.east_asian_width(ch) in ("W", "F") else 1


def render_json(results: list[Result]) -> str:
    errors, warnings, infos = _tally(results)
    payload = {
        "scenarios": [{"folder": shown_path(r.folder),
                       "diagnostics": [_json_diagnostic(d) for d in r.diagnostics]} for r in results],
        "summary": {"scenarios": len(results), "errors": errors, "warnings": warnings, "notes": infos},
    }
    return json.dumps(payload, ensure_ascii=False, indent=2) + "\n"


def _json_diagnostic(d: Diagnostic) -> dict:
    data = d.as_dict()
    data["file"] = shown_path(d.file) if d.file else None
    return data


def render_github(results: list[Result]) -> str:
    """GitHub Actions workflow commands: each diagnostic becomes an annotation on its line."""
    level = {Severity.ERROR: "error", Severity.WARNING: "warning", Severity.INFO: "notice"}
    out = []
    for result in results:
        for d in result.diagnostics:
            props = [f"file={_gh_prop(shown_path(d.file))}"] if d.file else []
            if d.line:
                props += [f"line={d.line}", f"col={d.column}"]
            props.append(f"title={_gh_prop(d.code)}")
            message = d.message + (f" (hint: {d.hint})" if d.hint else "")
            out.append(f"::{level[d.severity]} {','.join(props)}::{_gh_data(message)}")
    return "\n".join(out) + ("\n" if out else "")


def _gh_data(text: str) -> str:
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def _gh_prop(text: str) -> str:
    return _gh_data(text).replace(":", "%3A").replace(",", "%2C")


def render_sarif(results: list[Result], version: str, docs_url: str | None = None) -> str:
    """SARIF 2.1.0, as GitHub code scanning reads it.

    Rules carry what docs/diagnostics.md says of their code; `helpUri` is given only with an
    absolute documentation address (`docs_url`, the diagnostics page), since a relative one is
    invalid SARIF. Paths are relative to the working folder (`%SRCROOT%`), percent-encoded.
    """
    rules: dict[str, dict] = {}
    sarif_results = []
    seen: dict[tuple, int] = {}
    for result in results:
        for d in result.diagnostics:
            if d.code not in rules:
                rules[d.code] = _sarif_rule(d, docs_url)
            file = d.file or result.folder / "scenario.yaml"
            location: dict = {"physicalLocation": {"artifactLocation": _artifact(file)}}
            if d.line:
                location["physicalLocation"]["region"] = {"startLine": d.line, "startColumn": max(d.column, 1)}
            if d.pointer:
                location["logicalLocations"] = [{"fullyQualifiedName": d.pointer}]
            text = d.message + (f" (hint: {d.hint})" if d.hint else "")
            identity = (d.code, shown_path(file), d.message)
            seen[identity] = seen.get(identity, 0) + 1
            fingerprint = _fingerprint(identity, seen[identity])
            sarif_results.append({"ruleId": d.code, "level": _SARIF_LEVEL[d.severity],
                                  "message": {"text": text}, "locations": [location],
                                  "partialFingerprints": {"sandtableDiagnostic/v1": fingerprint}})
    driver = {"name": "sandtable", "version": version,
              "rules": sorted(rules.values(), key=lambda r: r["id"])}
    if docs_url:
        driver["informationUri"] = _web_address(docs_url)
    log = {
        "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
        "version": "2.1.0",
        "runs": [{"tool": {"driver": driver},
                  "originalUriBaseIds": {_SRCROOT: {"uri": Path.cwd().as_uri() + "/"}},
                  "results": sarif_results}],
    }
    return json.dumps(log, ensure_ascii=False, indent=2) + "\n"


_SARIF_LEVEL = {Severity.ERROR: "error", Severity.WARNING: "warning", Severity.INFO: "note"}
_SRCROOT = "%SRCROOT%"


def _sarif_rule(d: Diagnostic, docs_url: str | None) -> dict:
    from .codebook import codebook, plain
    rule: dict = {"id": d.code, "defaultConfiguration": {"level": _SARIF_LEVEL[d.severity]}}
    entry = codebook().get(d.code)
    if entry is not None:
        meaning = plain(entry.meaning)
        rule["shortDescription"] = {"text": meaning.split(". ")[0].rstrip(".") + "."}
        rule["fullDescription"] = {"text": meaning}
        if entry.fix:
            rule["help"] = {"text": plain(entry.fix), "markdown": entry.fix}
        rule["properties"] = {"tags": [entry.section]}
    else:
        rule["shortDescription"] = {"text": d.code}
    if docs_url:
        rule["helpUri"] = _web_address(docs_url, entry.anchor if entry else None)
    return rule


def _web_address(url: str, fragment: str | None = None) -> str:
    """`url` as a URI may hold it (SARIF's `uri` format): a space or any other character a URI
    cannot hold percent-encoded, escapes already there kept; with `fragment`, the address's own
    fragment replaced by it (a code's section), not followed by a second one."""
    import re
    from urllib.parse import quote, urlsplit, urlunsplit
    parts = urlsplit(url)

    def encoded(text: str, also: str = "") -> str:
        text = re.sub(r"%(?![0-9A-Fa-f]{2})", "%25", text)   # a lone % is a character, not an escape
        return quote(text, safe="%!$&'()*+,;=:@/-._~" + also)
    return urlunsplit((parts.scheme, parts.netloc, encoded(parts.path), encoded(parts.query, "?"),
                       encoded(parts.fragment if fragment is None else fragment, "?")))


def _artifact(path: Path | str) -> dict:
    """An artifact location: relative to the working folder where possible, its bytes
    percent-encoded (a name that is not UTF-8 is still the file's own name)."""
    import os
    from urllib.parse import quote
    try:
        relative = Path(os.path.relpath(path))
    except ValueError:   # another drive
        relative = Path(path)
    if relative.is_absolute():
        return {"uri": relative.as_uri()}
    return {"uri": quote(os.fsencode(relative.as_posix()), safe="/"), "uriBaseId": _SRCROOT}


def _fingerprint(identity: tuple, occurrence: int) -> str:
    """Stable across runs and edits elsewhere in the file: code, file and message, no line number."""
    import hashlib
    text = "\0".join(map(str, identity)) + f"\0{occurrence}"
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:32]


def render_junit(results: list[Result], strict: bool = False) -> str:
    """One test suite per scenario, one test case per file checked (with or without problems, so
    that the counts do not move with them and trend views can follow each file).

    Errors (and warnings, with `strict`) fail the file's case, with the first problem in the
    failure's message and all of them in its text; the other diagnostics are the case's output,
    so a warning is seen without failing the build.
    """
    from xml.sax.saxutils import escape, quoteattr
    suites = []
    total_failures = total_cases = 0
    for result in results:
        by_file: dict[str, list[Diagnostic]] = {}
        for d in result.diagnostics:
            by_file.setdefault(shown_path(d.file or result.folder / "scenario.yaml"), []).append(d)
        cases = []
        failures = 0
        checked = set(by_file) | {shown_path(file) for file in result.files}
        for name in sorted(checked) or [shown_path(result.folder / "scenario.yaml")]:
            failing = [d for d in by_file.get(name, []) if d.is_error or (strict and d.severity is Severity.WARNING)]
            passing = [d for d in by_file.get(name, []) if d not in failing]
            body = ""
            if failing:
                failures += 1
                codes = ", ".join(sorted({d.code for d in failing}))
                body += (f"<failure message={quoteattr(_failure_message(failing))} type={quoteattr(codes)}>"
                         f"{escape(_junit_lines(failing))}</failure>")
            if passing:
                body += f"<system-out>{escape(_junit_lines(passing))}</system-out>"
            cases.append(f'    <testcase classname={quoteattr(shown_path(result.folder))} '
                         f'name={quoteattr(name)}>{body}</testcase>')
        total_failures += failures
        total_cases += len(cases)
        suites.append(f'  <testsuite name={quoteattr(shown_path(result.folder))} tests="{len(cases)}" '
                      f'failures="{failures}" errors="0" skipped="0">\n' + "\n".join(cases) + "\n  </testsuite>")
    return ('<?xml version="1.0" encoding="UTF-8"?>\n'
            f'<testsuites name="sandtable validate" tests="{total_cases}" failures="{total_failures}" errors="0">\n'
            + "\n".join(suites) + "\n</testsuites>\n")


def _failure_message(failing: list[Diagnostic]) -> str:
    first = failing[0]
    place = f"line {first.line}: " if first.line else ""
    more = f" (and {_plural(len(failing) - 1, 'more problem')})" if len(failing) > 1 else ""
    return f"{place}{first.severity.value} {first.code}: {first.message}{more}"


def _junit_lines(diagnostics: list[Diagnostic]) -> str:
    lines = []
    for d in diagnostics:
        lines.append(one_line(d) + (f" (hint: {d.hint})" if d.hint else ""))
    return "\n".join(lines)
