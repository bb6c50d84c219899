"""A TripleA game (sandtable.triplea.game) as the files of a scenario folder.

The game's rule family decides the vocabulary: a game that plays by AA50's rules (TripleA's v3
rules on six-sided dice, with AA50's powers and units) becomes an `aa50` scenario, checked by
AA50's rules; any other game becomes a `triplea` scenario (TripleA's common unit options, dice
of the game's size), so that only the checks that apply to it run.

Everything the translation does not carry over is reported with its line (sandtable.triplea.report):
engine settings as info, anything else as a warning.
"""
from __future__ import annotations

import json
from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any

from ..diagnostics import Diagnostic, Severity
from ..safexml import XmlDocument
from .game import NEUTRAL, Game, Option, read_game, split_list
from .names import NATIONS, RESOURCES, UNITS, Ids, humanise, plain_id, territory_id, territory_name
from .objectives import Context, translate_objectives
from .report import Report
from .units import UnitContext, translate_units

AA50_UNITS = {"infantry", "artillery", "armour", "fighter", "bomber", "transport", "submarine",
              "destroyer", "cruiser", "carrier", "battleship", "aaGun", "factory"}
FAMILIES = ("aa50", "triplea")
# TripleA's victory properties: property -> (option id, name, the count when the game sets none).
VICTORY_PROPERTIES = {
    "Projection of Power": ("projection", "Projection of Power", "Projection of Power VCs", 13),
    "Honorable Surrender": ("surrender-with-honor", "Honorable Surrender", "Honorable Victory VCs", 15),
    "Total Victory": ("total-war", "Total Victory", "Total Victory VCs", 18),
}
OPTION_PROPERTIES = {
    "National Objectives": ("national-objectives", "National objectives and bonus income"),
    "Tech Development": ("research", "Research & development"),
}
MOVE_DELEGATES = {"MoveDelegate", "SpecialMoveDelegate"}
BORDERS_PROPERTY = "sandtable.borders"
CHINA_PROPERTY = "sandtable.china"    # China's rules that no TripleA option says (export.py)
MAP_NAME_PROPERTY = "mapName"         # the TripleA map the game is drawn on
KEPT_BORDER_KINDS = {"wrap", "mountain", "river", "strait"}
NEUTRAL_KEY = "\0neutral"    # the neutral power's key among the players' names (no player has it)
# Attachments translated by the code below, by TripleA class.
TRANSLATED_CLASSES = {"UnitAttachment", "TerritoryAttachment", "CanalAttachment", "UnitSupportAttachment"}


@dataclass
class Imported:
    """What the import produced: the data of each file kind, diagnostics and some counts."""

    files: dict[str, dict] = field(default_factory=dict)
    diagnostics: list[Diagnostic] = field(default_factory=list)
    counts: dict[str, int] = field(default_factory=dict)
    system: str | None = None
    territories: dict[str, str] = field(default_factory=dict)   # TripleA name -> space id

    @property
    def has_errors(self) -> bool:
        return any(d.is_error for d in self.diagnostics)


def translate(document: XmlDocument, scenario_id: str, system: str | None = None) -> Imported:
    game = read_game(document)
    if game.has_errors:
        return Imported(diagnostics=list(game.diagnostics))
    return _Translator(game, scenario_id, system).run()


def rule_family(game: Game) -> tuple[str, str]:
    """(family, why): aa50 for a game on AA50's rules, else triplea."""
    if not game.property_on("WW2V3"):
        return "triplea", "it does not play by TripleA's v3 rules (property WW2V3), which AA50's are"
    if game.dice_sides != 6:
        return "triplea", f"its dice have {game.dice_sides} sides"
    stranger = next((p for p in game.players if p not in NATIONS and p != NEUTRAL), None)
    if stranger is not None:
        return "triplea", f"its player {stranger!r} is not one of AA50's powers"
    unit = next((u for u in game.units if u not in AA50_UNITS), None)
    if unit is not None:
        return "triplea", f"its unit {unit!r} is not one of AA50's units"
    return "aa50", "it plays by TripleA's v3 rules on six-sided dice with AA50's powers and units"


class _Translator:
    def __init__(self, game: Game, scenario_id: str, system: str | None):
        self.game = game
        self.scenario_id = scenario_id
        self.report = Report(game.document)
        if system is None:
            self.family, why = rule_family(game)
            self.report.info("TPL011", f"the game is imported in the rule family {self.family}: {why}",
                             game.document.root, hint="--system chooses the other rule family")
        else:
            self.family = system
        self.space_ids = Ids("t")
        self.territory_ids = {name: self.space_ids.add(name, territory_id(name)) for name in game.territories}
        self.nation_ids = Ids("nation")
        for player in game.players:
            if player != NEUTRAL:
                self.nation_ids.add(player, NATIONS.get(player, (plain_id(player),))[0])
        self.unit_ids = Ids("unit")
        for unit in game.units:
            self.unit_ids.add(unit, UNITS.get(unit, (plain_id(unit),))[0])
        self.resource_ids = Ids("resource")
        for resource in game.resources:
            self.resource_ids.add(resource, self._resource_names(resource)[0])
        self.neutral_used = False
        self.sides: dict[str, str] = {}           # TripleA player -> side id
        self.side_names: dict[str, str] = {}      # side id -> name
        self.side_ids = Ids("side")
        self.capitals: dict[str, list[str]] = defaultdict(list)   # player -> space ids
        self.original_owner: dict[str, str] = {}  # territory -> player
        self.impassable: set[str] = set()
        self.spaces: dict[str, dict] = {}         # territory -> space
        self.victory_weight: dict[str, int] = {}  # territory -> victory cities
        self.raw_canals: dict[str, dict] = {}     # canal name -> its sea zones and land territories
        self.canals: dict[str, dict] = {}         # canal id -> canal
        self.rules: dict = {}

    # -- names -------------------------------------------------------------------------------
    def nation(self, player: str) -> str:
        if player == NEUTRAL:
            self.neutral_used = True
            return self.nation_ids.add(NEUTRAL_KEY, "neutral")
        return self.nation_ids.add(player, plain_id(player))

    def side(self, player: str) -> str:
        return self.sides.get(player) or self._own_side(player)

    def _own_side(self, player: str) -> str:
        side = self.side_ids.add(f"\0{player}", self.nation(player))
        self.sides[player] = side
        self.side_names[side] = self.display_name(player)
        return side

    def _resource_names(self, resource: str) -> tuple[str, str]:
        """(id, name): AA50 calls TripleA's PUs IPCs; other games keep TripleA's names."""
        if self.family == "aa50" and resource in RESOURCES:
            return RESOURCES[resource]
        return plain_id(resource), humanise(resource) if resource[:1].islower() else resource

    @staticmethod
    def display_name(player: str) -> str:
        return NATIONS.get(player, (None, humanise(player)))[1]

    def money(self) -> str:
        name = "PUs" if "PUs" in self.game.resources else next(iter(self.game.resources), None)
        return self.resource_ids[name] if name is not None else "ipc"

    # -- the walk ----------------------------------------------------------------------------
    def run(self) -> Imported:
        game = self.game
        self._alliances()
        self._map()
        self._territory_attachments()
        self._kept_border_kinds()
        turn_order, played_by, passive = self._sequence()
        units = translate_units(UnitContext(game, {u: self.unit_ids[u] for u in game.units},
                                            self.nation, game.dice_sides), self.family, self.report)
        self._production(units)
        objectives = self._objectives()
        setup = self._setup(units)
        scenario = self._scenario(turn_order, played_by, passive, setup)
        self._player_rules()
        self._untranslated()
        map_data: dict = {"spaces": list(self.spaces.values()), "borders": self.borders}
        if self.canals:
            map_data["canals"] = [{k: v for k, v in c.items() if k != "element"} for c in self.canals.values()]
        files = {"scenario": scenario, "map": map_data, "units": {"unit_types": list(units.values())},
                 "setup": setup}
        if objectives:
            files["objectives"] = {"objectives": objectives}
        if self.rules:
            scenario["rules"] = self.rules
        counts = {"spaces": len(self.spaces), "borders": len(self.borders), "unit_types": len(units),
                  "objectives": len(objectives), "placements": len(game.placements)}
        diagnostics = list(game.diagnostics) + self.report.finish()
        return Imported(files, diagnostics, counts, self.family, dict(self.territory_ids))

    # -- players and sides ---------------------------------------------------------------------
    def _alliances(self) -> None:
        for player in list(self.game.players) + [NEUTRAL]:
            alliances = self.game.alliances.get(player, [])
            if not alliances:
                continue
            name, _ = alliances[0]
            side = self.side_ids.add(name, plain_id(name))
            self.sides[player] = side
            self.side_names.setdefault(side, name)
            for other, element in alliances[1:]:
                self.report.once(("second-alliance",), "TPL005", Severity.WARNING,
                                 f"{player!r} is in a second alliance {other!r}; a nation has one side "
                                 f"here ({name})", element, player)

    # -- the sequence: turn order, who plays for whom, who never takes a turn -----------------
    def _sequence(self) -> tuple[list[str], dict[str, str], set[str]]:
        game = self.game
        round_steps = [(s, s.player) for s in game.steps if s.player and not s.one_time]
        one_time = [s for s in game.steps if s.player and s.one_time]
        if one_time:
            self.report.info("TPL005", f"{len(one_time)} one-time steps (such as bidding) are not translated",
                             one_time[0].element)
        if round_steps:
            self.report.info("TPL005", f"the {len(round_steps)} steps of the round are not translated one by "
                             "one; the turn order and who plays for whom were taken from them",
                             round_steps[0][0].element)
        if game.delegate_elements:
            self.report.info("TPL005", f"the {len(game.delegate_elements)} TripleA delegates are engine "
                             "classes; not translated", game.delegate_elements[0])
        movers = {player for step, player in round_steps if step.delegate_class in MOVE_DELEGATES}
        spans: dict[str, list[int]] = {}
        for position, (_, player) in enumerate(round_steps):
            if player in movers:
                spans.setdefault(player, [position, position])[1] = position
        turn_order: list[str] = []
        played_by: dict[str, str] = {}
        for player, (first, last) in sorted(spans.items(), key=lambda item: item[1][0]):
            host = next((other for other, (o_first, o_last) in spans.items()
                         if other != player and o_first < first and last < o_last), None)
            if host is not None:
                played_by[self.nation(player)] = self.nation(host)
            else:
                turn_order.append(self.nation(player))
        helpers = list(dict.fromkeys(player for _, player in round_steps if player not in movers))
        for player in helpers:
            step = next(s for s, who in round_steps if who == player)
            self.report.info("TPL012", f"{player!r} takes steps of the round but never moves its units "
                             "(a helper of the game's engine); it is not in the turn order", step.element)
        passive = {self.nation(p) for p in game.players if p not in movers and p != NEUTRAL}
        return turn_order, played_by, passive

    # -- the map -------------------------------------------------------------------------------
    def _map(self) -> None:
        game = self.game
        for name in game.territories:
            space = {"id": self.territory_ids[name], "name": territory_name(name), "triplea_name": name,
                     "kind": "sea" if name in game.water else "land"}
            self.spaces[name] = space
        self.borders = []
        for a, b, _ in game.connections:
            sea_a, sea_b = a in game.water, b in game.water
            kind = "sea" if sea_a and sea_b else "land" if not (sea_a or sea_b) else "coast"
            self.borders.append({"between": [self.territory_ids[a], self.territory_ids[b]], "kind": kind})

    def _territory_attachments(self) -> None:
        for attachment in self.game.attachments:
            if attachment.kind != "territory":
                continue
            if attachment.java_class == "TerritoryAttachment":
                self._territory(attachment)
            elif attachment.java_class == "CanalAttachment":
                self._canal(attachment)
        for territory, owner, _ in self.game.owners:
            self.original_owner.setdefault(territory, owner)
        for canal in self.raw_canals.values():
            self._canal_borders(canal)
        self._islands()
        self._off_board_and_lakes()

    def _territory(self, attachment) -> None:
        name = attachment.attach_to
        space = self.spaces[name]
        # TripleA's TerritoryAttachment: `production` sets the value and the units a factory may
        # produce, `productionOnly` the value alone, `unitProduction` the units alone.
        production = unit_production = unit_option = None
        for option in attachment.options:
            key, value = option.name, option.value.strip()
            if key in ("production", "productionOnly"):
                production = self._int(option, f"the production of {name}")
                if key == "production":
                    unit_production = production
                elif unit_option is None:
                    unit_option = option
                if production is not None and (space["kind"] == "land" or self.family == "triplea") \
                        and (production or space["kind"] == "land"):
                    space["value"] = production
            elif key == "victoryCity":
                weight = self._int(option, f"the victory cities of {name}")
                if weight:
                    _tag(space, "victory_city")
                    self.victory_weight[name] = weight
                    if weight > 1:
                        if self.family == "triplea":
                            space.setdefault("stats", {})["victory_cities"] = weight
                        else:
                            self.report.once(("vc-weight",), "TPL005", Severity.WARNING,
                                             f"{name} counts as {weight} victory cities in TripleA; an aa50 "
                                             "space is one city", option.element, name)
            elif key == "capital":
                if not self.game.is_player(value):
                    self.report.error("TPL006", f"{name}'s capital names the player {value!r}, which the "
                                      "game does not define", option.element)
                    continue
                _tag(space, "capital")
                self.capitals[value].append(space["id"])
            elif key == "isImpassable":
                if value.lower() == "true":
                    self.impassable.add(name)
                    if self.family == "aa50":
                        _tag(space, "neutral")
                    _tag(space, "impassable")
            elif key == "originalOwner":
                if not self.game.is_player(value):
                    self.report.error("TPL006", f"{name}'s original owner names the player {value!r}, which "
                                      "the game does not define", option.element)
                    continue
                self.original_owner[name] = value
                if value != NEUTRAL:
                    space["original_owner"] = self.nation(value)
            elif key == "unitProduction":
                unit_production, unit_option = self._int(option, f"the unit production of {name}"), option
            else:
                self.report.once(("territory-option", key), "TPL005", Severity.WARNING,
                                 f"territory option {key}={value} of {name} is not translated",
                                 option.element, name)
        if unit_option is not None and (unit_production or 0) != (production or 0):
            self.report.once(("unit-production",), "TPL005", Severity.WARNING,
                             f"{name} may produce {unit_production or 0} units but is worth {production or 0}; "
                             "a factory's limit is the territory's value here", unit_option.element, name)

    def _int(self, option, what: str) -> int | None:
        try:
            return int(option.value.strip())
        except ValueError:
            self.report.warning("TPL007", f"{what} is {option.value!r}, not a whole number; it was not "
                                "translated", option.element)
            return None

    def _islands(self) -> None:
        neighbours: dict[str, set[str]] = defaultdict(set)
        for border in self.borders:
            a, b = border["between"]
            neighbours[a].add(b)
            neighbours[b].add(a)
        kinds = {s["id"]: s["kind"] for s in self.spaces.values()}
        for space in self.spaces.values():
            around = neighbours[space["id"]]
            if space["kind"] == "land" and around and all(kinds[n] == "sea" for n in around):
                _tag(space, "island")

    def _off_board_and_lakes(self) -> None:
        """TripleA needs no territory to be reachable: map makers keep boxes for notes and
        markers off the board, and lakes and rivers apart from the oceans. Spaces not joined to
        the main map are tagged off_board, waters not joined by sea to the main ocean lake, so
        that the map checks know them."""
        by_id = {s["id"]: (name, s) for name, s in self.spaces.items()}
        order = list(by_id)
        neighbours: dict[str, set[str]] = {space: set() for space in by_id}
        for border in self.borders:
            a, b = border["between"]
            neighbours[a].add(b)
            neighbours[b].add(a)
        parts = _parts(order, neighbours)
        for part in parts[1:]:
            names = sorted(part, key=order.index)
            for space_id in names:
                _tag(by_id[space_id][1], "off_board")
            self.report.once(("off-board",), "TPL016", Severity.INFO,
                             f"{', '.join(names[:4])}{' ...' if len(names) > 4 else ''} "
                             f"{'is' if len(names) == 1 else 'are'} joined to nothing of the main map; "
                             "tagged off_board (TripleA keeps boxes for notes and markers off the board)",
                             self.game.territories[by_id[names[0]][0]], names[0])
        main = parts[0] if parts else set()
        seas = [s for s in order if s in main and by_id[s][1]["kind"] == "sea"]
        for water in _parts(seas, neighbours)[1:]:
            names = sorted(water, key=order.index)
            for space_id in names:
                _tag(by_id[space_id][1], "lake")
            self.report.once(("lake",), "TPL017", Severity.INFO,
                             f"{', '.join(names[:4])}{' ...' if len(names) > 4 else ''} cannot be reached by "
                             "sea from the main ocean; tagged lake (a lake, a river or an inland sea)",
                             self.game.territories[by_id[names[0]][0]], names[0])

    def _canal(self, attachment) -> None:
        values = attachment.values()
        name = values["canalName"].value if "canalName" in values else ""
        if not name:
            self.report.warning("TPL005", "a canal attachment without canalName is not translated",
                                attachment.element)
            return
        canal = self.raw_canals.setdefault(name, {"name": name, "joins": [], "controlled_by": [],
                                                  "element": attachment.element})
        canal["joins"].append(self.territory_ids[attachment.attach_to])
        lands = values.get("landTerritories")
        for land in split_list(lands.value) if lands else []:
            if not land:
                continue
            if land not in self.game.territories:
                self.report.error("TPL006", f"the canal {name!r} names the territory {land!r}, which the "
                                  "game does not define", lands.element)
            elif self.territory_ids[land] not in canal["controlled_by"]:
                canal["controlled_by"].append(self.territory_ids[land])
        for key, option in values.items():
            if key not in ("canalName", "landTerritories"):
                self.report.once(("canal-option", key), "TPL005", Severity.WARNING,
                                 f"canal option {key}={option.value} is not translated", option.element, name)

    def _canal_borders(self, canal: dict) -> None:
        """A canal joins two sea zones; one named for more becomes one canal per joined pair.

        TripleA also puts canals between land territories (a bridge, a railway) and lets sea
        zones control them; a canal here is a sea passage controlled from land, so those are
        reported and the border stays open."""
        kinds = {s["id"]: s["kind"] for s in self.spaces.values()}
        if any(kinds[z] != "sea" for z in canal["joins"]) or any(kinds[c] != "land" for c in canal["controlled_by"]):
            self.report.once(("canal-not-sea",), "TPL018", Severity.WARNING,
                             f"the canal {canal['name']!r} joins or is controlled through territories that "
                             "are not two sea zones controlled from land; it is not translated and its "
                             "borders stay open", canal["element"], canal["name"])
            return
        zones = canal["joins"]
        pairs = [[a, b] for i, a in enumerate(zones) for b in zones[i + 1:]
                 if any(set(border["between"]) == {a, b} for border in self.borders)]
        if len(zones) == 2 and not pairs:
            pairs = [zones]
        if not pairs or not canal["controlled_by"]:
            self.report.warning("TPL005", f"{canal['name']} joins no two bordering sea zones or has no "
                                "land territories; it is not translated", canal["element"])
            return
        ids = Ids("canal")
        ids.taken |= set(self.canals)
        for pair in pairs:
            entry = {"id": ids.add(f"{canal['name']}{pair}", plain_id(canal["name"].replace(" Canal", ""))),
                     "name": canal["name"], "joins": pair, "controlled_by": canal["controlled_by"],
                     "element": canal["element"]}
            self.canals[entry["id"]] = entry
            for border in self.borders:
                if set(border["between"]) == set(pair):
                    border["kind"] = "canal"
                    border["canal"] = entry["id"]
                    break
            else:
                self.borders.append({"between": list(pair), "kind": "canal", "canal": entry["id"]})

    def _kept_border_kinds(self) -> None:
        """Border kinds a TripleA file cannot say (`wrap`), kept by `sandtable export` in the
        property sandtable.borders: a JSON list of [kind, territory, territory]."""
        found = self.game.properties.get(BORDERS_PROPERTY)
        if found is None:
            return
        value, element = found
        try:
            entries = json.loads(value)
        except ValueError:
            entries = None
        if not isinstance(entries, list) or not all(
                isinstance(e, list) and len(e) == 3 and all(isinstance(x, str) for x in e) for e in entries):
            self.report.warning("TPL019", f"the property {BORDERS_PROPERTY} is not a list of [kind, territory, "
                                "territory]; it was not used", element)
            return
        by_pair = {frozenset(b["between"]): b for b in self.borders}
        for kind, a, b in entries:
            border = by_pair.get(frozenset((self.territory_ids.get(a, ""), self.territory_ids.get(b, ""))))
            if kind not in KEPT_BORDER_KINDS or border is None or "canal" in border:
                self.report.warning("TPL019", f"{BORDERS_PROPERTY}: {kind} {a!r} - {b!r} is no border kind, no "
                                    "connection of the game or a canal; it was not used", element)
                continue
            border["kind"] = kind

    # -- production: unit costs, and what else a purchase can give ----------------------------
    def _production(self, units: dict[str, dict]) -> None:
        game, money = self.game, self.money()
        money_name = next((r for r in game.resources if self.resource_ids.get(r) == money), None)
        assigned = set(game.player_frontiers.values())
        purchases: list[dict] = []
        for frontier, rule_names in game.frontiers.items():
            for rule_name in rule_names:
                rule = game.rules[rule_name]
                plain = (len(rule.costs) == 1 and rule.costs[0][0] == money_name and len(rule.results) == 1
                         and rule.results[0][0] in game.units and rule.results[0][1] == 1)
                if frontier not in assigned:
                    self.report.once(("frontier-unassigned", frontier), "TPL005", Severity.INFO,
                                     f"the rules of frontier {frontier!r}, which no player starts with, are "
                                     "not translated (a research result)", rule.element, rule_name)
                    continue
                if plain:
                    unit = units[rule.results[0][0]]
                    amount = rule.costs[0][1]
                    known = unit.get("cost")
                    if known is not None and known != amount:
                        self.report.once(("cost-twice",), "TPL005", Severity.WARNING,
                                         f"{rule.results[0][0]!r} costs {known} and {amount} in two frontiers; "
                                         f"{known} was kept", rule.element, rule_name)
                        continue
                    unit["cost"] = amount
                    continue
                gives_resource = any(r in game.resources for r, _ in rule.results)
                if self.family == "triplea":
                    if rule_name not in [p["id"] for p in purchases]:
                        purchases.append(self._purchase(rule))
                else:
                    what = "gives a resource" if gives_resource else "is not one unit for PUs"
                    self.report.once(("rule-untranslated", gives_resource), "TPL013", Severity.WARNING,
                                     f"production rule {rule_name!r} {what}; an aa50 unit has one cost in "
                                     "IPCs, so it is not translated", rule.element, rule_name)
        if purchases:
            self.rules["purchases"] = purchases

    def _purchase(self, rule) -> dict:
        def amounts(pairs):
            out = []
            for name, quantity in pairs:
                if name in self.game.units:
                    out.append({"unit": self.unit_ids.get(name), "count": quantity})
                else:
                    out.append({"resource": self.resource_ids.get(name), "amount": quantity})
            return out
        ids = Ids("purchase")
        return {"id": ids.add(rule.name, plain_id(rule.name)) if plain_id(rule.name) else "purchase",
                "costs": amounts(rule.costs), "gives": amounts(rule.results)}

    # -- objectives ------------------------------------------------------------------------------
    def _objectives(self) -> list[dict]:
        option = "national-objectives" if "National Objectives" in self.game.properties else None
        context = Context(self.game, self.territory_ids, self.nation, self.side, self.original_owner,
                          self.impassable)
        return translate_objectives(self.game, context, self.report, self.money(), option)

    # -- the starting position ---------------------------------------------------------------------
    def _setup(self, units: dict[str, dict]) -> dict:
        game = self.game
        control: dict[str, str] = {}
        for territory, owner, _ in game.owners:
            if owner == NEUTRAL:
                control.pop(territory, None)
            else:
                control[territory] = self.nation(owner)
        stacks: dict[str, list[dict]] = defaultdict(list)
        for placement in game.placements:
            if placement.owner_unknown:
                self.report.once(("owner-unknown",), "TPL014", Severity.WARNING,
                                 f"a unit placement names the owner {placement.element.attrs.get('owner')!r}, "
                                 "which is no player; TripleA places such units without an owner, here they "
                                 "belong to the neutral power", placement.element, placement.territory)
            owner = self.nation(placement.owner)
            unit_id = units[placement.unit]["id"]
            existing = next((s for s in stacks[placement.territory]
                             if s["type"] == unit_id and s["owner"] == owner), None)
            if existing:
                existing["count"] += placement.quantity
            else:
                stacks[placement.territory].append({"type": unit_id, "owner": owner, "count": placement.quantity})
            damage = [a for a in ("hitsTaken", "unitDamage")
                      if placement.element.attrs.get(a, "0").strip() not in ("", "0")]
            if damage:
                self.report.once(("placement-damage",), "TPL005", Severity.WARNING,
                                 f"units placed with {damage[0]} start undamaged here", placement.element)
        by_id = {u["id"]: u for u in units.values()}
        entries = []
        for name, space in self.spaces.items():
            holder = control.get(name)
            placed = stacks.get(name, [])
            if holder is None and not placed:
                continue
            entry: dict = {"space": space["id"]}
            if holder:
                entry["control"] = holder
            if placed:
                entry["units"] = [self._stack(s, holder, space, placed, by_id) for s in placed]
            entries.append(entry)
        self.control = control
        setup: dict = {"spaces": entries}
        given = [{"owner": self.nation(p), "resource": self.resource_ids.get(r), "amount": q}
                 for p, r, q, _ in game.resources_given]
        if given:
            setup["resources"] = given
        for element in game.held_units:
            self.report.once(("held-units",), "TPL005", Severity.WARNING,
                             "units held by a player to place later (heldUnits) are not translated", element)
        return setup

    @staticmethod
    def _stack(stack: dict, holder: str | None, space: dict, stacks: list[dict], by_id: dict) -> dict:
        """A unit stack; land units in a sea zone ride a transport of their owner."""
        out = {"type": stack["type"], "count": stack["count"]}
        if stack["owner"] != holder:
            out["owner"] = stack["owner"]
        if space["kind"] == "sea" and by_id[stack["type"]]["domain"] == "land":
            carriers = [s["type"] for s in stacks if s["owner"] == stack["owner"] and any(
                a["kind"] == "transport" for a in by_id[s["type"]].get("abilities", []))]
            if carriers:
                out["aboard"] = carriers[0]
        return out

    # -- the manifest ------------------------------------------------------------------------------
    def _scenario(self, turn_order: list[str], played_by: dict[str, str], passive: set[str],
                  setup: dict) -> dict:
        game = self.game
        title = game.info.get("name") or self.scenario_id
        data: dict = {"id": self.scenario_id, "name": title, "system": self.family, "source_language": "en",
                      "notes": [f"Imported from the TripleA game {title!r} by `sandtable import triplea`."]}
        if game.info.get("version"):
            data["version"] = game.info["version"]
        players = [p for p in game.players if p != NEUTRAL]
        if self.neutral_used or NEUTRAL in game.players:
            players.append(NEUTRAL)
        for player in players:
            self.side(player)
        money = self.money()
        income = {g["owner"]: g["amount"] for g in setup.get("resources", []) if g["resource"] == money}
        nations = []
        for player in players:
            nation_id = self.nation(player)
            nation: dict = {"id": nation_id, "name": self.display_name(player), "triplea_name": player,
                            "side": self.side(player)}
            capital = self._capital(player, self.capitals.get(player, []))
            if capital is not None:
                nation["capital"] = capital
            if nation_id in played_by:
                nation["played_by"] = played_by[nation_id]
            elif (nation_id in passive or player == NEUTRAL) and nation_id not in turn_order:
                nation["passive"] = True
            if nation_id in income:
                nation["income"] = income[nation_id]
            nation["victory_cities"] = sum(self.victory_weight.get(t, 0) for t, holder in self.control.items()
                                           if holder == nation_id)
            nations.append(nation)
        data["sides"] = [{"id": side, "name": name} for side, name in self.side_names.items()
                         if any(n["side"] == side for n in nations)]
        data["nations"] = nations
        if turn_order:
            data["turn_order"] = turn_order
        data["resources"] = [{"id": self.resource_ids.get(r), "name": self._resource_names(r)[1]}
                             for r in game.resources]
        options, victory = self._properties()
        map_name = (game.property_value(MAP_NAME_PROPERTY) or "").strip()
        if map_name:
            data["triplea_map"] = map_name
        if options:
            data["options"] = options
        if victory:
            data["victory"] = victory
        if self.family == "triplea":
            self.rules["dice_sides"] = game.dice_sides
        return data

    def _capital(self, player: str, capitals: list[str]) -> str | None:
        """The first capital of a player; more are kept as spaces tagged capital."""
        impassable_ids = {self.territory_ids[t] for t in self.impassable}
        usable = [c for c in capitals if c not in impassable_ids]
        for capital in capitals:
            if capital in impassable_ids:
                space = next(s for s in self.spaces.values() if s["id"] == capital)
                if "capital" in space["tags"]:   # two nations may name the same one
                    space["tags"].remove("capital")
                self.report.warning("TPL009", f"the capital of {player}, {capital!r}, is an impassable territory; "
                                    "it was not translated", self._capital_option(capital),
                                    hint="TripleA uses such a capital as a technical marker; give the nation "
                                    "no capital")
        if len(usable) > 1:
            self.report.info("TPL015", f"{player} has {len(usable)} capitals ({', '.join(usable)}); the first "
                             "is the nation's capital, the others stay tagged capital",
                             self._capital_option(usable[1]))
        return usable[0] if usable else None

    def _capital_option(self, space_id: str):
        for attachment in self.game.attachments:
            if attachment.java_class == "TerritoryAttachment" and \
                    self.territory_ids.get(attachment.attach_to) == space_id:
                for option in attachment.options:
                    if option.name == "capital":
                        return option.element
        return None

    def _properties(self) -> tuple[list[dict], list[dict]]:
        game = self.game
        options, victory = [], []
        handled = {BORDERS_PROPERTY, CHINA_PROPERTY, MAP_NAME_PROPERTY, "WW2V3"}    # WW2V3 chose the rule family
        for name, (option_id, option_name) in OPTION_PROPERTIES.items():
            if name in game.properties:
                handled.add(name)
                options.append({"id": option_id, "name": option_name, "default": game.property_on(name)})
        victory_ids = Ids("victory")
        alliances = list(dict.fromkeys(a for entries in game.alliances.values() for a, _ in entries))
        for name, (option_id, option_name, suffix, default_count) in VICTORY_PROPERTIES.items():
            if name not in game.properties:
                continue
            handled.add(name)
            counts = {}
            for alliance in alliances:
                handled.add(f"{alliance} {suffix}")
                counts[alliance] = game.property_int(f"{alliance} {suffix}", default_count)
            shown = sorted(set(counts.values())) or [default_count]
            options.append({"id": option_id, "name": f"{option_name}: {'/'.join(map(str, shown))} victory cities",
                            "default": game.property_on(name)})
            for alliance, count in counts.items():
                side = self.side_ids.get(alliance)
                if side is None or count < 1:
                    continue
                victory.append({"id": victory_ids.add(f"{alliance}\0{option_id}", f"{side}-{option_id}"),
                                "name": f"{alliance} win: {option_name}", "side": side, "option": option_id,
                                "when": {"victory_cities": {"side": side, "count": count}}})
        for name, (value, element) in game.properties.items():
            if name in handled:
                continue
            if name.endswith(" bid"):
                self.report.once(("bid",), "TPL005", Severity.INFO,
                                 f"property {name!r} (bidding) is not translated", element, name)
            elif name.endswith(" VCs") or "Victory" in name:
                self.report.once(("victory-property", name.split()[-1]), "TPL005", Severity.WARNING,
                                 f"victory property {name!r}={value!r} is not translated", element, name)
            else:
                self.report.once(("property",), "TPL005", Severity.INFO,
                                 f"property {name!r}={value!r} is a TripleA engine setting; not translated",
                                 element, name)
        return options, victory

    # -- a player's special rules (China in the AA50 games) -------------------------------------
    def _player_rules(self) -> None:
        for attachment in self.game.attachments:
            if attachment.kind != "player" or attachment.name != "rulesAttachment":
                continue
            self._china(attachment)
        kept = self.game.properties.get(CHINA_PROPERTY)
        if kept is not None and "china" not in self.rules:
            self.report.warning("TPL019", f"the property {CHINA_PROPERTY} goes with China's rules, which the "
                                "game does not have; it was not used", kept[1])

    def _china(self, attachment) -> None:
        player = attachment.attach_to
        nation = self.nation(player)
        rules: dict = {"nation": nation, "unit": "infantry"}
        for option in attachment.options:
            key, value = option.name, option.value
            if key == "movementRestrictionTerritories":
                names = [n for n in split_list(value) if n]
                missing = [n for n in names if n not in self.game.territories]
                if missing:
                    self.report.error("TPL006", f"<option> names the territory {missing[0]!r}, which the game "
                                      "does not define", option.element)
                    return
                rules["territories"] = [self.territory_ids[n] for n in names]
            elif key == "movementRestrictionType" and value == "allowed":
                continue
            elif key == "productionPerXTerritories":
                # `n` or `n:unit`: one unit (infantry when none is named) per n territories
                count, _, unit = value.partition(":")
                rules["infantry_per_territories"] = self._int(Option(key, count, option.element), key)
                if unit and unit not in self.game.units:
                    self.report.error("TPL006", f"<option> names the unit {unit!r}, which the game does not "
                                      "define", option.element)
                    return
                if unit:
                    rules["unit"] = self.unit_ids[unit]
            elif key == "placementPerTerritory":
                rules["placement_limit"] = self._int(option, key)
            elif key in ("placementAnyTerritory", "placementCapturedTerritory") and value == "true":
                rules["place_in_any_territory"] = True
            else:
                self.report.once(("player-rule", key), "TPL005", Severity.WARNING,
                                 f"rule {key}={value} of {player} is not translated", option.element, player)
        if self.family != "aa50" or nation != "china":
            self.report.once(("player-rules",), "TPL005", Severity.WARNING,
                             f"the special rules of {player} are not translated; only China's have a place "
                             "in the aa50 rules", attachment.element, player)
            return
        rules.update({"collects_income": False, "may_use_transports": False})
        rules.update(self._kept_china_rules())
        self.rules["china"] = {k: v for k, v in rules.items() if v is not None}

    def _kept_china_rules(self) -> dict:
        """China's rules that no TripleA option says, kept by `sandtable export` in the property
        sandtable.china: a JSON object of collects_income, may_use_transports (true or false),
        no_replacement (unit names) and recapture_only (territory names)."""
        found = self.game.properties.get(CHINA_PROPERTY)
        if found is None:
            return {}
        value, element = found
        try:
            kept = json.loads(value)
        except ValueError:
            kept = None
        names: dict[str, tuple[Any, str]] = {"no_replacement": (self.unit_ids, "unit"),
                                             "recapture_only": (self.territory_ids, "territory")}
        problem = None
        if not isinstance(kept, dict):
            problem = "is not a JSON object"
        else:
            for key, item in kept.items():
                if key in ("collects_income", "may_use_transports"):
                    if not isinstance(item, bool):
                        problem = f"gives {key} {item!r}, not true or false"
                elif key in names:
                    ids, what = names[key]
                    if not isinstance(item, list) or not all(isinstance(n, str) and n in ids for n in item):
                        problem = f"gives {key} {item!r}, not a list of the game's {what} names"
                else:
                    problem = f"has {key!r}, which is none of China's rules"
                if problem:
                    break
        if problem:
            self.report.warning("TPL019", f"the property {CHINA_PROPERTY} {problem}; it was not used", element)
            return {}
        return {key: [names[key][0][n] for n in item] if key in names else item for key, item in kept.items()}

    # -- what was not translated ------------------------------------------------------------------
    def _untranslated(self) -> None:
        for element in self.game.other:
            if element.tag in ("loader", "triplea"):
                self.report.info("TPL005", f"<{element.tag}> is a TripleA engine setting; not translated", element)
            else:
                self.report.once(("element", element.tag), "TPL005", Severity.WARNING,
                                 f"<{element.tag}> is not translated", element)
        if self.game.dice_element is not None and self.family == "aa50":
            self.report.info("TPL005", "<diceSides> is 6, as in AA50", self.game.dice_element)
        for element in self.game.repair_elements[:1]:
            self.report.info("TPL005", f"<{element.tag}> and the other repair rules are not translated: "
                             "repairs follow the rules of the game system", element)
        if self.game.technology is not None:
            self.report.info("TPL005", "<technology> is not translated (research is rules data)",
                             self.game.technology)
        for element in self.game.relationships[:1]:
            self.report.warning("TPL005", f"the {len(self.game.relationships)} starting relationships "
                                "(relationshipInitialize) are not translated; sides come from the alliances",
                                element)
        for attachment in self.game.attachments:
            if attachment.java_class in TRANSLATED_CLASSES:
                continue
            if attachment.java_class == "RulesAttachment":
                if not (attachment.name.startswith("objectiveAttachment") or attachment.name == "rulesAttachment"):
                    self.report.once(("conditions",), "TPL005", Severity.INFO,
                                     f"RulesAttachment {attachment.name!r} of {attachment.attach_to!r} is a "
                                     "condition of the game's triggers or objectives; conditions are "
                                     "translated only as parts of national objectives", attachment.element,
                                     attachment.name)
                continue
            if attachment.java_class == "TechAttachment":
                self._tech(attachment)
                continue
            self.report.once(("attachment", attachment.java_class), "TPL005", Severity.WARNING,
                             f"{attachment.java_class} {attachment.name!r} of {attachment.attach_to!r} is not "
                             "translated", attachment.element, attachment.name)

    def _tech(self, attachment) -> None:
        known = [o for o in attachment.options if o.value.strip().lower() == "true"]
        if known:
            self.report.once(("starting-tech",), "TPL005", Severity.WARNING,
                             f"{attachment.attach_to} starts with technology {known[0].name!r}; starting "
                             "technologies are not translated", known[0].element, attachment.attach_to)
        else:
            self.report.once(("no-tech",), "TPL005", Severity.INFO,
                             f"{attachment.attach_to} starts with no technology; the list of TripleA "
                             "technologies is not translated (the research charts are rules data)",
                             attachment.element, attachment.attach_to)


def _parts(spaces: list[str], neighbours: dict[str, set[str]]) -> list[set[str]]:
    """The connected parts among `spaces` (borders to other spaces left out), the largest first
    (ties: the one met first)."""
    keep, seen, found = set(spaces), set(), []
    for start in spaces:
        if start in seen:
            continue
        part, frontier = {start}, [start]
        while frontier:
            for other in neighbours[frontier.pop()]:
                if other in keep and other not in part:
                    part.add(other)
                    frontier.append(other)
        seen |= part
        found.append(part)
    return sorted(found, key=lambda part: -len(part))


def _tag(space: dict, tag: str) -> None:
    tags = space.setdefault("tags", [])
    if tag not in tags:
        tags.append(tag)
