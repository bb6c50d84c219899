"""Why a value cannot be stored, in the words the validators would use for it.

Before a table stores an edit it asks the schema check what it would say of the file with the new
value in place; a problem at the edited field refuses the edit and its message is shown to the
designer (tooltip and status bar), so a refusal never passes without a word.
"""
from __future__ import annotations

from typing import Any

from sandtable.diagnostics import Diagnostic
from sandtable.merge import Tracked
from sandtable.scenario import Scenario
from sandtable.yamlsource import join_pointer

from .commands import MISSING
from .document import ScenarioDocument, copy_data


def field_pointer(entity_pointer: str, field_path: tuple) -> str:
    pointer = entity_pointer
    for step in field_path:
        pointer = join_pointer(pointer, step)
    return pointer


def problems_with(document: ScenarioDocument, kind: str, locator: tuple, field_path: tuple,
                  value) -> list[Diagnostic]:
    """The schema problems the field would have with `value` (MISSING: taken out)."""
    from validators.schema import check_file_schema

    entity_pointer = document.pointer_of(kind, locator)
    if entity_pointer is None:
        return []
    data, holder, entity_pointer = skeleton(document.merged(kind), entity_pointer)
    for step in field_path[:-1]:
        holder = holder.setdefault(step, {}) if isinstance(holder, dict) else {}
    if not isinstance(holder, dict):
        return []
    if value is MISSING:
        holder.pop(field_path[-1], None)
    else:
        holder[field_path[-1]] = value
    scenario = Scenario(root=document.root)
    scenario.documents[kind] = Tracked(data)
    if kind != "scenario":
        scenario.documents["scenario"] = Tracked(document.merged("scenario"))
    where = field_pointer(entity_pointer, field_path)
    return [d for d in check_file_schema(scenario, kind)
            if d.pointer == where or d.pointer.startswith(where + "/")]


def skeleton(data: dict, pointer: str) -> tuple[dict, dict, str]:
    """The file's data cut down to the entity at `pointer` (a copy of it) and what holds it: the
    schema says the same of the entity, and checking it alone costs a fraction of the whole
    file (a board's every outline). Returns (data, the entity's copy, its pointer in the data)."""
    tokens = [t.replace("~1", "/").replace("~0", "~") for t in pointer.split("/")[1:]]
    if not tokens:
        entity = copy_data(data)
        return entity, entity, ""
    root = {k: v for k, v in data.items() if not isinstance(v, list)}
    holder: Any = root
    value: Any = data
    path: list[str] = []
    for number, token in enumerate(tokens):
        last = number == len(tokens) - 1
        cut: Any
        if isinstance(value, list):
            child = value[int(token)]
            cut = copy_data(child) if last else {k: v for k, v in child.items() if not isinstance(v, list)}
            holder.append(cut)
            path.append("0")
        else:
            child = value[token]
            cut = copy_data(child) if last else ([] if isinstance(child, list) else
                                                 {k: v for k, v in child.items() if not isinstance(v, list)})
            holder[token] = cut
            path.append(token.replace("~", "~0").replace("/", "~1"))
        holder, value = cut, child
    return root, holder, "/" + "/".join(path)


def new_problems(document: ScenarioDocument, kind: str, locator: tuple, field_path: tuple,
                 value, current) -> list[Diagnostic]:
    """The problems `value` would bring that the field's current value does not have: an edit
    towards a fix is never refused for what was wrong before."""
    after = problems_with(document, kind, locator, field_path, value)
    if not after:
        return []
    before = {(d.code, d.message) for d in problems_with(document, kind, locator, field_path, current)}
    return [d for d in after if (d.code, d.message) not in before]


def unlisted(value, listed: list[str]) -> str:
    """What to say when a value of a drop-down column is none of its choices (an id not defined
    yet): it is stored, and the problems list shows the reference until it is defined."""
    values = value if isinstance(value, list) else [value]
    unknown = [v for v in values if str(v) not in listed]
    if not unknown or not listed:
        return ""
    known = ", ".join(listed[:8]) + (" …" if len(listed) > 8 else "")
    return (f"{', '.join(map(repr, unknown))} is not defined in this scenario (known: {known}); "
            "the problems list shows it until it is")


def explanation(problems: list[Diagnostic]) -> str:
    """One line for the status bar: the first problem's message and hint."""
    if not problems:
        return ""
    first = problems[0]
    return f"{first.message} ({first.hint})" if first.hint else first.message
