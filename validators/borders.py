"""Borders: no self-border, no duplicate, and a kind that fits the two spaces it joins."""
from __future__ import annotations

from collections.abc import Iterator

from sandtable.diagnostics import Diagnostic, error
from sandtable.scenario import Scenario

from .index import LAND_KINDS, ScenarioIndex

LAND_BORDER_KINDS = {"land", "mountain", "river", "strait"}


def _kind_problem(kind: str, a: str, b: str, canal: str | None) -> str | None:
    """Why a border of this kind cannot join spaces of kinds a and b, or None when it can."""
    if kind in LAND_BORDER_KINDS and not (a in LAND_KINDS and b in LAND_KINDS):
        return f"a {kind} border joins two land spaces"
    if kind == "sea" and not (a == "sea" and b == "sea"):
        return "a sea border joins two sea spaces"
    if kind == "coast" and {a in LAND_KINDS, b in LAND_KINDS} != {True, False}:
        return "a coast joins a land space and a sea space"
    if kind == "coast" and "sea" not in (a, b):
        return "a coast joins a land space and a sea space"
    if kind == "canal" and not (a == "sea" and b == "sea"):
        return "a canal border joins two sea spaces"
    if kind == "wrap" and (a in LAND_KINDS) != (b in LAND_KINDS):
        return "a wrap-around border joins two land spaces or two sea spaces"
    return None


def check_borders(scenario: Scenario, index: ScenarioIndex) -> Iterator[Diagnostic]:
    seen: dict[frozenset, str] = {}
    for pointer, border in scenario.entities("map", "borders"):
        pair = border.get("between")
        if not (isinstance(pair, list) and len(pair) == 2 and all(isinstance(s, str) for s in pair)):
            continue
        a, b = pair
        if a == b:
            yield error("MAP001", f"the border joins {a!r} to itself",
                        scenario.locate("map", pointer + "/between"), hint="remove this border")
            continue
        key = frozenset(pair)
        if key in seen:
            first = scenario.locate("map", seen[key])
            yield error("MAP002", f"the border between {a!r} and {b!r} is written twice "
                        f"(first at line {first.line})", scenario.locate("map", pointer + "/between"),
                        hint="a border is written once; adjacency is symmetric", related=[first])
            continue
        seen[key] = pointer + "/between"
        yield from _check_kind(scenario, index, pointer, border, a, b)


def _check_kind(scenario, index, pointer, border, a, b) -> Iterator[Diagnostic]:
    kind = border.get("kind")
    kind_a, kind_b = index.space_kind(a), index.space_kind(b)
    if not isinstance(kind, str) or kind_a is None or kind_b is None:
        return  # schema and reference checks report these
    canal = border.get("canal")
    problem = _kind_problem(kind, kind_a, kind_b, canal)
    if problem:
        yield error("MAP003", f"{problem}, but {a!r} is {kind_a} and {b!r} is {kind_b}",
                    scenario.locate("map", pointer + "/kind"),
                    hint=_suggest_kind(kind_a, kind_b))
        return
    if kind == "canal":
        yield from _check_canal(scenario, index, pointer, border, a, b)
    elif isinstance(canal, str):
        yield error("MAP004", f"the border names canal {canal!r} but its kind is {kind!r}",
                    scenario.locate("map", pointer + "/canal"), hint="set kind: canal")


def _suggest_kind(kind_a: str, kind_b: str) -> str:
    land_a, land_b = kind_a in LAND_KINDS, kind_b in LAND_KINDS
    if land_a and land_b:
        return "use kind land (or mountain, river, strait)"
    if not land_a and not land_b:
        return "use kind sea"
    return "use kind coast"


def _check_canal(scenario, index, pointer, border, a, b) -> Iterator[Diagnostic]:
    canal_id = border.get("canal")
    if not isinstance(canal_id, str):
        yield error("MAP004", "a canal border must name its canal",
                    scenario.locate("map", pointer + "/kind"),
                    hint="add canal: <id of an entry in canals>")
        return
    canal = index.canals.get(canal_id)
    if canal is None:
        return  # reported as an unknown reference
    joins = canal.data.get("joins")
    if isinstance(joins, list) and set(joins) != {a, b}:
        yield error("MAP004", f"canal {canal_id!r} joins {' and '.join(map(repr, joins))}, "
                    f"not {a!r} and {b!r}", scenario.locate("map", pointer + "/canal"),
                    related=[scenario.locate("map", canal.pointer + "/joins")])


def check_canals(scenario: Scenario, index: ScenarioIndex) -> Iterator[Diagnostic]:
    """A canal is opened by holding land spaces; naming a sea space there is a mistake."""
    for canal_id, canal in index.canals.items():
        controlled_by = canal.data.get("controlled_by")
        for i, space in enumerate(controlled_by if isinstance(controlled_by, list) else []):
            if isinstance(space, str) and index.space_kind(space) not in (None, *LAND_KINDS):
                yield error("MAP004", f"canal {canal_id!r} is controlled through {space!r}, "
                            "which is not a land space",
                            scenario.locate("map", f"{canal.pointer}/controlled_by/{i}"))
