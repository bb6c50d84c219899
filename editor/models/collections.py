"""The entity tables of each file: which fields show as columns, and what they may hold.

Allowed values come from the JSON Schemas (the format's contract) and from the ids the scenario
defines; nothing here knows a game's rules.
"""
from __future__ import annotations

from collections.abc import Callable
from functools import partial

from sandtable.schemas import SchemaNode, load_schema

from ..document import ScenarioDocument
from .entity_table import Column, EntityTableModel


def schema_enum(file: str, *path: str) -> list[str]:
    """The `enum` of a property, following $refs: schema_enum("map.schema.json", "$defs", "space", "kind")."""
    node = SchemaNode(load_schema(file), file)
    for step in path:
        node = SchemaNode(node.schema.get(step, {}), node.file)
    return list(node.schema.get("enum", []))


def ids(document: ScenarioDocument, kind: str, collection: str) -> list[str]:
    return [e["id"] for e in document.entities(kind, collection) if isinstance(e.get("id"), str)]


def owners(document: ScenarioDocument) -> list[str]:
    return ids(document, "scenario", "nations") + ids(document, "scenario", "sides")


def first(values: list[str]) -> str:
    return values[0] if values else ""


def _enum(file: str, definition_path: tuple) -> Callable[[], list[str]]:
    return lambda: schema_enum(file, *definition_path)


def spaces_model(document: ScenarioDocument, parent=None) -> EntityTableModel:
    return EntityTableModel(document, "map", "spaces", [
        Column("Id", ("id",), "id", required=True),
        Column("Name", ("name",), required=True),
        Column("Kind", ("kind",), choices=_enum("map.schema.json", ("$defs", "space", "properties", "kind")),
               required=True, strict=True),
        Column("Value", ("value",), "number"),
        Column("Original owner", ("original_owner",), choices=partial(owners, document)),
        Column("Tags", ("tags",), "list"),
        Column("Position", ("position",), "readonly"),
    ], parent=parent, new_entity=lambda name: {"name": name, "kind": "land"}, noun="space")


def borders_model(document: ScenarioDocument, parent=None) -> EntityTableModel:
    return EntityTableModel(document, "map", "borders", [
        Column("Between", ("between",), "readonly"),
        Column("Kind", ("kind",), choices=_enum("map.schema.json", ("$defs", "border", "properties", "kind")),
               required=True, strict=True),
        Column("One way", ("directed",), "bool"),
        Column("Canal", ("canal",), choices=partial(ids, document, "map", "canals")),
    ], parent=parent, noun="border")


def system_stats(document: ScenarioDocument) -> list[str]:
    """The unit stats the game system's profile allows (schemas/systems/<system>.schema.json)."""
    from validators.schema import profile
    stats = profile(document.merged("scenario").get("system")).get("unit_stats", {})
    return list(stats.get("properties", {})) if isinstance(stats, dict) else []


def unit_columns(document: ScenarioDocument) -> list[Column]:
    # Every stat the system's rules know, then any other a unit already has (a system without a
    # profile takes any numbers).
    stats: list[str] = system_stats(document)
    for unit in document.entities("units", "unit_types"):
        for name in unit.get("stats", {}) if isinstance(unit.get("stats"), dict) else {}:
            if name not in stats:
                stats.append(name)
    return [
        Column("Id", ("id",), "readonly"),
        Column("Name", ("name",), required=True),
        Column("Domain", ("domain",), required=True, strict=True,
               choices=_enum("units.schema.json", ("$defs", "unit_type", "properties", "domain"))),
        Column("Cost", ("cost",), "number"),
        *[Column(name.replace("_", " ").capitalize(), ("stats", name), "number") for name in stats],
        Column("Tags", ("tags",), "list"),
    ]


def units_model(document: ScenarioDocument, parent=None) -> EntityTableModel:
    return EntityTableModel(document, "units", "unit_types", partial(unit_columns, document), parent=parent,
                            new_entity=lambda name: {"name": name, "domain": "land"}, noun="unit type")


def sides_model(document: ScenarioDocument, parent=None) -> EntityTableModel:
    return EntityTableModel(document, "scenario", "sides", [
        Column("Id", ("id",), "readonly"),
        Column("Name", ("name",), required=True),
        Column("Colour", ("color",)),
    ], parent=parent, new_entity=lambda name: {"name": name}, noun="side")


def nations_model(document: ScenarioDocument, parent=None) -> EntityTableModel:
    return EntityTableModel(document, "scenario", "nations", [
        Column("Id", ("id",), "readonly"),
        Column("Name", ("name",), required=True),
        Column("Side", ("side",), choices=partial(ids, document, "scenario", "sides"), required=True),
        Column("Capital", ("capital",), choices=partial(ids, document, "map", "spaces")),
        Column("Colour", ("color",)),
        Column("Income", ("income",), "number"),
    ], parent=parent, noun="nation",
        new_entity=lambda name: {"name": name, "side": first(ids(document, "scenario", "sides"))})


def objectives_model(document: ScenarioDocument, parent=None) -> EntityTableModel:
    node = ("objectives.schema.json", "properties", "objectives", "items", "properties")
    return EntityTableModel(document, "objectives", "objectives", [
        Column("Id", ("id",), "readonly"),
        Column("Name", ("name",), required=True),
        Column("Owner", ("owner",), choices=partial(owners, document), required=True),
        Column("Kind", ("kind",), choices=lambda: schema_enum(*node, "kind"), strict=True),
        Column("Timing", ("timing",), choices=lambda: schema_enum(*node, "timing"), strict=True),
        Column("Award", ("award", "amount"), "number"),
        Column("Resource", ("award", "resource"), choices=partial(ids, document, "scenario", "resources")),
        Column("Option", ("option",), choices=partial(ids, document, "scenario", "options")),
    ], parent=parent, noun="objective",
        # Only what identifies it: the problems dock asks for the award and the condition, which
        # the table and the condition builder then fill in.
        new_entity=lambda name: {"name": name, "owner": first(owners(document))})


def decks_model(document: ScenarioDocument, parent=None) -> EntityTableModel:
    return EntityTableModel(document, "decks", "decks", [
        Column("Id", ("id",), "readonly"),
        Column("Name", ("name",), required=True),
        Column("Owner", ("owner",), choices=partial(owners, document)),
        Column("Size", ("size",), "integer"),
        Column("Hand", ("hand_size",), "integer"),
        Column("Draw per turn", ("draw_per_turn",), "integer"),
        Column("Reshuffle", ("reshuffle",), "bool"),
    ], parent=parent, new_entity=lambda name: {"name": name, "cards": []}, noun="deck")


def cards_model(document: ScenarioDocument, deck_locator, parent=None) -> EntityTableModel:
    return EntityTableModel(document, "decks", "cards", [
        Column("Id", ("id",), "readonly"),
        Column("Number", ("number",), "integer"),
        Column("Title", ("title",), required=True),
        Column("Count", ("count",), "integer"),
        Column("Reaction", ("reaction",), "bool"),
        Column("Removed after use", ("removed_after_use",), "bool"),
        Column("Text", ("text",)),
    ], parent_locator=deck_locator, parent=parent, new_entity=lambda title: {"title": title}, noun="card")


def options_model(document: ScenarioDocument, parent=None) -> EntityTableModel:
    return EntityTableModel(document, "scenario", "options", [
        Column("Id", ("id",), "readonly"),
        Column("Name", ("name",), required=True),
        Column("Default", ("default",), "scalar", required=True),
        Column("Group", ("group",)),
        Column("Description", ("description",)),
    ], parent=parent, new_entity=lambda name: {"name": name, "default": False}, noun="option")


def new_results_table(name: str) -> dict:
    """A table for one die: rows 1 to 6, a cell each to fill in."""
    return {"name": name, "roll": "1d6", "axes": [{"id": "roll", "name": "Roll", "values": [1, 2, 3, 4, 5, 6]}],
            "cells": [None] * 6}


def tables_model(document: ScenarioDocument, parent=None) -> EntityTableModel:
    return EntityTableModel(document, "tables", "tables", [
        Column("Id", ("id",), "readonly"),
        Column("Name", ("name",), required=True),
        Column("Roll", ("roll",)),
    ], parent=parent, new_entity=new_results_table, noun="results table")


# -- scenario.yaml: resources, phases, victory ---------------------------------------------------
def resources_model(document: ScenarioDocument, parent=None) -> EntityTableModel:
    return EntityTableModel(document, "scenario", "resources", [
        Column("Id", ("id",), "readonly"),
        Column("Name", ("name",), required=True),
    ], parent=parent, new_entity=lambda name: {"name": name}, noun="resource")


def phases_model(document: ScenarioDocument, parent=None) -> EntityTableModel:
    return EntityTableModel(document, "scenario", "phases", [
        Column("Id", ("id",), "readonly"),
        Column("Name", ("name",), required=True),
        Column("Text", ("text",)),
    ], parent=parent, new_entity=lambda name: {"name": name}, noun="phase")


def victory_model(document: ScenarioDocument, parent=None) -> EntityTableModel:
    return EntityTableModel(document, "scenario", "victory", [
        Column("Id", ("id",), "readonly"),
        Column("Name", ("name",), required=True),
        Column("Side", ("side",), choices=partial(ids, document, "scenario", "sides")),
        Column("Option", ("option",), choices=partial(ids, document, "scenario", "options")),
        Column("Text", ("text",)),
    ], parent=parent, noun="victory condition",
        # A condition to start from that the schema takes: the builder then makes it the real one.
        new_entity=lambda name: {"name": name, "side": first(ids(document, "scenario", "sides")),
                                 "when": {"turn": {"min": 1}}})


# -- setup.yaml beyond the units on the map -------------------------------------------------------
def setup_resources_model(document: ScenarioDocument, parent=None):
    from .records import RecordsModel
    return RecordsModel(document, "setup", "resources", [
        Column("Owner", ("owner",), choices=partial(owners, document), required=True),
        Column("Resource", ("resource",), choices=partial(ids, document, "scenario", "resources"), required=True),
        Column("Amount", ("amount",), "number", required=True),
    ], new_record=lambda: {"owner": first(owners(document)),
                           "resource": first(ids(document, "scenario", "resources")), "amount": 0},
        noun="starting resource", parent=parent)


def pools_model(document: ScenarioDocument, parent=None) -> EntityTableModel:
    return EntityTableModel(document, "setup", "pools", [
        Column("Id", ("id",), "readonly"),
        Column("Name", ("name",), required=True),
        Column("Owner", ("owner",), choices=partial(owners, document), required=True),
        Column("Units", ("units",), "stacks"),
        Column("Text", ("text",)),
    ], parent=parent, noun="pool",
        new_entity=lambda name: {"name": name, "owner": first(owners(document))})


def reinforcements_model(document: ScenarioDocument, parent=None) -> EntityTableModel:
    unit = first(ids(document, "units", "unit_types"))
    return EntityTableModel(document, "setup", "reinforcements", [
        Column("Id", ("id",), "readonly"),
        Column("Turn", ("turn",), "integer", required=True),
        Column("Owner", ("owner",), choices=partial(owners, document), required=True),
        Column("Space", ("space",), choices=partial(ids, document, "map", "spaces")),
        Column("Pool", ("pool",), choices=partial(ids, document, "setup", "pools")),
        Column("Units", ("units",), "stacks", required=True),
    ], parent=parent, noun="reinforcement",
        # Typed as its id (a reinforcement has no name): the id is made from it, kept unique.
        new_entity=lambda name: {"turn": 2, "owner": first(owners(document)),
                                 "units": [{"type": unit or "infantry", "count": 1}]})


def markers_model(document: ScenarioDocument, parent=None) -> EntityTableModel:
    return EntityTableModel(document, "setup", "markers", [
        Column("Id", ("id",), "readonly"),
        Column("Name", ("name",), required=True),
        Column("Kind", ("kind",)),
        Column("Count", ("count",), "integer"),
        Column("Value", ("value",), "number"),
        Column("Hidden", ("hidden",), "bool"),
        Column("Tags", ("tags",), "list"),
    ], parent=parent, new_entity=lambda name: {"name": name}, noun="marker")


def draws_model(document: ScenarioDocument, parent=None) -> EntityTableModel:
    return EntityTableModel(document, "setup", "draws", [
        Column("Id", ("id",), "readonly"),
        Column("Name", ("name",)),
        Column("From markers", ("from",), "list", required=True),
        Column("To spaces", ("to",), "list", required=True),
        Column("Face down", ("face_down",), "bool"),
    ], parent=parent, noun="draw",
        new_entity=lambda name: {"name": name, "from": ids(document, "setup", "markers")[:1] or ["marker"],
                                 "to": ids(document, "map", "spaces")[:1] or ["space"]})
