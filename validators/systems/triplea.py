"""Checks of the `triplea` rule family (TRP codes): games imported from TripleA.

TripleA's rules are looser than AA50's in three ways the general checks would otherwise call
mistakes: ships may stand in land territories (Diplomacy's fleets hold coastal provinces, ports
hold ships), a capital may start occupied or unheld (the Free French's France), and a capital may
be any territory. What is checked here is what the rule family names: the unit types, nations
and resources of abilities and purchases.
"""
from __future__ import annotations

import difflib
from collections.abc import Iterator

from sandtable.diagnostics import Diagnostic, error
from sandtable.scenario import Scenario

from ..index import LAND_KINDS, SHIP_KINDS, ScenarioIndex
from ..walk import find
from .aa50 import explain  # noqa: F401  national objectives on the starting position, as for AA50

# Where a unit type may stand at the start, beyond the general rule.
DOMAIN_SPACES = {"sea": LAND_KINDS | SHIP_KINDS}
# A capital may start in anyone's hands, or none, and be any space.
CAPITALS_FREE = True

# (file kind, path pattern, what the value must name)
NAMES = [
    ("units", "unit_types/*/abilities/*/types/*", "unit_types"),
    ("units", "unit_types/*/abilities/*/carries/*", "unit_types"),
    ("units", "unit_types/*/abilities/*/nations/*", "nations"),
    ("scenario", "rules/purchases/*/costs/*/resource", "resources"),
    ("scenario", "rules/purchases/*/gives/*/resource", "resources"),
    ("scenario", "rules/purchases/*/costs/*/unit", "unit_types"),
    ("scenario", "rules/purchases/*/gives/*/unit", "unit_types"),
]
NOUNS = {"unit_types": "unit type", "nations": "nation", "resources": "resource"}


def check(scenario: Scenario, index: ScenarioIndex) -> Iterator[Diagnostic]:
    known: dict[str, set[str]] = {
        "unit_types": set(index.unit_types), "nations": set(index.nations),
        "resources": {r["id"] for _, r in scenario.entities("scenario", "resources") if isinstance(r.get("id"), str)}}
    for kind, pattern, target in NAMES:
        for pointer, value in find(scenario.doc(kind), pattern):
            if isinstance(value, str) and value not in known[target]:
                close = difflib.get_close_matches(value, sorted(k for k in known[target] if k), n=1, cutoff=0.6)
                yield error("TRP001", f"{pointer.strip('/').split('/')[-2].replace('_', ' ')} names the unknown "
                            f"{NOUNS[target]} {value!r}", scenario.locate(kind, pointer),
                            hint=f"did you mean {close[0]!r}?" if close else None)
