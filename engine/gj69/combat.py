"""An attack in a game: the forces of the area turned into the states of attack.py, and back.

The same `Attack` that answers `playtest battle` fights every attack of a game: a normal attack
(§8), an air attack (§9.1) or the counter-attack of a reaction card against a group entering
an area (§10), each with one die per firing unit from the game's generator.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .attack import DEAD, IN, OUT, Attack, Strike, make_state
from .damage import READY
from .units import UnitProfile


@dataclass
class Sides:
    """How one side came out of an attack."""

    stays: dict[tuple[str, str], int]     # (type, face) -> count still in the area
    retreats: dict[str, int]              # type -> count turned and retreating (§11.31)
    eliminated: dict[str, int]            # type -> count sent to the replacement pool


def strikes_of(counters: list[dict], firing: str, mode: str, times: int,
               combined: bool = False) -> list[Strike]:
    """Counter-attacks first (§10(5)), then the group's attack(s): `times` strikes one after
    the other, or, `combined`, one strike with `times` dice per unit whose damage points are
    allocated together (two attacks declared in advance, §18.1)."""
    found = []
    for counter in counters:
        found += [Strike("defender", "counter", counter.get("attackers", "ready"))] \
            * int(counter.get("times", 1))
    if firing and times:
        found += [Strike("attacker", mode, dice=times)] if combined else [Strike("attacker", mode)] * times
    return found


def fight(profiles: dict[str, UnitProfile], land_area: bool, attackers: dict, defenders: dict,
          strikes: list[Strike], set_attack: list[dict], immune_to_air: set[str],
          fortress_shield: bool, can_retreat: dict[str, frozenset[str]],
          rng: np.random.Generator) -> tuple[Sides, Sides]:
    """attackers / defenders: (type, face) -> count. The attacking group's units are the
    'attacker' side of the strikes; a counter-attack strikes it first."""
    attack = Attack(profiles, land_area, strikes, set_attack, immune_to_air, fortress_shield,
                    can_retreat)
    a = make_state({(u, f, IN): n for (u, f), n in attackers.items()})
    d = make_state({(u, f, IN): n for (u, f), n in defenders.items()})
    a, d = attack.sample(a, d, rng)
    return _sides(a), _sides(d)


def _sides(state: tuple) -> Sides:
    stays: dict = {}
    retreats: dict = {}
    eliminated: dict = {}
    for (unit, face, place), n in state:
        if place == IN:
            stays[(unit, face)] = stays.get((unit, face), 0) + n
        elif place == OUT:
            retreats[unit] = retreats.get(unit, 0) + n
        elif place == DEAD:
            eliminated[unit] = eliminated.get(unit, 0) + n
    return Sides(stays, retreats, eliminated)


def ready_faces(units: dict) -> dict:
    return {key: n for key, n in units.items() if key[1] == READY}
