"""Conditions as a tree the builder can edit: the vocabulary comes from common.schema.json.

A condition is a one-key mapping `{op: parameters}`. Groups (`all`, `any`, `not`, `at_least`)
hold other conditions; every other op is a leaf whose parameters the schema describes. A node is
addressed by its path of keys and indices from the root condition.
"""
from __future__ import annotations

import copy

from sandtable.schemas import SchemaNode, load_schema

GROUPS = ("all", "any", "not", "at_least")


def vocabulary() -> dict[str, dict]:
    """op -> the schema of its parameters (resolved), in the schema's order."""
    condition = load_schema("common.schema.json")["$defs"]["condition"]
    return {op: SchemaNode(schema, "common.schema.json").schema
            for op, schema in condition["properties"].items()}


def op_of(condition) -> str | None:
    if isinstance(condition, dict) and len(condition) == 1:
        return next(iter(condition))
    return None


def children(condition) -> list[tuple[tuple, dict]]:
    """(relative path, child condition) of a group node."""
    op = op_of(condition)
    body = condition.get(op) if op else None
    if op in ("all", "any") and isinstance(body, list):
        return [((op, i), c) for i, c in enumerate(body)]
    if op == "not" and isinstance(body, dict):
        return [((op,), body)]
    if op == "at_least" and isinstance(body, dict) and isinstance(body.get("of"), list):
        return [((op, "of", i), c) for i, c in enumerate(body["of"])]
    return []


def get(condition, path: tuple):
    for step in path:
        condition = condition[step]
    return condition


def find(condition, path: tuple):
    """The node at `path`, or None when the path leads nowhere in this condition."""
    for step in path:
        try:
            condition = condition[step]
        except (KeyError, IndexError, TypeError):
            return None
    return condition


def replaced(condition, path: tuple, value):
    """A copy of `condition` with the node at `path` replaced by `value`."""
    if not path:
        return copy.deepcopy(value)
    result = copy.deepcopy(condition)
    get(result, path[:-1])[path[-1]] = copy.deepcopy(value)
    return result


def removed(condition, path: tuple):
    """A copy without the node at `path`; None if that leaves nothing (the root was removed)."""
    if not path:
        return None
    result = copy.deepcopy(condition)
    holder = get(result, path[:-1])
    if isinstance(holder, list):
        holder.pop(path[-1])
        if not holder:  # a group cannot be empty: drop the group too
            group_path = path[:-2] if path[-2] in ("all", "any") else path[:-3]
            return removed(condition, group_path)
        return result
    return removed(condition, path[:-1])  # `not` loses its only child: drop the `not`


def wrapped(condition, path: tuple, group: str):
    """A copy with the node at `path` put inside a new group: `not` negates it, `all`, `any` and
    `at_least` start with it as their first member."""
    node = copy.deepcopy(get(condition, path))
    body = {"not": node, "all": [node], "any": [node], "at_least": {"count": 1, "of": [node]}}[group]
    return replaced(condition, path, {group: body})


def with_child(condition, path: tuple, child: dict):
    """A copy with `child` added under the node at `path`; a leaf is first wrapped in `all`, and a
    `not` with nothing in it yet takes the child as the condition it negates."""
    node = get(condition, path) if condition is not None else None
    if node is None:
        return copy.deepcopy(child)
    op = op_of(node)
    if op == "not" and not node["not"]:
        return replaced(condition, path, {"not": copy.deepcopy(child)})
    if op in ("all", "any"):
        return replaced(condition, path, {op: node[op] + [child]})
    if op == "at_least":
        body = dict(node[op])
        body["of"] = list(body.get("of", [])) + [child]
        return replaced(condition, path, {op: body})
    return replaced(condition, path, {"all": [node, child]})


def blank(op: str, suggestions: dict[str, list[str]]) -> dict:
    """A new condition of `op` with its required parameters filled from the scenario's ids."""
    schema = vocabulary()[op]
    if op in ("all", "any"):
        return {op: []}
    if op == "not":
        return {op: {}}
    if op == "at_least":
        return {op: {"count": 1, "of": []}}
    if schema.get("type") != "object":
        choices = suggestions.get(op) or [""]
        return {op: choices[0]}
    body = {}
    for name in schema.get("required", []):
        body[name] = _blank_value(name, schema["properties"][name], suggestions)
    return {op: body}


def _blank_value(name: str, schema: dict, suggestions: dict[str, list[str]]):
    schema = SchemaNode(schema, "common.schema.json").schema
    kind = schema.get("type")
    choices = suggestions.get(name) or []
    if kind == "array":
        return choices[:1]
    if kind in ("integer", "number"):
        return schema.get("minimum", 1)
    if kind == "boolean":
        return False
    return choices[0] if choices else ""


def summary(condition) -> str:
    """One line for a node: its parameters, without its children."""
    op = op_of(condition)
    if op is None:
        return "(empty)"
    body = condition[op]
    if op in ("all", "any"):
        return f"{len(body) if isinstance(body, list) else 0} condition(s)"
    if op == "not":
        return ""
    if op == "at_least" and isinstance(body, dict):
        return f"{body.get('count')} of {len(body.get('of', []))}"
    if isinstance(body, dict):
        return ", ".join(f"{k}: {_show(v)}" for k, v in body.items())
    return _show(body)


def _show(value) -> str:
    if isinstance(value, list):
        return "[" + ", ".join(str(v) for v in value) + "]"
    return str(value).lower() if isinstance(value, bool) else str(value)
