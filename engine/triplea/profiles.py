"""Unit profiles of the `triplea` rule family, for AA50's combat procedure.

TripleA's common unit options map onto AA50's unit profile (engine/aa50/profiles.py): values on
the game's dice, `attack_rolls` / `defense_rolls` dice per unit, two hit points, submarines and
destroyers, anti-aircraft guns (on their own dice when the game says so), artillery and
UnitSupportAttachment supports (in attack, defense or both; for some nations only), marines.
What the procedure cannot fight is refused by name (TripleA.check_position), never approximated.
"""
from __future__ import annotations

from dataclasses import dataclass, replace

from ..aa50.profiles import Support, UnitProfile, with_ability


@dataclass(frozen=True)
class Unit:
    """A unit type's profile, and what the procedure cannot fight with it."""

    profile: UnitProfile
    supports: tuple[tuple[Support, frozenset[str] | None], ...]   # (support, its nations or None)
    hit_points: int
    unfit: str | None = None      # why the battle calculator cannot fight with it


def read_units(scenario) -> dict[str, Unit]:
    units = {}
    for _, entry in scenario.entities("units", "unit_types"):
        if isinstance(entry.get("id"), str):
            units[entry["id"]] = _unit(entry)
    return units


def _int(value, default: int) -> int:
    return int(value) if isinstance(value, (int, float)) and not isinstance(value, bool) else default


def _unit(entry: dict) -> Unit:
    stats = entry.get("stats") or {}
    attack, defense = stats.get("attack"), stats.get("defense")
    profile = UnitProfile(
        id=entry["id"], domain=entry.get("domain", "land"), cost=float(entry.get("cost", 0)),
        attack=_int(attack, 0) if attack is not None else None,
        defense=_int(defense, 0) if defense is not None else None,
        attack_dice=_int(stats.get("attack_rolls"), 1), defense_dice=_int(stats.get("defense_rolls"), 1))
    hit_points = _int(stats.get("hit_points"), 1)
    if hit_points == 2:
        profile = replace(profile, two_hits=True)
    supports = []
    for ability in entry.get("abilities") or []:
        if not isinstance(ability, dict):
            continue
        kind = ability.get("kind")
        if kind == "support":
            nations = ability.get("nations")
            supports.append((Support(frozenset(ability.get("types") or ()), _int(ability.get("per_unit"), 1),
                                     _int(ability.get("bonus"), 0), bool(ability.get("attack")),
                                     bool(ability.get("defense"))),
                             frozenset(nations) if nations else None))
        elif kind == "artillery_support":
            supports.append((Support(frozenset(ability.get("types") or ()), _int(ability.get("per_unit"), 1),
                                     _int(ability.get("bonus"), 1)), None))
        elif kind == "marine":
            profile = replace(profile, marine=_int(ability.get("bonus"), 1))
        elif kind == "anti_aircraft":
            profile = replace(profile, anti_aircraft=_int(ability.get("hit_on"), 1),
                              anti_aircraft_sides=_int(ability.get("sides"), 0))
        elif kind == "strategic_bombing":
            dice = _int(ability.get("dice"), 1)
            profile = replace(profile, bombing_dice=dice)
        else:
            profile = with_ability(profile, ability)
    unfit = f"it takes {hit_points} hits" if hit_points > 2 else None
    return Unit(profile, tuple(supports), hit_points, unfit)


def profile_for(unit: Unit, nation: str) -> tuple[UnitProfile, str | None]:
    """The unit's profile when `nation` fields it, with the supports that nation has.

    Returns (profile, why it cannot fight): the procedure knows one support per unit type in
    attack and one in defense, so a unit with two different supports on one side cannot fight."""
    own = [support for support, nations in unit.supports if nations is None or nation in nations]
    if not own:
        return unit.profile, unit.unfit
    attack = {(s.types, s.per_unit, s.bonus) for s in own if s.attack}
    defense = {(s.types, s.per_unit, s.bonus) for s in own if s.defense}
    if len(attack) > 1 or len(defense) > 1:
        return unit.profile, unit.unfit or "it gives two different supports in one battle"
    joined: list = []
    for key in dict.fromkeys(list(attack) + list(defense)):
        types, per_unit, bonus = key
        joined.append(type(own[0])(types, per_unit, bonus, key in attack, key in defense))
    return replace(unit.profile, support=joined[0], other_supports=tuple(joined[1:])), unit.unfit
