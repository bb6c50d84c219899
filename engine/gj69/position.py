"""What a GJ69 attack needs to know beyond who is there (§8-§11, §16). Each field is a
`--option NAME=VALUE` of `sandtable playtest battle`."""
from __future__ import annotations

from dataclasses import dataclass, field

from ..system import BattlePosition

SIDES = ("japan", "allies")


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
    combined: the attacks were declared together, so their damage points are added before they
        are allocated (§18.1 Blitzkrieg).
    defender_can_retreat / attacker_can_retreat: whether a retreat is possible (§11.5); None
        works each defending unit's out from the starting position (§11.5(1), §16.3), and the
        attacker may go back where it came from (§11.5(2)).
    own_land_units_in_area: the attacker has land units in the target area (an enemy fortress
        area only takes air-attack damage on its land units then, §16.1(2)).
    control: the side that controls the area (None: the side that holds it at the start).
    """

    air_attack: bool = field(default=False, metadata={
        "help": "an air attack with air power (§9.1): the attacker allocates the damage, "
                "carriers roll a save (§11.6), no counter-attack"})
    defender_used: dict[str, int] = field(default_factory=dict, metadata={
        "help": "defending units on their used face, as 'us-infantry:2' (§2.1.1(2), §11.31)"})
    card: str | None = field(default=None, metadata={
        "help": "the attacker's card: j13 Oxygen Torpedoes (ships attack with 4, no counter-attack), "
                "a16 Force Z (ships attack twice), j01 Blitzkrieg with attacks=2 (§19)"})
    counter_card: str | None = field(default=None, metadata={
        "help": "the defender's reaction card, which strikes first (§10): j16/a07/a08 Ambush, "
                "a16 Force Z"})
    attacks: int | None = field(default=None, metadata={
        "help": "attacks in a row (default: as the card says, else 1)"})
    combined: bool = field(default=False, metadata={
        "help": "the attacks were declared together: their damage points are added (§18.1)"})
    defender_can_retreat: bool | None = field(default=None, metadata={
        "help": "whether defending land units have an area to retreat to (default: from the "
                "starting position, §11.5(1), §16.3)"})
    attacker_can_retreat: bool = field(default=True, metadata={
        "help": "whether the attacking group can go back where it came from (§11.5(2))"})
    own_land_units_in_area: bool = field(default=False, metadata={
        "help": "the attacker has land units in the area (lifts the fortress shield, §16.1(2))"})
    control: str | None = field(default=None, metadata={
        "help": "the side holding the area (default: as at the start)", "choices": SIDES})


def extras(position: BattlePosition) -> GJ69Position:
    if isinstance(position, GJ69Position):
        return position
    return GJ69Position(position.space, position.attackers, position.defenders, policy=position.policy)
