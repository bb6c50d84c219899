"""What an OCS combat or barrage needs to know beyond who is there (charts 9.2-9.10, 10.0a).

Every field is a battle setting (`--option NAME=VALUE` of `sandtable playtest battle`, the
settings line of the editor's playtest panel); `help` and `choices` say what each one takes.
"""
from __future__ import annotations

from dataclasses import dataclass

from ..options import setting as _setting
from ..system import BattlePosition

# 9.6: a unit's mode changes its action rating (disorganized, strategic); units in exploit mode
# attack in the exploitation phase, where e# results do not occur (9.10).
MODES = ("normal", "disorganized", "strategic", "exploit")
OPTION_CHOICES = ("auto", "steps", "retreat")
TERRAINS = ("open", "close", "very-close", "extremely-close")
ATTACKS = ("regular", "overrun")
BARRAGE_KINDS = ("artillery", "air", "ship")


@dataclass(frozen=True)
class OCSPosition(BattlePosition):
    """An OCS combat (or, with `raid=True`, a barrage of the defenders' hex)."""

    terrain: str | None = _setting(
        None, "the combat terrain row the defender chooses (9.3b); none: the hex's terrain", TERRAINS)
    hedgehog: int = _setting(0, "hedgehog level in the defending hex, 0 for none (9.8, 9.9, 10.0a)")
    attack: str = _setting("regular", "an overrun has other surprise ranges than a regular "
                           "attack (9.8)", ATTACKS)
    attacker_mode: str = _setting(
        "normal", "mode of the attacker's action-rating unit: disorganized -1, strategic rating 0 "
        "(9.6); exploit: an attack in the exploitation phase gets no e# result (9.10)", MODES)
    defender_mode: str = _setting(
        "normal", "mode of the defender's action-rating unit: disorganized -1, strategic rating 0 "
        "(9.6)", MODES)
    defender_supplied: bool = _setting(
        True, "false: the defender spends no combat supply and defends at half strength (9.5)")
    armour_terrain: float = _setting(
        1.0, "terrain effect for attacking armour and mechanized units (x2 becomes x1.5 against "
        "equal or better anti-armour, 9.4e); the chart sheet prints no terrain effects")
    attacker_option: str = _setting(
        "auto", "how the attacker takes an o# result: steps, retreat (a hex per point), or auto "
        "(steps when it survives them)", OPTION_CHOICES)
    defender_option: str = _setting(
        "auto", "how the defender takes an o# result: steps, retreat (a hex per point; 2 or more "
        "hexes disorganize, 9.10 note 3), or auto (steps when it survives them)", OPTION_CHOICES)
    defender_ignores_option: bool = _setting(
        True, "when the attacker retreats for its option or is destroyed first, the defender may "
        "ignore its own option (9.10 note 2): true ignores it, false applies it")
    exploit_allowed: bool = _setting(
        True, "false for attacks from 3 or more hexes, or from 2 hexes not adjacent to each other, "
        "which ignore e# results (9.10 note 4)")
    barrage_by: str = _setting("artillery", "what fires a barrage (--raid): aircraft and ships read "
                               "[1/2] as DG, ships reduce results (10.0a, 18.3b)", BARRAGE_KINDS)
    spotter: bool = _setting(True, "a legal spotter is adjacent to the barrage target; without "
                             "one: 3 columns left and [1/2] is DG (10.0a)")
    near_airbase: bool = _setting(False, "every barraging aircraft is within 10 hexes of its "
                                  "airbase: 1 column right (10.0a)")
    beyond_half_range: bool = _setting(False, "the barraging aircraft flew more than half their "
                                       "range: 1 column left under optional rule 21.4 (10.0a)")
    strategic_in_hex: bool = _setting(False, "a unit in the barrage target hex is in strategic "
                                      "mode: 3 columns right (10.0a)")
    optional_21_4: bool | None = _setting(
        None, "optional rule 21.4 (aircraft beyond half range); none: the scenario's option")


def extras(position: BattlePosition) -> OCSPosition:
    """The OCS fields of a position; a plain BattlePosition gets the defaults."""
    if isinstance(position, OCSPosition):
        return position
    return OCSPosition(position.space, position.attackers, position.defenders,
                       raid=position.raid, policy=position.policy)
