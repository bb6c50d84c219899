"""What a GJ69 attack needs to know beyond who is there (§8-§11, §16)."""
from __future__ import annotations

from dataclasses import dataclass, field

from ..system import BattlePosition


@dataclass(frozen=True)
class GJ69Position(BattlePosition):
    """One attack on an area: a normal attack (§8) or, with `air_attack`, an air attack (§9.1).

    defender_used: unit type -> how many of the defender's units are on their used face (§2.1.1(2));
        the others are ready. The attacking group is ready (§6.2 ①).
    card: the operation card the attacker plays for the attack (its `set_attack`,
        `immune_to_counterattack` and `attack` effects apply), e.g. j13 Oxygen Torpedoes.
    counter_card: the reaction card the defender answers with (§10): its `counterattack` effect
        strikes the attacking group first, e.g. a07 Ambush or a16 Force Z.
    attacks: how many attacks the group makes in a row (None: as the card says, else 1).
    defender_can_retreat / attacker_can_retreat: whether a retreat is possible (§11.5); None
        works the defender's out from the map and the starting set-up, and lets the attacker
        go back where it came from (§11.5(2)).
    own_land_units_in_area: the attacker has land units in the target area (a fortress area
        only takes air-attack damage on its land units then, §16.1(2)).
    control: the side that controls the area (None: the side that holds it at the start).
    """

    air_attack: bool = False
    defender_used: dict[str, int] = field(default_factory=dict)
    card: str | None = None
    counter_card: str | None = None
    attacks: int | None = None
    defender_can_retreat: bool | None = None
    attacker_can_retreat: bool = True
    own_land_units_in_area: bool = False
    control: str | None = None


def extras(position: BattlePosition) -> GJ69Position:
    if isinstance(position, GJ69Position):
        return position
    return GJ69Position(position.space, position.attackers, position.defenders, policy=position.policy)
