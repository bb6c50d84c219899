"""Loading a scenario folder: its files, its parent scenarios, its locales.

A scenario is a folder of YAML files, one per kind (see FILE_KINDS). A variant names its parent
with `extends:` in scenario.yaml; the parent is loaded first and the variant merged over it, file
kind by file kind. Every value of the result remembers the file, line and column it came from.
"""
from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from pathlib import Path

from .diagnostics import Diagnostic, Location, error, warning
from .merge import Tracked, merge_tracked
from .paths import PathEscape, inside, is_inside
from .yamlsource import SourceDoc, YamlRefused, read_yaml_file

# kind -> file name, in the order a reader meets them.
FILE_KINDS = {
    "scenario": "scenario.yaml",
    "map": "map.yaml",
    "units": "units.yaml",
    "setup": "setup.yaml",
    "objectives": "objectives.yaml",
    "decks": "decks.yaml",
    "tables": "tables.yaml",
}
LOCALE_DIR = "locales"
# The BCP 47 tags a locale file may be named by: language, then script and region, as CLDR (and
# Babel, which the i18n commands use) spell them: zh-Hans, pt-BR, es-419. \Z, not $: Python's $
# also matches before a final newline, which the schemas' patterns do not.
LOCALE_TAG = re.compile(r"^[a-z]{2,3}(?:-[A-Z][a-z]{3})?(?:-(?:[A-Z]{2}|[0-9]{3}))?\Z")
MAX_LINEAGE = 16
SYSTEM_NAME = re.compile(r"^[a-z0-9][a-z0-9_-]{0,63}\Z")


def locale_kind(tag: str) -> str:
    return f"locale:{tag}"


def is_locale_tag(tag: object) -> bool:
    return isinstance(tag, str) and LOCALE_TAG.match(tag) is not None


def is_file_kind(kind: object) -> bool:
    """A kind of file a scenario can have: one of FILE_KINDS, or a locale named by its tag. Only
    these name a file (see file_path), so a kind from elsewhere (the editor's recovery file) can
    never lead a write out of the folder."""
    if not isinstance(kind, str):
        return False
    prefix, colon, tag = kind.partition(":")
    return kind in FILE_KINDS or (prefix == "locale" and colon == ":" and is_locale_tag(tag))


def file_path(root: Path, kind: str) -> Path:
    """Where the file of `kind` lives in the scenario folder `root`; ValueError for anything
    that is not a file kind."""
    if not is_file_kind(kind):
        raise ValueError(f"{kind!r} is not a kind of scenario file")
    if kind in FILE_KINDS:
        return root / FILE_KINDS[kind]
    return root / LOCALE_DIR / f"{kind.split(':', 1)[1]}.yaml"


@dataclass
class Scenario:
    """A loaded scenario: merged data per file kind, and where every value came from."""

    root: Path
    documents: dict[str, Tracked] = field(default_factory=dict)
    sources: dict[Path, SourceDoc] = field(default_factory=dict)
    lineage: list[Path] = field(default_factory=list)
    failed_kinds: set[str] = field(default_factory=set)
    diagnostics: list[Diagnostic] = field(default_factory=list)

    # -- data --------------------------------------------------------------------------------
    def doc(self, kind: str) -> dict:
        tracked = self.documents.get(kind)
        return tracked.data if tracked and isinstance(tracked.data, dict) else {}

    @property
    def manifest(self) -> dict:
        return self.doc("scenario")

    @property
    def id(self) -> str:
        value = self.manifest.get("id")
        return value if isinstance(value, str) else self.root.name

    @property
    def system(self) -> str | None:
        """The game system's name; None unless it is a plain id (the schema check reports
        any other value), as it names files and modules."""
        value = self.manifest.get("system")
        return value if isinstance(value, str) and SYSTEM_NAME.match(value) else None

    @property
    def is_variant(self) -> bool:
        return len(self.lineage) > 1

    @property
    def locale_tags(self) -> list[str]:
        return sorted(k.split(":", 1)[1] for k in self.documents if k.startswith("locale:"))

    def locale(self, tag: str) -> dict:
        return self.doc(locale_kind(tag))

    def entities(self, kind: str, collection: str) -> list[tuple[str, dict]]:
        """(pointer, entity) for each mapping in a top-level list, e.g. ("map", "spaces")."""
        items = self.doc(kind).get(collection)
        if not isinstance(items, list):
            return []
        return [(f"/{collection}/{i}", item) for i, item in enumerate(items) if isinstance(item, dict)]

    def ids(self, kind: str, collection: str) -> set[str]:
        return {e["id"] for _, e in self.entities(kind, collection) if isinstance(e.get("id"), str)}

    # -- places ------------------------------------------------------------------------------
    def locate(self, kind: str, pointer: str, key: bool = False) -> Location:
        tracked = self.documents.get(kind)
        if tracked is None:
            name = FILE_KINDS.get(kind)
            return Location(self.root / name if name else None, 0, 0, pointer)
        location = tracked.locate(pointer, key)
        if location.file is None:
            return Location(self.file_for(kind), 1, 1, pointer)
        return location

    def file_for(self, kind: str) -> Path:
        if kind.startswith("locale:"):
            return self.root / LOCALE_DIR / f"{kind.split(':', 1)[1]}.yaml"
        return self.root / FILE_KINDS[kind]


def load_scenario(folder: Path | str) -> Scenario:
    """Load a scenario folder and its parents. Problems become diagnostics, never exceptions."""
    folder = Path(folder)
    scenario = Scenario(root=folder)
    if not (folder / FILE_KINDS["scenario"]).is_file():
        scenario.diagnostics.append(error(
            "SCN001", f"{folder} is not a scenario folder: it has no scenario.yaml",
            Location(folder, 0, 0)))
        scenario.failed_kinds.add("scenario")
        return scenario
    layers = _load_lineage(folder, scenario)
    for kind in _all_kinds(layers):
        merged = None
        for layer in layers:
            if kind in layer.failed:
                scenario.failed_kinds.add(kind)
            tracked = layer.documents.get(kind)
            if tracked is None:
                continue
            if merged is None:
                merged = tracked
            else:
                merged, problems = merge_tracked(merged, tracked, kind)
                scenario.diagnostics.extend(problems)
        if merged is not None:
            scenario.documents[kind] = merged
    return scenario


@dataclass
class _Layer:
    root: Path
    documents: dict[str, Tracked] = field(default_factory=dict)
    failed: set[str] = field(default_factory=set)


def _all_kinds(layers: list[_Layer]) -> list[str]:
    kinds: list[str] = []
    for layer in layers:
        for kind in list(layer.documents) + sorted(layer.failed):
            if kind not in kinds:
                kinds.append(kind)
    return kinds


def _load_lineage(folder: Path, scenario: Scenario) -> list[_Layer]:
    """The layers from the oldest ancestor to `folder` itself."""
    layers: list[_Layer] = []
    seen: list[Path] = []
    current: Path | None = folder
    while current is not None:
        real = current.resolve()
        layer = _load_layer(current, scenario)
        layers.append(layer)
        seen.append(real)
        scenario.lineage.append(current)
        current = _parent_of(layer, seen, scenario)
    layers.reverse()
    return layers


def _parent_of(layer: _Layer, seen: list[Path], scenario: Scenario) -> Path | None:
    parent, problems = parent_folder(layer.root, layer.documents.get("scenario"), seen)
    scenario.diagnostics.extend(problems)
    return parent


def parent_folder(root: Path, manifest: Tracked | None,
                  seen: list[Path]) -> tuple[Path | None, list[Diagnostic]]:
    """The folder of the scenario that the one at `root` extends (its manifest's `extends`),
    with the diagnostics that refuse it: outside the folder of scenarios (VAR004), no scenario
    there (VAR001), a cycle through `seen` (the real paths of the variants below it) or too deep
    (VAR002). The loader and the editor both ask here, so that both read the same parent."""
    if manifest is None or not isinstance(manifest.data, dict) or "extends" not in manifest.data:
        return None, []
    where = manifest.locate("/extends")
    target = manifest.data["extends"]
    if not isinstance(target, str) or not target:
        return None, []  # the schema check reports the wrong type
    here = Path(os.path.abspath(root))  # `.` has no name and no parent of its own
    collection = here.parent
    try:
        parent = inside(collection, Path(here.name) / target)
    except PathEscape:
        return None, [error(
            "VAR004", f"extends {target!r}, which is outside the folder of scenarios "
            f"{collection.resolve().name}/", where,
            hint="a variant extends a scenario beside it, such as ../aa50-1941")]
    if not (parent / FILE_KINDS["scenario"]).is_file():
        return None, [error(
            "VAR001", f"extends {target!r}, but there is no scenario there", where,
            hint="give the path of the parent scenario's folder, relative to this one")]
    if parent in seen:
        chain = " -> ".join(p.name for p in seen + [parent])
        return None, [error(
            "VAR002", f"extends forms a cycle: {chain}", where,
            hint="a scenario cannot extend itself or one of its own variants")]
    if len(seen) >= MAX_LINEAGE:
        return None, [error("VAR002", f"extends goes more than {MAX_LINEAGE} scenarios deep", where)]
    return parent, []


def _load_layer(folder: Path, scenario: Scenario) -> _Layer:
    layer = _Layer(folder)
    files, refused = scenario_files(folder)
    scenario.diagnostics.extend(refused)
    for d in refused:
        if d.code == "PATH001":
            layer.failed.add(_kind_of_refused(folder, d))
    for kind, path in files:
        _read_into(layer, kind, path, scenario)
    _report_stray_files(folder, scenario)
    return layer


def scenario_files(folder: Path) -> tuple[list[tuple[str, Path]], list[Diagnostic]]:
    """The files of one scenario folder as (kind, path), in reading order, and a diagnostic for
    each file that must not be read: a link out of the folder (PATH001), a locale file not named
    by a tag (LOC005). Every command that reads or rewrites a scenario's files takes them from
    here, so that none of them follows a link out of the folder."""
    files: list[tuple[str, Path]] = []
    refused: list[Diagnostic] = []
    for kind, name in FILE_KINDS.items():
        path = folder / name
        if path.exists() or path.is_symlink():
            _take_if_inside(folder, kind, path, files, refused)
    locale_dir = folder / LOCALE_DIR
    if locale_dir.is_symlink() and not is_inside(folder, locale_dir):
        refused.append(error(
            "PATH001", f"{LOCALE_DIR}/ links to a folder outside the scenario folder; its files "
            "were not read", Location(locale_dir, 0, 0),
            hint="copy the folder into the scenario folder instead of linking"))
    elif locale_dir.is_dir():
        for path in sorted(locale_dir.iterdir()):
            if path.suffix not in (".yaml", ".yml"):
                continue
            if not is_locale_tag(path.stem):
                refused.append(error(
                    "LOC005", f"{path.name} is not named by a locale tag such as zh-Hans or ja",
                    Location(path, 1, 1), hint="rename the file to <BCP 47 tag>.yaml"))
                continue
            _take_if_inside(folder, locale_kind(path.stem), path, files, refused)
    return files, refused


def _take_if_inside(root: Path, kind: str, path: Path, files: list, refused: list) -> None:
    if is_inside(root, path):
        files.append((kind, path))
    else:
        refused.append(error(
            "PATH001", f"{path.name} links to a file outside the scenario folder; it was not read",
            Location(path, 1, 1), hint="copy the file into the scenario folder instead of linking"))


def _kind_of_refused(folder: Path, refused: Diagnostic) -> str:
    """The file kind a refused file would have been (locales/ itself for the folder)."""
    path = Path(refused.file or folder)
    if path.parent.name == LOCALE_DIR and path.parent.parent == folder:
        return locale_kind(path.stem)
    for kind, name in FILE_KINDS.items():
        if path == folder / name:
            return kind
    return LOCALE_DIR


def _read_into(layer: _Layer, kind: str, path: Path, scenario: Scenario) -> None:
    try:
        doc = read_yaml_file(path)
    except YamlRefused as refused:
        scenario.diagnostics.append(refused.diagnostic)
        layer.failed.add(kind)
        return
    scenario.sources[path] = doc
    if doc.data is None:
        doc.data = {}
    layer.documents[kind] = Tracked.from_source(doc)


def _report_stray_files(folder: Path, scenario: Scenario) -> None:
    known = set(FILE_KINDS.values())
    for path in sorted(folder.glob("*.y*ml")):
        if path.name not in known:
            close = _closest(path.name, sorted(known))
            scenario.diagnostics.append(warning(
                "SCN002", f"{path.name} is not a scenario file kind and was not read",
                Location(path, 1, 1),
                hint=f"did you mean {close}?" if close else "scenario files are " + ", ".join(FILE_KINDS.values())))


def _closest(name: str, candidates: list[str]) -> str | None:
    import difflib
    found = difflib.get_close_matches(name, candidates, n=1, cutoff=0.75)
    return found[0] if found else None


def find_scenarios(path: Path | str) -> list[Path]:
    """A scenario folder itself, or the scenario folders found below a folder."""
    path = Path(path)
    if (path / FILE_KINDS["scenario"]).is_file():
        return [path]
    return sorted(p.parent for p in path.rglob(FILE_KINDS["scenario"])
                  if is_inside(path, p) and "locales" not in p.parts)
