"""Checking each file of a scenario against its JSON Schema, and against its game system's profile.

Every problem is reported at the offending node: an unknown key at the key itself (with the
nearest allowed key as a hint), a wrong value at the value, a missing field at the object.
"""
from __future__ import annotations

import difflib
from functools import cache, cached_property

from sandtable.diagnostics import Diagnostic, error
from sandtable.scenario import Scenario
from sandtable.schemas import KIND_SCHEMAS, SCHEMA_DIR, bundled_schema, load_schema
from sandtable.yamlsource import join_pointer

from .fastcheck import compile_schema
from .walk import find

# Where a system profile's definitions apply: (file kind, path pattern, $defs name).
PROFILE_POINTS = [
    ("scenario", "rules", "rules"),
    ("units", "unit_types/*/stats", "unit_stats"),
    ("units", "unit_types/*/faces/*", "unit_stats"),
    ("units", "unit_types/*/abilities/*", "ability"),
    ("map", "spaces/*/stats", "space_stats"),
    ("decks", "decks/*/cards/*/effects/*", "effect"),
    ("decks", "decks/*/cards/*/options/*/effects/*", "effect"),
    ("scenario", "options/*/changes/*", "effect"),
]
# Definitions chosen by one field's value; an unknown value gets its own code and a suggestion.
DISCRIMINATED = {"effect": ("op", "EFF001", "effect"), "ability": ("kind", "ABL001", "ability")}


class SchemaCheck:
    """A compiled yes/no check for the common case (valid data), and jsonschema to explain.

    jsonschema is imported only when there is something to explain (or a schema the compiler
    does not know), which keeps it out of the start-up of a clean run.
    """

    def __init__(self, schema: dict):
        self.schema = schema
        self.is_valid = compile_schema(schema) or self.explainer.is_valid

    @cached_property
    def explainer(self):
        return _explaining_validator()(self.schema)

    def iter_errors(self, data):
        return iter(()) if self.is_valid(data) else self.explainer.iter_errors(data)


@cache
def _explaining_validator():
    """Draft 2020-12, with `pattern` matched as ECMA-262 (ecma_pattern.py), as fastcheck does."""
    from jsonschema import Draft202012Validator, validators

    from .ecma_pattern import pattern_keyword
    return validators.extend(Draft202012Validator, {"pattern": pattern_keyword})


@cache
def validator_for(schema_file: str, definition: str | None = None) -> SchemaCheck:
    """A check for a schema file (or one of its definitions), with references inlined."""
    return SchemaCheck(bundled_schema(schema_file, definition))


@cache
def profile(system: str | None) -> dict:
    """The `$defs` of a game system's profile schema, or {} when it has none."""
    if not system:
        return {}
    path = SCHEMA_DIR / "systems" / f"{system}.schema.json"
    return load_schema(f"systems/{system}.schema.json").get("$defs", {}) if path.is_file() else {}


def discriminator_values(system: str, definition: str) -> dict[str, int]:
    """For a definition written as oneOf branches keyed by a const field: value -> branch index."""
    field = DISCRIMINATED[definition][0]
    branches = profile(system).get(definition, {}).get("oneOf", [])
    values = {}
    for number, branch in enumerate(branches):
        const = branch.get("properties", {}).get(field, {}).get("const")
        if isinstance(const, str):
            values[const] = number
    return values


def check_schemas(scenario: Scenario) -> list[Diagnostic]:
    problems: list[Diagnostic] = []
    for kind in scenario.documents:
        problems += _check_file(scenario, kind)
    problems += _check_profile(scenario)
    return problems


def check_file_schema(scenario: Scenario, kind: str) -> list[Diagnostic]:
    """What check_schemas says of one file: its schema, and its system profile's definitions.
    (The editor asks it of a value before storing it, so a refusal gives the same words.)"""
    return _check_file(scenario, kind) + _check_profile(scenario, kind)


def _check_file(scenario: Scenario, kind: str) -> list[Diagnostic]:
    schema_kind = "locale" if kind.startswith("locale:") else kind
    data = scenario.documents[kind].data
    return _errors(validator_for(KIND_SCHEMAS[schema_kind]), data, scenario, kind, "")


def _check_profile(scenario: Scenario, only_kind: str | None = None) -> list[Diagnostic]:
    system = scenario.system
    defs = profile(system)
    if not defs:
        return []
    problems: list[Diagnostic] = []
    schema_file = f"systems/{system}.schema.json"
    for kind, pattern, definition in PROFILE_POINTS:
        if definition not in defs or kind not in scenario.documents:
            continue
        if only_kind is not None and kind != only_kind:
            continue
        for pointer, value in find(scenario.doc(kind), pattern):
            if definition in DISCRIMINATED:
                problems += _check_discriminated(scenario, kind, pointer, value, system, definition)
            else:
                problems += _errors(validator_for(schema_file, definition), value, scenario, kind, pointer)
    return problems


def _check_discriminated(scenario, kind, pointer, value, system, definition) -> list[Diagnostic]:
    field, code, noun = DISCRIMINATED[definition]
    if not isinstance(value, dict) or not isinstance(value.get(field), str):
        return []  # the base schema reports the missing field
    known = discriminator_values(system, definition)
    name = value[field]
    if name not in known:
        close = difflib.get_close_matches(name, sorted(known), n=1, cutoff=0.6)
        hint = f"did you mean {close[0]!r}?" if close else \
            f"the {system} engine knows: " + ", ".join(sorted(known))
        return [error(code, f"unknown {noun} {name!r} for {system}",
                      scenario.locate(kind, join_pointer(pointer, field)), hint=hint)]
    schema_file = f"systems/{system}.schema.json"
    branch = f"{definition}/oneOf/{known[name]}"
    return _errors(validator_for(schema_file, branch), value, scenario, kind, pointer)


def _errors(validator, data, scenario: Scenario, kind: str, base: str) -> list[Diagnostic]:
    problems = []
    for err in sorted(validator.iter_errors(data), key=lambda e: list(map(str, e.absolute_path))):
        problems += _diagnose(err, scenario, kind, base)
    return problems


def _pointer(base: str, path) -> str:
    pointer = base
    for token in path:
        pointer = join_pointer(pointer, token)
    return pointer


def _diagnose(err, scenario: Scenario, kind: str, base: str) -> list[Diagnostic]:
    pointer = _pointer(base, err.absolute_path)
    keyword = err.validator
    if keyword == "additionalProperties" and isinstance(err.instance, dict):
        allowed = sorted(err.schema.get("properties", {}))
        unknown = [k for k in err.instance if k not in allowed]
        out = []
        for key in unknown:
            close = difflib.get_close_matches(key, allowed, n=1, cutoff=0.6)
            hint = f"did you mean {close[0]!r}?" if close else \
                ("allowed keys: " + ", ".join(allowed) if allowed else None)
            out.append(error("SCH001", f"unknown key {key!r}",
                             scenario.locate(kind, join_pointer(pointer, key), key=True), hint=hint))
        return out
    if keyword == "required":
        missing = [name for name in err.validator_value if name not in (err.instance or {})]
        return [error("SCH002", f"missing required key {name!r}", scenario.locate(kind, pointer))
                for name in missing]
    where = scenario.locate(kind, pointer)
    if keyword == "type":
        expected = err.validator_value
        expected = " or ".join(expected) if isinstance(expected, list) else expected
        return [error("SCH003", f"expected {_article(expected)}, found {_describe(err.instance)}", where)]
    if keyword in ("enum", "const"):
        choices = err.validator_value if keyword == "enum" else [err.validator_value]
        close = difflib.get_close_matches(str(err.instance), [str(c) for c in choices], n=1, cutoff=0.6)
        hint = f"did you mean {close[0]!r}?" if close else "allowed: " + ", ".join(map(str, choices))
        return [error("SCH004", f"{err.instance!r} is not allowed here", where, hint=hint)]
    if keyword in ("pattern", "maxLength", "minLength", "propertyNames"):
        if _looks_like_id_pattern(err):
            return [error("SCH005", f"{err.instance!r} is not a valid id", where,
                          hint="ids use lower-case letters, digits, '_' and '-', and start with a letter or digit")]
        return [error("SCH005", f"{_short(err.instance)} does not have the required form", where,
                      hint=err.message)]
    if keyword in ("minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "minItems",
                   "maxItems", "minProperties", "maxProperties", "uniqueItems"):
        return [error("SCH006", _range_message(err), where)]
    if keyword in ("oneOf", "anyOf"):
        return [error("SCH007", f"{_short(err.instance)} matches none of the allowed forms", where,
                      hint=_best_context(err))]
    return [error("SCH007", err.message, where)]


def _looks_like_id_pattern(err) -> bool:
    return err.validator in ("pattern", "maxLength") and "a-z0-9" in str(err.schema.get("pattern", "a-z0-9"))


def _range_message(err) -> str:
    keyword, limit, value = err.validator, err.validator_value, err.instance
    if keyword == "minimum":
        return f"{value} is below the minimum of {limit}"
    if keyword == "maximum":
        return f"{value} is above the maximum of {limit}"
    if keyword == "exclusiveMinimum":
        return f"{value} must be greater than {limit}"
    if keyword == "exclusiveMaximum":
        return f"{value} must be less than {limit}"
    if keyword == "minItems":
        return f"needs at least {limit} item(s), has {len(value)}"
    if keyword == "maxItems":
        return f"allows at most {limit} item(s), has {len(value)}"
    if keyword == "uniqueItems":
        return "lists the same item twice"
    if keyword == "maxProperties" and limit == 1:
        return "a condition has exactly one key; combine several with all: or any:"
    if keyword == "minProperties":
        return f"needs at least {limit} key(s)"
    return err.message


def _best_context(err) -> str | None:
    if not err.context:
        return None
    branches = err.schema.get(err.validator) if err.validator in ("anyOf", "oneOf") else None
    if isinstance(branches, list) and all(set(b) == {"required"} for b in branches):
        # Forms that differ only in which keys they need: name the choices.
        return "give " + ", or ".join(" and ".join(repr(k) for k in b["required"]) for b in branches)
    deepest = max(err.context, key=lambda e: len(e.absolute_path))
    return deepest.message


def _article(name: str) -> str:
    return f"an {name}" if name[:1] in "aeiou" else f"a {name}"


def _describe(value) -> str:
    if value is None:
        return "nothing (null)"
    if isinstance(value, bool):
        return f"the boolean {str(value).lower()}"
    if isinstance(value, (int, float)):
        return f"the number {value}"
    if isinstance(value, str):
        return f"the text {_short(value)}"
    if isinstance(value, list):
        return "a list"
    return "a mapping"


def _short(value) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."
