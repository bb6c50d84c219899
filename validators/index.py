"""An index of a loaded scenario's entities by id, shared by the checks (and the engine)."""
from __future__ import annotations

from dataclasses import dataclass, field

from sandtable.scenario import Scenario

LAND_KINDS = {"land", "fortress", "port"}
SEA_KINDS = {"sea"}
SHIP_KINDS = {"sea", "port"}
SPACE_KINDS = LAND_KINDS | SEA_KINDS | {"square"}


@dataclass
class Entity:
    kind: str          # file kind
    pointer: str       # JSON pointer inside that file
    data: dict


@dataclass
class ScenarioIndex:
    scenario: Scenario
    spaces: dict[str, Entity] = field(default_factory=dict)
    nations: dict[str, Entity] = field(default_factory=dict)
    sides: dict[str, Entity] = field(default_factory=dict)
    unit_types: dict[str, Entity] = field(default_factory=dict)
    options: dict[str, Entity] = field(default_factory=dict)
    canals: dict[str, Entity] = field(default_factory=dict)
    regions: dict[str, Entity] = field(default_factory=dict)
    markers: dict[str, Entity] = field(default_factory=dict)
    pools: dict[str, Entity] = field(default_factory=dict)
    resources: dict[str, Entity] = field(default_factory=dict)
    phases: dict[str, Entity] = field(default_factory=dict)
    objectives: dict[str, Entity] = field(default_factory=dict)
    decks: dict[str, Entity] = field(default_factory=dict)
    cards: dict[str, Entity] = field(default_factory=dict)
    tables: dict[str, Entity] = field(default_factory=dict)

    @property
    def owners(self) -> dict[str, Entity]:
        """Everything that can own or control: nations and sides."""
        return {**self.sides, **self.nations}

    def side_of(self, owner: str) -> str | None:
        if owner in self.sides:
            return owner
        nation = self.nations.get(owner)
        side = nation.data.get("side") if nation else None
        return side if isinstance(side, str) else None

    def space_kind(self, space: str) -> str | None:
        entity = self.spaces.get(space)
        kind = entity.data.get("kind") if entity else None
        return kind if kind in SPACE_KINDS else None

    def starting_control(self) -> dict[str, str]:
        """Space id -> the nation or side that controls it at the start."""
        control = {}
        for _, entry in self.scenario.entities("setup", "spaces"):
            if isinstance(entry.get("space"), str) and isinstance(entry.get("control"), str):
                control[entry["space"]] = entry["control"]
        return control


COLLECTIONS = {
    # index attribute: (file kind, top-level list)
    "spaces": ("map", "spaces"),
    "canals": ("map", "canals"),
    "regions": ("map", "regions"),
    "nations": ("scenario", "nations"),
    "sides": ("scenario", "sides"),
    "options": ("scenario", "options"),
    "resources": ("scenario", "resources"),
    "phases": ("scenario", "phases"),
    "unit_types": ("units", "unit_types"),
    "markers": ("setup", "markers"),
    "pools": ("setup", "pools"),
    "objectives": ("objectives", "objectives"),
    "decks": ("decks", "decks"),
    "tables": ("tables", "tables"),
}


def build_index(scenario: Scenario) -> ScenarioIndex:
    """Index the first entity of each id (duplicates are reported by the id check)."""
    index = ScenarioIndex(scenario)
    for attribute, (kind, collection) in COLLECTIONS.items():
        table = getattr(index, attribute)
        for pointer, entity in scenario.entities(kind, collection):
            if isinstance(entity.get("id"), str):
                table.setdefault(entity["id"], Entity(kind, pointer, entity))
    for deck_pointer, deck in scenario.entities("decks", "decks"):
        cards = deck.get("cards")
        if isinstance(cards, list):
            for i, card in enumerate(cards):
                if isinstance(card, dict) and isinstance(card.get("id"), str):
                    index.cards.setdefault(card["id"], Entity("decks", f"{deck_pointer}/cards/{i}", card))
    return index
