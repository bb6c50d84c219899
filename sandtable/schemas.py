"""Where the JSON Schemas live, and the key order they give each kind of file.

The schemas are the contract of the format; they also say in which order a mapping's keys are
written on save (the order the schema lists its properties), so files read naturally
(`type`, `owner`, `count`) and every save of the same data gives the same bytes.
"""
from __future__ import annotations

import json
import os
import posixpath
from functools import cache
from pathlib import Path
from urllib.parse import urlparse
from urllib.request import url2pathname

from .resources import shared_path


def _schema_dir() -> Path:
    """The schemas beside the package (a checkout), or where an installed wheel put them."""
    manifest = shared_path("schemas", "scenario.schema.json")
    if manifest is None:
        raise FileNotFoundError("the scenario schemas are missing from this installation")
    return manifest.parent


SCHEMA_DIR = _schema_dir()
VARIANT_DIR = "variant"  # schemas/variant/: the schemas of a variant's files (variant_schema.py)
KIND_SCHEMAS = {
    "scenario": "scenario.schema.json",
    "map": "map.schema.json",
    "units": "units.schema.json",
    "setup": "setup.schema.json",
    "objectives": "objectives.schema.json",
    "decks": "decks.schema.json",
    "tables": "tables.schema.json",
    "locale": "locale.schema.json",
}


@cache
def load_schema(name: str) -> dict:
    return json.loads((SCHEMA_DIR / name).read_text(encoding="utf-8"))


def schema_file_for(kind: str, variant: bool = False) -> str:
    """The schema of a file kind, below schemas/; a variant's files have schemas of their own."""
    name = KIND_SCHEMAS["locale" if kind.startswith("locale") else kind]
    return f"{VARIANT_DIR}/{name}" if variant else name


def schema_header(kind: str, path: Path, variant: bool = False) -> str:
    """The comment line that lets VS Code's YAML extension check and complete a new file at `path`."""
    return modeline(kind, schemas_for(path.parent), variant) + "\n"


def schemas_for(folder: Path) -> str:
    """Where the schemas are, as a modeline in `folder` should name them.

    A copy kept with the scenarios (kept_schemas), which resolves wherever they are cloned; else
    the schemas this installation validates with (SCHEMA_DIR, wherever pip put them), which
    resolve on this machine.
    """
    return seen_from(folder, kept_schemas(folder) or SCHEMA_DIR)


def kept_schemas(folder: Path) -> Path | None:
    """The nearest `schemas/` folder, in `folder` or above it, that holds the format's schemas
    (Sandtable's repository keeps its schemas so, and a repository of scenarios can)."""
    folder = Path(os.path.abspath(folder))
    return next((place / "schemas" for place in (folder, *folder.parents)
                 if (place / "schemas" / KIND_SCHEMAS["scenario"]).is_file()), None)


def seen_from(folder: Path, schemas: Path) -> str:
    """`schemas` as a modeline in `folder` names it: a relative path, as VS Code's YAML extension
    and check-jsonschema read it from the file; a file URI where there is none (another drive)."""
    try:
        return Path(os.path.relpath(schemas, os.path.abspath(folder))).as_posix()
    except ValueError:
        return schemas.as_uri()


def modeline_target(schemas: str, kind: str, variant: bool, path: Path) -> Path | None:
    """The schema file a modeline naming `schemas` points at, for the file at `path`; None for a
    web address (not looked up here)."""
    if "://" in schemas:
        if not schemas.startswith("file://"):
            return None
        folder = Path(url2pathname(urlparse(schemas).path))
    else:
        folder = path.parent / schemas
    return folder / schema_file_for(kind, variant)


def resolves(schemas: str, kind: str, variant: bool, path: Path) -> bool:
    target = modeline_target(schemas, kind, variant, path)
    return target is None or target.is_file()


# The modeline: the comment that tells VS Code's YAML extension (and readers) a file's schema.
MODELINE = "# yaml-language-server: $schema="


def modeline(kind: str, schemas: str, variant: bool = False) -> str:
    """The modeline of a file of `kind`, given where the schemas are (a path or URL)."""
    return f"{MODELINE}{posixpath.join(schemas, schema_file_for(kind, variant))}"


def modeline_schemas(text: str) -> str | None:
    """Where the schemas are, as the modeline at the top of a file's text says; None without one."""
    for line in text.splitlines():
        if not line.startswith("#"):
            break
        if line.startswith(MODELINE):
            folder = posixpath.dirname(line[len(MODELINE):].strip())
            return posixpath.dirname(folder) if posixpath.basename(folder) == VARIANT_DIR else folder
    return None


def with_modeline(header: str, kind: str, variant: bool, schemas: str | None = None,
                  path: Path | None = None, installed: bool = True) -> str:
    """A file's leading comments with its modeline pointing at the schema its kind needs.

    Where the schemas are comes from the modeline already there, else from `schemas`; with
    neither, the header is left as it is. Given the file's `path`, a location where the schema
    is not found is replaced by one where it is (schemas_for; with `installed=False` only by a
    copy kept with the scenarios, so that the result does not depend on the machine).
    """
    found = modeline_schemas(header)
    schemas = found if found is not None else schemas
    if schemas is None:
        return header
    if path is not None and not resolves(schemas, kind, variant, path):
        kept = kept_schemas(path.parent)
        if installed or kept is not None:
            schemas = seen_from(path.parent, kept or SCHEMA_DIR)
    wanted = modeline(kind, schemas, variant)
    lines = header.splitlines()
    for number, line in enumerate(lines):
        if line.startswith(MODELINE):
            lines[number] = wanted
            break
    else:
        lines.insert(0, wanted)
    return "\n".join(lines) + "\n"


class SchemaNode:
    """A position in a schema, following $ref across our schema files."""

    def __init__(self, schema: dict, file: str):
        self.schema, self.file = self._resolve(schema, file)

    @staticmethod
    def _resolve(schema, file: str, hops: int = 0):
        while isinstance(schema, dict) and "$ref" in schema and hops < 32:
            target, _, fragment = schema["$ref"].partition("#")
            file = posixpath.normpath(posixpath.join(posixpath.dirname(file), target)) if target else file
            schema = load_schema(file)
            for token in [t for t in fragment.split("/") if t]:
                schema = schema.get(token, {})
            hops += 1
        return (schema if isinstance(schema, dict) else {}), file

    def property_order(self) -> list[str]:
        names = list(self.schema.get("properties", {}))
        for branch in self.schema.get("oneOf", []) + self.schema.get("anyOf", []):
            for name in SchemaNode(branch, self.file).property_order():
                if name not in names:
                    names.append(name)
        return names

    def child(self, key) -> SchemaNode:
        schema = self.schema
        if isinstance(key, int):
            return SchemaNode(schema.get("items", {}), self.file)
        props = schema.get("properties", {})
        if key in props:
            return SchemaNode(props[key], self.file)
        for branch in schema.get("oneOf", []) + schema.get("anyOf", []):
            node = SchemaNode(branch, self.file)
            if key in node.schema.get("properties", {}):
                return node.child(key)
        extra = schema.get("additionalProperties")
        return SchemaNode(extra if isinstance(extra, dict) else {}, self.file)


def root_node(kind: str) -> SchemaNode:
    name = schema_file_for(kind)
    return SchemaNode(load_schema(name), name)


def _lookup(file: str, fragment: str):
    node = load_schema(file)
    for token in [t for t in fragment.split("/") if t]:
        node = node[int(token)] if isinstance(node, list) else node[token]
    return node


def bundled_schema(name: str, definition: str | None = None) -> dict:
    """A schema with every `$ref` inlined, except the recursive ones (kept as local `$defs`).

    Inlined schemas validate several times faster: resolving a reference costs more than
    checking most values.
    """
    local: dict[str, dict] = {}
    pending: list[tuple[str, str]] = []

    def local_name(file: str, fragment: str) -> str:
        return (file.replace(".schema.json", "") + fragment).replace("/", "_").replace("$", "")

    def inline(node, file: str, stack: tuple):
        if isinstance(node, list):
            return [inline(item, file, stack) for item in node]
        if not isinstance(node, dict):
            return node
        if "$ref" in node:
            target, _, fragment = node["$ref"].partition("#")
            target = posixpath.normpath(posixpath.join(posixpath.dirname(file), target)) if target else file
            key = (target, fragment)
            rest = {k: inline(v, file, stack) for k, v in node.items() if k != "$ref"}
            if key in stack:
                if key not in pending:
                    pending.append(key)
                return {"$ref": f"#/$defs/{local_name(*key)}", **rest}
            resolved = inline(_lookup(target, fragment), target, stack + (key,))
            return {**resolved, **rest} if rest else resolved
        return {k: (v if k in ("const", "enum", "default") else inline(v, file, stack))
                for k, v in node.items() if k != "$defs"}

    root_key = (name, f"/$defs/{definition}" if definition else "")
    result = inline(_lookup(*root_key), name, (root_key,))
    done: set[tuple[str, str]] = set()
    while len(done) < len(pending):
        for key in [k for k in pending if k not in done]:
            done.add(key)
            local[local_name(*key)] = inline(_lookup(*key), key[0], (key,))
    if local:
        result = {**result, "$defs": local}
    result["$schema"] = "https://json-schema.org/draft/2020-12/schema"
    return result
