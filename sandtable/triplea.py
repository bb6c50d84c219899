"""Translating a TripleA game file (XML) into the files of a scenario folder.

`import_game(path)` reads the XML safely (sandtable.safexml) and returns the data of each scenario
file kind plus diagnostics. Every element and option the translation does not carry over is
reported with its XML line: engine settings as info, anything else as a warning. Nothing is
dropped without a word.

The translation targets the aa50 profile (schemas/systems/aa50.schema.json): unit abilities,
national objectives as conditions, China's special rules.
"""
from __future__ import annotations

import re
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path

from .diagnostics import Diagnostic, error, info, warning
from .safexml import Element, XmlDocument, read_xml_file

# TripleA player names of the World War II games -> our nation ids and English names.
NATIONS = {
    "Germans": ("germany", "Germany"),
    "Russians": ("soviet-union", "Soviet Union"),
    "Japanese": ("japan", "Japan"),
    "British": ("united-kingdom", "United Kingdom"),
    "Italians": ("italy", "Italy"),
    "Americans": ("united-states", "United States"),
    "Chinese": ("china", "China"),
}
UNITS = {
    "aaGun": ("aa-gun", "Antiaircraft Gun"),
    "armour": ("armour", "Tank"),
    "carrier": ("carrier", "Aircraft Carrier"),
    "factory": ("factory", "Industrial Complex"),
}
RESOURCES = {
    "PUs": ("ipc", "Industrial Production Certificates"),
    "techTokens": ("research-tokens", "Research tokens"),
}
# Game properties that become scenario options: property -> (option id, name, victory cities).
VICTORY_PROPERTIES = {
    "Projection of Power": ("projection", "Projection", 13),
    "Honorable Surrender": ("surrender-with-honor", "Surrender with Honor", 15),
    "Total Victory": ("total-war", "Total War", 18),
}
OPTION_PROPERTIES = {
    "National Objectives": ("national-objectives", "National objectives and bonus income"),
    "Tech Development": ("research", "Research & development"),
}
# Unit options with a direct counterpart; others are handled in _unit_abilities or reported.
UNIT_STATS = {"attack": "attack", "defense": "defense", "movement": "movement"}
UNIT_DOMAIN_FLAGS = {"isAir": "air", "isSea": "sea", "isFactory": "structure"}
# Engine details of TripleA with no counterpart in the scenario format: reported as info.
ENGINE_ONLY_UNIT_OPTIONS = {"canIntercept", "canEscort", "airDefense", "airAttack", "isInfantry"}
RESEARCH_UNIT_OPTIONS = {"isAirTransport", "isAirTransportable", "isLandTransport"}
ENGINE_SECTIONS = {"loader", "triplea", "diceSides"}


def territory_id(name: str) -> str:
    """'Karelia S.S.R.' -> karelia-ssr; '5 Sea Zone' -> sz-5."""
    sea = re.fullmatch(r"\s*(\d+)\s+Sea Zone\s*", name)
    if sea:
        return f"sz-{int(sea.group(1))}"
    text = name.lower().replace(".", "").replace("'", "")
    return re.sub(r"[^a-z0-9]+", "-", text).strip("-")


def territory_name(name: str) -> str:
    sea = re.fullmatch(r"\s*(\d+)\s+Sea Zone\s*", name)
    return f"Sea Zone {int(sea.group(1))}" if sea else name


def plain_id(name: str) -> str:
    """'aaGun' -> aa-gun, 'Axis' -> axis: camel case and spaces become hyphens."""
    text = re.sub(r"(?<=[a-z0-9])(?=[A-Z])", "-", name).lower()
    return re.sub(r"[^a-z0-9]+", "-", text.replace(".", "").replace("'", "")).strip("-")


def humanise(name: str) -> str:
    words = re.sub(r"(?<=[a-z0-9])(?=[A-Z])", " ", name).replace("_", " ").split()
    return " ".join(words).capitalize() if words else name


@dataclass
class Imported:
    """What the import produced: the data of each file kind, diagnostics and some counts."""

    files: dict[str, dict] = field(default_factory=dict)
    diagnostics: list[Diagnostic] = field(default_factory=list)
    counts: dict[str, int] = field(default_factory=dict)

    @property
    def has_errors(self) -> bool:
        return any(d.is_error for d in self.diagnostics)


def import_game(path: Path | str, scenario_id: str | None = None) -> Imported:
    """Read and translate a TripleA game file. Raises OSError and safexml.XmlRefused."""
    document = read_xml_file(path)
    return translate(document, scenario_id or plain_id(Path(path).stem))


def translate(document: XmlDocument, scenario_id: str) -> Imported:
    return _Translator(document, scenario_id).run()


class _Translator:
    def __init__(self, document: XmlDocument, scenario_id: str):
        self.doc = document
        self.scenario_id = scenario_id
        self.out = Imported(diagnostics=list(document.notes))
        self.territories: dict[str, dict] = {}     # XML name -> space
        self.sea: set[str] = set()
        self.players: dict[str, str] = {}          # XML name -> nation id
        self.player_order: list[str] = []
        self.sides: dict[str, str] = {}            # nation id -> side id
        self.side_names: dict[str, str] = {}
        self.units: dict[str, dict] = {}           # XML name -> unit type
        self.resources: dict[str, str] = {}
        self.borders: list[dict] = []
        self.canals: dict[str, dict] = {}
        self.control: dict[str, str] = {}          # space id -> nation id
        self.placements: dict[str, list[dict]] = defaultdict(list)
        self.resource_given: list[dict] = []
        self.objectives: list[dict] = []
        self.options: list[dict] = []
        self.victory: list[tuple[str, str, int, bool]] = []
        self.capitals: dict[str, tuple[str, Element]] = {}
        self.played_by: dict[str, str] = {}
        self.turn_order: list[str] = []
        self.rules: dict = {}
        self.production_rules: dict[str, tuple[str, int, Element]] = {}
        self.frontiers: dict[str, list[str]] = {}
        self.assigned_frontiers: set[str] = set()
        self.info_attrs: dict[str, str] = {}

    # -- reporting ---------------------------------------------------------------------------
    def note(self, element: Element, message: str, hint: str | None = None) -> None:
        self.out.diagnostics.append(info("TPL005", message, self.doc.where(element), hint))

    def untranslated(self, element: Element, message: str, hint: str | None = None) -> None:
        self.out.diagnostics.append(warning("TPL005", message, self.doc.where(element), hint))

    def unknown(self, element: Element, what: str, name: str) -> None:
        self.out.diagnostics.append(error("TPL006", f"<{element.tag}> names the {what} {name!r}, "
                                          "which the game does not define", self.doc.where(element)))

    def number(self, element: Element, text: str | None, what: str) -> int | None:
        try:
            return int(str(text).strip())
        except ValueError:
            self.out.diagnostics.append(warning(
                "TPL007", f"{what} is {text!r}, not a whole number; it was not translated",
                self.doc.where(element)))
            return None

    # -- the walk ----------------------------------------------------------------------------
    def run(self) -> Imported:
        root = self.doc.root
        if root.tag != "game":
            self.out.diagnostics.append(error("TPL004", f"the root element is <{root.tag}>, not "
                                              "<game>: this is not a TripleA game file",
                                              self.doc.where(root)))
            return self.out
        sections = {
            "info": self._info, "map": self._map, "resourceList": self._resources,
            "playerList": self._players, "unitList": self._unit_list, "gamePlay": self._game_play,
            "production": self._production, "attachmentList": self._attachments,
            "initialize": self._initialize, "propertyList": self._properties,
        }
        order = ["info", "map", "resourceList", "playerList", "unitList", "production",
                 "gamePlay", "propertyList", "attachmentList", "initialize"]
        by_tag = defaultdict(list)
        for child in root.children:
            if child.tag in sections:
                by_tag[child.tag].append(child)
            elif child.tag in ENGINE_SECTIONS:
                self.note(child, f"<{child.tag}> is a TripleA engine setting; not translated")
            else:
                self.untranslated(child, f"<{child.tag}> is not translated")
        for tag in order:
            for element in by_tag[tag]:
                sections[tag](element)
        self._assemble()
        return self.out

    def _info(self, element: Element) -> None:
        self.info_attrs = dict(element.attrs)

    # -- map ---------------------------------------------------------------------------------
    def _map(self, element: Element) -> None:
        for child in element.children:
            if child.tag == "territory":
                self._territory(child)
        for child in element.children:
            if child.tag == "connection":
                self._connection(child)
            elif child.tag != "territory":
                self.untranslated(child, f"<{child.tag}> in <map> is not translated")

    def _territory(self, element: Element) -> None:
        name = element.attrs.get("name", "")
        water = element.attrs.get("water", "false").strip().lower() == "true"
        space = {"id": territory_id(name), "name": territory_name(name), "kind": "sea" if water else "land"}
        if name in self.territories:
            self.untranslated(element, f"territory {name!r} is defined twice; the second is ignored")
            return
        self.territories[name] = space
        if water:
            self.sea.add(name)

    def _connection(self, element: Element) -> None:
        a, b = element.attrs.get("t1", ""), element.attrs.get("t2", "")
        for name in (a, b):
            if name not in self.territories:
                self.unknown(element, "territory", name)
                return
        sea_a, sea_b = a in self.sea, b in self.sea
        kind = "sea" if sea_a and sea_b else "land" if not (sea_a or sea_b) else "coast"
        self.borders.append({"between": [territory_id(a), territory_id(b)], "kind": kind})

    # -- players, units, resources -----------------------------------------------------------
    def _resources(self, element: Element) -> None:
        for child in element.children:
            if child.tag != "resource":
                self.untranslated(child, f"<{child.tag}> in <resourceList> is not translated")
                continue
            name = child.attrs.get("name", "")
            self.resources[name] = RESOURCES.get(name, (plain_id(name), humanise(name)))[0]

    def _resource_entities(self) -> list[dict]:
        names = {rid: RESOURCES.get(xml, (rid, humanise(xml)))[1] for xml, rid in self.resources.items()}
        return [{"id": rid, "name": names[rid]} for rid in self.resources.values()]

    def _players(self, element: Element) -> None:
        for child in element.children:
            if child.tag == "player":
                name = child.attrs.get("name", "")
                self.players[name] = NATIONS.get(name, (plain_id(name), humanise(name)))[0]
                self.player_order.append(name)
                if child.attrs.get("optional", "false") == "true":
                    self.note(child, f"player {name!r} is optional in TripleA; that is not translated")
        for child in element.children:
            if child.tag == "alliance":
                player, alliance = child.attrs.get("player", ""), child.attrs.get("alliance", "")
                if player not in self.players:
                    self.unknown(child, "player", player)
                    continue
                nation = self.players[player]
                if nation in self.sides:
                    self.untranslated(child, f"{player!r} is in a second alliance {alliance!r}; "
                                      "a nation has one side here")
                    continue
                self.sides[nation] = plain_id(alliance)
                self.side_names[plain_id(alliance)] = alliance
            elif child.tag != "player":
                self.untranslated(child, f"<{child.tag}> in <playerList> is not translated")

    def _unit_list(self, element: Element) -> None:
        for child in element.children:
            if child.tag != "unit":
                self.untranslated(child, f"<{child.tag}> in <unitList> is not translated")
                continue
            name = child.attrs.get("name", "")
            unit_id, unit_name = UNITS.get(name, (plain_id(name), humanise(name)))
            self.units[name] = {"id": unit_id, "name": unit_name, "domain": "land"}

    # -- the game sequence: turn order and who plays for whom ---------------------------------
    def _game_play(self, element: Element) -> None:
        steps = []
        for child in element.children:
            if child.tag == "sequence":
                steps += [s for s in child.children if s.tag == "step"]
            elif child.tag == "delegate":
                continue  # engine classes; the sequence below says what the game does
            else:
                self.untranslated(child, f"<{child.tag}> in <gamePlay> is not translated")
        delegates = [c for c in element.children if c.tag == "delegate"]
        if delegates:
            self.note(delegates[0], f"the {len(delegates)} TripleA delegates are engine classes; "
                      "not translated")
        turn_steps = [s for s in steps if s.attrs.get("player") and "maxRunCount" not in s.attrs]
        one_time = [s for s in steps if s.attrs.get("player") and "maxRunCount" in s.attrs]
        if one_time:
            self.note(one_time[0], f"{len(one_time)} one-time steps (such as bidding) are not translated")
        if turn_steps:
            self.note(turn_steps[0], f"the {len(turn_steps)} steps of the round are not translated "
                      "one by one; the turn order and who plays for whom were taken from them")
        spans: dict[str, list[int]] = {}
        for position, step in enumerate(turn_steps):
            player = step.attrs["player"]
            if player not in self.players:
                self.unknown(step, "player", player)
                continue
            spans.setdefault(player, [position, position])[1] = position
        for player, (first, last) in sorted(spans.items(), key=lambda item: item[1][0]):
            host = next((other for other, (o_first, o_last) in spans.items()
                         if other != player and o_first < first and last < o_last), None)
            nation = self.players[player]
            if host is not None:
                self.played_by[nation] = self.players[host]
            else:
                self.turn_order.append(nation)

    # -- production: unit costs --------------------------------------------------------------
    def _production(self, element: Element) -> None:
        for child in element.children:
            if child.tag == "productionRule":
                cost, result = child.find("cost"), child.find("result")
                if cost is None or result is None:
                    self.untranslated(child, "a production rule without cost or result is not translated")
                    continue
                amount = self.number(cost, cost.attrs.get("quantity"), "the cost")
                made = self.number(result, result.attrs.get("quantity"), "the quantity made")
                if amount is None or made is None:
                    continue
                if made != 1:
                    self.untranslated(child, f"production rule {child.attrs.get('name')!r} makes {made} "
                                      "units at once; only single-unit costs are translated")
                    continue
                self.production_rules[child.attrs.get("name", "")] = (
                    result.attrs.get("resourceOrUnit", ""), amount, child)
            elif child.tag == "productionFrontier":
                self.frontiers[child.attrs.get("name", "")] = [
                    r.attrs.get("name", "") for r in child.find_all("frontierRules")]
            elif child.tag == "playerProduction":
                self.assigned_frontiers.add(child.attrs.get("frontier", ""))
            elif child.tag in ("repairRule", "repairFrontier", "playerRepair"):
                self.note(child, f"<{child.tag}> is not translated: repairs cost 1 IPC per damage "
                          "marker in the rules of the game system")
            else:
                self.untranslated(child, f"<{child.tag}> in <production> is not translated")

    def _unit_costs(self) -> None:
        for frontier, rules in self.frontiers.items():
            for rule_name in rules:
                if rule_name not in self.production_rules:
                    continue
                unit, amount, element = self.production_rules[rule_name]
                if unit not in self.units:
                    self.unknown(element, "unit", unit)
                    continue
                if frontier not in self.assigned_frontiers:
                    self.note(element, f"the cost {amount} of {unit!r} in frontier {frontier!r}, "
                              "which no player starts with, is not translated (a research result)")
                    continue
                known = self.units[unit].get("cost")
                if known is not None and known != amount:
                    self.untranslated(element, f"{unit!r} costs {known} and {amount} in two frontiers; "
                                      f"{known} was kept")
                    continue
                self.units[unit]["cost"] = amount

    # -- attachments -------------------------------------------------------------------------
    def _attachments(self, element: Element) -> None:
        for child in element.children:
            if child.tag != "attachment":
                self.untranslated(child, f"<{child.tag}> in <attachmentList> is not translated")
                continue
            name, kind = child.attrs.get("name", ""), child.attrs.get("type", "")
            if kind == "unitType" and name == "unitAttachment":
                self._unit_attachment(child)
            elif kind == "territory" and name == "territoryAttachment":
                self._territory_attachment(child)
            elif kind == "territory" and name == "canalAttachment":
                self._canal_attachment(child)
            elif kind == "player" and name == "techAttachment":
                self._tech_attachment(child)
            elif kind == "player" and name.startswith("objectiveAttachment"):
                self._objective(child)
            elif kind == "player" and name == "rulesAttachment":
                self._player_rules(child)
            else:
                self.untranslated(child, f"attachment {name!r} of type {kind!r} is not translated")

    def _options(self, attachment: Element) -> list[Element]:
        return [c for c in attachment.children if c.tag == "option"]

    def _unit_attachment(self, attachment: Element) -> None:
        name = attachment.attrs.get("attachTo", "")
        unit = self.units.get(name)
        if unit is None:
            self.unknown(attachment, "unit", name)
            return
        flags: dict[str, tuple[str, Element]] = {}
        for option in self._options(attachment):
            flags[option.attrs.get("name", "")] = (option.attrs.get("value", ""), option)
        stats = {}
        for key, stat in UNIT_STATS.items():
            if key in flags:
                value = self.number(flags[key][1], flags[key][0], f"{name} {key}")
                if value is not None:
                    stats[stat] = value
        for flag, domain in UNIT_DOMAIN_FLAGS.items():
            if flags.get(flag, ("",))[0] == "true":
                unit["domain"] = domain
        if stats:
            unit["stats"] = stats
        unit["abilities"] = self._unit_abilities(name, flags)
        if not unit["abilities"]:
            del unit["abilities"]

    def _unit_abilities(self, name: str, flags: dict[str, tuple[str, Element]]) -> list[dict]:
        abilities: list[dict] = []
        handled = set(UNIT_STATS) | set(UNIT_DOMAIN_FLAGS)

        def on(flag: str) -> bool:
            handled.add(flag)
            return flags.get(flag, ("",))[0] == "true"

        def amount(flag: str) -> int | None:
            handled.add(flag)
            if flag not in flags:
                return None
            return self.number(flags[flag][1], flags[flag][0], f"{name} {flag}")

        if on("artillery"):
            supported = [self.units[u]["id"] for u in self._units_with_flag("artillerySupportable")]
            abilities.append({"kind": "artillery_support", "types": supported, "per_unit": 1, "bonus": 1})
        on("artillerySupportable")  # carried by the supporting unit's artillery_support
        if on("canBlitz"):
            abilities.append({"kind": "blitz"})
        hit_points = amount("hitPoints")
        if hit_points == 2:
            abilities.append({"kind": "two_hits"})
        elif hit_points not in (None, 1):
            self.untranslated(flags["hitPoints"][1], f"{name} has {hit_points} hit points; only 1 or 2 "
                              "are translated")
        if on("canBombard"):
            abilities.append({"kind": "offshore_bombardment"})
        capacity = amount("carrierCapacity")
        if capacity:
            carried = [self.units[u]["id"] for u in self._units_with_flag("carrierCost", any_value=True)]
            abilities.append({"kind": "carrier", "capacity": capacity, "carries": carried})
        size = amount("carrierCost")
        if size:
            abilities.append({"kind": "carrier_landing", "size": size})
        if on("isSub"):
            abilities += [{"kind": "submerge"}, {"kind": "surprise_strike"}, {"kind": "sub_movement"},
                          {"kind": "cannot_hit_air"}]
        if on("isDestroyer"):
            abilities.append({"kind": "anti_submarine"})
        capacity = amount("transportCapacity")
        if capacity and flags.get("isAirTransport", ("",))[0] != "true":
            abilities.append({"kind": "transport", "capacity": capacity})
        size = amount("transportCost")
        if size:
            abilities.append({"kind": "transportable", "size": size})
        if on("isStrategicBomber"):
            abilities.append({"kind": "strategic_bombing", "dice": 1})
        if on("isAA"):
            abilities += [{"kind": "anti_aircraft", "hit_on": 1}, {"kind": "noncombat_move_only"},
                          {"kind": "capturable"}]
        if flags.get("isFactory", ("",))[0] == "true":
            abilities += [{"kind": "factory"}, {"kind": "capturable"}]
        for flag, (value, option) in flags.items():
            if flag in handled:
                continue
            if flag in ENGINE_ONLY_UNIT_OPTIONS:
                self.note(option, f"{name} option {flag}={value} is a TripleA engine setting; not translated")
            elif flag in RESEARCH_UNIT_OPTIONS:
                self.untranslated(option, f"{name} option {flag}={value} belongs to a research "
                                  "breakthrough (paratroopers, mechanized infantry); not a base ability",
                                  "describe it in the research chart of the rules")
            else:
                self.untranslated(option, f"{name} option {flag}={value} is not translated")
        return abilities

    def _units_with_flag(self, flag: str, any_value: bool = False) -> list[str]:
        found = []
        for attachment in self.doc.root.iter("attachment"):
            if attachment.attrs.get("type") != "unitType" or attachment.attrs.get("attachTo") not in self.units:
                continue
            for option in self._options(attachment):
                if option.attrs.get("name") == flag and (any_value or option.attrs.get("value") == "true"):
                    found.append(attachment.attrs["attachTo"])
        return found

    def _territory_attachment(self, attachment: Element) -> None:
        name = attachment.attrs.get("attachTo", "")
        space = self.territories.get(name)
        if space is None:
            self.unknown(attachment, "territory", name)
            return
        production = None
        for option in self._options(attachment):
            key, value = option.attrs.get("name", ""), option.attrs.get("value", "")
            if key == "production":
                production = self.number(option, value, f"the production of {name}")
                if production is not None and space["kind"] == "land":
                    space["value"] = production
            elif key == "victoryCity":
                if value.strip() not in ("0", "false"):
                    self._tag(space, "victory_city")
            elif key == "capital":
                if value not in self.players:
                    self.unknown(option, "player", value)
                    continue
                self._tag(space, "capital")
                self.capitals[self.players[value]] = (space["id"], option)
            elif key == "isImpassable":
                if value == "true":
                    self._tag(space, "neutral")
                    self._tag(space, "impassable")
            elif key == "originalOwner":
                if value not in self.players:
                    self.unknown(option, "player", value)
                    continue
                space["original_owner"] = self.players[value]
            elif key == "unitProduction":
                limit = self.number(option, value, f"the unit production of {name}")
                if limit is not None and limit != production:
                    self.untranslated(option, f"{name} may produce {limit} units but is worth "
                                      f"{production}; a factory's limit is the territory's value here")
            else:
                self.untranslated(option, f"territory option {key}={value} of {name} is not translated")

    @staticmethod
    def _tag(space: dict, tag: str) -> None:
        tags = space.setdefault("tags", [])
        if tag not in tags:
            tags.append(tag)

    def _canal_attachment(self, attachment: Element) -> None:
        sea = attachment.attrs.get("attachTo", "")
        if sea not in self.territories:
            self.unknown(attachment, "territory", sea)
            return
        values = {o.attrs.get("name", ""): (o.attrs.get("value", ""), o) for o in self._options(attachment)}
        name = values.get("canalName", ("", attachment))[0]
        if not name:
            self.untranslated(attachment, "a canal attachment without canalName is not translated")
            return
        canal = self.canals.setdefault(name, {"id": plain_id(name.replace(" Canal", "")), "name": name,
                                              "joins": [], "controlled_by": [], "element": attachment})
        canal["joins"].append(territory_id(sea))
        lands, element = values.get("landTerritories", ("", attachment))
        for land in filter(None, lands.split(":")):
            if land not in self.territories:
                self.unknown(element, "territory", land)
            elif territory_id(land) not in canal["controlled_by"]:
                canal["controlled_by"].append(territory_id(land))
        for key, (value, option) in values.items():
            if key not in ("canalName", "landTerritories"):
                self.untranslated(option, f"canal option {key}={value} is not translated")

    def _tech_attachment(self, attachment: Element) -> None:
        player = attachment.attrs.get("attachTo", "")
        known = [o for o in self._options(attachment) if o.attrs.get("value") == "true"]
        if known:
            for option in known:
                self.untranslated(option, f"{player} starts with technology {option.attrs.get('name')!r}; "
                                  "starting technologies are not translated")
        else:
            self.note(attachment, f"{player} starts with no technology; the list of TripleA "
                      "technologies is not translated (the research charts are rules data)")

    # -- national objectives -----------------------------------------------------------------
    def _objective(self, attachment: Element) -> None:
        player = attachment.attrs.get("attachTo", "")
        if player not in self.players:
            self.unknown(attachment, "player", player)
            return
        nation = self.players[player]
        number = re.sub(r"\D", "", attachment.attrs.get("name", "")) or str(len(self.objectives) + 1)
        award, parts = None, []
        for option in self._options(attachment):
            key, value = option.attrs.get("name", ""), option.attrs.get("value", "")
            count = option.attrs.get("count")
            if key == "objectiveValue":
                award = self.number(option, value, "the objective's value")
                continue
            condition = self._condition(nation, key, value, count, option)
            if condition is not None:
                parts.append(condition)
        if award is None or not parts:
            self.untranslated(attachment, f"objective {attachment.attrs.get('name')!r} of {player} has "
                              "no value or no condition that could be translated; it was left out")
            return
        objective = {
            "id": f"{nation}-{number}",
            "name": f"{NATIONS.get(player, (nation, humanise(player)))[1]} objective {number}",
            "owner": nation, "kind": "national_objective", "timing": "collect_income",
            "award": {"resource": self._money(), "amount": award},
            "when": parts[0] if len(parts) == 1 else {"all": parts},
        }
        self.objectives.append(objective)

    def _money(self) -> str:
        return self.resources.get("PUs", next(iter(self.resources.values()), "ipc"))

    def _space_list(self, option: Element, value: str) -> list[str] | None:
        names = [n for n in value.split(":") if n]
        missing = [n for n in names if n not in self.territories]
        if missing:
            self.unknown(option, "territory", missing[0])
            return None
        return [territory_id(n) for n in names]

    def _condition(self, nation: str, key: str, value: str, count_text, option: Element):
        count = self.number(option, count_text, f"the count of {key}") if count_text is not None else None
        if key in ("alliedOwnershipTerritories", "directOwnershipTerritories"):
            spaces = self._space_list(option, value)
            if spaces is None:
                return None
            condition: dict[str, object] = {"owner": nation, "spaces": spaces}
            if key == "alliedOwnershipTerritories":
                condition["allied"] = True
            if count is not None and count < len(spaces):
                condition["count"] = count
            return {"controls": condition}
        if key in ("enemySurfaceExclusionTerritories", "enemyExclusionTerritories"):
            spaces = self._space_list(option, value)
            if spaces is None:
                return None
            surface = key == "enemySurfaceExclusionTerritories"

            def clear(where: list[str]) -> dict:
                body: dict[str, object] = {"owner": nation, "spaces": where}
                if surface:
                    body["surface_only"] = True
                return {"no_enemy_units": body}
            if count is not None and count < len(spaces):
                return {"at_least": {"count": count, "of": [clear([s]) for s in spaces]}}
            return clear(spaces)
        if key == "alliedExclusionTerritories":
            allies = [n for n, side in self.sides.items() if side == self.sides.get(nation) and n != nation]
            present: list[dict[str, dict[str, object]]]
            if value == "controlled":
                present = [{"units_present": {"owner": ally, "controller": nation}} for ally in allies]
            else:
                spaces = self._space_list(option, value)
                if spaces is None:
                    return None
                present = [{"units_present": {"owner": ally, "spaces": spaces}} for ally in allies]
            if not present:
                return None
            return {"not": present[0] if len(present) == 1 else {"any": present}}
        self.untranslated(option, f"objective condition {key}={value} is not translated")
        return None

    def _player_rules(self, attachment: Element) -> None:
        """A player's movement and production restrictions (China in the AA50 games)."""
        player = attachment.attrs.get("attachTo", "")
        if player not in self.players:
            self.unknown(attachment, "player", player)
            return
        nation = self.players[player]
        rules: dict = {"nation": nation}
        for option in self._options(attachment):
            key, value = option.attrs.get("name", ""), option.attrs.get("value", "")
            if key == "movementRestrictionTerritories":
                spaces = self._space_list(option, value)
                if spaces is not None:
                    rules["territories"] = spaces
            elif key == "movementRestrictionType" and value == "allowed":
                continue  # the territories above are the allowed ones
            elif key == "productionPerXTerritories":
                rules["infantry_per_territories"] = self.number(option, value, key)
            elif key == "placementPerTerritory":
                rules["placement_limit"] = self.number(option, value, key)
            elif key in ("placementAnyTerritory", "placementCapturedTerritory") and value == "true":
                rules["place_in_any_territory"] = True
            else:
                self.untranslated(option, f"rule {key}={value} of {player} is not translated")
        if nation != "china":
            self.untranslated(attachment, f"the special rules of {player} are not translated; only "
                              "China's have a place in the aa50 rules")
            return
        rules.update({"unit": "infantry", "collects_income": False, "may_use_transports": False})
        self.rules["china"] = {k: v for k, v in rules.items() if v is not None}

    # -- initial state -----------------------------------------------------------------------
    def _initialize(self, element: Element) -> None:
        for section in element.children:
            if section.tag == "ownerInitialize":
                for child in section.children:
                    self._owner(child)
            elif section.tag == "unitInitialize":
                for child in section.children:
                    self._placement(child)
            elif section.tag == "resourceInitialize":
                for child in section.children:
                    self._resource_given(child)
            else:
                self.untranslated(section, f"<{section.tag}> in <initialize> is not translated")

    def _owner(self, element: Element) -> None:
        if element.tag != "territoryOwner":
            self.untranslated(element, f"<{element.tag}> in <ownerInitialize> is not translated")
            return
        territory, owner = element.attrs.get("territory", ""), element.attrs.get("owner", "")
        if territory not in self.territories:
            return self.unknown(element, "territory", territory)
        if owner not in self.players:
            return self.unknown(element, "player", owner)
        self.control[territory_id(territory)] = self.players[owner]

    def _placement(self, element: Element) -> None:
        if element.tag != "unitPlacement":
            self.untranslated(element, f"<{element.tag}> in <unitInitialize> is not translated")
            return
        unit, territory = element.attrs.get("unitType", ""), element.attrs.get("territory", "")
        owner = element.attrs.get("owner", "")
        if unit not in self.units:
            return self.unknown(element, "unit", unit)
        if territory not in self.territories:
            return self.unknown(element, "territory", territory)
        if owner not in self.players:
            return self.unknown(element, "player", owner)
        quantity = self.number(element, element.attrs.get("quantity"), "the quantity placed")
        if quantity is None or quantity < 1:
            return
        space_id = territory_id(territory)
        nation = self.players[owner]
        stacks = self.placements[space_id]
        same = next((s for s in stacks if s["type"] == self.units[unit]["id"] and s["owner"] == nation), None)
        if same:
            same["count"] += quantity
        else:
            stacks.append({"type": self.units[unit]["id"], "owner": nation, "count": quantity})
        self.out.counts["placements"] = self.out.counts.get("placements", 0) + 1

    def _resource_given(self, element: Element) -> None:
        if element.tag != "resourceGiven":
            self.untranslated(element, f"<{element.tag}> in <resourceInitialize> is not translated")
            return
        player, resource = element.attrs.get("player", ""), element.attrs.get("resource", "")
        if player not in self.players:
            return self.unknown(element, "player", player)
        if resource not in self.resources:
            return self.unknown(element, "resource", resource)
        amount = self.number(element, element.attrs.get("quantity"), "the amount given")
        if amount is not None:
            self.resource_given.append({"owner": self.players[player],
                                        "resource": self.resources[resource], "amount": amount})

    # -- properties --------------------------------------------------------------------------
    def _properties(self, element: Element) -> None:
        for child in element.children:
            if child.tag != "property":
                self.untranslated(child, f"<{child.tag}> in <propertyList> is not translated")
                continue
            name, value = child.attrs.get("name", ""), child.attrs.get("value", "")
            if name in VICTORY_PROPERTIES:
                option_id, option_name, cities = VICTORY_PROPERTIES[name]
                self.victory.append((option_id, option_name, cities, value == "true"))
            elif name in OPTION_PROPERTIES:
                option_id, option_name = OPTION_PROPERTIES[name]
                self.options.append({"id": option_id, "name": option_name, "default": value == "true"})
            elif name.endswith(" bid"):
                self.note(child, f"property {name!r} (bidding) is not translated")
            else:
                self.note(child, f"property {name!r}={value!r} is a TripleA engine setting; not translated")

    # -- putting the files together ----------------------------------------------------------
    def _assemble(self) -> None:
        self._unit_costs()
        spaces = list(self.territories.values())
        self._mark_islands(spaces)
        for canal in self.canals.values():
            self._canal_borders(canal)
        canals = [{k: v for k, v in c.items() if k != "element"} for c in self.canals.values()]
        map_data: dict = {"spaces": spaces, "borders": self.borders}
        if canals:
            map_data["canals"] = canals
        self.out.files["map"] = map_data
        self.out.files["units"] = {"unit_types": list(self.units.values())}
        self.out.files["setup"] = self._setup(spaces)
        self.out.files["scenario"] = self._scenario()
        if self.objectives:
            option = "national-objectives" if any(o["id"] == "national-objectives" for o in self.options) else None
            for objective in self.objectives:
                if option:
                    objective["option"] = option
            self.out.files["objectives"] = {"objectives": self.objectives}
        self.out.counts.update({"spaces": len(spaces), "borders": len(self.borders),
                                "unit_types": len(self.units), "objectives": len(self.objectives)})

    def _mark_islands(self, spaces: list[dict]) -> None:
        neighbours: dict[str, set[str]] = defaultdict(set)
        for border in self.borders:
            a, b = border["between"]
            neighbours[a].add(b)
            neighbours[b].add(a)
        kinds = {s["id"]: s["kind"] for s in spaces}
        for space in spaces:
            around = neighbours[space["id"]]
            if space["kind"] == "land" and around and all(kinds[n] == "sea" for n in around):
                self._tag(space, "island")

    def _canal_borders(self, canal: dict) -> None:
        joins = canal["joins"]
        if len(joins) != 2:
            self.untranslated(canal["element"], f"{canal['name']} is attached to {len(joins)} sea zones; "
                              "a canal joins two")
            return
        for border in self.borders:
            if set(border["between"]) == set(joins):
                border["kind"] = "canal"
                border["canal"] = canal["id"]
                return
        self.borders.append({"between": list(joins), "kind": "canal", "canal": canal["id"]})

    def _setup(self, spaces: list[dict]) -> dict:
        entries = []
        for space in spaces:
            space_id = space["id"]
            control = self.control.get(space_id)
            stacks = self.placements.get(space_id, [])
            if control is None and not stacks:
                continue
            entry: dict = {"space": space_id}
            if control:
                entry["control"] = control
            if stacks:
                entry["units"] = [self._stack(s, control, space, stacks) for s in stacks]
            entries.append(entry)
        setup: dict = {"spaces": entries}
        if self.resource_given:
            setup["resources"] = self.resource_given
        return setup

    def _stack(self, stack: dict, control: str | None, space: dict, stacks: list[dict]) -> dict:
        """A unit stack of the setup; land units in a sea zone ride a transport of their owner."""
        out = {"type": stack["type"], "count": stack["count"]}
        if stack["owner"] != control:
            out["owner"] = stack["owner"]
        by_id = {u["id"]: u for u in self.units.values()}
        if space["kind"] == "sea" and by_id[stack["type"]]["domain"] == "land":
            carriers = [s["type"] for s in stacks if s["owner"] == stack["owner"] and any(
                a["kind"] == "transport" for a in by_id[s["type"]].get("abilities", []))]
            if carriers:
                out["aboard"] = carriers[0]
        return out

    def _scenario(self) -> dict:
        title = self.info_attrs.get("name") or self.scenario_id
        data: dict = {"id": self.scenario_id, "name": title, "system": "aa50", "source_language": "en",
                      "notes": [f"Imported from the TripleA game {title!r} by `sandtable import triplea`."]}
        if self.info_attrs.get("version"):
            data["version"] = self.info_attrs["version"]
        data["sides"] = [{"id": side, "name": name} for side, name in self.side_names.items()]
        income = {g["owner"]: g["amount"] for g in self.resource_given if g["resource"] == self._money()}
        victory_spaces = {s["id"] for s in self.territories.values() if "victory_city" in s.get("tags", [])}
        impassable = {s["id"] for s in self.territories.values() if "impassable" in s.get("tags", [])}
        nations = []
        for player in self.player_order:
            nation_id = self.players[player]
            nation: dict = {"id": nation_id, "name": NATIONS.get(player, (nation_id, humanise(player)))[1]}
            if nation_id in self.sides:
                nation["side"] = self.sides[nation_id]
            if nation_id in self.capitals:
                capital, option = self.capitals[nation_id]
                if capital in impassable:
                    space = next(s for s in self.territories.values() if s["id"] == capital)
                    space["tags"].remove("capital")
                    self.out.diagnostics.append(warning(
                        "TPL009", f"the capital of {player}, {capital!r}, is an impassable territory; "
                        "it was not translated", self.doc.where(option),
                        hint="TripleA uses such a capital as a technical marker; give the nation no capital"))
                else:
                    nation["capital"] = capital
            if nation_id in self.played_by:
                nation["played_by"] = self.played_by[nation_id]
            if nation_id in income:
                nation["income"] = income[nation_id]
            held = sum(1 for space, owner in self.control.items() if owner == nation_id and space in victory_spaces)
            nation["victory_cities"] = held
            nations.append(nation)
        data["nations"] = nations
        data["turn_order"] = self.turn_order
        data["resources"] = self._resource_entities()
        options = list(self.options)
        for option_id, name, cities, default in self.victory:
            options.append({"id": option_id, "name": f"{name}: {cities} victory cities", "default": default})
        if options:
            data["options"] = options
        victory = []
        for option_id, name, cities, _default in self.victory:
            for side, side_name in self.side_names.items():
                victory.append({"id": f"{side}-{option_id}", "name": f"{side_name} win: {name}",
                                "side": side, "option": option_id,
                                "when": {"victory_cities": {"side": side, "count": cities}}})
        if victory:
            data["victory"] = victory
        if self.rules:
            data["rules"] = self.rules
        return data
