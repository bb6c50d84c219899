"""A battle compiled for the combat procedure: each side as kinds of units, counted in arrays.

A *kind* is the units of one type, one owner and one condition (a battleship that took its first
hit, a submarine that submerged, a unit that came ashore from a transport). A side's state is a
vector of counts, one per kind; the procedure (rounds.py) works on many such vectors at once,
one row per simulated battle.

The casualty order is compiled here too, as *slots*: (kind, reserve, damage). Hits are taken by
walking the slots in order; a slot takes as many hits as its kind has units above `reserve`;
a damage slot turns intact two-hit units into damaged ones instead of removing them.
"""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from ..system import BattlePosition, EngineError, Policy
from .profiles import UnitProfile

# Hit classes: which enemy units a hit may be assigned to.
ANY = "any"            # any unit on the battle board
SEA = "sea"            # sea units only: a submarine's hits (§7.3.5 cannot hit air)
NOT_SUBMARINE = "not-sub"  # anything but submarines: air units' hits without a destroyer (§7.3.4)
LAND = "land"          # land units only: offshore bombardment (§5.5.2.2)


@dataclass(frozen=True)
class Kind:
    type: str
    owner: str
    profile: UnitProfile
    damaged: bool = False     # a two-hit unit that has taken its first hit
    submerged: bool = False   # a submarine that left the combat
    landed: bool = False      # came ashore from a transport: cannot retreat (§5.5.2.3)

    @property
    def active(self) -> bool:
        return not self.submerged


@dataclass
class SideModel:
    """One side of a battle, as arrays over its kinds."""

    attacking: bool
    kinds: list[Kind]
    start: np.ndarray                       # counts at the start
    slots: list[tuple[int, int, bool]]      # casualty order: (kind, reserve, damage)
    masks: dict[object, np.ndarray] = field(default_factory=dict)  # hit class -> eligible kinds
    sides: int = 6                          # the sides of the battle's dice

    def __post_init__(self):
        kinds = self.kinds
        # a marine coming ashore attacks higher (other rule families than AA50)
        self.value = np.array([0 if k.submerged else k.profile.value(self.attacking)
                               + (k.profile.marine if k.landed and self.attacking else 0)
                               for k in kinds], dtype=np.int64)
        self.dice = np.array([k.profile.dice(self.attacking) for k in kinds], dtype=np.int64)
        self.cost = np.array([k.profile.cost for k in kinds], dtype=float)
        def flags(test) -> np.ndarray:
            return np.array([bool(test(k)) for k in kinds], dtype=bool)

        self.active = flags(lambda k: k.active)
        self.hit_points = np.array([0 if k.submerged else (1 if k.damaged or not k.profile.two_hits
                                                             else 2) for k in kinds], dtype=np.int64)
        self.air = flags(lambda k: k.profile.is_air)
        self.sea = flags(lambda k: k.profile.is_sea)
        self.land = flags(lambda k: k.profile.is_land)
        self.submarine = flags(lambda k: k.profile.is_submarine) & self.active
        self.detector = flags(lambda k: k.profile.anti_submarine) & self.active
        self.surprise = flags(lambda k: k.profile.surprise_strike) & self.active
        self.cannot_hit_air = flags(lambda k: k.profile.cannot_hit_air)
        self.defenceless = flags(lambda k: k.profile.defenceless) & self.active
        self.landed = flags(lambda k: k.landed) & self.active
        self.capable = self.active & (self.value > 0)
        self.all_capable = bool(np.array_equal(self.capable, self.active))
        self.twin_damaged = self._twins(lambda k: Kind(k.type, k.owner, k.profile, True, False,
                                                       k.landed) if k.profile.two_hits
                                        and not k.damaged and not k.submerged else None)
        self.twin_submerged = self._twins(lambda k: Kind(k.type, k.owner, k.profile, k.damaged,
                                                         True, k.landed) if k.profile.submerge
                                          and not k.submerged else None)
        self.masks = {
            ANY: self.active.copy(),
            SEA: self.active & self.sea,
            NOT_SUBMARINE: self.active & ~self.submarine,
            LAND: self.active & self.land,
        }
        for index in range(len(kinds)):
            self.masks[("kind", index)] = np.arange(len(kinds)) == index
        # Restricted hits are assigned first, so that unrestricted ones still find a target.
        self.mask_rank = {key: int(mask.sum()) for key, mask in self.masks.items()}

    def _twins(self, make) -> np.ndarray:
        twins = np.full(len(self.kinds), -1)
        for index, kind in enumerate(self.kinds):
            other = make(kind)
            if other is not None:
                twins[index] = self.kinds.index(other)
        return twins

    # -- reading a state ---------------------------------------------------------------------
    def units(self, counts: np.ndarray) -> dict[str, int]:
        """Unit type -> count for one state vector (damaged and submerged units included)."""
        found: dict[str, int] = {}
        for kind, count in zip(self.kinds, counts, strict=True):
            if count:
                found[kind.type] = found.get(kind.type, 0) + int(count)
        return found

    def worth(self, counts: np.ndarray) -> np.ndarray:
        return counts @ self.cost

    def potential(self, counts: np.ndarray) -> np.ndarray:
        """Hits still needed to clear the side from the battle: falls with every change."""
        return counts @ self.hit_points


@dataclass
class BattleModel:
    """A compiled battle: both sides, and what happens only in the first round."""

    position: BattlePosition
    attacker: SideModel
    defender: SideModel
    land_battle: bool
    anti_aircraft: int                      # hits attacking air on this roll or less; 0: no gun
    bombard: list[tuple[int, int]]          # (value, ships) firing before the first round
    retreat_at: int
    anti_aircraft_sides: int = 6            # the sides of the gun's die

    @property
    def sides(self) -> int:
        """The sides of the battle's dice (6 in AA50)."""
        return self.attacker.sides

    @property
    def surprise_once(self) -> bool:
        """Whether submarines' surprise strike comes in the first round only (the option
        `surprise-strike=first-round`); by default it comes every round (rounds.py)."""
        return getattr(self.position, "surprise_strike", "every-round") == "first-round"

    def undetected_only_first(self, detected, first_round: bool):
        """Whether the enemy's submarines count as detected this round: they are when a
        destroyer is there, and after the first round when the strike comes only once (then
        they fire with the other units)."""
        return detected | (self.surprise_once and not first_round)

    @property
    def changes_between_rounds(self) -> bool:
        """Whether units can change before a round's dice: submarines submerge, defenceless
        transports are sunk (rounds.start_of_round)."""
        sides = (self.attacker, self.defender)
        return any((s.twin_submerged >= 0).any() or s.defenceless.any() for s in sides)

    @property
    def may_stall(self) -> bool:
        """Whether a round can come where neither side can hit the other: only where some
        units cannot hit, or be hit by, some others (submarines and air units, §7.3.5)."""
        sides = (self.attacker, self.defender)
        return any(s.submarine.any() or s.cannot_hit_air.any() for s in sides)


def compile_battle(position: BattlePosition, profiles_of, land_battle: bool, sides: int = 6) -> BattleModel:
    """Build the model of `position`. `profiles_of(nation)` gives that nation's unit profiles;
    the dice have `sides` sides (six in AA50)."""
    policy = position.policy
    attacking_nations = {c.owner for c in position.attackers if c.total()}
    if len(attacking_nations) > 1:
        raise EngineError("only one nation attacks in a battle: allies may defend together, "
                          "never attack together (§5.5.4)")
    landing_left = dict(position.landing)
    attacker_counts = []
    for contingent in position.attackers:
        profiles = profiles_of(contingent.owner)
        for unit, count in contingent.units.items():
            landed = min(count, landing_left.pop(unit, 0))
            if landed:
                attacker_counts.append((Kind(unit, contingent.owner, profiles[unit], landed=True), landed))
            if count - landed:
                attacker_counts.append((Kind(unit, contingent.owner, profiles[unit]), count - landed))
    if landing_left:
        raise EngineError("landing units must be among the attacker's units: "
                          + ", ".join(landing_left))
    defender_counts = []
    anti_aircraft, gun_sides = 0, sides
    for contingent in position.defenders:
        profiles = profiles_of(contingent.owner)
        for unit, count in contingent.units.items():
            profile = profiles[unit]
            if profile.anti_aircraft and count and land_battle:
                # one gun fires, the best one if the defenders' guns differ (§7.1.4)
                own_sides = profile.anti_aircraft_sides or sides
                if profile.anti_aircraft * gun_sides > anti_aircraft * own_sides:
                    anti_aircraft, gun_sides = profile.anti_aircraft, own_sides
            if profile.on_battle_board and count:
                defender_counts.append((Kind(unit, contingent.owner, profile), count))
    attacker_counts = [(k, c) for k, c in attacker_counts if c and k.profile.on_battle_board]
    attacker = _side(attacker_counts, attacking=True, policy=policy,
                     keep_land=(policy.keep_land_unit if policy.keep_land_unit is not None
                                else land_battle), sides=sides)
    defender = _side(defender_counts, attacking=False, policy=policy, keep_land=False, sides=sides)
    bombard = _bombardment(position, profiles_of, land_battle)
    return BattleModel(position, attacker, defender, land_battle,
                       anti_aircraft if attacker.air.any() else 0, bombard, policy.retreat_at, gun_sides)


def _bombardment(position: BattlePosition, profiles_of, land_battle: bool) -> list[tuple[int, int]]:
    """Ships bombarding before an amphibious assault: at most one per landing unit (§5.5.2.2)."""
    if position.bombard is None or not position.bombard.total():
        return []
    if not land_battle or not position.landing:
        raise EngineError("offshore bombardment supports an amphibious assault on a territory: "
                          "give the landing units too")
    profiles = profiles_of(position.bombard.owner)
    ships = []
    for unit, count in position.bombard.units.items():
        profile = profiles[unit]
        if not profile.offshore_bombardment:
            raise EngineError(f"{unit} cannot bombard the shore")
        ships.extend([profile.value(attacking=True)] * count)
    ships.sort(reverse=True)   # the strongest ships fire when not all may
    ships = ships[:sum(position.landing.values())]
    return sorted({(value, ships.count(value)) for value in ships}, reverse=True)


def _side(counted: list[tuple[Kind, int]], attacking: bool, policy: Policy,
          keep_land: bool, sides: int = 6) -> SideModel:
    kinds: list[Kind] = []
    for kind, _ in counted:
        if kind not in kinds:
            kinds.append(kind)
    for kind in list(kinds):   # the conditions a kind can come to be in during the battle
        if kind.profile.two_hits:
            kinds.append(Kind(kind.type, kind.owner, kind.profile, True, False, kind.landed))
    for kind in list(kinds):
        if kind.profile.submerge:
            kinds.append(Kind(kind.type, kind.owner, kind.profile, kind.damaged, True, kind.landed))
    start = np.zeros(len(kinds), dtype=np.int64)
    for kind, count in counted:
        start[kinds.index(kind)] += count
    slots = casualty_slots(kinds, start, attacking, policy, keep_land)
    return SideModel(attacking, kinds, start, slots, sides=sides)


def casualty_slots(kinds: list[Kind], start: np.ndarray, attacking: bool, policy: Policy,
                   keep_land: bool) -> list[tuple[int, int, bool]]:
    """The order in which a side takes its hits.

    Fixed by the rules: a two-hit unit's first hit comes before any unit is lost (it costs
    nothing, §7.3.1); units chosen last (transports) come after all others (§7.3.6). Chosen by
    the policy: the order of the rest, and keeping one land unit to take the territory.
    """
    order_key = _order_key(policy.order, attacking)
    damage = [(i, 0, True) for i, k in enumerate(kinds) if k.profile.two_hits and not k.damaged
              and not k.submerged]
    losable = [i for i, k in enumerate(kinds) if not k.submerged
               and not (k.profile.two_hits and not k.damaged)]
    losable.sort(key=lambda i: order_key(kinds[i]))
    last = [i for i in losable if kinds[i].profile.chosen_last]
    ordinary = [i for i in losable if not kinds[i].profile.chosen_last]
    slots = [(i, 0, False) for i in ordinary]
    if keep_land:
        land = [i for i in ordinary if kinds[i].profile.is_land and start[i] > 0]
        air_after = [i for i in ordinary if kinds[i].profile.is_air and start[i] > 0]
        if land and air_after:
            kept = land[-1]
            slots = [(i, 1 if i == kept else 0, False) for i in ordinary] + [(kept, 0, False)]
    return damage + slots + [(i, 0, False) for i in last]


def _order_key(order: str, attacking: bool):
    def value(kind: Kind) -> int:
        return kind.profile.value(attacking) * kind.profile.dice(attacking)

    if order == "cheapest":
        return lambda k: (k.profile.cost, value(k), k.type, k.owner, k.landed)
    if order == "weakest":
        return lambda k: (value(k), k.profile.cost, k.type, k.owner, k.landed)
    named = [name.strip() for name in order.split(",") if name.strip()]
    if not named:
        raise EngineError(f"order of loss {order!r}: give cheapest, weakest or unit types")
    rank = {name: i for i, name in enumerate(named)}
    return lambda k: (rank.get(k.type, len(rank)), k.profile.cost, value(k), k.type, k.owner,
                      k.landed)
