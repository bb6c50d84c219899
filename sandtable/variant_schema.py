"""The schemas of a variant's files: what a variant may write, which is less than a whole file.

A variant holds only what changes (see merge.py): an entity names its identity and the fields it
overrides, or says `remove: true`; a mapping gives only the keys it changes. Its files are checked
for real after merging, against the full schemas; these schemas serve the tools that read one
file at a time (VS Code's YAML extension, check-jsonschema) through the file's modeline.

They are derived from the full schemas, so they cannot drift apart:
- every object that merges key by key (the file itself, its mappings, the entities of a list that
  merges by identity) loses its `required` keys, except the identity (`id`, `between`, `space`);
- an entity may say `remove: true`;
- a list that does not merge by identity replaces the parent's whole, so its items keep the full
  schema;
- a locale's entry may say `remove: true` (merge.removable_entries).

`python -m sandtable.variant_schema` rewrites schemas/variant/ from the full schemas; a test checks
that the files there are what this module derives.
"""
from __future__ import annotations

import copy
import json
import sys

from .merge import removable_entries
from .safewrite import atomic_write_text
from .schemas import KIND_SCHEMAS, SCHEMA_DIR, bundled_schema, schema_file_for

IDENTITY_KEYS = ("id", "between", "space")  # what merge.identity() keys an entity by
# Keys a variant's file still needs at its top level.
ROOT_REQUIRED = {"scenario": ["id", "extends"], "locale": ["locale"]}
REMOVE = {"const": True, "description": "Take the parent's entity with this identity out."}
REMOVE_ENTRY = {"const": True, "description": "Take the parent's translation of this key out."}
PARTIAL_SUFFIX = "_partial"


def _is_entity(items) -> bool:
    return isinstance(items, dict) and any(key in items.get("properties", {}) for key in IDENTITY_KEYS)


class _Relaxer:
    """Rewrites one bundled schema; recursive definitions get a relaxed twin when reached."""

    def __init__(self, defs: dict):
        self.defs = defs
        self.partial_defs: dict[str, dict] = {}

    def relax(self, node, entity: bool = False):
        if isinstance(node, list):
            return [self.relax(item) for item in node]
        if not isinstance(node, dict):
            return node
        if "$ref" in node:
            return self._relax_ref(node)
        out: dict[str, object] = {}
        for key, value in node.items():
            if key == "required":
                kept = [name for name in value if name in IDENTITY_KEYS]
                if kept:
                    out[key] = kept
            elif key == "properties":
                out[key] = {name: self.relax(schema) for name, schema in value.items()}
            elif key == "additionalProperties" and isinstance(value, dict):
                out[key] = self.relax(value)
            elif key in ("oneOf", "anyOf"):
                # Branches told apart by their required keys may overlap once relaxed.
                out["anyOf"] = self.relax(value)
            elif key == "allOf":
                out[key] = self.relax(value)
            elif key == "items" and _is_entity(value):
                out[key] = self.relax(value, entity=True)
            else:
                out[key] = value  # a list replaced whole, or a plain value: the full schema
        if entity:
            properties = out.get("properties")
            out["properties"] = {**(properties if isinstance(properties, dict) else {}), "remove": REMOVE}
        return out

    def _relax_ref(self, node: dict) -> dict:
        prefix = "#/$defs/"
        name = node["$ref"][len(prefix):]
        partial = name + PARTIAL_SUFFIX
        if partial not in self.partial_defs:
            self.partial_defs[partial] = {}  # claimed first: the definition may reach itself
            self.partial_defs[partial] = self.relax(self.defs[name])
        rest = {k: v for k, v in node.items() if k != "$ref"}
        return {"$ref": prefix + partial, **self.relax(rest)}


def variant_schema(kind: str) -> dict:
    """The schema of a variant's file of this kind, self-contained."""
    full = bundled_schema(KIND_SCHEMAS[kind])
    defs = full.pop("$defs", {})
    relaxer = _Relaxer(defs)
    schema = relaxer.relax(full)
    schema["title"] = f"{full.get('title', kind)}, in a variant: only what changes"
    if kind in ROOT_REQUIRED:
        schema["required"] = ROOT_REQUIRED[kind]
    removable = removable_entries(kind)
    if removable is not None:
        entry = schema["properties"][removable.strip("/")]["additionalProperties"]
        entry["properties"] = {**entry["properties"], "remove": REMOVE_ENTRY}
    all_defs = {**copy.deepcopy(defs), **relaxer.partial_defs}
    if all_defs:
        schema["$defs"] = dict(sorted(all_defs.items()))
    return {"$schema": schema.pop("$schema"), **schema}


def variant_schema_text(kind: str) -> str:
    return json.dumps(variant_schema(kind), ensure_ascii=False, indent=2) + "\n"


def write_variant_schemas() -> list[str]:
    """Rewrite schemas/variant/ from the full schemas; returns the files written."""
    written = []
    for kind in KIND_SCHEMAS:
        path = SCHEMA_DIR / schema_file_for(kind, variant=True)
        path.parent.mkdir(exist_ok=True)
        atomic_write_text(path, variant_schema_text(kind), within=SCHEMA_DIR)
        written.append(str(path))
    return written


if __name__ == "__main__":
    for name in write_variant_schemas():
        print(name, file=sys.stderr)
