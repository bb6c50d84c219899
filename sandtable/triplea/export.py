"""A TripleA game file from an AA50-family scenario: design here, play there.

`export_game(scenario)` writes, for a loaded scenario (a variant merged over its parent), the
game file TripleA loads: the map, players and alliances, the turn sequence, unit types and
their attachments, production, territory attachments, canals, national objectives, starting
ownership, units and resources, and the game's options as properties. It is valid against
TripleA's game.dtd, and `import triplea` of it gives the same scenario (docs/import-triplea.md
says what "the same" covers).

Everything is written the way the importer reads it back, so each value the scenario holds that
TripleA cannot say is refused by name (ExportError) instead of being dropped. What TripleA's file
has no place for, the kind of a border across the board's edge (`wrap`) and China's rules that no
TripleA option says, travels in properties named `sandtable.borders` and `sandtable.china` that
TripleA keeps and ignores.

Territories and players are written under their TripleA names (`triplea_name`, kept by the
import; the names of the scenario's TripleA map, `triplea_map`, written as the game's `mapName`),
so that TripleA finds each territory on the map. Properties carry a typed child (`<boolean/>`,
`<number/>`, `<string/>`) and the game a version, as TripleA 1.9 requires; later TripleA accepts
both. The nation whose TripleA name is `Neutral` is TripleA's neutral player: it is no player of
the file, and its units are placed without an owner.
"""
from __future__ import annotations

import json
import re
from xml.etree import ElementTree

from .names import NATIONS, RESOURCES, UNITS, plain_id, territory_id, triplea_territory_name

PLAYERS = {nation: player for player, (nation, _) in NATIONS.items()}
UNIT_NAMES = {unit: name for name, (unit, _) in UNITS.items()}
RESOURCE_NAMES = {resource: name for name, (resource, _) in RESOURCES.items()}
# How the importer names the victory options (sandtable.triplea.translate.VICTORY_PROPERTIES).
VICTORY = {"projection": ("Projection of Power", "Projection of Power VCs"),
           "surrender-with-honor": ("Honorable Surrender", "Honorable Victory VCs"),
           "total-war": ("Total Victory", "Total Victory VCs")}
OPTIONS = {"national-objectives": "National Objectives", "research": "Tech Development"}
BORDERS_PROPERTY = "sandtable.borders"
CHINA_PROPERTY = "sandtable.china"
NEUTRAL = "Neutral"   # TripleA's neutral ("null") player: always there, never in the player list
# TripleA's switches for the rules of a player's rulesAttachment (China's), by rules.china key.
CHINA_SWITCHES = {"territories": "Movement By Territory Restricted",
                  "infantry_per_territories": "Production Per X Territories Restricted",
                  "placement_limit": "Unit Placement Per Territory Restricted",
                  "place_in_any_territory": "Place in Any Territory"}
_VERSION = re.compile(r"^\d{1,9}(\.\d{1,9}){0,3}$")   # what TripleA's Version reads
DELEGATES = [  # name, class, display
    ("initDelegate", "InitializationDelegate", "Initializing Delegates"),
    ("tech", "TechnologyDelegate", "Research Technology"),
    ("tech_activation", "TechActivationDelegate", "Activate Technology"),
    ("battle", "BattleDelegate", "Combat"),
    ("move", "MoveDelegate", "Combat Move"),
    ("place", "PlaceDelegate", "Place Units"),
    ("purchase", "PurchaseDelegate", "Purchase Units"),
    ("purchaseNoPU", "NoPUPurchaseDelegate", "Purchase Units"),
    ("endTurn", "EndTurnDelegate", "Turn Complete"),
    ("endTurnNoPU", "NoPUEndTurnDelegate", "Turn Complete"),
    ("endRound", "EndRoundDelegate", "Round Complete"),
]
SUB_ABILITIES = {"submerge", "surprise_strike", "sub_movement", "cannot_hit_air"}
_XML_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9._-]*$")
_PACKAGE = "games.strategy.triplea"


class ExportError(Exception):
    """The scenario holds something a TripleA game file cannot say; `problems` says what."""

    def __init__(self, problems: list[str]):
        super().__init__("; ".join(problems))
        self.problems = problems


def export_game(scenario) -> str:
    """The TripleA game file (XML text) of a loaded AA50-family scenario."""
    return _Exporter(scenario).run()


class _Exporter:
    def __init__(self, scenario):
        self.scenario = scenario
        self.problems: list[str] = []
        self.manifest = scenario.manifest
        self.spaces = [s for _, s in scenario.entities("map", "spaces")]
        self.borders = [b for _, b in scenario.entities("map", "borders")]
        self.units = [u for _, u in scenario.entities("units", "unit_types")]
        self.nations = [n for _, n in scenario.entities("scenario", "nations")]
        self.sides = {s["id"]: s for _, s in scenario.entities("scenario", "sides")}
        self.space_kind = {s["id"]: s.get("kind") for s in self.spaces}

    def problem(self, text: str) -> None:
        self.problems.append(text)

    # -- names -----------------------------------------------------------------------------------
    def territory(self, space_id: str) -> str:
        return self.territory_names[space_id]

    def run(self) -> str:
        if self.scenario.system != "aa50":
            raise ExportError([f"the scenario's system is {self.scenario.system!r}; the export writes "
                               "AA50-family scenarios (system aa50)"])
        self._names()
        root = ElementTree.Element("game")
        self._info(root)
        self._map(root)
        self._resources(root)
        self._players(root)
        self._unit_list(root)
        self._game_play(root)
        self._production(root)
        self._attachments(root)
        self._initialize(root)
        self._properties(root)
        if self.problems:
            raise ExportError(self.problems)
        ElementTree.indent(root, space="  ")
        body = ElementTree.tostring(root, encoding="unicode")
        return f'<?xml version="1.0" encoding="UTF-8"?>\n<!DOCTYPE game SYSTEM "game.dtd">\n{body}\n'

    def _names(self) -> None:
        self.territory_names = {}
        named: dict[str, str] = {}
        for space in self.spaces:
            name = space.get("triplea_name") or triplea_territory_name(space.get("name", ""))
            given = "triplea_name" if space.get("triplea_name") else "name"
            if territory_id(name) != space["id"]:
                self.problem(f"space {space['id']!r}: TripleA knows it by its {given} {name!r}, which the import "
                             f"makes the id {territory_id(name)!r}; give the space the id {territory_id(name)!r} "
                             "or the triplea_name of the map's territory")
            elif ":" in name or name != name.strip():
                self.problem(f"space {space['id']!r}: its TripleA name {name!r} has a ':' or spaces at an end, "
                             "which TripleA's lists cannot hold; give a triplea_name without them")
            elif name in named:
                self.problem(f"spaces {named[name]!r} and {space['id']!r} would share the TripleA name {name!r}")
            named[name] = space["id"]
            self.territory_names[space["id"]] = name
        self.player_names = {n["id"]: self._player_name(n) for n in self.nations}
        self.neutral = next((n["id"] for n in self.nations if self.player_names[n["id"]] == NEUTRAL), None)
        self.unit_names = {u["id"]: UNIT_NAMES.get(u["id"], u["id"]) for u in self.units}
        self.resource_names = {r["id"]: RESOURCE_NAMES.get(r["id"], r["id"])
                               for _, r in self.scenario.entities("scenario", "resources")}
        taken: dict[str, str] = {}
        players = {i: name for i, name in self.player_names.items() if i != self.neutral}
        for what, names in (("nation", players), ("unit type", self.unit_names),
                            ("resource", self.resource_names),
                            ("delegate", {d[0]: d[0] for d in DELEGATES})):
            for ident, name in names.items():
                if not _XML_NAME.match(name):
                    hint = " (give the nation a triplea_name)" if what == "nation" else ""
                    self.problem(f"{what} {ident!r}: TripleA needs a name that is an XML name (letters, digits, "
                                 f"'.', '-', '_'), not {name!r}{hint}")
                elif name in taken:
                    self.problem(f"{what} {ident!r} and {taken[name]} would share the TripleA name {name!r}")
                taken[name] = f"{what} {ident!r}"
        for nation in self.nations:
            name = self.player_names[nation["id"]]
            back = "neutral" if name == NEUTRAL else NATIONS.get(name, (plain_id(name),))[0]
            if back != nation["id"]:
                self.problem(f"nation {nation['id']!r}: TripleA knows it as {name!r}, which the import makes the "
                             f"id {back!r}; give the nation the id {back!r} or another triplea_name")
        money = [r for r in self.resource_names if r == "ipc"]
        self.money = money[0] if money else next(iter(self.resource_names), None)

    @staticmethod
    def _player_name(nation: dict) -> str:
        """A nation's TripleA name: its triplea_name, AA50's player names, or its id."""
        return nation.get("triplea_name") or PLAYERS.get(nation["id"], nation["id"])

    def player(self, nation_id: str) -> str:
        return self.player_names[nation_id]

    # -- sections --------------------------------------------------------------------------------
    def _info(self, root) -> None:
        version = self.manifest.get("version")
        if version is not None and not (isinstance(version, str) and _VERSION.match(version)):
            self.problem(f"version {version!r}: TripleA's version is numbers joined by dots (such as 1.2); "
                         "change the scenario's version or leave it out")
        # TripleA 1.9 requires a version; 1.0 where the scenario gives none
        attrs = {"name": self.manifest.get("name") or self.scenario.id,
                 "version": version if isinstance(version, str) else "1.0"}
        ElementTree.SubElement(root, "info", attrs)
        ElementTree.SubElement(root, "loader", {"javaClass": f"{_PACKAGE}.TripleA"})
        ElementTree.SubElement(root, "diceSides", {"value": "6"})

    def _map(self, root) -> None:
        game_map = ElementTree.SubElement(root, "map")
        for space in self.spaces:
            attrs = {"name": self.territory(space["id"])}
            if space.get("kind") == "sea":
                attrs["water"] = "true"
            elif space.get("kind") != "land":
                self.problem(f"space {space['id']!r} is a {space.get('kind')}; TripleA has land and water")
            ElementTree.SubElement(game_map, "territory", attrs)
        self.kept_kinds = []
        for border in self.borders:
            a, b = border["between"]
            ElementTree.SubElement(game_map, "connection", {"t1": self.territory(a), "t2": self.territory(b)})
            kind = border.get("kind")
            derived = self._derived_kind(a, b)
            if kind == "wrap":
                self.kept_kinds.append(["wrap", self.territory(a), self.territory(b)])
            elif kind != derived and not (kind == "canal" and derived == "sea"):
                self.problem(f"border {a} - {b} is {kind}; TripleA knows land, sea and coast borders")

    def _derived_kind(self, a: str, b: str) -> str:
        seas = [self.space_kind[x] == "sea" for x in (a, b)]
        return "sea" if all(seas) else "coast" if any(seas) else "land"

    def _resources(self, root) -> None:
        if not self.resource_names:
            return
        element = ElementTree.SubElement(root, "resourceList")
        for name in self.resource_names.values():
            ElementTree.SubElement(element, "resource", {"name": name})

    def _players(self, root) -> None:
        element = ElementTree.SubElement(root, "playerList")
        players = [n for n in self.nations if n["id"] != self.neutral]
        for nation in players:
            ElementTree.SubElement(element, "player", {"name": self.player_names[nation["id"]], "optional": "false"})
        if self.neutral is not None:
            side = next(n.get("side") for n in self.nations if n["id"] == self.neutral)
            if side != "neutral" or any(n.get("side") == side for n in players):
                self.problem(f"nation {self.neutral!r} is TripleA's neutral player, which is in no alliance: give "
                             "it a side of its own with the id neutral")
        for nation in players:
            side = self.sides.get(nation.get("side"), {})
            alliance = side.get("name", nation.get("side", ""))
            if plain_id(alliance) != nation.get("side"):
                self.problem(f"side {nation.get('side')!r}: its name {alliance!r} would come back as "
                             f"{plain_id(alliance)!r}")
            ElementTree.SubElement(element, "alliance", {"player": self.player_names[nation["id"]],
                                                         "alliance": alliance})

    def _unit_list(self, root) -> None:
        element = ElementTree.SubElement(root, "unitList")
        for unit in self.units:
            ElementTree.SubElement(element, "unit", {"name": self.unit_names[unit["id"]]})

    def _game_play(self, root) -> None:
        play = ElementTree.SubElement(root, "gamePlay")
        for name, java_class, display in DELEGATES:
            ElementTree.SubElement(play, "delegate", {"name": name, "javaClass": f"{_PACKAGE}.delegate.{java_class}",
                                                      "display": display})
        sequence = ElementTree.SubElement(play, "sequence")
        step = lambda name, delegate, player=None, **extra: ElementTree.SubElement(  # noqa: E731
            sequence, "step", {"name": name, "delegate": delegate, **({"player": player} if player else {}), **extra})
        step("gameInitDelegate", "initDelegate", maxRunCount="1")
        guests: dict[str, list[str]] = {}
        for nation in self.nations:
            if nation.get("played_by"):
                guests.setdefault(nation["played_by"], []).append(nation["id"])
        for nation_id in self.manifest.get("turn_order") or []:
            player = self.player_names.get(nation_id)
            if player is None or nation_id == self.neutral:
                self.problem(f"turn_order names {nation_id!r}, which is no nation" if player is None else
                             f"turn_order names {nation_id!r}, TripleA's neutral player, which takes no turn")
                continue
            step(f"{player}Tech", "tech", player)
            step(f"{player}TechActivation", "tech_activation", player)
            step(f"{player}Purchase", "purchase", player)
            step(f"{player}CombatMove", "move", player)
            step(f"{player}Battle", "battle", player)
            step(f"{player}NonCombatMove", "move", player, display="Non Combat Move")
            for guest_id in guests.get(nation_id, []):
                guest = self.player_names[guest_id]
                step(f"{guest}Purchase", "purchaseNoPU", guest)
                step(f"{guest}CombatMove", "move", guest)
                step(f"{guest}Battle", "battle", guest)
                step(f"{guest}NonCombatMove", "move", guest, display="Non Combat Move")
                step(f"{guest}Place", "place", guest)
                step(f"{guest}EndTurn", "endTurnNoPU", guest)
            step(f"{player}Place", "place", player)
            step(f"{player}EndTurn", "endTurn", player)
        step("endRoundStep", "endRound")

    def _production(self, root) -> None:
        costed = [u for u in self.units if isinstance(u.get("cost"), (int, float))]
        if not costed:
            return
        if self.money is None:
            return self.problem(f"unit type {costed[0]['id']!r} has a cost, and the scenario has no resource to pay "
                                "it in; add the resource (such as ipc) to scenario.yaml")
        production = ElementTree.SubElement(root, "production")
        for unit in costed:
            name = self.unit_names[unit["id"]]
            rule = ElementTree.SubElement(production, "productionRule", {"name": f"buy{name[:1].upper()}{name[1:]}"})
            if unit["cost"] != int(unit["cost"]):
                self.problem(f"unit type {unit['id']!r} costs {unit['cost']}; TripleA costs are whole numbers")
            ElementTree.SubElement(rule, "cost", {"resource": self.resource_names[self.money],
                                                  "quantity": str(int(unit["cost"]))})
            ElementTree.SubElement(rule, "result", {"resourceOrUnit": name, "quantity": "1"})
        frontier = ElementTree.SubElement(production, "productionFrontier", {"name": "production"})
        for rule in production.findall("productionRule"):
            ElementTree.SubElement(frontier, "frontierRules", {"name": rule.get("name", "")})
        # every player, passive ones too: the import reads costs from the frontiers players hold
        for nation in self.nations:
            if nation["id"] != self.neutral:
                ElementTree.SubElement(production, "playerProduction",
                                       {"player": self.player_names[nation["id"]], "frontier": "production"})

    # -- attachments -----------------------------------------------------------------------------
    def _attachments(self, root) -> None:
        self.attachment_list = ElementTree.SubElement(root, "attachmentList")
        self.properties: dict[str, str] = {"WW2V3": "true"}
        supported: set[str] = set()
        for unit in self.units:
            for ability in unit.get("abilities") or []:
                if ability.get("kind") == "artillery_support":
                    supported |= set(ability.get("types") or [])
        for unit in self.units:
            self._unit(unit, supported)
        self._transport_rules()
        for space in self.spaces:
            self._territory(space)
        self._canals()
        for _, objective in self.scenario.entities("objectives", "objectives"):
            self._objective(objective)
        self._china()
        self._triggered_victories()
        if not len(self.attachment_list):
            root.remove(self.attachment_list)

    def attach(self, name: str, attach_to: str, java_class: str, kind: str, options: list[tuple]) -> None:
        if not options:
            return
        element = ElementTree.SubElement(self.attachment_list, "attachment", {
            "name": name, "attachTo": attach_to, "javaClass": f"{_PACKAGE}.attachments.{java_class}", "type": kind})
        for option in options:
            attrs = {"name": option[0], "value": str(option[1])}
            if len(option) > 2 and option[2] is not None:
                attrs["count"] = str(option[2])
            ElementTree.SubElement(element, "option", attrs)

    def _unit(self, unit: dict, supported: set[str]) -> None:
        uid = unit["id"]
        options: list[tuple] = []
        stats = unit.get("stats") or {}
        for stat in ("movement", "attack", "defense"):
            if stat in stats:
                options.append((stat, int(stats[stat])))
        for stat in sorted(set(stats) - {"movement", "attack", "defense"}):
            self.problem(f"unit type {uid!r}: stat {stat!r} has no TripleA unit option; remove it")
        domain = unit.get("domain")
        if domain == "air":
            options.append(("isAir", "true"))
        elif domain == "sea":
            options.append(("isSea", "true"))
        kinds = [a.get("kind") for a in unit.get("abilities") or []]
        abilities = {a.get("kind"): a for a in unit.get("abilities") or []}
        if len(set(kinds)) != len(kinds):
            self.problem(f"unit type {uid!r} has an ability twice")
        if SUB_ABILITIES & set(kinds):
            if not SUB_ABILITIES <= set(kinds):
                self.problem(f"unit type {uid!r}: TripleA's submarine (isSub) has all of "
                             f"{', '.join(sorted(SUB_ABILITIES))}; give it the others: "
                             f"{', '.join(sorted(SUB_ABILITIES - set(kinds)))}")
            options.append(("isSub", "true"))
        gun = {"anti_aircraft", "noncombat_move_only", "capturable"}
        works = {"factory", "capturable"}
        for kind, ability in abilities.items():
            if kind in SUB_ABILITIES or kind in gun | works:
                continue
            if kind == "artillery_support":
                if ability.get("per_unit", 1) != 1 or ability.get("bonus", 1) != 1:
                    self.problem(f"unit type {uid!r}: TripleA's artillery supports one unit by 1")
                options.append(("artillery", "true"))
            elif kind == "blitz":
                options.append(("canBlitz", "true"))
            elif kind == "two_hits":
                options.append(("hitPoints", 2))
            elif kind == "offshore_bombardment":
                options.append(("canBombard", "true"))
            elif kind == "carrier":
                options.append(("carrierCapacity", ability["capacity"]))
                landing = sorted(u["id"] for u in self.units if any(a.get("kind") == "carrier_landing"
                                                                    for a in u.get("abilities") or []))
                if sorted(ability.get("carries") or []) != landing:
                    self.problem(f"unit type {uid!r}: a TripleA carrier carries every unit that lands on "
                                 f"carriers ({', '.join(landing)})")
            elif kind == "carrier_landing":
                options.append(("carrierCost", ability.get("size", 1)))
            elif kind == "anti_submarine":
                options.append(("isDestroyer", "true"))
            elif kind == "transport":
                options.append(("transportCapacity", ability["capacity"]))
            elif kind == "transportable":
                options.append(("transportCost", ability["size"]))
            elif kind == "strategic_bombing":
                if ability.get("dice", 1) != 1:
                    self.problem(f"unit type {uid!r}: TripleA's strategic bomber rolls one die (heavy bombers "
                                 "are research)")
                options.append(("isStrategicBomber", "true"))
            elif kind in ("chosen_last", "defenceless"):
                continue   # game properties (_transport_rules)
            else:
                self.problem(f"unit type {uid!r}: the ability {kind!r} has no TripleA unit option; remove it")
        if "anti_aircraft" in abilities:
            if abilities["anti_aircraft"].get("hit_on") != 1 or not gun <= set(abilities):
                self.problem(f"unit type {uid!r}: TripleA's AA gun (isAA) hits on 1, moves only in "
                             "noncombat moves and is captured")
            options.append(("isAA", "true"))
        elif "factory" in abilities:
            if not works <= set(abilities):
                self.problem(f"unit type {uid!r}: TripleA's factory (isFactory) is captured; give it the ability "
                             "capturable")
            if domain != "structure":
                self.problem(f"unit type {uid!r}: TripleA's factory (isFactory) is a structure; make its domain "
                             "structure")
            factor = abilities["factory"].get("max_damage_factor")
            if factor not in (None, 2):
                self.problem(f"unit type {uid!r}: TripleA damages a factory up to twice its territory's value")
            if factor == 2:
                self.properties["Damage From Bombing Done To Units Instead Of Territories"] = "true"
            options.append(("isFactory", "true"))
        elif "capturable" in abilities:
            self.problem(f"unit type {uid!r}: only AA guns and factories are captured in TripleA; remove the ability "
                         "capturable, or make it an AA gun (anti_aircraft) or a factory")
        elif domain == "structure":
            self.problem(f"unit type {uid!r} is a structure without the abilities factory and capturable: TripleA's "
                         "one kind of structure is the factory (isFactory); give it those abilities, or another "
                         "domain")
        if uid in supported:
            options.append(("artillerySupportable", "true"))
        surface = domain == "sea" and "isSub" not in [o[0] for o in options] and "transport" not in abilities \
            and int(stats.get("attack", 0) or 0) > 0
        tags = set(unit.get("tags") or [])
        if surface and "surface_warship" not in tags:
            self.problem(f"unit type {uid!r} is a sea unit that attacks and is no submarine (abilities "
                         f"{', '.join(sorted(SUB_ABILITIES))}) or transport: TripleA counts it among the surface "
                         "warships of its objectives; add the tag surface_warship, or make it a submarine")
        elif "surface_warship" in tags and not surface:
            self.problem(f"unit type {uid!r} has the tag surface_warship, but TripleA counts as surface warships "
                         "only the sea units that attack and are no submarine or transport; remove the tag")
        for tag in sorted(tags - {"surface_warship"}):
            self.problem(f"unit type {uid!r}: the tag {tag!r} has no TripleA unit option; remove it")
        self.attach("unitAttachment", self.unit_names[uid], "UnitAttachment", "unitType", options)

    def _transport_rules(self) -> None:
        """AA50's transports are chosen last and die unescorted: TripleA's game properties."""
        transports = [u for u in self.units if any(a.get("kind") == "transport" for a in u.get("abilities") or [])]
        for kind, name in (("chosen_last", "Transport Casualties Restricted"),
                           ("defenceless", "Unescorted Transport Dies")):
            holders = [u for u in self.units if any(a.get("kind") == kind for a in u.get("abilities") or [])]
            if holders and sorted(u["id"] for u in holders) != sorted(u["id"] for u in transports):
                self.problem(f"{kind}: in TripleA a game property ({name}) gives it to every transport")
            if holders:
                self.properties[name] = "true"

    def _territory(self, space: dict) -> None:
        options: list[tuple] = []
        sid = space["id"]
        if space.get("kind") == "land":
            options.append(("production", int(space.get("value", 0) or 0)))
        elif space.get("value"):
            self.problem(f"space {sid!r}: a sea zone has no value in an aa50 import")
        tags = set(space.get("tags") or [])
        capitals = [n for n in self.nations if n.get("capital") == sid]
        if ("capital" in tags) != bool(capitals):
            self.problem(f"space {sid!r}: the capital tag goes with a nation's capital")
        for nation in capitals:
            options.append(("capital", self.player_names[nation["id"]]))
        if "victory_city" in tags:
            options.append(("victoryCity", 1))
        if "impassable" in tags:
            if "neutral" not in tags:
                self.problem(f"space {sid!r}: an impassable territory is neutral in an aa50 import")
            options.append(("isImpassable", "true"))
        elif "neutral" in tags:
            self.problem(f"space {sid!r}: a neutral territory is impassable in TripleA")
        for tag in tags - {"capital", "victory_city", "impassable", "neutral", "island", "lake", "off_board"}:
            self.problem(f"space {sid!r}: the tag {tag!r} has no TripleA territory option")
        owner = space.get("original_owner")
        if owner == self.neutral and owner:
            self.problem(f"space {sid!r}: its original_owner is TripleA's neutral player, which owns nothing from "
                         "the start; leave original_owner out")
        elif owner:
            options.append(("originalOwner", self.player_names.get(owner, owner)))
        for field in ("stats", "closed_to", "stacking", "region", "terrain"):
            if space.get(field):
                self.problem(f"space {sid!r}: {field} has no TripleA territory option")
        self.attach("territoryAttachment", self.territory(sid), "TerritoryAttachment", "territory", options)

    def _canals(self) -> None:
        for _, canal in self.scenario.entities("map", "canals"):
            name = canal.get("name", "")
            if plain_id(name.replace(" Canal", "")) != canal["id"]:
                self.problem(f"canal {canal['id']!r}: its name {name!r} would come back as "
                             f"{plain_id(name.replace(' Canal', ''))!r}")
            lands = ":".join(self.territory(s) for s in canal.get("controlled_by") or [])
            for zone in canal.get("joins") or []:
                self.attach("canalAttachment", self.territory(zone), "CanalAttachment", "territory",
                            [("canalName", name), ("landTerritories", lands)])

    # -- objectives --------------------------------------------------------------------------------
    def _objective(self, objective: dict) -> None:
        oid, owner = objective["id"], objective.get("owner")
        if not isinstance(owner, str) or owner not in self.player_names or owner == self.neutral:
            return self.problem(f"objective {oid!r}: its owner {owner!r} is no nation" if owner != self.neutral
                                else f"objective {oid!r}: TripleA's neutral player has no objectives")
        award = objective.get("award") or {}
        if award.get("resource", self.money) != self.money or objective.get("kind", "national_objective") \
                != "national_objective" or objective.get("timing", "collect_income") != "collect_income":
            return self.problem(f"objective {oid!r}: TripleA's national objectives pay PUs at the end of the turn")
        if objective.get("option") not in (None, "national-objectives"):
            return self.problem(f"objective {oid!r}: TripleA's objectives follow the option National Objectives")
        options: list[tuple] = [("objectiveValue", award.get("amount", 0))]
        try:
            parts = _conjuncts(objective.get("when"))
            wars = [p["at_war"] for p in parts if "at_war" in p]
            if wars:   # TripleA's atWarPlayers: at war with all of them
                options.append(self._at_war(wars, owner, None))
            for part in parts:
                if "at_war" not in part:
                    options.append(self._check(part, owner))
        except _Unsayable as why:
            return self.problem(f"objective {oid!r}: {why}")
        names = [o[0] for o in options]
        if len(set(names)) != len(names):
            return self.problem(f"objective {oid!r}: TripleA checks each kind of condition once per objective")
        self.attach(f"objectiveAttachment_{oid}", self.player_names[owner], "RulesAttachment", "player", options)

    def _places(self, spaces: list[str]) -> str:
        return ":".join(self.territory(s) for s in spaces)

    def _check(self, part: dict, owner: str) -> tuple:
        (key, body), = part.items()
        if key == "controls" and body.get("owner") == owner:
            name = "alliedOwnershipTerritories" if body.get("allied") else "directOwnershipTerritories"
            return (name, self._places(body["spaces"]), body.get("count"))
        if key == "no_enemy_units" and body.get("owner") == owner and not body.get("domains"):
            name = "enemySurfaceExclusionTerritories" if body.get("surface_only") else "enemyExclusionTerritories"
            return (name, self._places(body["spaces"]), None)
        if key == "at_least" and all("at_war" in c for c in body["of"]):
            return self._at_war([c["at_war"] for c in body["of"]], owner, body["count"])
        if key == "at_least":
            inner = [next(iter(c.items())) for c in body["of"]]
            if all(k == "no_enemy_units" and len(b.get("spaces", [])) == 1 and b.get("owner") == owner
                   and b.get("surface_only") == inner[0][1].get("surface_only") for k, b in inner):
                name = "enemySurfaceExclusionTerritories" if inner[0][1].get("surface_only") \
                    else "enemyExclusionTerritories"
                return (name, self._places([b["spaces"][0] for _, b in inner]), body["count"])
        if key == "not":
            present = body.get("any", [body]) if isinstance(body, dict) else []
            allies = sorted(n["id"] for n in self.nations if n.get("side") == self._side(owner) and n["id"] != owner)
            found = [c.get("units_present", {}) for c in present]
            if sorted(f.get("owner") for f in found) == allies and all(
                    f.get("controller") == owner and set(f) == {"owner", "controller"} for f in found):
                return ("alliedExclusionTerritories", "controlled", None)
        if key == "turn":
            low, high = body.get("min", 1), body.get("max")
            return ("rounds", f"{low}-{'+' if high is None else high}", None)
        if key == "controls_count" and body.get("owner") == owner and not body.get("tags") \
                and body.get("kind") in (None, "land"):
            name = "alliedOwnershipTerritories" if body.get("allied") else "directOwnershipTerritories"
            return (name, "controlledNoWater" if body.get("kind") == "land" else "controlled", body["count"])
        raise _Unsayable(f"the condition {key} {json.dumps(body, sort_keys=True)} has no TripleA rules option")

    def _at_war(self, wars: list[dict], owner: str, count: int | None) -> tuple:
        """atWarPlayers: the owner at war with all the players named, or with `count` of them."""
        if any(w.get("owner") != owner or w.get("with") not in self.player_names or w.get("with") == self.neutral
               for w in wars):
            raise _Unsayable(f"TripleA's atWarPlayers says that the objective's owner is at war with players: "
                             f"{json.dumps(wars, sort_keys=True)} says something else")
        players = [self.player_names[w["with"]] for w in wars]
        if len(set(players)) != len(players):
            raise _Unsayable("it names a player at war twice")
        return ("atWarPlayers", ":".join(players), count if count is not None and count < len(players) else None)

    # -- victories no option switches: TripleA's triggered victory -------------------------------
    def _triggered_victories(self) -> None:
        """A victory condition outside TripleA's victory options becomes what TripleA's own maps write
        for one: rules attachments for its conditions and a trigger whose `victory` ends the game for
        the side's players, with the property Triggered Victory on."""
        for _, victory in self.scenario.entities("scenario", "victory"):
            if victory.get("option") is not None:
                continue
            vid, side = victory.get("id"), victory.get("side")
            players = self._side_players(side)
            if not players:
                self.problem(f"victory {vid!r}: its side {side!r} has no nation for TripleA to name the winner")
                continue
            try:
                conditions = [self._victory_check(part) for part in _conjuncts(victory.get("when"))]
            except _Unsayable as why:
                self.problem(f"victory {vid!r}: {why}")
                continue
            names = []
            for index, (holder, option) in enumerate(conditions):
                names.append(f"conditionAttachment_victory_{plain_id(str(vid))}_{index}")
                self.attach(names[-1], holder, "RulesAttachment", "player", [option])
            self.attach(f"triggerAttachment_victory_{plain_id(str(vid))}", players[0], "TriggerAttachment", "player",
                        [("conditions", ":".join(names)), ("victory", plain_id(str(vid)).upper().replace("-", "_")),
                         ("players", ":".join(players))])
            self.properties["Triggered Victory"] = "true"

    def _side_players(self, side) -> list[str]:
        return [self.player_names[n["id"]] for n in self.nations
                if n.get("side") == side and n["id"] in self.player_names and n["id"] != self.neutral]

    def _victory_check(self, part: dict) -> tuple[str, tuple]:
        """The player a condition of a victory is checked for, and its rules option."""
        (key, body), = part.items()
        if key == "victory_cities" and isinstance(body, dict) and isinstance(body.get("count"), int) \
                and self._side_players(body.get("side")):
            cities = [s["id"] for s in self.spaces if "victory_city" in (s.get("tags") or [])]
            return self._side_players(body["side"])[0], \
                ("alliedOwnershipTerritories", self._places(cities), body["count"])
        owner = body.get("owner") if isinstance(body, dict) else None
        if not isinstance(owner, str) or owner not in self.player_names or owner == self.neutral:
            raise _Unsayable(f"the condition {key} {json.dumps(body, sort_keys=True)} names no nation that TripleA "
                             "checks it for")
        return self.player_names[owner], self._check(part, owner)

    def _side(self, nation: str) -> str | None:
        return next((n.get("side") for n in self.nations if n["id"] == nation), None)

    def _china(self) -> None:
        """China's rules: TripleA's player rulesAttachment, the properties that switch its rules on,
        and what no TripleA option says in the property sandtable.china (read back by the import)."""
        self.kept_china: dict = {}
        rules = self.manifest.get("rules") or {}
        china = rules.get("china")
        if not isinstance(china, dict):
            return
        nation = china.get("nation")
        if nation not in self.player_names or nation == self.neutral:
            return self.problem(f"rules.china names {nation!r}, which is no nation")
        options: list[tuple] = [("movementRestrictionTerritories", self._places(china.get("territories") or [])),
                                ("movementRestrictionType", "allowed")]
        unit = china.get("unit", "infantry")
        if unit not in self.unit_names:
            return self.problem(f"rules.china gives the unit {unit!r}, which is no unit type")
        if china.get("infantry_per_territories"):
            count = china["infantry_per_territories"]
            options.append(("productionPerXTerritories", count if unit == "infantry" else
                            f"{count}:{self.unit_names[unit]}"))
        if china.get("placement_limit"):
            options.append(("placementPerTerritory", china["placement_limit"]))
        if china.get("place_in_any_territory"):
            options.append(("placementAnyTerritory", "true"))
        for key, switch in CHINA_SWITCHES.items():
            if china.get(key):
                self.properties[switch] = "true"
        # what the import sets when the property is not there: collects nothing, uses no transport
        for key in ("collects_income", "may_use_transports"):
            if china.get(key, False) is not False:
                self.kept_china[key] = china[key]
        if china.get("no_replacement"):
            self.kept_china["no_replacement"] = [self.unit_names.get(u, u) for u in china["no_replacement"]]
        if china.get("recapture_only"):
            self.kept_china["recapture_only"] = [self.territory(s) for s in china["recapture_only"]]
        self.attach("rulesAttachment", self.player_names[nation], "RulesAttachment", "player", options)

    # -- the starting position and the properties ------------------------------------------------
    def _initialize(self, root) -> None:
        initialize = ElementTree.SubElement(root, "initialize")
        entries = [e for _, e in self.scenario.entities("setup", "spaces")]
        owners = [e for e in entries if e.get("control")]
        for entry in owners:
            if entry["control"] == self.neutral:
                self.problem(f"setup of {entry['space']!r}: TripleA's neutral player ({self.neutral}) controls "
                             "nothing; leave the space without control")
        owners = [e for e in owners if e["control"] != self.neutral]
        if owners:
            section = ElementTree.SubElement(initialize, "ownerInitialize")
            for entry in owners:
                ElementTree.SubElement(section, "territoryOwner", {
                    "territory": self.territory(entry["space"]), "owner": self.player_names[entry["control"]]})
        section = ElementTree.SubElement(initialize, "unitInitialize")
        for entry in entries:
            for stack in entry.get("units") or []:
                attrs = {"unitType": self.unit_names[stack["type"]], "territory": self.territory(entry["space"]),
                         "quantity": str(stack["count"])}
                owner = stack.get("owner", entry.get("control"))
                if owner and owner != self.neutral:   # TripleA places the neutral player's units without an owner
                    attrs["owner"] = self.player_names[owner]
                ElementTree.SubElement(section, "unitPlacement", attrs)
        given = [g for _, g in self.scenario.entities("setup", "resources")]
        for entry in given:
            if entry["owner"] == self.neutral:
                self.problem(f"{entry['owner']} starts with {entry['resource']}: TripleA's neutral player holds no "
                             "resources; leave them out")
        given = [g for g in given if g["owner"] != self.neutral]
        if given:
            section = ElementTree.SubElement(initialize, "resourceInitialize")
            for entry in given:
                if entry["amount"] != int(entry["amount"]):
                    self.problem(f"{entry['owner']} starts with {entry['amount']} {entry['resource']}; "
                                 "TripleA gives whole amounts")
                ElementTree.SubElement(section, "resourceGiven", {
                    "player": self.player_names[entry["owner"]], "resource": self.resource_names[entry["resource"]],
                    "quantity": str(int(entry["amount"]))})
        for nation in self.nations:
            income = nation.get("income")
            given_money = sum(g["amount"] for g in given if g["owner"] == nation["id"] and g["resource"] == self.money)
            if income is not None and income != given_money:
                self.problem(f"nation {nation['id']!r}: TripleA's starting PUs are its income; the scenario declares "
                             f"{income} and gives {given_money}")

    def _properties(self, root) -> None:
        properties = ElementTree.SubElement(root, "propertyList")
        map_name = self.manifest.get("triplea_map")
        if not map_name:
            self.problem("the scenario names no TripleA map, and TripleA opens a game only on its map: give "
                         "scenario.yaml a triplea_map (such as world_war_ii_v3)")
        else:
            _property(properties, "mapName", map_name)
        for name, value in self.properties.items():
            _property(properties, name, value)
        victories = [v for _, v in self.scenario.entities("scenario", "victory")]
        for _, option in self.scenario.entities("scenario", "options"):
            oid, default = option.get("id"), option.get("default")
            if oid in OPTIONS:
                _property(properties, OPTIONS[oid], bool(default), editable=True)
            elif oid in VICTORY:
                name, suffix = VICTORY[oid]
                _property(properties, name, bool(default), editable=True)
                for victory in [v for v in victories if v.get("option") == oid]:
                    side = self.sides.get(victory.get("side"), {})
                    count = (victory.get("when") or {}).get("victory_cities", {}).get("count")
                    if victory.get("id") != f"{victory.get('side')}-{oid}" or count is None:
                        self.problem(f"victory {victory.get('id')!r}: TripleA's victory is a count of victory "
                                     f"cities per alliance, named {victory.get('side')}-{oid}")
                        continue
                    _property(properties, f"{side.get('name')} {suffix}", int(count))
            else:
                self.problem(f"option {oid!r} has no TripleA game property")
        for victory in victories:
            if victory.get("option") is not None and victory.get("option") not in VICTORY:
                self.problem(f"victory {victory.get('id')!r}: its option {victory.get('option')!r} is none of "
                             f"TripleA's victory options ({', '.join(VICTORY)})")
        if self.kept_kinds:
            _property(properties, BORDERS_PROPERTY, json.dumps(self.kept_kinds, ensure_ascii=False))
        if self.kept_china:
            _property(properties, CHINA_PROPERTY, json.dumps(self.kept_china, ensure_ascii=False, sort_keys=True))


def _property(properties, name: str, value, editable: bool = False) -> None:
    """A game property with its type, as TripleA's own files write them (TripleA 1.9 reads an
    untyped value as text, and fails where it expects a switch or a number)."""
    attrs = {"name": name, "value": "", "editable": "true" if editable else "false"}
    typed: tuple[str, dict[str, str]]
    if isinstance(value, bool) or value in ("true", "false"):
        attrs["value"] = str(value).lower()
        typed = ("boolean", {})
    elif isinstance(value, int):
        attrs["value"] = str(value)
        typed = ("number", {"min": str(min(0, value)), "max": str(max(1000, value))})
    else:
        attrs["value"] = str(value)
        typed = ("string", {})
    ElementTree.SubElement(ElementTree.SubElement(properties, "property", attrs), *typed)


class _Unsayable(Exception):
    pass


def _conjuncts(condition) -> list[dict]:
    if not isinstance(condition, dict) or len(condition) != 1:
        raise _Unsayable("its condition is not one condition")
    if "all" in condition:
        return [c for part in condition["all"] for c in _conjuncts(part)]
    return [condition]
