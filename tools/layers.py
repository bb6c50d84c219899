"""The layers of the code, read from its imports.

    python tools/layers.py            # the diagram of docs/architecture.md (Mermaid)
    python tools/layers.py --check    # the import rules; exit 1 with each broken one

Every `import` and `from ... import` of the five packages is read with `ast` (imports inside
functions too: a lazy import is still a dependency; those under `if TYPE_CHECKING:` are not, as
they never run). tests/test_layers.py holds the code to the same rules, and checks that the
diagram in docs/architecture.md is the one this prints.
"""
from __future__ import annotations

import ast
import sys
from collections import defaultdict
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("sandtable", "validators", "engine", "playtest", "editor")

# The command line lives in `sandtable` but sits on top of every layer (DESIGN: "the top of the
# house"): it is a layer of its own here.
CLI = ("sandtable.commands", "sandtable.cli", "sandtable.__main__")

# Layer -> the layers it may import (besides itself). The arrows point down: editor and the
# command line on top, then studies, the rules, the checks, the format.
MAY_IMPORT = {
    "cli": {"editor", "playtest", "engine", "validators", "sandtable"},
    "editor": {"playtest", "engine", "validators", "sandtable"},
    "playtest": {"engine", "validators", "sandtable"},
    "engine": {"validators", "sandtable"},
    "validators": {"sandtable"},
    "sandtable": set(),
}

# Third-party packages a layer must not import: Qt only in the editor; the rules draw no plots
# and run no study executors.
FORBIDDEN_LIBRARIES = {
    "cli": {"PySide6"},
    "playtest": {"PySide6"},
    "engine": {"PySide6", "matplotlib", "dask", "distributed"},
    "validators": {"PySide6", "matplotlib", "dask", "distributed"},
    "sandtable": {"PySide6", "matplotlib", "dask", "distributed"},
}


@dataclass(frozen=True)
class Import:
    source: str        # the importing module, dotted
    target: str        # the imported module (or name), dotted, absolute
    path: Path
    line: int


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def layer_of(module: str) -> str | None:
    if any(module == cli or module.startswith(cli + ".") for cli in CLI):
        return "cli"
    top = module.split(".")[0]
    return top if top in PACKAGES else None


def _type_checking_only(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or \
        (isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def _walk(tree: ast.AST) -> Iterator[ast.AST]:
    """Every node, except the bodies of `if TYPE_CHECKING:`."""
    for node in ast.iter_child_nodes(tree):
        if isinstance(node, ast.If) and _type_checking_only(node):
            for other in node.orelse:
                yield from _walk(other)
            continue
        yield node
        yield from _walk(node)


def imports_of(path: Path) -> Iterator[Import]:
    source = module_name(path)
    package = source if path.name == "__init__.py" else source.rpartition(".")[0]
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    for node in _walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield Import(source, alias.name, path, node.lineno)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[:len(base) - node.level + 1]
                stem = ".".join(base + ([node.module] if node.module else []))
            else:
                stem = node.module or ""
            for alias in node.names:
                # `from . import x` and `from pkg import module` name modules; otherwise the
                # module is the stem (resolved against the known modules below).
                yield Import(source, f"{stem}.{alias.name}", path, node.lineno)


def first_party_files() -> list[Path]:
    return sorted(p for package in PACKAGES for p in (ROOT / package).rglob("*.py"))


def graph() -> tuple[set[str], list[Import]]:
    """The first-party modules, and every import made by them (targets resolved to a module
    where the import names one; third-party targets kept as written)."""
    files = first_party_files()
    modules = {module_name(p) for p in files}
    found = []
    for path in files:
        for item in imports_of(path):
            target = item.target
            while target and target not in modules and target.split(".")[0] in PACKAGES:
                target = target.rpartition(".")[0]
            if target.split(".")[0] in PACKAGES and not target:
                continue
            found.append(Import(item.source, target or item.target, item.path, item.line))
    return modules, found


def broken_rules() -> list[str]:
    """Each import that breaks a layer rule, and each circle of imports inside one package."""
    modules, imports = graph()
    problems = []
    for item in imports:
        source_layer = layer_of(item.source)
        target_top = item.target.split(".")[0]
        where = f"{item.path.relative_to(ROOT)}:{item.line}"
        if target_top in PACKAGES:
            target_layer = layer_of(item.target)
            if target_layer is None or target_layer == source_layer or source_layer is None:
                continue
            if target_layer not in MAY_IMPORT[source_layer]:
                problems.append(f"{where}: {source_layer} imports {target_layer} ({item.target})")
        elif source_layer and target_top in FORBIDDEN_LIBRARIES.get(source_layer, set()):
            problems.append(f"{where}: {source_layer} imports {target_top}")
    for cycle in package_cycles(modules, imports):
        problems.append("import circle: " + " -> ".join(cycle + [cycle[0]]))
    return problems


def package_cycles(modules: set[str], imports: list[Import]) -> list[list[str]]:
    """Circles among the modules of one package (a folder), as lists of modules. A package's
    __init__ re-exporting its modules is not a circle with them."""
    edges: dict[str, set[str]] = defaultdict(set)
    for item in imports:
        if item.target not in modules or item.target == item.source:
            continue
        if _package(item.source) != _package(item.target):
            continue
        if item.source == _package(item.source) or item.target == _package(item.target):
            continue
        edges[item.source].add(item.target)
    return [sorted(c) for c in _strongly_connected(edges) if len(c) > 1]


def _package(module: str) -> str:
    path = ROOT.joinpath(*module.split("."))
    return module if path.is_dir() else module.rpartition(".")[0]


def _strongly_connected(edges: dict[str, set[str]]) -> list[list[str]]:
    # networkx is a dependency already; its SCCs are what the scenario graph checks use too.
    import networkx as nx
    g = nx.DiGraph()
    for source, targets in edges.items():
        g.add_edges_from((source, target) for target in targets)
    return [sorted(c) for c in nx.strongly_connected_components(g)]


def layer_edges() -> dict[str, set[str]]:
    """Layer -> the layers its code imports."""
    _, imports = graph()
    found: dict[str, set[str]] = defaultdict(set)
    for item in imports:
        source, target = layer_of(item.source), layer_of(item.target)
        if source and target and source != target:
            found[source].add(target)
    return found


LABELS = {
    "cli": "sandtable/commands<br/>the command line",
    "editor": "editor/<br/>the Qt editor",
    "playtest": "playtest/<br/>studies, statistics, reports",
    "engine": "engine/<br/>the rules, players, calculator",
    "validators": "validators/<br/>the checks",
    "sandtable": "sandtable/<br/>the format: load, save, import, export",
}


def mermaid() -> str:
    """The layers and the imports between them, as a Mermaid flowchart (drawn by GitHub)."""
    edges = layer_edges()
    lines = ["```mermaid", "flowchart TD"]
    lines += [f'    {layer}["{label}"]' for layer, label in LABELS.items()]
    lines += [f"    {source} --> {target}" for source in LABELS
              for target in LABELS if target in edges.get(source, set())]
    lines.append("```")
    return "\n".join(lines)


def main(argv: list[str]) -> int:
    if argv[1:] == ["--check"]:
        problems = broken_rules()
        print("\n".join(problems) or "the import rules hold")
        return 1 if problems else 0
    print(mermaid())
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
