"""AA50 unit profiles: a unit type's numbers and abilities as the combat procedure needs them.

Everything here is read from the scenario: `units.yaml` gives each type's cost, stats and
abilities (the vocabulary is the `ability` list of schemas/systems/aa50.schema.json), and
`scenario.yaml`'s `rules.research` gives the breakthroughs whose `changes` alter a nation's units.
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from ..system import EngineError


@dataclass(frozen=True)
class Support:
    """artillery_support: each supporting unit lifts `per_unit` units of `types` by `bonus`,
    in attack (AA50's artillery) and, for other rule families, in defense too."""

    types: frozenset[str]
    per_unit: int
    bonus: int
    attack: bool = True
    defense: bool = False

    def applies(self, attacking: bool) -> bool:
        return self.attack if attacking else self.defense


@dataclass(frozen=True)
class UnitProfile:
    """One unit type of one nation, with that nation's research applied."""

    id: str
    domain: str                  # land, sea, air, structure
    cost: float
    attack: int | None           # None: the rulebook prints N/A, the unit never fires
    defense: int | None
    attack_dice: int = 1         # dice rolled per unit when attacking (heavy bombers roll more)
    defense_dice: int = 1
    two_hits: bool = False
    submerge: bool = False
    surprise_strike: bool = False
    cannot_hit_air: bool = False
    anti_submarine: bool = False
    offshore_bombardment: bool = False
    chosen_last: bool = False
    defenceless: bool = False
    capturable: bool = False     # stays with the territory: never on the battle board
    factory: bool = False
    max_damage_factor: int | None = None
    bombing_dice: int = 0        # strategic bombing dice per unit (0: cannot bomb)
    anti_aircraft: int = 0       # hits attacking air units on this roll or less (0: not a gun)
    anti_aircraft_sides: int = 0  # the gun's die, when not the battle's (0: the battle's)
    support: Support | None = None
    other_supports: tuple[Support, ...] = ()   # more supports (other rule families: one per side)
    marine: int = 0              # attack bonus when it comes ashore from a transport

    @property
    def is_air(self) -> bool:
        return self.domain == "air"

    @property
    def is_sea(self) -> bool:
        return self.domain == "sea"

    @property
    def is_land(self) -> bool:
        return self.domain == "land"

    @property
    def is_submarine(self) -> bool:
        """A unit that dives: air units cannot hit it unless they have a destroyer (§7.3.4)."""
        return self.submerge

    @property
    def on_battle_board(self) -> bool:
        """AA guns and factories stay with the territory (§7.1.4, §7.1.5)."""
        return not (self.capturable or self.factory or self.domain == "structure")

    def support_for(self, attacking: bool) -> Support | None:
        """The support this unit gives when its side attacks (or defends), if any."""
        for support in ((self.support,) if self.support else ()) + self.other_supports:
            if support.applies(attacking):
                return support
        return None

    def value(self, attacking: bool) -> int:
        value = self.attack if attacking else self.defense
        return value or 0

    def dice(self, attacking: bool) -> int:
        return self.attack_dice if attacking else self.defense_dice


def read_profiles(scenario) -> dict[str, UnitProfile]:
    """Unit type id -> profile, from units.yaml."""
    profiles = {}
    for _, entry in scenario.entities("units", "unit_types"):
        if isinstance(entry.get("id"), str):
            profiles[entry["id"]] = _profile(entry)
    return profiles


def _profile(entry: dict) -> UnitProfile:
    stats = entry.get("stats") or {}
    profile = UnitProfile(
        id=entry["id"], domain=entry.get("domain", "land"), cost=float(entry.get("cost", 0)),
        attack=_int_or_none(stats.get("attack")), defense=_int_or_none(stats.get("defense")))
    for ability in entry.get("abilities") or []:
        if isinstance(ability, dict):
            profile = with_ability(profile, ability)
    return profile


def _int_or_none(value) -> int | None:
    return int(value) if isinstance(value, (int, float)) and not isinstance(value, bool) else None


# ability kind -> the profile flag it sets (abilities with parameters are handled below)
_FLAGS = {
    "two_hits": "two_hits", "submerge": "submerge", "surprise_strike": "surprise_strike",
    "cannot_hit_air": "cannot_hit_air", "anti_submarine": "anti_submarine",
    "offshore_bombardment": "offshore_bombardment", "chosen_last": "chosen_last",
    "defenceless": "defenceless", "capturable": "capturable",
}


def with_ability(profile: UnitProfile, ability: dict) -> UnitProfile:
    """The profile with one ability (from units.yaml, or granted or changed by research)."""
    kind = ability.get("kind")
    if kind in _FLAGS:
        flag: dict[str, Any] = {_FLAGS[kind]: True}
        return replace(profile, **flag)
    if kind == "artillery_support":
        return replace(profile, support=Support(
            frozenset(ability.get("types") or ()), int(ability.get("per_unit", 1)),
            int(ability.get("bonus", 1))))
    if kind == "strategic_bombing":
        # A bomber rolls its bombing dice in a raid and when attacking, one die when
        # defending (§5.2.3 Heavy Bombers: "2 dice when attacking or bombing").
        dice = int(ability.get("dice", 1))
        return replace(profile, bombing_dice=dice, attack_dice=dice)
    if kind == "anti_aircraft":
        return replace(profile, anti_aircraft=int(ability["hit_on"]))
    if kind == "factory":
        return replace(profile, factory=True, max_damage_factor=ability.get("max_damage_factor"))
    return profile  # movement, transport and production abilities do not change combat


def breakthroughs(scenario) -> dict[str, dict]:
    """Breakthrough id -> its entry (name, changes), from scenario.yaml rules.research."""
    rules = scenario.manifest.get("rules") or {}
    research = rules.get("research") or {}
    found = {}
    for chart in research.get("charts") or []:
        for entry in (chart or {}).get("breakthroughs") or []:
            if isinstance(entry, dict) and isinstance(entry.get("id"), str):
                found[entry["id"]] = entry
    return found


def apply_research(profiles: dict[str, UnitProfile], changes: list[dict],
                   abilities: dict[str, list[dict]]) -> dict[str, UnitProfile]:
    """Profiles after a nation's breakthroughs: `changes` are their ops in order.

    `abilities` is each type's ability list from units.yaml, needed by change_ability.
    """
    result = dict(profiles)
    current = {unit: list(found) for unit, found in abilities.items()}
    for change in changes:
        op, unit = change.get("op"), change.get("type")
        if unit not in result:
            continue
        profile = result[unit]
        if op == "set_stat":
            result[unit] = _set_stat(profile, change)
        elif op == "set_cost":
            result[unit] = replace(profile, cost=float(change["cost"]))
        elif op == "grant_ability":
            current.setdefault(unit, []).append(change["ability"])
            result[unit] = with_ability(profile, change["ability"])
        elif op == "change_ability":
            result[unit] = _change_ability(profile, change, current.setdefault(unit, []))
    return result


def _set_stat(profile: UnitProfile, change: dict) -> UnitProfile:
    stat, value, when = change["stat"], int(change["value"]), change.get("when")
    if stat == "movement":
        return profile
    if when == "strategic_bombing":
        return profile
    changed: dict[str, Any] = {stat: value}
    return replace(profile, **changed)


def _change_ability(profile: UnitProfile, change: dict, current: list[dict]) -> UnitProfile:
    kind, settings = change["kind"], change.get("set") or {}
    for position, ability in enumerate(current):
        if ability.get("kind") == kind:
            current[position] = {**ability, **settings}
            return with_ability(profile, current[position])
    raise EngineError(f"research changes the {kind} ability of {profile.id}, which it does not have")
