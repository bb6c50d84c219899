"""Unit types: TripleA's unit attachments as the stats and abilities of a rule family.

Two vocabularies: the `aa50` profile's (AA50's abilities, six-sided dice) and the `triplea`
profile's (TripleA's common unit options: dice per unit, hit points, supports, marines, AA guns
on dice of any size). Options with no counterpart are reported once per option name.
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from ..diagnostics import Severity
from .game import Attachment, Game, Option, split_list
from .report import Report

# TripleA engine details with no counterpart in either profile: info, not warnings.
ENGINE_OPTIONS = {"canIntercept", "canEscort", "airDefense", "airAttack", "canAirBattle", "canScramble",
                  "maxScrambleDistance", "maxScrambleCount", "isAirBase", "tuv", "isLandTransportable",
                  "mayOverStackAA", "damageableAA", "isAAforFlyOverOnly", "isAAforBombingThisUnitOnly",
                  "isAAforCombatOnly", "isAAmovement", "maxRoundsAA", "typeAA", "canNotMoveDuringCombatMove",
                  "isCombatTransport", "canBeDamaged", "maxDamage", "maxOperationalDamage",
                  "canDieFromReachingMaxDamage", "bombingMaxDieSides", "bombingBonus", "bombingTargets",
                  "isConstruction", "constructionType", "maxConstructionsPerTypePerTerr",
                  "constructionsPerTerrPerTypePerTurn", "blockade", "canProduceXUnits"}
RESEARCH_OPTIONS = {"isAirTransport", "isAirTransportable", "isLandTransport"}


@dataclass
class UnitContext:
    game: Game
    unit_ids: dict[str, str]          # TripleA unit name -> unit type id
    nation_of: Callable[[str], str]
    dice_sides: int


def unit_attachments(game: Game) -> dict[str, Attachment]:
    """The UnitAttachment of each unit type."""
    return {a.attach_to: a for a in game.attachments
            if a.java_class == "UnitAttachment" and a.kind == "unitType"}


def translate_units(context: UnitContext, family: str, report: Report) -> dict[str, dict]:
    """TripleA unit name -> unit type (without costs)."""
    from .names import UNITS, humanise
    attachments = unit_attachments(context.game)
    types: dict[str, dict] = {}
    for name in context.game.units:
        unit = {"id": context.unit_ids[name], "name": UNITS.get(name, (None, humanise(name)))[1],
                "domain": "land"}
        attachment = attachments.get(name)
        if attachment is not None:
            values = attachment.values()
            _translate_one(unit, name, values, attachments, context, family, report)
        types[name] = unit
    if family == "triplea":
        _supports(types, context, report)
    return types


def _on(values: dict[str, Option], flag: str) -> bool:
    option = values.get(flag)
    return option is not None and option.value.strip().lower() == "true"


def _number(values: dict[str, Option], flag: str, report: Report, unit: str) -> int | None:
    option = values.get(flag)
    if option is None:
        return None
    try:
        return int(option.value.strip())
    except ValueError:
        report.warning("TPL007", f"{unit} {flag} is {option.value!r}, not a whole number; it was not "
                       "translated", option.element)
        return None


def _translate_one(unit: dict, name: str, values: dict[str, Option], attachments: dict[str, Attachment],
                   context: UnitContext, family: str, report: Report) -> None:
    handled: set[str] = set()

    def on(flag: str) -> bool:
        handled.add(flag)
        return _on(values, flag)

    def number(flag: str) -> int | None:
        handled.add(flag)
        return _number(values, flag, report, name)

    if on("isAir"):
        unit["domain"] = "air"
    elif on("isSea"):
        unit["domain"] = "sea"
    elif on("isFactory"):
        unit["domain"] = "structure"
    stats = {}
    for key in ("attack", "defense", "movement"):
        value = number(key)
        if value is not None:
            stats[key] = value
    if family == "triplea":
        for key, stat in (("attackRolls", "attack_rolls"), ("defenseRolls", "defense_rolls"),
                          ("hitPoints", "hit_points")):
            value = number(key)
            if value is not None and value != 1:
                stats[stat] = value
        if on("isTwoHit") and "hit_points" not in stats:
            stats["hit_points"] = 2
    if stats:
        unit["stats"] = stats
    abilities = _abilities(name, values, attachments, context, family, report, on, number)
    if abilities:
        unit["abilities"] = abilities
    kinds = {a["kind"] for a in abilities}
    if unit["domain"] == "sea" and "submerge" not in kinds \
            and "transport" not in kinds and stats.get("attack", 0) > 0:
        unit["tags"] = ["surface_warship"]   # what TripleA's enemySurfaceExclusion counts
    for flag, option in values.items():
        if flag in handled:
            continue
        if flag in ENGINE_OPTIONS:
            report.once(("unit-engine", flag), "TPL005", Severity.INFO,
                        f"unit option {flag} ({name}) is a TripleA engine setting; not translated",
                        option.element, name)
        elif flag in RESEARCH_OPTIONS and family == "aa50":
            report.once(("unit-research", flag), "TPL005", Severity.WARNING,
                        f"{name} option {flag}={option.value} belongs to a research breakthrough "
                        "(paratroopers, mechanized infantry); not a base ability", option.element, name,
                        hint="describe it in the research chart of the rules")
        else:
            report.once(("unit-option", flag), "TPL005", Severity.WARNING,
                        f"{name} option {flag}={option.value} is not translated", option.element, name)


def _types_with(attachments: dict[str, Attachment], context: UnitContext, flag: str,
                any_value: bool = False) -> list[str]:
    found = []
    for name, attachment in attachments.items():
        values = attachment.values()
        if flag in values and (any_value or values[flag].value.strip().lower() == "true"):
            found.append(context.unit_ids[name])
    return found


def _abilities(name, values, attachments, context, family, report, on, number) -> list[dict]:
    abilities: list[dict] = []
    if on("artillery"):
        supported = _types_with(attachments, context, "artillerySupportable")
        abilities.append({"kind": "artillery_support", "types": supported, "per_unit": 1, "bonus": 1})
    on("artillerySupportable")  # carried by the supporting unit's artillery_support
    if on("canBlitz"):
        abilities.append({"kind": "blitz"})
    if family == "aa50":
        hit_points = number("hitPoints")
        if hit_points == 2 or on("isTwoHit"):
            abilities.append({"kind": "two_hits"})
        elif hit_points not in (None, 1):
            report.once(("hit-points",), "TPL005", Severity.WARNING,
                        f"{name} has {hit_points} hit points; only 1 or 2 are translated to aa50",
                        values["hitPoints"].element, name)
    if on("canBombard"):
        abilities.append({"kind": "offshore_bombardment"})
    capacity = number("carrierCapacity")
    if capacity:
        carried = _types_with(attachments, context, "carrierCost", any_value=True)
        abilities.append({"kind": "carrier", "capacity": capacity, "carries": carried})
    size = number("carrierCost")
    if size:
        abilities.append({"kind": "carrier_landing", "size": size})
    if on("isSub") or on("isFirstStrike"):
        abilities += [{"kind": "submerge"}, {"kind": "surprise_strike"}, {"kind": "sub_movement"},
                      {"kind": "cannot_hit_air"}]
    if on("isDestroyer"):
        abilities.append({"kind": "anti_submarine"})
    capacity = number("transportCapacity")
    air_transport = _on(values, "isAirTransport")
    if capacity and not air_transport:
        abilities.append({"kind": "transport", "capacity": capacity})
        if _on(values, "isSea"):
            # TripleA's game properties: transports are taken last, and die alone
            if context.game.property_on("Transport Casualties Restricted"):
                abilities.append({"kind": "chosen_last"})
            if context.game.property_on("Unescorted Transport Dies"):
                abilities.append({"kind": "defenceless"})
    size = number("transportCost")
    if size:
        abilities.append({"kind": "transportable", "size": size})
    if on("isStrategicBomber"):
        abilities.append({"kind": "strategic_bombing", "dice": 1})
    gun = _anti_aircraft(values, context, family, on, number)
    if gun is not None:
        abilities += gun
    factory = on("isFactory") or (family == "triplea" and on("canProduceUnits"))
    if factory:
        works: dict = {"kind": "factory"}
        if context.game.property_on("Damage From Bombing Done To Units Instead Of Territories") and \
                context.game.property_on("WW2V3"):
            works["max_damage_factor"] = 2   # v3 rules: up to twice the territory's production
        abilities += [works, {"kind": "capturable"}]
    elif family == "triplea" and on("isInfrastructure") and not any(a["kind"] == "capturable" for a in abilities):
        abilities.append({"kind": "capturable"})
    if family == "triplea":
        bonus = _marine(values, on)
        if bonus:
            abilities.append({"kind": "marine", "bonus": bonus})
        if on("isSuicide"):
            abilities.append({"kind": "suicide"})
    return abilities


def _anti_aircraft(values, context, family, on, number) -> list[dict] | None:
    """isAA, or an attackAA aimed at air units (targetsAA not given: TripleA aims at aircraft)."""
    legacy = on("isAA")
    strength = number("attackAA")
    sides = number("attackAAmaxDieSides")
    targets = values.get("targetsAA")
    if not legacy and not (family == "triplea" and strength and targets is None):
        return None
    hit_on = strength if strength else 1
    gun: dict = {"kind": "anti_aircraft", "hit_on": hit_on}
    if family == "triplea" and sides and sides != context.dice_sides:
        gun["sides"] = sides
    found = [gun]
    if legacy:
        found += [{"kind": "noncombat_move_only"}, {"kind": "capturable"}]
    return found


def _marine(values, on) -> int:
    option = values.get("isMarine")
    on("isMarine")
    if option is None:
        return 0
    text = option.value.strip().lower()
    if text == "true":
        return 1
    try:
        return int(text) if text != "false" else 0
    except ValueError:
        return 0


def _supports(types: dict[str, dict], context: UnitContext, report: Report) -> None:
    """UnitSupportAttachments (attached to the supporting type) as `support` abilities."""
    for attachment in context.game.attachments:
        if attachment.java_class != "UnitSupportAttachment":
            continue
        values = attachment.values()
        supporter = types.get(attachment.attach_to)
        if supporter is None:
            continue
        faction = values.get("faction")
        dice = values.get("dice")
        if (faction and faction.value.strip() != "allied") or (dice and dice.value.strip() != "strength"):
            report.once(("support-kind",), "TPL005", Severity.WARNING,
                        f"support {attachment.name!r}: only supports that raise allied units' values "
                        "(faction allied, dice strength) are translated", attachment.element, attachment.name)
            continue
        supported = list(dict.fromkeys(context.unit_ids[t] for t in split_list(values["unitType"].value)
                                       if t in context.unit_ids)) if "unitType" in values else []
        sides = split_list(values["side"].value) if "side" in values else []
        try:
            bonus = int(values["bonus"].value) if "bonus" in values else 0
            per_unit = int(values["number"].value) if "number" in values else 0
        except ValueError:
            report.once(("support-number",), "TPL007", Severity.WARNING,
                        f"support {attachment.name!r}: bonus or number is not a whole number", attachment.element)
            continue
        if not supported or not bonus or per_unit < 1 or not sides:
            continue
        ability: dict = {"kind": "support", "types": supported, "bonus": bonus, "per_unit": per_unit,
                         "attack": "offence" in sides, "defense": "defence" in sides}
        if "players" in values:
            nations = sorted({context.nation_of(p) for p in split_list(values["players"].value)
                              if context.game.is_player(p)})
            everyone = sorted({context.nation_of(p) for p in context.game.players})
            if nations and nations != everyone:
                ability["nations"] = nations
        abilities = supporter.setdefault("abilities", [])
        twin = next((a for a in abilities if a["kind"] == "support" and
                     {k: v for k, v in a.items() if k not in ("attack", "defense")} ==
                     {k: v for k, v in ability.items() if k not in ("attack", "defense")}), None)
        if twin is not None:   # the same support in attack and in defense: one ability
            twin["attack"] = twin["attack"] or ability["attack"]
            twin["defense"] = twin["defense"] or ability["defense"]
        else:
            abilities.append(ability)
