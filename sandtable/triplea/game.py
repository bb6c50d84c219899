"""A TripleA game file, read as TripleA's own parser reads it.

This module knows what TripleA accepts, nothing about the scenario format. It gathers the
game's elements into plain records and reports, as errors, only what TripleA itself refuses to
load (a connection to a territory that does not exist, a step of an unknown player ...). What
TripleA accepts is accepted here, with TripleA's reading of it:

- the neutral player: `Neutral` is always a player (TripleA's "null player"), and a unit
  placement without an owner places neutral units;
- attachments with `foreach` are repeated for each combination of their variables, and
  `$variable$` in option values stands for the variable's elements joined by `:`
  (`<variableList>`);
- option names are read as TripleA reads them: first letter in lower case, legacy names mapped
  (`isImpassible` -> `isImpassable`, `occupiedTerrOf` -> `originalOwner`, `turns` -> `rounds`),
  and `count="2"` joined to the value as `2:value`;
- a connection given in both directions is one border;
- the old spelling `<attatchmentList>`, `<attatchment attatchTo=...>` is read as the new one.

sandtable.triplea.translate makes a scenario from the result.
"""
from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field

from ..diagnostics import Diagnostic, error, info, warning
from ..safexml import Element, XmlDocument

NEUTRAL = "Neutral"          # TripleA's null player: owns what no player owns
ATTACHABLE_KINDS = ("unitType", "territory", "resource", "player", "relationship",
                    "territoryEffect", "technology")
SECTIONS = ("info", "loader", "triplea", "diceSides", "variableList", "map", "resourceList",
            "playerList", "unitList", "relationshipTypes", "territoryEffectList", "gamePlay",
            "production", "technology", "attachmentList", "attatchmentList", "initialize", "propertyList")
ATTACHMENT_TAGS = ("attachment", "attatchment")   # TripleA still reads the old spelling
LEGACY_OPTION_NAMES = {"isparatroop": "isAirTransportable", "isinfantry": "isLandTransportable",
                       "ismechanized": "isLandTransportable", "occupiedterrof": "originalOwner",
                       "isimpassible": "isImpassable", "turns": "rounds"}


@dataclass
class Option:
    name: str            # as TripleA reads it (decapitalized, legacy names mapped)
    value: str           # with `count:` in front when the option has a count; variables expanded
    element: Element


@dataclass
class Attachment:
    name: str
    attach_to: str
    kind: str            # unitType, territory, player ...
    java_class: str      # the simple class name: UnitAttachment, RulesAttachment ...
    options: list[Option]
    element: Element

    def values(self) -> dict[str, Option]:
        """Option name -> option; a later option of the same name replaces an earlier one, as
        in TripleA."""
        return {option.name: option for option in self.options}


@dataclass
class Step:
    name: str
    delegate: str
    delegate_class: str  # simple class name of the step's delegate
    player: str | None
    one_time: bool       # maxRunCount: bids and set-up steps
    element: Element


@dataclass
class Rule:
    """A production rule: what it costs and what it gives."""

    name: str
    costs: list[tuple[str, int]]      # (resource, quantity)
    results: list[tuple[str, int]]    # (unit type or resource, quantity)
    element: Element


@dataclass
class Placement:
    territory: str
    unit: str
    owner: str           # a player, or NEUTRAL
    quantity: int
    element: Element
    owner_unknown: bool = False       # the owner names no player: TripleA places ownerless units


@dataclass
class Game:
    """Everything TripleA would load from the file, in document order."""

    document: XmlDocument
    info: dict[str, str] = field(default_factory=dict)
    dice_sides: int = 6
    dice_element: Element | None = None
    territories: dict[str, Element] = field(default_factory=dict)
    water: set[str] = field(default_factory=set)
    connections: list[tuple[str, str, Element]] = field(default_factory=list)
    resources: dict[str, Element] = field(default_factory=dict)
    players: dict[str, Element] = field(default_factory=dict)
    alliances: dict[str, list[tuple[str, Element]]] = field(default_factory=dict)  # player -> alliances
    units: dict[str, Element] = field(default_factory=dict)
    relationship_types: set[str] = field(default_factory=set)
    territory_effects: set[str] = field(default_factory=set)
    delegates: dict[str, str] = field(default_factory=dict)        # name -> simple class name
    delegate_elements: list[Element] = field(default_factory=list)
    steps: list[Step] = field(default_factory=list)
    rules: dict[str, Rule] = field(default_factory=dict)
    frontiers: dict[str, list[str]] = field(default_factory=dict)
    player_frontiers: dict[str, str] = field(default_factory=dict)
    repair_elements: list[Element] = field(default_factory=list)
    technology: Element | None = None
    attachments: list[Attachment] = field(default_factory=list)
    owners: list[tuple[str, str, Element]] = field(default_factory=list)   # territory, player
    placements: list[Placement] = field(default_factory=list)
    held_units: list[Element] = field(default_factory=list)
    resources_given: list[tuple[str, str, int, Element]] = field(default_factory=list)
    relationships: list[Element] = field(default_factory=list)
    properties: dict[str, tuple[str, Element]] = field(default_factory=dict)
    other: list[Element] = field(default_factory=list)     # elements TripleA does not read
    diagnostics: list[Diagnostic] = field(default_factory=list)

    # -- names ---------------------------------------------------------------------------------
    def is_player(self, name: str) -> bool:
        return name == NEUTRAL or name in self.players

    def property_value(self, name: str, default: str | None = None) -> str | None:
        found = self.properties.get(name)
        return found[0] if found else default

    def property_int(self, name: str, default: int) -> int:
        value = self.property_value(name)
        try:
            return int(str(value).strip()) if value is not None else default
        except ValueError:
            return default

    def property_on(self, name: str) -> bool:
        return str(self.property_value(name, "false")).strip().lower() == "true"

    def alliances_of(self, player: str) -> list[str]:
        return [name for name, _ in self.alliances.get(player, [])]

    @property
    def has_errors(self) -> bool:
        return any(d.is_error for d in self.diagnostics)


def read_game(document: XmlDocument) -> Game:
    """The game TripleA would load from a parsed file; problems are in `game.diagnostics`."""
    return _Reader(document).read()


def split_list(value: str) -> list[str]:
    """TripleA's lists: names joined by ':'."""
    return [part for part in value.split(":")]


class _Reader:
    def __init__(self, document: XmlDocument):
        self.doc = document
        self.game = Game(document, diagnostics=list(document.notes))
        self.variables: dict[str, list[str]] = {}
        self.attachment_index: dict[tuple[str, str, str], int] = {}

    # -- reporting -----------------------------------------------------------------------------
    def refused(self, element: Element, message: str, hint: str | None = None) -> None:
        """What TripleA refuses to load."""
        self.game.diagnostics.append(error("TPL006", message, self.doc.where(element), hint))

    def unknown(self, element: Element, what: str, name: str) -> None:
        self.refused(element, f"<{element.tag}> names the {what} {name!r}, which the game does not define")

    def number(self, element: Element, text: str | None, what: str, default: int | None = None) -> int | None:
        if text is None:
            return default
        try:
            return int(str(text).strip())
        except ValueError:
            self.game.diagnostics.append(warning(
                "TPL007", f"{what} is {text!r}, not a whole number; it was not translated",
                self.doc.where(element)))
            return None

    # -- the walk ----------------------------------------------------------------------------
    def read(self) -> Game:
        root = self.doc.root
        if root.tag != "game":
            self.game.diagnostics.append(error(
                "TPL004", f"the root element is <{root.tag}>, not <game>: this is not a TripleA game file",
                self.doc.where(root)))
            return self.game
        sections = defaultdict(list)
        for child in root.children:
            if child.tag in SECTIONS:
                sections[child.tag].append(child)
            else:
                self.game.other.append(child)
        # TripleA's order: what later sections refer to comes first.
        for tag, reader in (("info", self._info), ("diceSides", self._dice), ("playerList", self._players),
                            ("map", self._map), ("resourceList", self._resources),
                            ("unitList", self._units), ("relationshipTypes", self._relationship_types),
                            ("territoryEffectList", self._territory_effects),
                            ("variableList", self._variables), ("gamePlay", self._game_play),
                            ("production", self._production), ("technology", self._technology),
                            ("attachmentList", self._attachments), ("attatchmentList", self._attachments),
                            ("initialize", self._initialize),
                            ("propertyList", self._properties)):
            for element in sections[tag]:
                reader(element)
        for tag in ("loader", "triplea"):
            self.game.other.extend(sections[tag])
        return self.game

    def _info(self, element: Element) -> None:
        self.game.info = dict(element.attrs)

    def _dice(self, element: Element) -> None:
        sides = self.number(element, element.attrs.get("value"), "the number of sides of a die")
        if sides is not None and sides >= 1:
            self.game.dice_sides = sides
            self.game.dice_element = element

    def _players(self, element: Element) -> None:
        for child in element.find_all("player"):
            name = child.attrs.get("name", "")
            self.game.players.setdefault(name, child)
        for child in element.children:
            if child.tag == "alliance":
                player = child.attrs.get("player", "")
                if not self.game.is_player(player):
                    self.unknown(child, "player", player)
                    continue
                self.game.alliances.setdefault(player, []).append((child.attrs.get("alliance", ""), child))
            elif child.tag != "player":
                self.game.other.append(child)

    def _map(self, element: Element) -> None:
        for child in element.find_all("territory"):
            name = child.attrs.get("name", "")
            if name in self.game.territories:
                self.game.diagnostics.append(warning(
                    "TPL005", f"territory {name!r} is defined twice; the second is ignored",
                    self.doc.where(child)))
                continue
            self.game.territories[name] = child
            if child.attrs.get("water", "false").strip().lower() == "true":
                self.game.water.add(name)
        seen: dict[frozenset, Element] = {}
        for child in element.children:
            if child.tag == "connection":
                a, b = child.attrs.get("t1", ""), child.attrs.get("t2", "")
                missing = next((n for n in (a, b) if n not in self.game.territories), None)
                if missing is not None:
                    self.unknown(child, "territory", missing)
                    continue
                key = frozenset((a, b))
                if key in seen:
                    self.game.diagnostics.append(info(
                        "TPL010", f"the connection {a!r} - {b!r} is given again; TripleA keeps one "
                        "border", self.doc.where(child), hint=f"first given at line {seen[key].line}"))
                    continue
                seen[key] = child
                self.game.connections.append((a, b, child))
            elif child.tag != "territory":
                self.game.other.append(child)

    def _resources(self, element: Element) -> None:
        for child in element.children:
            if child.tag == "resource":
                self.game.resources.setdefault(child.attrs.get("name", ""), child)
            else:
                self.game.other.append(child)

    def _units(self, element: Element) -> None:
        for child in element.children:
            if child.tag == "unit":
                self.game.units.setdefault(child.attrs.get("name", ""), child)
            else:
                self.game.other.append(child)

    def _relationship_types(self, element: Element) -> None:
        self.game.relationship_types |= {c.attrs.get("name", "") for c in element.find_all("relationshipType")}

    def _territory_effects(self, element: Element) -> None:
        self.game.territory_effects |= {c.attrs.get("name", "") for c in element.find_all("territoryEffect")}

    def _variables(self, element: Element) -> None:
        """`<variable name="x"><element name="a"/>...`: $x$ stands for its elements; an element
        that names another variable ($y$) stands for that variable's elements."""
        for child in element.find_all("variable"):
            values: list[str] = []
            for item in child.find_all("element"):
                value = item.attrs.get("name", "")
                values += self.variables.get(value, [value])
            self.variables[f"${child.attrs.get('name', '')}$"] = values

    # -- the sequence ----------------------------------------------------------------------------
    def _game_play(self, element: Element) -> None:
        for child in element.find_all("delegate"):
            java_class = child.attrs.get("javaClass", "")
            self.game.delegates[child.attrs.get("name", "")] = java_class.rsplit(".", 1)[-1]
            self.game.delegate_elements.append(child)
        for child in element.children:
            if child.tag == "sequence":
                for step in child.find_all("step"):
                    self._step(step)
            elif child.tag not in ("delegate", "offset"):
                self.game.other.append(child)

    def _step(self, element: Element) -> None:
        delegate = element.attrs.get("delegate", "")
        if delegate not in self.game.delegates:
            self.unknown(element, "delegate", delegate)
            return
        player = element.attrs.get("player")
        if player is not None and player.strip() and not self.game.is_player(player):
            self.refused(element, f"the step {element.attrs.get('name', '')!r} is for the player "
                         f"{player!r}, which the game does not define")
            return
        # maxRunCount caps how often a step runs: 1 is a bid or a set-up step; a larger cap (some
        # games write 1000) still repeats every round, so the step belongs to the round.
        one_time = (element.attrs.get("maxRunCount") or "").strip() == "1"
        self.game.steps.append(Step(element.attrs.get("name", ""), delegate, self.game.delegates[delegate],
                                    player if player and player.strip() else None, one_time, element))

    # -- production ------------------------------------------------------------------------------
    def _production(self, element: Element) -> None:
        for child in element.children:
            if child.tag == "productionRule":
                self._rule(child)
            elif child.tag == "productionFrontier":
                rules = []
                for entry in child.find_all("frontierRules"):
                    name = entry.attrs.get("name", "")
                    if name not in self.game.rules:
                        self.unknown(entry, "production rule", name)
                    else:
                        rules.append(name)
                self.game.frontiers[child.attrs.get("name", "")] = rules
            elif child.tag == "playerProduction":
                player, frontier = child.attrs.get("player", ""), child.attrs.get("frontier", "")
                if not self.game.is_player(player):
                    self.unknown(child, "player", player)
                elif frontier not in self.game.frontiers:
                    self.unknown(child, "production frontier", frontier)
                else:
                    self.game.player_frontiers[player] = frontier
            elif child.tag in ("repairRule", "repairFrontier", "playerRepair"):
                self.game.repair_elements.append(child)
            else:
                self.game.other.append(child)

    def _rule(self, element: Element) -> None:
        costs, results = [], []
        for cost in element.find_all("cost"):
            resource = cost.attrs.get("resource", "")
            if resource not in self.game.resources:
                return self.unknown(cost, "resource", resource)
            costs.append((resource, self.number(cost, cost.attrs.get("quantity"), "a cost", 0) or 0))
        for result in element.find_all("result"):
            made = result.attrs.get("resourceOrUnit", "")
            if made not in self.game.resources and made not in self.game.units:
                return self.unknown(result, "unit or resource", made)
            results.append((made, self.number(result, result.attrs.get("quantity"), "a quantity made", 0) or 0))
        if not costs or not results:
            return self.refused(element, f"the production rule {element.attrs.get('name', '')!r} has no "
                                + ("cost" if not costs else "result"))
        name = element.attrs.get("name", "")
        self.game.rules[name] = Rule(name, costs, results, element)

    def _technology(self, element: Element) -> None:
        self.game.technology = element

    # -- attachments -----------------------------------------------------------------------------
    def _attachments(self, element: Element) -> None:
        for child in element.children:
            if child.tag not in ATTACHMENT_TAGS:
                self.game.other.append(child)
                continue
            foreach = child.attrs.get("foreach", "")
            combinations = self._combinations(child, foreach) if foreach.strip() else [{}]
            for combination in combinations:
                self._attachment(child, combination)

    def _combinations(self, element: Element, foreach: str) -> list[dict[str, str]]:
        """TripleA's foreach: `$a$:$b$` walks a and b together, `$a$^$c$` every pair."""
        groups = foreach.split("^")
        if len(groups) > 2:
            self.refused(element, f"foreach {foreach!r} uses '^' more than once")
            return []
        walked = []
        for group in groups:
            names = group.split(":")
            missing = [n for n in names if n not in self.variables]
            if missing:
                self.unknown(element, "variable", missing[0])
                return []
            length = len(self.variables[names[0]])
            if any(len(self.variables[n]) != length for n in names):
                self.refused(element, f"the variables of foreach {foreach!r} have different lengths")
                return []
            walked.append([{f"@{n.strip('$')}@": self.variables[n][i] for n in names} for i in range(length)])
        if len(walked) == 1:
            return walked[0]
        return [{**inner, **outer} for outer in walked[0] for inner in walked[1]]

    def _attachment(self, element: Element, foreach: dict[str, str]) -> None:
        kind = element.attrs.get("type", "unitType") or "unitType"
        attach_to = _replace(element.attrs.get("attachTo", element.attrs.get("attatchTo", "")), foreach)
        name = _replace(element.attrs.get("name", ""), foreach)
        if "ttatchment" in name:
            name = name.replace("ttatchment", "ttachment")
        if kind not in ATTACHABLE_KINDS:
            return self.refused(element, f"an attachment cannot be attached to a {kind!r}")
        if not element.attrs.get("javaClass", "").strip():
            return self.refused(element, f"the attachment {name!r} names no javaClass: TripleA cannot "
                                "make it")
        known = {"unitType": self.game.units, "territory": self.game.territories,
                 "resource": self.game.resources, "relationship": self.game.relationship_types,
                 "territoryEffect": self.game.territory_effects}
        if kind == "player" and not self.game.is_player(attach_to):
            return self.unknown(element, "player", attach_to)
        if kind in known and attach_to not in known[kind]:
            return self.unknown(element, {"unitType": "unit"}.get(kind, kind), attach_to)
        options = []
        for child in element.children:
            if child.tag != "option":
                continue
            option_name, value = child.attrs.get("name"), child.attrs.get("value")
            if option_name is None or value is None:
                continue
            option_name = _option_name(option_name)
            if option_name is None or (option_name == "giveUnitControl" and value in ("true", "false")):
                continue  # options TripleA ignores
            count = child.attrs.get("count")
            text = f"{count}:{value}" if count else value
            if foreach:
                if any(not replacement and key in text for key, replacement in foreach.items()):
                    continue  # TripleA skips an option with an empty foreach variable
                text = _replace(text, foreach)
            if "$" in text:
                text = self._expand(text)
            if option_name == "victoryCity" and text.lower() in ("true", "false"):
                text = "1" if text.lower() == "true" else "0"
            options.append(Option(option_name, text, child))
        java_class = element.attrs.get("javaClass", "").rsplit(".", 1)[-1]
        attachment = Attachment(name, attach_to, kind, java_class, options, element)
        key = (kind, attach_to, name)
        if key in self.attachment_index:
            # TripleA keeps one attachment of a name per thing: the later one replaces it
            earlier = self.attachment_index[key]
            self.game.diagnostics.append(info(
                "TPL020", f"{name!r} of {attach_to!r} is given again; TripleA keeps this one",
                self.doc.where(element), hint=f"the first is at line {self.game.attachments[earlier].element.line}"))
            self.game.attachments[earlier] = attachment
            return
        self.attachment_index[key] = len(self.game.attachments)
        self.game.attachments.append(attachment)

    def _expand(self, text: str) -> str:
        if "$" not in text:
            return text
        for name, values in self.variables.items():
            if name in text:
                text = text.replace(name, ":".join(values))
        return text

    # -- the starting position -------------------------------------------------------------------
    def _initialize(self, element: Element) -> None:
        for section in element.children:
            handler = {"ownerInitialize": self._owner, "unitInitialize": self._placement,
                       "resourceInitialize": self._resource_given,
                       "relationshipInitialize": self._relationship}.get(section.tag)
            if handler is None:
                self.game.other.append(section)
                continue
            for child in section.children:
                handler(child)

    def _owner(self, element: Element) -> None:
        if element.tag != "territoryOwner":
            return self.game.other.append(element)
        territory, owner = element.attrs.get("territory", ""), element.attrs.get("owner", "")
        if territory not in self.game.territories:
            return self.unknown(element, "territory", territory)
        if not self.game.is_player(owner):
            return self.unknown(element, "player", owner)
        self.game.owners.append((territory, owner, element))

    def _placement(self, element: Element) -> None:
        if element.tag == "heldUnits":
            return self.game.held_units.append(element)
        if element.tag != "unitPlacement":
            return self.game.other.append(element)
        unit, territory = element.attrs.get("unitType", ""), element.attrs.get("territory", "")
        if territory not in self.game.territories:
            return self.unknown(element, "territory", territory)
        if unit not in self.game.units:
            return self.unknown(element, "unit", unit)
        quantity = self.number(element, element.attrs.get("quantity"), "the quantity placed")
        if quantity is None or quantity < 1:
            return
        owner = (element.attrs.get("owner") or "").strip()
        unknown_owner = bool(owner) and not self.game.is_player(owner)
        self.game.placements.append(Placement(territory, unit, owner if owner and not unknown_owner else NEUTRAL,
                                              quantity, element, unknown_owner))

    def _resource_given(self, element: Element) -> None:
        if element.tag != "resourceGiven":
            return self.game.other.append(element)
        player, resource = element.attrs.get("player", ""), element.attrs.get("resource", "")
        if not self.game.is_player(player):
            return self.unknown(element, "player", player)
        if resource not in self.game.resources:
            return self.unknown(element, "resource", resource)
        amount = self.number(element, element.attrs.get("quantity"), "the amount given")
        if amount is not None:
            self.game.resources_given.append((player, resource, amount, element))

    def _relationship(self, element: Element) -> None:
        self.game.relationships.append(element)

    def _properties(self, element: Element) -> None:
        for child in element.children:
            if child.tag != "property":
                self.game.other.append(child)
                continue
            name = child.attrs.get("name")
            if name is None:
                continue
            inner = child.find("value")
            value = inner.text.strip() if inner is not None else child.attrs.get("value", "")
            self.game.properties[name] = (value, child)


_OPTION_NAMES: dict[str, str | None] = {}


def _option_name(name: str) -> str | None:
    """An option's name as TripleA reads it: first letter in lower case, legacy names mapped;
    None for the options TripleA ignores (takeUnitControl)."""
    found = _OPTION_NAMES.get(name, "")
    if found == "":
        plain = name[:1].lower() + name[1:]
        found = LEGACY_OPTION_NAMES.get(plain.lower(), plain)
        if found.lower() == "takeunitcontrol":
            found = None
        elif found.lower() == "giveunitcontrol":
            found = "giveUnitControl"
        _OPTION_NAMES[name] = found
    return found


def _replace(text: str, foreach: dict[str, str]) -> str:
    for key, value in foreach.items():
        text = text.replace(key, value or "")
    return text


__all__ = ["NEUTRAL", "Game", "Attachment", "Option", "Step", "Rule", "Placement", "read_game",
           "split_list"]
