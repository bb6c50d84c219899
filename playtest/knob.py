"""A knob: one number of a scenario, named by a JSON pointer whose first token is the file
kind, as `/setup/resources/0/amount` (a nation's starting money), `/units/unit_types/0/cost` or
`/setup/spaces/12/units/0/count`. The pointer reads the merged scenario, so a variant's knob
may sit in a value it inherits; a study sets it in a copy of the scenario's data, never in files.
"""
from __future__ import annotations

import copy
import difflib
from collections.abc import Iterable
from dataclasses import dataclass

from sandtable.merge import Tracked
from sandtable.scenario import FILE_KINDS, Scenario


class KnobError(ValueError):
    """A pointer that names no number of the scenario; the message says what would."""


@dataclass(frozen=True)
class Knob:
    kind: str                       # file kind: "setup"
    tokens: tuple                   # the path inside the file's data: ("resources", 0, "amount")
    value: float
    integer: bool                   # whole numbers only (counts, money, costs)
    label: str                      # "soviet-union ipc › amount"

    @property
    def pointer(self) -> str:
        return "/" + "/".join([self.kind] + [_escape(str(t)) for t in self.tokens])

    def shown(self, value: float) -> str:
        return f"{round(value):d}" if self.integer else f"{value:g}"


def find_knob(scenario: Scenario, text: str) -> Knob:
    """The knob a pointer names; KnobError with a suggestion when it names no number."""
    if not text.startswith("/"):
        raise KnobError(f"{text!r} is not a JSON pointer: a knob starts with / and the file "
                        "kind, as /setup/resources/0/amount")
    raw = [_unescape(t) for t in text[1:].split("/")]
    head = raw[0].removesuffix(".yaml").removesuffix(".yml")
    if head not in FILE_KINDS:
        guesses = [f"/{kind}{text}" for kind in FILE_KINDS if _number_at(scenario.doc(kind),
                                                                         raw) is not None]
        hint = (f"did you mean {' or '.join(guesses)}?" if guesses else
                "the first token names the file: " + ", ".join(FILE_KINDS))
        raise KnobError(f"{text} names no file of the scenario: {hint}")
    value, parent = scenario.doc(head), None
    tokens: list[str | int] = []
    for token in raw[1:]:
        step = _step(value, token)
        if step is _MISSING:
            where = "/" + "/".join([head] + [str(t) for t in tokens])
            raise KnobError(f"{text}: {where} has no {token!r}; " + _choices(value, token, where))
        tokens.append(step[0])
        parent, value = value, step[1]
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        where = "/" + "/".join([head] + [str(t) for t in tokens])
        numbers = _numbers_under(value, where)[:4] or \
            _numbers_under(parent, where.rsplit("/", 1)[0])[:4]
        hint = f"; numbers near it: {', '.join(numbers)}" if numbers else ""
        raise KnobError(f"{text} is {_kind_of(value)}, not a number{hint}")
    return Knob(head, tuple(tokens), value, isinstance(value, int),
                _label(scenario.doc(head), tokens))


def with_knob(scenario: Scenario, knob: Knob, value: float) -> Scenario:
    """A copy of the scenario's data (playtest.study.portable) with the knob set to `value`."""
    documents = {kind: Tracked(tracked.data) for kind, tracked in scenario.documents.items()
                 if not kind.startswith("locale:")}
    data = copy.deepcopy(scenario.doc(knob.kind))
    holder = data
    for token in knob.tokens[:-1]:
        holder = holder[token]
    holder[knob.tokens[-1]] = int(round(value)) if knob.integer else float(value)
    documents[knob.kind] = Tracked(data)
    return Scenario(root=scenario.root, documents=documents, lineage=list(scenario.lineage))


# -- reading pointers ----------------------------------------------------------------------------
_MISSING = object()


def _step(value, token: str):
    if isinstance(value, dict):
        return (token, value[token]) if token in value else _MISSING
    if isinstance(value, list) and token.isascii() and token.isdigit() and int(token) < len(value):
        return (int(token), value[int(token)])
    return _MISSING


def _number_at(value, tokens: list[str]):
    for token in tokens:
        step = _step(value, token)
        if step is _MISSING:
            return None
        value = step[1]
    return value if isinstance(value, (int, float)) and not isinstance(value, bool) else None


def _choices(value, token: str, where: str) -> str:
    if isinstance(value, dict):
        close = difflib.get_close_matches(token, [str(k) for k in value], n=1, cutoff=0.6)
        if close:
            return f"did you mean {where}/{close[0]}?"
        return "its keys are " + ", ".join(str(k) for k in list(value)[:12])
    if isinstance(value, list):
        return (f"it is a list of {len(value)}, numbered 0 to {len(value) - 1}" if value
                else "it is an empty list")
    return f"it is {_kind_of(value)}"


def _numbers_under(value, where: str) -> list[str]:
    found: list[str] = []
    items: Iterable[tuple[object, object]]
    if isinstance(value, dict):
        items = value.items()
    elif isinstance(value, list):
        items = enumerate(value)
    else:
        return found
    for key, inner in items:
        here = f"{where}/{key}"
        if isinstance(inner, (int, float)) and not isinstance(inner, bool):
            found.append(here)
        elif len(found) < 8:
            found.extend(_numbers_under(inner, here))
    return found


def _kind_of(value) -> str:
    if isinstance(value, bool):
        return f"a true/false value ({str(value).lower()})"
    if isinstance(value, str):
        return f"a text ({value!r})"
    if isinstance(value, dict):
        return "a mapping"
    if isinstance(value, list):
        return "a list"
    return "empty" if value is None else type(value).__name__


def _label(data, tokens: list) -> str:
    """What the number is, for people: the entities on its way, then its key."""
    names, value = [], data
    for token in tokens[:-1]:
        value = value[token]
        if isinstance(value, dict):
            name = value.get("id") or value.get("space") or " ".join(
                str(value[k]) for k in ("owner", "resource", "type") if isinstance(value.get(k), str))
            if name:
                names.append(str(name))
    return " › ".join(names + [str(tokens[-1])]) if tokens else ""


def _escape(token: str) -> str:
    return token.replace("~", "~0").replace("/", "~1")


def _unescape(token: str) -> str:
    return token.replace("~1", "/").replace("~0", "~")


__all__ = ["Knob", "KnobError", "find_knob", "with_knob"]
