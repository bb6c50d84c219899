"""A fast yes/no answer to "is this data valid against this schema?".

jsonschema explains every error precisely, but spends most of a check walking data that is
valid. This module compiles a schema (our bundled form: `$ref` only to local recursive `$defs`)
into plain Python predicates that only answer yes or no, several times faster. The checks run it
first and ask jsonschema for the explanation only when the answer is no.

It must never say yes where jsonschema says no: a keyword it does not know makes `compile_schema`
return None, and the caller then always uses jsonschema.
"""
from __future__ import annotations

from collections.abc import Callable

from .ecma_pattern import matches

Predicate = Callable[[object], bool]

ANNOTATIONS = {"$schema", "$id", "$comment", "title", "description", "default", "examples", "$defs",
               "x-flow"}
SUPPORTED = ANNOTATIONS | {
    "$ref", "type", "enum", "const", "properties", "additionalProperties", "required", "items",
    "minItems", "maxItems", "uniqueItems", "minLength", "maxLength", "pattern", "minimum", "maximum",
    "exclusiveMinimum", "exclusiveMaximum", "minProperties", "maxProperties", "propertyNames",
    "oneOf", "anyOf", "allOf", "not",
}


class _Unsupported(Exception):
    pass


def _is_number(value) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _all(tests: list[Predicate]) -> Predicate:
    return lambda v: all(t(v) for t in tests)


def _any(tests: list[Predicate]) -> Predicate:
    return lambda v: any(t(v) for t in tests)


def _exactly_one(tests: list[Predicate]) -> Predicate:
    return lambda v: sum(1 for t in tests if t(v)) == 1


def _is_integer(value) -> bool:
    return _is_number(value) and (isinstance(value, int) or float(value).is_integer())


TYPE_TESTS: dict[str, Predicate] = {
    "object": lambda v: isinstance(v, dict),
    "array": lambda v: isinstance(v, list),
    "string": lambda v: isinstance(v, str),
    "boolean": lambda v: isinstance(v, bool),
    "null": lambda v: v is None,
    "number": _is_number,
    "integer": lambda v: _is_integer(v),
}


def json_equal(a, b) -> bool:
    """Equality as JSON Schema means it: 1 == 1.0, but true is not 1."""
    if isinstance(a, bool) or isinstance(b, bool):
        return isinstance(a, bool) and isinstance(b, bool) and a == b
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(json_equal(a[k], b[k]) for k in a)
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(json_equal(x, y) for x, y in zip(a, b, strict=True))
    if _is_number(a) and _is_number(b):
        return a == b
    return type(a) is type(b) and a == b


def _unique(items: list) -> bool:
    for i, first in enumerate(items):
        for second in items[i + 1:]:
            if json_equal(first, second):
                return False
    return True


def compile_schema(schema: dict) -> Predicate | None:
    """A predicate equivalent to validating against `schema`, or None when it cannot make one."""
    defs = schema.get("$defs", {})
    compiled: dict[str, Predicate] = {}

    def by_ref(ref: str) -> Predicate:
        if not ref.startswith("#/$defs/") or ref[len("#/$defs/"):] not in defs:
            raise _Unsupported(ref)
        name = ref[len("#/$defs/"):]
        if name not in compiled:
            compiled[name] = lambda v: True  # replaced below; recursion sees the final one
            compiled[name] = build(defs[name])
        return lambda v: compiled[name](v)

    def build(node) -> Predicate:
        if node is True:
            return lambda v: True
        if node is False:
            return lambda v: False
        if not isinstance(node, dict) or set(node) - SUPPORTED:
            raise _Unsupported(node)
        tests: list[Predicate] = []
        if "$ref" in node:
            tests.append(by_ref(node["$ref"]))
        if "type" in node:
            names = node["type"] if isinstance(node["type"], list) else [node["type"]]
            kinds = [TYPE_TESTS[n] for n in names]
            tests.append(_any(kinds))
        if "enum" in node:
            options = node["enum"]
            tests.append(lambda v: any(json_equal(v, o) for o in options))
        if "const" in node:
            wanted = node["const"]
            tests.append(lambda v: json_equal(v, wanted))
        tests += _object_tests(node, build)
        tests += _array_tests(node, build)
        tests += _scalar_tests(node)
        for key in ("oneOf", "anyOf", "allOf"):
            if key in node:
                branches = [build(b) for b in node[key]]
                tests.append({"allOf": _all, "anyOf": _any, "oneOf": _exactly_one}[key](branches))
        if "not" in node:
            negated = build(node["not"])
            tests.append(lambda v: not negated(v))
        if len(tests) == 1:
            return tests[0]
        return _all(tests)

    try:
        return build(schema)
    except (_Unsupported, KeyError):
        return None


def _object_tests(node: dict, build) -> list[Predicate]:
    tests: list[Predicate] = []
    properties = {k: build(v) for k, v in node.get("properties", {}).items()}
    extra = node.get("additionalProperties", True)
    extra_test = build(extra) if "additionalProperties" in node else None
    required = node.get("required", [])
    names = build(node["propertyNames"]) if "propertyNames" in node else None
    least, most = node.get("minProperties"), node.get("maxProperties")
    if properties or extra_test or required or names or least is not None or most is not None:
        def object_ok(v) -> bool:
            if not isinstance(v, dict):
                return True
            if any(r not in v for r in required):
                return False
            if least is not None and len(v) < least or most is not None and len(v) > most:
                return False
            for key, value in v.items():
                test = properties.get(key)
                if test is not None:
                    if not test(value):
                        return False
                elif extra_test is not None and not extra_test(value):
                    return False
                if names is not None and not names(key):
                    return False
            return True
        tests.append(object_ok)
    return tests


def _array_tests(node: dict, build) -> list[Predicate]:
    tests: list[Predicate] = []
    item = build(node["items"]) if "items" in node else None
    least, most = node.get("minItems"), node.get("maxItems")
    unique = node.get("uniqueItems", False)
    if item or least is not None or most is not None or unique:
        def array_ok(v) -> bool:
            if not isinstance(v, list):
                return True
            if least is not None and len(v) < least or most is not None and len(v) > most:
                return False
            if item is not None and not all(item(x) for x in v):
                return False
            return not unique or _unique(v)
        tests.append(array_ok)
    return tests


def _scalar_tests(node: dict) -> list[Predicate]:
    tests: list[Predicate] = []
    short, long_ = node.get("minLength"), node.get("maxLength")
    pattern = node.get("pattern")
    if short is not None or long_ is not None or pattern is not None:
        def string_ok(v) -> bool:
            if not isinstance(v, str):
                return True
            if short is not None and len(v) < short or long_ is not None and len(v) > long_:
                return False
            return pattern is None or matches(pattern, v)
        tests.append(string_ok)
    bounds = [(node.get("minimum"), lambda v, b: v >= b), (node.get("maximum"), lambda v, b: v <= b),
              (node.get("exclusiveMinimum"), lambda v, b: v > b),
              (node.get("exclusiveMaximum"), lambda v, b: v < b)]
    bounds = [(b, cmp) for b, cmp in bounds if b is not None]
    if bounds:
        tests.append(lambda v: not _is_number(v) or all(cmp(v, b) for b, cmp in bounds))
    return tests
