"""Random and mutated input for every reader and command, and the promises each must keep.

Each category makes one input from a `random.Random` and puts it through a part of Sandtable:

    yaml       YAML text: the reader, `format` (its output reads back as the same data and
               formats to itself), and a save after an edit (the data reads back, no comment lost)
    scenario   a scenario folder with one file mutated: load, validate, format, the text report
    triplea    a mutated TripleA game: `import triplea`, then the loader on what it wrote
    po, xliff  a mutated translator's file: `i18n import`, then the loader on the locale file
    playtest   `playtest battle` with random arguments, good and bad
    recovery   the editor's recovery file, forged: hostile file kinds, times and identities, a
               link in its place; read, restore, save and autosave as the editor does them
    mapfolder  a mutated TripleA map folder (centers, polygons, name places): `import triplea-map`
    replay, baseline   mutated replays and baseline reports (tests/fuzzing_studies.py)

The promises: no traceback (a refusal is a diagnostic or a usage message), nothing over
TIME_LIMIT seconds, no round trip that changes data, nothing written that the loader refuses,
and nothing read or written outside the scenario folder.
tests/test_fuzz.py runs a short seeded slice through Hypothesis; benchmarks/fuzz.py runs a
campaign of minutes.
"""
from __future__ import annotations

import contextlib
import copy
import io
import random
import shutil
import signal
import tempfile
import time
import traceback
from dataclasses import dataclass
from pathlib import Path

FIXTURES = Path(__file__).resolve().parent / "fixtures"
REPO = FIXTURES.parent.parent
TIME_LIMIT = 10.0
VERDICTS = ("accepted", "refused", "traceback", "hang", "changed")


class Hang(Exception):
    """The input ran past TIME_LIMIT."""


@dataclass
class Outcome:
    category: str
    verdict: str          # one of VERDICTS: the first two keep the promises
    detail: str = ""
    input: str = ""
    seconds: float = 0.0

    @property
    def kept(self) -> bool:
        return self.verdict in ("accepted", "refused")

    def report(self) -> str:
        shown = self.input if len(self.input) < 2000 else self.input[:2000] + "..."
        return f"{self.category}: {self.verdict} after {self.seconds:.1f} s\n{self.detail}\ninput:\n{shown!r}"


class Broken(Exception):
    """A promise other than "no traceback" was broken: the verdict and what happened."""

    def __init__(self, verdict: str, detail: str):
        super().__init__(detail)
        self.verdict = verdict


@contextlib.contextmanager
def time_limit(seconds: float):
    """Raise Hang in the main thread after `seconds` (where SIGALRM exists)."""
    if not hasattr(signal, "setitimer"):
        yield
        return

    def stop(signum, frame):
        raise Hang(f"ran past {seconds:.0f} s")
    previous = signal.signal(signal.SIGALRM, stop)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def run(category: str, rnd: random.Random, limit: float = TIME_LIMIT) -> Outcome:
    """Make one input of `category` and try it; the outcome says which promise held."""
    make, attempt = CATEGORIES[category]
    shown = ""
    start = time.perf_counter()
    try:
        with time_limit(limit):
            made = make(rnd)
            shown = made if isinstance(made, str) else repr(made)
            verdict = attempt(made)
        detail = ""
    except Hang as hang:
        verdict, detail = "hang", str(hang)
    except Broken as broken:
        verdict, detail = broken.verdict, str(broken)
    except Exception:  # noqa: BLE001 - every other exception is what the fuzzer looks for
        verdict, detail = "traceback", traceback.format_exc()
    return Outcome(category, verdict, detail, shown, time.perf_counter() - start)


# -- mutation ------------------------------------------------------------------------------------
ODD = ["\x85", "\u2028", "\u2029", "\ufeff", "\0", "\t", "\r", "\r\n", "\x07", "\ud7ff", "省", "ü",
       "\U0001F600", "1" * 400, "1" * 4301, "1e999", "-1e999", ".nan", ".inf", "0x" + "f" * 20,
       "9007199254740993", "-0", "1_000", "0o17", "NO", "~", "null", "true", "", " ", "\n", "\n\n"]
YAML_TOKENS = ODD + [":", ": ", "- ", ",", "[", "]", "{", "}", "#", " # c", "'", '"', "\\", "&a ",
                     "*a", "!!str ", "!!int ", "!!python/object:os.system ", "!x ", "%YAML 1.1\n",
                     "---\n", "...\n", "? ", "|", "|-\n  ", ">", "<<: *a", "  ", "id", "name",
                     "spaces", "units", "count", "kind", "extends", "../", "/etc/passwd"]
XML_TOKENS = ODD + ["<", ">", "</", "/>", "&amp;", "&x;", "&#0;", "&#x110000;", "<!--", "-->",
                    "<![CDATA[", "]]>", "<!DOCTYPE game [<!ENTITY x 'y'>]>", '<?xml version="1.0" '
                    'encoding="klingon"?>', '"', "'", "=", "name=", "value=", "territory",
                    "<territory name=\"x\"/>", "<unit", "owner=", "quantity=\"99999999999999999999\""]
PO_TOKENS = ODD + ['"', '\\', '\\q', '\\n', '\\"', "msgid ", "msgstr ", "msgctxt ", "msgid_plural ",
                   "msgstr[0] ", "#, fuzzy\n", "#~ ", "#| msgid ", "charset=latin1", "{nation}", "{",
                   "}", "Language: ", "zh_Hans", "\n\n"]


def mutate(text: str, rnd: random.Random, tokens: list[str]) -> str:
    for _ in range(rnd.randint(1, 6)):
        if not text:
            return rnd.choice(tokens)
        at = rnd.randrange(len(text) + 1)
        action = rnd.randrange(7)
        if action == 0:
            text = text[:at] + text[at + rnd.randint(1, 20):]
        elif action in (1, 2):
            text = text[:at] + rnd.choice(tokens) + text[at:]
        elif action == 3:
            text = text[:at]
        else:
            lines = text.splitlines(keepends=True)
            i, j = rnd.randrange(len(lines)), rnd.randrange(len(lines))
            if action == 4:
                lines.insert(i, lines[j])
            elif action == 5:
                lines[i], lines[j] = lines[j], lines[i]
            else:
                lines[i] = " " * rnd.choice((1, 2, 4)) + lines[i]
            text = "".join(lines)
    return text


def _corpus(*patterns: str) -> list[Path]:
    return sorted(p for pattern in patterns for p in FIXTURES.glob(pattern))


YAML_CORPUS = _corpus("core/base/*.yaml", "comments/*.yaml", "i18n/tiny/**/*.yaml",
                      "engine/aa50-combat/*.yaml", "war_at_sea/base/*.yaml")
_texts: dict[Path, str] = {}


def _text(path: Path) -> str:
    if path not in _texts:
        _texts[path] = path.read_text(encoding="utf-8")
    return _texts[path]


# -- yaml: the reader, format, and a save after an edit -------------------------------------------
def make_yaml(rnd: random.Random) -> str:
    if rnd.random() < 0.2:
        return "".join(rnd.choice(YAML_TOKENS) for _ in range(rnd.randint(1, 40)))
    return mutate(_text(rnd.choice(YAML_CORPUS)), rnd, YAML_TOKENS)


def try_yaml(text: str) -> str:
    from sandtable.yamlpatch import same_value
    from sandtable.yamlsource import YamlRefused, parse_yaml
    from sandtable.yamlwrite import format_text, render_yaml
    try:
        doc = parse_yaml(text, Path("fuzz.yaml"))
    except YamlRefused:
        return "refused"
    formatted = format_text(text)
    data = doc.data if doc.data is not None else {}
    if not same_value(parse_yaml(formatted, Path("fuzz.yaml")).data, data):
        raise Broken("changed", "format changed the data")
    if format_text(formatted) != formatted:
        raise Broken("changed", "a second format changed the text")
    edited = _edit(copy.deepcopy(data), random.Random(len(text)))
    render_yaml(edited, None, text)   # raises SaveRefused if it would not read back, or lose a comment
    return "accepted"


EDIT_VALUES = ["x", "Norway", "two words", "a: b", "- x", "# not a comment", "'quoted'", "12", "NO",
               "line one\nline two\n", "trailing space ", "\x85", "\u2028", "省", 0, 7, -3, 2.5,
               True, None, [], {}, ["a", 1], {"id": "new", "name": "New"}]


def _edit(data, rnd: random.Random):
    """The data with one value changed, one entry removed, or one added: what an editor does."""
    if not isinstance(data, (dict, list)) or not data:
        return rnd.choice(EDIT_VALUES)
    parent, key = data, None
    for _ in range(rnd.randint(1, 4)):
        keys = list(parent) if isinstance(parent, dict) else list(range(len(parent)))
        if not keys:
            break
        key = rnd.choice(keys)
        if not isinstance(parent[key], (dict, list)) or not parent[key]:
            break
        parent = parent[key]
    keys = list(parent) if isinstance(parent, dict) else list(range(len(parent)))
    key = rnd.choice(keys) if keys else key
    action = rnd.randrange(3)
    if action == 0 and key is not None and keys:
        parent[key] = copy.deepcopy(rnd.choice(EDIT_VALUES))
    elif action == 1 and keys:
        del parent[key]
    elif isinstance(parent, list):
        parent.insert(rnd.randrange(len(parent) + 1), copy.deepcopy(rnd.choice(EDIT_VALUES)))
    else:
        parent[f"new-{rnd.randrange(100)}"] = copy.deepcopy(rnd.choice(EDIT_VALUES))
    return data


# -- scenario: load, validate, format, report -----------------------------------------------------
SCENARIOS = [FIXTURES / "core" / "base", FIXTURES / "engine" / "aa50-combat",
             FIXTURES / "i18n" / "tiny", FIXTURES / "war_at_sea" / "base"]


def make_scenario(rnd: random.Random) -> tuple[str, str, str]:
    folder = rnd.choice(SCENARIOS)
    files = sorted(p.relative_to(folder).as_posix() for p in folder.rglob("*.yaml"))
    name = rnd.choice(files)
    return str(folder), name, mutate(_text(folder / name), rnd, YAML_TOKENS)


def try_scenario(made: tuple[str, str, str]) -> str:
    from sandtable.scenario import load_scenario, scenario_files
    from sandtable.yamlpatch import same_value
    from sandtable.yamlsource import YamlRefused, parse_yaml
    from sandtable.yamlwrite import format_text, kind_of_path
    from validators import validate
    from validators.reporters import Result, render_json, render_text
    source, name, text = made
    with tempfile.TemporaryDirectory() as temp:
        folder = Path(temp) / Path(source).name
        shutil.copytree(source, folder)
        (folder / name).write_text(text, encoding="utf-8", newline="")
        scenario = load_scenario(folder)
        problems = validate(scenario)
        result = Result(folder, problems, lambda path, line: (
            scenario.sources[path].line_text(line) if path in scenario.sources else ""))
        render_text([result])
        render_json([result])
        for _, path in scenario_files(folder)[0]:
            try:
                doc = parse_yaml(path.read_text(encoding="utf-8"), path)
            except (YamlRefused, UnicodeDecodeError):
                continue
            formatted = format_text(doc.text, kind_of_path(path), path)
            if not same_value(parse_yaml(formatted, path).data, doc.data if doc.data is not None else {}):
                raise Broken("changed", f"format changed the data of {path.name}")
        return "refused" if problems else "accepted"


# -- importers ------------------------------------------------------------------------------------
def make_triplea(rnd: random.Random) -> str:
    return mutate(_text(FIXTURES / "triplea" / rnd.choice(["small-game.xml", "impassable-capital.xml",
                                                           "unknown-territory.xml"])), rnd, XML_TOKENS)


def try_triplea(text: str) -> str:
    with tempfile.TemporaryDirectory() as temp:
        game, out = Path(temp) / "game.xml", Path(temp) / "out"
        game.write_text(text, encoding="utf-8", newline="")
        code = _command(["import", "triplea", str(game), str(out), "--quiet"])
        if code == 0:
            _loads_cleanly(out)
        return "accepted" if code == 0 else "refused"


def _exchange_corpus(kind: str) -> list[str]:
    from sandtable.i18n import export_po, export_xliff
    from sandtable.scenario import load_scenario
    key = f"exported.{kind}"
    if Path(key) not in _texts:
        scenario = load_scenario(FIXTURES / "i18n" / "tiny")
        _texts[Path(key)] = (export_po if kind == "po" else export_xliff)(scenario, "de")
    files = sorted((FIXTURES / "i18n" / "files").glob("*.po" if kind == "po" else "*.xlf"))
    return [_texts[Path(key)]] + [_text(p) for p in files]


def make_po(rnd: random.Random) -> str:
    return mutate(rnd.choice(_exchange_corpus("po")), rnd, PO_TOKENS)


def make_xliff(rnd: random.Random) -> str:
    return mutate(rnd.choice(_exchange_corpus("xliff")), rnd, XML_TOKENS)


def _try_exchange(text: str, suffix: str) -> str:
    with tempfile.TemporaryDirectory() as temp:
        folder = Path(temp) / "tiny"
        shutil.copytree(FIXTURES / "i18n" / "tiny", folder)
        file = Path(temp) / f"translated{suffix}"
        file.write_text(text, encoding="utf-8", newline="")
        code = _command(["i18n", "import", str(folder), str(file)])
        _loads_cleanly(folder)
        return "accepted" if code == 0 else "refused"


def try_po(text: str) -> str:
    return _try_exchange(text, ".po")


def try_xliff(text: str) -> str:
    return _try_exchange(text, ".xlf")


def _loads_cleanly(folder: Path) -> None:
    """What a command wrote, the loader reads: no file of it is refused."""
    from sandtable.scenario import load_scenario
    refused = [d for d in load_scenario(folder).diagnostics
               if d.code.startswith(("YAML", "IO", "PATH"))]
    if refused:
        raise Broken("changed", "written, then refused by the loader: "
                     + "; ".join(f"{d.file}:{d.line}: {d.code} {d.message}" for d in refused))


def _command(argv: list[str]) -> int:
    """Run the command line in this process; exit 0, 1 and 2 are answers, anything else not."""
    return _answer(argv)[0]


def _answer(argv: list[str]) -> tuple[int, str]:
    """_command's exit status, and what the command printed on stdout."""
    from sandtable.cli import main
    out, err = io.StringIO(), io.StringIO()
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            code = main(argv)
    except SystemExit as stop:   # argparse's usage errors
        code = stop.code
    if code not in (0, 1, 2):
        raise Broken("traceback", f"exit status {code!r}\n{err.getvalue()}")
    return code, out.getvalue()


# -- playtest arguments ---------------------------------------------------------------------------
PLAYTEST_SCENARIOS = [FIXTURES / "engine" / "aa50-combat"]
COUNTS = ["1", "2", "3", "5", "12", "0", "-1", "1000", "100000", "1000000", "1000001", "x",
          "12345678901234567890123456789012", "1e3", ""]


def _names(folder: Path) -> dict:
    """Nations, spaces by kind, and unit types by domain of a scenario."""
    from sandtable.scenario import load_scenario
    key = Path(f"names:{folder}")
    if key not in _texts:
        scenario = load_scenario(folder)
        found = {"nations": sorted(scenario.ids("scenario", "nations")), "spaces": {}, "units": {}}
        for _, space in scenario.entities("map", "spaces"):
            found["spaces"].setdefault(space.get("kind"), []).append(space["id"])
        for _, unit in scenario.entities("units", "unit_types"):
            found["units"].setdefault(unit.get("domain"), []).append(unit["id"])
        _texts[key] = found
    return _texts[key]


def make_playtest(rnd: random.Random) -> list[str]:
    """A battle that makes sense (most of the time, with a few large forces), or arguments of
    every kind, right and wrong."""
    folder = rnd.choice(PLAYTEST_SCENARIOS)
    names = _names(folder)
    nations = names["nations"]
    units = sorted(u for found in names["units"].values() for u in found)
    spaces = sorted(s for found in names["spaces"].values() for s in found)
    if rnd.random() < 0.6:
        return _sensible_battle(rnd, folder, names)

    def name(known: list[str]) -> str:
        return rnd.choice(known) if known and rnd.random() < 0.85 else rnd.choice(
            ["zeppelin", "", "Germany", "infantry x", "a,b", "省", "-"])

    def force() -> str:
        items = [f"{rnd.choice(COUNTS) if rnd.random() < 0.3 else rnd.randint(1, 6)} {name(units)}"
                 for _ in range(rnd.randint(0, 3))]
        return f"{name(nations)}:{rnd.choice([' ', '', '  '])}{', '.join(items)}"

    argv = ["playtest", "battle", str(folder), "--attacker", force(), "--defender", force(),
            "--at", name(spaces), "--runs", rnd.choice(["50", "200", "1", "0", "-5", "x",
                                                         "1000000000000", "2000"])]
    optional = [
        ["--defender", force()], ["--seed", rnd.choice(["1", "-1", "99999999999999999999", "x"])],
        ["--exact"], ["--simulate"], ["--json"],
        ["--order-of-loss", rnd.choice(["cheapest", "weakest", ",".join(units[:2]), "zeppelin,,", "",
                                        ",", name(units)])],
        ["--no-keep-land-unit"], ["--retreat-at", rnd.choice(["0", "1", "3", "-5", "1000000000"])],
        ["--research", f"{name(nations)}: {rnd.choice(['jet-fighters', 'radar', '', 'x,,y'])}"],
        ["--landing", f"{rnd.choice(COUNTS)} {name(units)}"], ["--bombard", force()], ["--raid"],
        ["--damage", rnd.choice(["0", "3", "-100", "1000000000"])]]
    for option in rnd.sample(optional, rnd.randint(0, 5)):
        argv += option
    return argv


def _sensible_battle(rnd: random.Random, folder: Path, names: dict) -> list[str]:
    kind = rnd.choice(sorted(k for k in names["spaces"] if k in ("land", "sea")))
    domains = ("land", "air") if kind == "land" else ("sea", "air")
    fighting = sorted(u for d in domains for u in names["units"].get(d, []))
    attacker, defender = rnd.sample(names["nations"], 2)

    def count() -> int:
        return rnd.choice([1, 2, 3, 4, 6, 10, 30]) if rnd.random() < 0.9 else \
            rnd.choice([300, 3000, 100_000, 1_000_000])

    def force(nation: str) -> str:
        return f"{nation}: " + ", ".join(f"{count()} {u}" for u in rnd.sample(fighting, rnd.randint(1, 3)))
    argv = ["playtest", "battle", str(folder), "--attacker", force(attacker),
            "--defender", force(defender), "--at", rnd.choice(names["spaces"][kind]),
            "--runs", str(rnd.choice([20, 100, 500, 2000])), "--seed", str(rnd.randrange(100))]
    argv += rnd.choice([[], [], ["--simulate"], ["--json"], ["--order-of-loss", "weakest"],
                        ["--retreat-at", str(rnd.randint(0, 4))], ["--no-keep-land-unit"]])
    return argv


def try_playtest(argv: list[str]) -> str:
    return "accepted" if _command(argv) == 0 else "refused"


# -- the editor's recovery file --------------------------------------------------------------------
WORKSHOP = FIXTURES / "editor" / "workshop"
FOLDER_MARK = "@FOLDER@"     # the scenario's real folder, known only when the input is tried
HOSTILE_KINDS = ["map", "units", "setup", "scenario", "objectives", "decks", "tables", "locale:de",
                 "locale:zh-Hans", "locale:es-419", "locale:../../victim", "locale:../../../victim",
                 "../victim", "locale:de/../../victim", "locale:de\n", "locale:", "locale",
                 "Map", "locale:zh-hans", "locale:" + "a" * 300, "map:x", "/etc/passwd", 5, None]
HOSTILE_TIMES = [1_700_000_000, 0, -1, -1e300, 1e300, 10 ** 15, 2 ** 53 - 1, 1.5, "soon", True,
                 None, [], {}]


def make_recovery(rnd: random.Random) -> tuple[str, bool]:
    """(the recovery file's text, whether it sits behind a link): entries of any kind with data
    of any shape, a time of any sort, this scenario's identity or another's; often mutated."""
    import yaml

    from sandtable.scenario import is_file_kind
    kinds = HOSTILE_KINDS if rnd.random() < 0.5 else [k for k in HOSTILE_KINDS if is_file_kind(k)]
    files = {}
    for _ in range(rnd.randint(0, 3)):
        kind = rnd.choice(kinds)
        files[kind] = _edit({"spaces": [{"id": "norway", "name": "Norway"}], "locale": "de"}, rnd) \
            if rnd.random() < 0.8 else rnd.choice(EDIT_VALUES)
    identity = {"id": "workshop", "folder": FOLDER_MARK}
    if rnd.random() < 0.1:
        identity = rnd.choice([{"id": "other", "folder": FOLDER_MARK}, {"id": "workshop", "folder": "/x"},
                               None, "workshop", {}])
    data = {"scenario": identity, "written": rnd.choice(HOSTILE_TIMES), "files": files,
            "removed": rnd.sample([k for k in kinds if isinstance(k, str) and k.startswith("locale")],
                                  rnd.randint(0, 2))}
    if rnd.random() < 0.2:
        del data[rnd.choice(sorted(data))]
    text = yaml.safe_dump(data, allow_unicode=True)
    if rnd.random() < 0.2:
        text = mutate(text, rnd, YAML_TOKENS)
    return text, rnd.random() < 0.1


_qt_app = None


def _qt():
    """A Qt application, as the editor's document needs one (offscreen: no display)."""
    global _qt_app
    import os
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from PySide6.QtWidgets import QApplication
    _qt_app = QApplication.instance() or QApplication([])


def try_recovery(made: tuple[str, bool]) -> str:
    """Open the scenario as the editor does; a recovery file offered is restored and saved, and
    autosave runs after an edit. Nothing outside the scenario folder may change, and what was
    saved must load."""
    _qt()
    from editor import recovery
    from editor.document import ScenarioDocument
    from sandtable.yamlwrite import SaveRefused
    text, linked = made
    with tempfile.TemporaryDirectory() as temp:
        root = Path(temp)
        folder = root / "workshop"
        shutil.copytree(WORKSHOP, folder)
        for name in ("victim.yaml", "outside"):
            (root / name).write_text("untouched: true\n", encoding="utf-8")
        text = text.replace(FOLDER_MARK, str(folder.resolve()))
        if linked:
            (root / "outside").write_text(text, encoding="utf-8")
            (folder / recovery.NAME).symlink_to(root / "outside")
        else:
            (folder / recovery.NAME).write_text(text, encoding="utf-8", newline="")
        before = _outside(root, folder)
        document = ScenarioDocument(folder)
        try:
            found = recovery.read(document)
        except recovery.RecoveryRefused:
            found = None
        verdict = "refused" if found is None else "accepted"
        if found is not None:
            recovery.restore(document, found)
            try:
                document.save()
            except SaveRefused:
                verdict = "refused"
            else:
                recovery.discard(document)
                _loads_cleanly(folder)
        document.set_value("map", ("notes",), "a note\ncurl x | sh")   # an edit, then autosave
        recovery.write(document)
        del document
        after = _outside(root, folder)
        if after != before:
            changed = sorted(set(after.items()) ^ set(before.items()))
            raise Broken("changed", f"a file outside the scenario folder changed: {changed[:3]}")
        return verdict


def _outside(root: Path, folder: Path) -> dict[str, bytes]:
    """Every file under `root` but in `folder`, with its bytes (links as their target's name)."""
    import os
    found = {}
    for path in sorted(root.rglob("*")):
        if folder in path.parents or path == folder:
            continue
        found[str(path)] = (os.readlink(path).encode() if path.is_symlink() else
                            path.read_bytes() if path.is_file() else b"<folder>")
    return found


# -- TripleA map folders -----------------------------------------------------------------------------
MAP_FOLDER = FIXTURES / "triplea" / "small-game-map" / "map"
MAP_TOKENS = ODD + ["(", ")", ",", "<", ">", "  ", "(1,2)", "(-5,-5)", "(0,0) (0,0)", "< (1,1) >",
                    "< (1,1) (2,2) >", "(" + "9" * 40 + ",1)", "Germany", "Russia", "Karelia S.S.R.",
                    "5 Sea Zone", "Atlantis", "\ufffe", "\x1b[2J"]


def make_mapfolder(rnd: random.Random) -> tuple[str, str]:
    """(the map file mutated, its new text)."""
    name = rnd.choice(["centers.txt", "polygons.txt", "name_place.txt"])
    return name, mutate(_text(MAP_FOLDER / name), rnd, MAP_TOKENS)


def try_mapfolder(made: tuple[str, str]) -> str:
    name, text = made
    with tempfile.TemporaryDirectory() as temp:
        root = Path(temp)
        scenario = root / "scenario"
        code = _command(["import", "triplea", str(FIXTURES / "triplea" / "small-game.xml"),
                         str(scenario), "--quiet"])
        if code != 0:
            raise Broken("traceback", "the fixture game no longer imports")
        shutil.copytree(MAP_FOLDER, root / "map")
        (root / "map" / name).write_text(text, encoding="utf-8", newline="")
        code = _command(["import", "triplea-map", str(root / "map"), str(scenario), "--quiet"])
        _loads_cleanly(scenario)
        return "accepted" if code == 0 else "refused"


CATEGORIES = {
    "yaml": (make_yaml, try_yaml),
    "scenario": (make_scenario, try_scenario),
    "triplea": (make_triplea, try_triplea),
    "po": (make_po, try_po),
    "xliff": (make_xliff, try_xliff),
    "playtest": (make_playtest, try_playtest),
    "recovery": (make_recovery, try_recovery),
    "mapfolder": (make_mapfolder, try_mapfolder),
}

# The study commands' inputs, replays and baselines: tests/fuzzing_studies.py.
from fuzzing_studies import STUDY_CATEGORIES  # noqa: E402

CATEGORIES.update(STUDY_CATEGORIES)
