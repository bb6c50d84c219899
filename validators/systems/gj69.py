"""GJ69 Southern Operation 1941: the checks its rulebook asks for beyond the generic ones.

Section numbers (§) refer to the rulebook (GJ69 南方作战 1941, Chinese rules v1.0).
"""
from __future__ import annotations

from collections.abc import Iterator

from sandtable.diagnostics import Diagnostic, error
from sandtable.scenario import Scenario

from ..conditions import Position, evaluate
from ..index import LAND_KINDS, SEA_KINDS, ScenarioIndex

# §2.2.1(3) and §7.2(1): land units may enter sea areas, so they may also start there (§3.0).
DOMAIN_SPACES = {"land": LAND_KINDS | SEA_KINDS}

LAND_UNITS_PER_SIDE = 10          # §7.4(1)
AIR_UNITS_PER_FRIENDLY_AREA = 4   # §7.4(2)
DECK_SIZE = 16                    # §3.0(7), §5.1
HAND_SIZES = {"japan": 7, "allies": 5}  # §5.1
BORDER_KINDS = {"land", "mountain", "sea", "coast"}  # §2.2.1(4): land, mountain, sea-area borders
CARRIER_CLASSES = {"cv", "cvl"}   # §2.1.1(3)④
FORTRESS_CLASS = "fortress"
REACTION_OP = "counterattack"     # §10: the effect a reaction card (★) plays

WINS_BY_VICTORY = True       # a game ends when a victory condition is met (§15: victory points)


def check(scenario: Scenario, index: ScenarioIndex) -> Iterator[Diagnostic]:
    yield from _stacking_limits(scenario, index)
    yield from _air_units_in_friendly_land(scenario, index)
    yield from _forbidden_areas(scenario, index)
    yield from _border_kinds(scenario, index)
    yield from _fortress_units(scenario, index)
    yield from _deck_sizes(scenario)
    yield from _hand_sizes(scenario, index)
    yield from _reaction_cards(scenario)
    yield from _air_power(scenario, index)
    yield from _oil_field_draws(scenario, index)
    yield from _rules_parameters(scenario, index)
    yield from _operation_parameters(scenario, index)
    yield from _who_plays(scenario, index)


def _stacking_limits(scenario, index) -> Iterator[Diagnostic]:
    """GJX001: each land area carries the limits of §7.4, and sea areas none (§7.4(3))."""
    wanted = {"land": LAND_UNITS_PER_SIDE, "air": AIR_UNITS_PER_FRIENDLY_AREA}
    for space_id, space in index.spaces.items():
        limits = space.data.get("stacking")
        kind = space.data.get("kind")
        if kind in LAND_KINDS and limits != wanted:
            where = scenario.locate("map", space.pointer + ("/stacking" if limits is not None else "/id"))
            yield error("GJX001", f"land area {space_id!r} must allow 10 land units per side and 4 air "
                        f"units (§7.4), found {limits!r}", where,
                        hint="set stacking: {land: 10, air: 4}")
        elif kind == "sea" and limits is not None:
            yield error("GJX001", f"sea area {space_id!r} has stacking limits, but any number of units "
                        "may enter a sea area (§7.4(3))", scenario.locate("map", space.pointer + "/stacking"),
                        hint="remove stacking from sea areas")


def _setup_stacks(scenario) -> Iterator[tuple[str, str, dict, str | None]]:
    """(pointer of the stack, space id, stack, controller) for each unit stack of the set-up."""
    for pointer, entry in scenario.entities("setup", "spaces"):
        units = entry.get("units")
        if not isinstance(units, list):
            continue
        for i, stack in enumerate(units):
            if isinstance(stack, dict):
                yield f"{pointer}/units/{i}", entry.get("space"), stack, entry.get("control")


def _owner_side(index, stack, unit) -> str | None:
    owner = stack.get("owner") or unit.data.get("nation")
    return index.side_of(owner) if isinstance(owner, str) else None


def _air_units_in_friendly_land(scenario, index) -> Iterator[Diagnostic]:
    """GJX002: air units stay only in land areas their side controls (§7.2(2), §7.4(2))."""
    for pointer, space_id, stack, control in _setup_stacks(scenario):
        unit = index.unit_types.get(stack.get("type"))
        if unit is None or unit.data.get("domain") != "air" or space_id not in index.spaces:
            continue
        side = _owner_side(index, stack, unit)
        kind = index.space_kind(space_id)
        controller = index.side_of(control) if isinstance(control, str) else None
        if kind not in LAND_KINDS:
            problem = f"{space_id!r} is a sea area"
        elif side is not None and controller != side:
            problem = f"{space_id!r} is not controlled by {side!r}"
        else:
            continue
        yield error("GJX002", f"air unit {stack['type']!r} cannot stay in {space_id!r}: {problem}; air units "
                    "end their moves only in friendly land areas (§7.2(2), §7.4(2))",
                    scenario.locate("setup", pointer + "/type"),
                    hint="place it in a land area its side controls")


def _confinements(scenario) -> dict[str, set[str]]:
    """nation -> the only areas its units may use, from the confine_nation option changes."""
    found = {}
    for _pointer, option in scenario.entities("scenario", "options"):
        for change in option.get("changes") or []:
            if isinstance(change, dict) and change.get("op") == "confine_nation" \
                    and isinstance(change.get("nation"), str) and isinstance(change.get("spaces"), list):
                found[change["nation"]] = set(change["spaces"])
    return found


def _forbidden_areas(scenario, index) -> Iterator[Diagnostic]:
    """GJX003: no unit starts, or is placed by a card, in an area its side may not enter
    (§2.2.1(3)) or outside its nation's areas (§16.3 for the Nationalist Chinese)."""
    confined = _confinements(scenario)
    for pointer, space_id, stack, _control in _setup_stacks(scenario):
        unit = index.unit_types.get(stack.get("type"))
        if unit is None or space_id not in index.spaces:
            continue
        owner = stack.get("owner") or unit.data.get("nation")
        who = [owner, unit.data.get("nation"), _owner_side(index, stack, unit)]
        problem = _entry_problem(index, confined, space_id, who, unit.data.get("nation"))
        if problem:
            yield error("GJX003", f"{stack['type']!r} starts in {problem}",
                        scenario.locate("setup", pointer + "/type"),
                        hint="move the stack to an area it may enter")
    for pointer, effect in _placements(scenario):
        nation = effect.get("nation")
        who = [nation, index.side_of(nation) if isinstance(nation, str) else None]
        for i, space_id in enumerate(effect.get("spaces") or []):
            problem = _entry_problem(index, confined, space_id, who, nation)
            if problem:
                yield error("GJX003", f"the card places units of {nation!r} in {problem}",
                            scenario.locate("decks", f"{pointer}/spaces/{i}"))


def _entry_problem(index, confined, space_id, who, nation) -> str | None:
    """Why units of these owners may not be in the area, or None."""
    space = index.spaces.get(space_id)
    if space is None:
        return None
    closed = space.data.get("closed_to") or []
    blocked = [w for w in who if isinstance(w, str) and w in closed]
    if blocked:
        return f"{space_id!r}, which is closed to {blocked[0]!r} (§2.2.1(3))"
    if nation in confined and space_id not in confined[nation]:
        allowed = ", ".join(sorted(confined[nation]))
        return f"{space_id!r}; units of {nation!r} may only be in {allowed} (§16.3)"
    return None


def _placements(scenario) -> Iterator[tuple[str, dict]]:
    """(pointer, effect) for each card effect that places a nation's units in named areas."""
    for deck_pointer, deck in _decks(scenario):
        for c, card in enumerate(deck.get("cards") or []):
            if isinstance(card, dict):
                for relative, effect in _card_effects(card):
                    if isinstance(effect, dict) and effect.get("op") == "reinforce":
                        yield f"{deck_pointer}/cards/{c}{relative}", effect


def _border_kinds(scenario, index) -> Iterator[Diagnostic]:
    """GJX004: the rules know land, mountain and sea-area borders (§2.2.1(4)), nothing else."""
    for pointer, border in scenario.entities("map", "borders"):
        kind = border.get("kind")
        if isinstance(kind, str) and kind not in BORDER_KINDS:
            yield error("GJX004", f"GJ69 has no {kind} borders: a border is land, mountain (between land "
                        "areas), sea (between sea areas) or coast (§2.2.1(4))",
                        scenario.locate("map", pointer + "/kind"),
                        hint="a crossing over water runs through a sea area: use sea or coast borders")


def _fortress_units(scenario, index) -> Iterator[Diagnostic]:
    """GJX005: fortress units stand only in fortress areas (§2.1.1, §16.1)."""
    for pointer, space_id, stack, _control in _setup_stacks(scenario):
        unit = index.unit_types.get(stack.get("type"))
        if unit is None or unit.data.get("class") != FORTRESS_CLASS or space_id not in index.spaces:
            continue
        if index.space_kind(space_id) != "fortress":
            yield error("GJX005", f"fortress unit {stack['type']!r} starts in {space_id!r}, which is not a "
                        "fortress area (§16.1)", scenario.locate("setup", pointer + "/type"),
                        hint="fortress units hold Hong Kong, Singapore and Manila")
    fortresses = {k for k in index.spaces if index.space_kind(k) == "fortress"}
    for pointer, option in scenario.entities("scenario", "options"):
        for i, change in enumerate(option.get("changes") or []):
            if isinstance(change, dict) and change.get("op") == "fortress_areas" \
                    and isinstance(change.get("spaces"), list) and set(change["spaces"]) != fortresses:
                yield error("GJX005", "the fortress rules apply to " + _names(change["spaces"]) + ", but the "
                            "fortress areas of the map are " + _names(fortresses) + " (§16.1)",
                            scenario.locate("scenario", f"{pointer}/changes/{i}/spaces"),
                            hint="list exactly the spaces of kind fortress")


def _names(spaces) -> str:
    return ", ".join(sorted(spaces)) or "no area"


def _decks(scenario):
    return scenario.entities("decks", "decks")


def _deck_sizes(scenario) -> Iterator[Diagnostic]:
    """GJX006: each player's deck has 16 operation cards (§3.0(7), §5.1)."""
    for pointer, deck in _decks(scenario):
        cards = deck.get("cards") if isinstance(deck.get("cards"), list) else []
        held = sum(card.get("count", 1) for card in cards if isinstance(card, dict)
                   and isinstance(card.get("count", 1), int))
        declared = deck.get("size")
        if isinstance(declared, int) and declared != DECK_SIZE:
            yield error("GJX006", f"deck {deck.get('id')!r} declares {declared} cards; each player has "
                        f"{DECK_SIZE} (§5.1)", scenario.locate("decks", pointer + "/size"))
        elif held != DECK_SIZE:
            yield error("GJX006", f"deck {deck.get('id')!r} holds {held} cards; each player has "
                        f"{DECK_SIZE} (§5.1)", scenario.locate("decks", pointer + "/cards", key=True))


def _hand_sizes(scenario, index) -> Iterator[Diagnostic]:
    """GJX007: Japan chooses 7 cards a turn, the Allies 5 (§5.1)."""
    for pointer, deck in _decks(scenario):
        owner = deck.get("owner")
        side = index.side_of(owner) if isinstance(owner, str) else None
        wanted = HAND_SIZES.get(side) if side else None
        hand = deck.get("hand_size")
        if wanted is not None and hand != wanted:
            where = scenario.locate("decks", pointer + ("/hand_size" if "hand_size" in deck else "/id"))
            yield error("GJX007", f"the {side} hand is {wanted} cards a turn (§5.1), found {hand!r}", where,
                        hint=f"set hand_size: {wanted}")


def _card_effects(card: dict):
    """(pointer relative to the card, effect) for the card's effects and its options' effects."""
    for i, effect in enumerate(card.get("effects") or []):
        yield f"/effects/{i}", effect
    for j, option in enumerate(card.get("options") or []):
        if isinstance(option, dict):
            for i, effect in enumerate(option.get("effects") or []):
                yield f"/options/{j}/effects/{i}", effect


def _reaction_cards(scenario) -> Iterator[Diagnostic]:
    """GJX008: a counter-attack is played only from a reaction card (★), and a reaction card
    counter-attacks (§2.3(2)②, §5.2(3), §10)."""
    for deck_pointer, deck in _decks(scenario):
        for c, card in enumerate(deck.get("cards") or []):
            if not isinstance(card, dict):
                continue
            pointer = f"{deck_pointer}/cards/{c}"
            counters = [p for p, e in _card_effects(card) if isinstance(e, dict) and e.get("op") == REACTION_OP]
            if counters and not card.get("reaction"):
                yield error("GJX008", f"card {card.get('id')!r} counter-attacks but is not a reaction card (★)",
                            scenario.locate("decks", pointer + counters[0] + "/op"),
                            hint="set reaction: true, or remove the counterattack effect")
            elif card.get("reaction") and not counters:
                yield error("GJX008", f"reaction card {card.get('id')!r} has no counterattack effect",
                            scenario.locate("decks", pointer + "/reaction"),
                            hint="add its counterattack effect, or set reaction: false")


def _air_power(scenario, index) -> Iterator[Diagnostic]:
    """GJX009: only air units and carriers (CV, CVL) have an air power, and they all have one
    (§2.1.1(3)④)."""
    for unit_id, unit in index.unit_types.items():
        stats = unit.data.get("stats")
        if not isinstance(stats, dict):
            continue
        flies = unit.data.get("domain") == "air" or unit.data.get("class") in CARRIER_CLASSES
        if "air_power" in stats and not flies:
            yield error("GJX009", f"{unit_id!r} has an air power, which only air units and carriers have",
                        scenario.locate("units", unit.pointer + "/stats/air_power", key=True))
        elif flies and "air_power" not in stats:
            yield error("GJX009", f"{unit_id!r} is an air unit or carrier without an air power",
                        scenario.locate("units", unit.pointer + "/stats"), hint="add air_power to its stats")


def _oil_field_draws(scenario, index) -> Iterator[Diagnostic]:
    """GJX010: oil-field markers are drawn for oil-field areas, and enough exist (§3.0(5))."""
    for pointer, draw in scenario.entities("setup", "draws"):
        sources = [index.markers.get(m) for m in draw.get("from") or [] if isinstance(m, str)]
        if not sources or not all(s and s.data.get("kind") == "oil_field" for s in sources):
            continue
        for i, space_id in enumerate(draw.get("to") or []):
            space = index.spaces.get(space_id)
            if space is not None and "oil_field" not in (space.data.get("tags") or []):
                yield error("GJX010", f"oil-field markers are drawn for {space_id!r}, which is not an "
                            "oil-field area (§2.2.2(4))", scenario.locate("setup", f"{pointer}/to/{i}"),
                            hint="tag the area oil_field, or draw for another area")
        available = sum(s.data.get("count", 1) for s in sources if isinstance(s.data.get("count", 1), int))
        targets = len(draw.get("to") or [])
        if available < targets:
            yield error("GJX010", f"{targets} oil-field markers are drawn but only {available} exist (§3.0(5))",
                        scenario.locate("setup", pointer + "/to"))



def _rules_parameters(scenario, index) -> Iterator[Diagnostic]:
    """GJX011: `rules` names a side as first player (§4.0(2)) and, per side, supply sources that
    are land areas tagged supply_source (§2.2.2(3)); every tagged area is someone's source."""
    rules = scenario.manifest.get("rules")
    if not isinstance(rules, dict):
        return
    first = rules.get("first_player")
    if isinstance(first, str) and first not in index.sides:
        yield error("GJX011", f"the first player {first!r} is not a side",
                    scenario.locate("scenario", "/rules/first_player"),
                    hint="name one of: " + ", ".join(index.sides))
    given = rules.get("supply_sources")
    sources = given if isinstance(given, dict) else {}
    listed = set()
    for side, spaces in sources.items():
        if side not in index.sides:
            yield error("GJX011", f"supply sources are given for {side!r}, which is not a side",
                        scenario.locate("scenario", f"/rules/supply_sources/{side}", key=True))
        for i, space_id in enumerate(spaces if isinstance(spaces, list) else []):
            listed.add(space_id)
            space = index.spaces.get(space_id)
            if space is None or index.space_kind(space_id) not in LAND_KINDS \
                    or "supply_source" not in (space.data.get("tags") or []):
                yield error("GJX011", f"supply source {space_id!r} is not a land area tagged supply_source",
                            scenario.locate("scenario", f"/rules/supply_sources/{side}/{i}"),
                            hint="supply sources are land areas marked on the map (§2.2.2(3))")
    for space_id, space in index.spaces.items():
        if "supply_source" in (space.data.get("tags") or []) and sources and space_id not in listed:
            yield error("GJX011", f"{space_id!r} is tagged supply_source but is no side's supply source in rules",
                        scenario.locate("map", space.pointer + "/tags"),
                        hint="add it to rules.supply_sources, or remove the tag")
    losses = rules.get("loss_vp")
    for i, entry in enumerate(losses if isinstance(losses, list) else []):
        side = entry.get("side") if isinstance(entry, dict) else None
        if isinstance(side, str) and side not in index.sides:
            yield error("GJX011", f"loss_vp is paid for units of {side!r}, which is not a side (§15.0(1)②)",
                        scenario.locate("scenario", f"/rules/loss_vp/{i}/side"),
                        hint="name one of: " + ", ".join(index.sides))
    given = rules.get("replacement_pools")
    pools: dict = given if isinstance(given, dict) else {}
    for side, pool_id in pools.items():
        pool = index.pools.get(pool_id) if isinstance(pool_id, str) else None
        where = scenario.locate("scenario", f"/rules/replacement_pools/{side}")
        if side not in index.sides:
            yield error("GJX011", f"a replacement pool is given for {side!r}, which is not a side",
                        scenario.locate("scenario", f"/rules/replacement_pools/{side}", key=True))
        elif pool is None:
            yield error("GJX011", f"the replacement pool {pool_id!r} of {side!r} is not a pool of setup.yaml "
                        "(§2.2.3④)", where, hint="name one of: " + ", ".join(index.pools))
        elif index.side_of(pool.data.get("owner") or "") != side:
            yield error("GJX011", f"the replacement pool of {side!r} is {pool_id!r}, which belongs to "
                        f"{pool.data.get('owner')!r} (§11.3: eliminated units go to their own side's pool)",
                        where)


def _plays(scenario):
    """(pointer of the card or option, deck, card, effects) for every way a card is played."""
    for deck_pointer, deck in _decks(scenario):
        for c, card in enumerate(deck.get("cards") or []):
            if not isinstance(card, dict):
                continue
            pointer = f"{deck_pointer}/cards/{c}"
            if isinstance(card.get("effects"), list):
                yield pointer, deck, card, card["effects"]
            for j, option in enumerate(card.get("options") or []):
                if isinstance(option, dict) and isinstance(option.get("effects"), list):
                    yield f"{pointer}/options/{j}", deck, card, option["effects"]


def _unit_owner(scenario, index, unit_id) -> str | None:
    """The nation or side whose counters a unit type is: its `nation`, else the owner of its
    stacks in the set-up and the pools."""
    unit = index.unit_types.get(unit_id)
    if unit is None:
        return None
    if isinstance(unit.data.get("nation"), str):
        return unit.data["nation"]
    for _, _, stack, _ in _setup_stacks(scenario):
        if stack.get("type") == unit_id and isinstance(stack.get("owner"), str):
            return stack["owner"]
    for _, pool in scenario.entities("setup", "pools"):
        for stack in pool.get("units") or []:
            if isinstance(stack, dict) and stack.get("type") == unit_id:
                return stack.get("owner") or pool.get("owner")
    return None


def _operation_parameters(scenario, index) -> Iterator[Diagnostic]:
    """GJX012: a card operation whose parameters the engine could never carry out on this
    scenario: airborne units that are not land units, reinforcements from pools that can never
    hold the nation's units or onto areas that are not land, more groups acting again than act,
    submarine attacks that cannot succeed (§19)."""
    rules = scenario.manifest.get("rules") if isinstance(scenario.manifest.get("rules"), dict) else {}
    replacement = rules.get("replacement_pools") if isinstance(rules.get("replacement_pools"), dict) else {}
    for pointer, _deck, card, effects in _plays(scenario):
        activated = sum(e.get("groups", 0) for e in effects if isinstance(e, dict)
                        and e.get("op") == "activate_groups" and isinstance(e.get("groups"), int))
        for i, effect in enumerate(effects):
            if not isinstance(effect, dict):
                continue
            here = f"{pointer}/effects/{i}"
            op = effect.get("op")
            if op == "airdrop":
                for k, unit_id in enumerate(effect.get("types") or []):
                    unit = index.unit_types.get(unit_id)
                    if unit is not None and unit.data.get("domain") != "land":
                        yield error("GJX012", f"card {card.get('id')!r} drops {unit_id!r}, which is not a land "
                                    "unit; only airborne land units drop (§19)",
                                    scenario.locate("decks", f"{here}/types/{k}"))
            elif op == "act_again" and activated and isinstance(effect.get("groups"), int) \
                    and effect["groups"] > activated:
                yield error("GJX012", f"card {card.get('id')!r} lets {effect['groups']} groups act again but "
                            f"only {activated} act", scenario.locate("decks", f"{here}/groups"),
                            hint=f"at most {activated}")
            elif op == "submarine_attack":
                best = 6 + max(0, effect.get("enemy_control_modifier", 0) or 0)
                if isinstance(effect.get("succeeds_at_least"), int) \
                        and (effect.get("per_enemy_destroyer_modifier", 0) or 0) <= 0 \
                        and effect["succeeds_at_least"] > best:
                    yield error("GJX012", f"card {card.get('id')!r}: a submarine attack needs "
                                f"{effect['succeeds_at_least']} but a die and its modifiers reach {best} at "
                                "most, so it never succeeds (§19)",
                                scenario.locate("decks", f"{here}/succeeds_at_least"))
            elif op == "reinforce":
                yield from _reinforcement_problems(scenario, index, card, effect, here, replacement)


def _reinforcement_problems(scenario, index, card, effect, here, replacement) -> Iterator[Diagnostic]:
    nation, domain = effect.get("nation"), effect.get("domain")
    for k, space_id in enumerate(effect.get("spaces") or []):
        if space_id in index.spaces and index.space_kind(space_id) not in LAND_KINDS:
            yield error("GJX012", f"card {card.get('id')!r} places units in the sea area {space_id!r}; "
                        "reinforcements come ashore in land areas (§19)",
                        scenario.locate("decks", f"{here}/spaces/{k}"))
    pools = [p for p in effect.get("pool") or [] if p in index.pools]
    if not pools or not isinstance(nation, str) or nation not in index.owners:
        return
    side = index.side_of(nation)
    feeds = replacement.get(side) in pools           # eliminated units may fill it during the game
    for pool_id in pools:
        for stack in index.pools[pool_id].data.get("units") or []:
            unit = index.unit_types.get(stack.get("type")) if isinstance(stack, dict) else None
            owner = (stack.get("owner") or index.pools[pool_id].data.get("owner")) if unit else None
            if unit and owner == nation and (domain is None or unit.data.get("domain") == domain):
                feeds = True
    if not feeds:
        what = f"{domain} units" if domain else "units"
        yield error("GJX012", f"card {card.get('id')!r} brings {what} of {nation!r} from "
                    f"{', '.join(pools)}, which never hold any (§19)",
                    scenario.locate("decks", f"{here}/pool"),
                    hint="name a pool that holds them, or the side's replacement pool")


def _who_plays(scenario, index) -> Iterator[Diagnostic]:
    """GJX013: each deck belongs to one side (§2.3, §3.0(7)), and a card works for its own
    side: it reinforces, drops or removes its own side's units (§19); an option places units
    of the owner it names (§17.2)."""
    for deck_pointer, deck in _decks(scenario):
        owner = deck.get("owner")
        if not isinstance(owner, str) or index.side_of(owner) is None:
            yield error("GJX013", f"deck {deck.get('id')!r} has no owning side; each GJ69 player has a "
                        "deck of its own (§2.3, §3.0(7))",
                        scenario.locate("decks", deck_pointer + ("/owner" if "owner" in deck else "/id")),
                        hint="set owner: japan or owner: allies")
    for pointer, deck, card, effects in _plays(scenario):
        side = index.side_of(deck.get("owner")) if isinstance(deck.get("owner"), str) else None
        if side is None:
            continue
        for i, effect in enumerate(effects):
            if not isinstance(effect, dict):
                continue
            here = f"{pointer}/effects/{i}"
            acted: list[tuple[str, str | None]] = []
            if effect.get("op") == "reinforce" and isinstance(effect.get("nation"), str):
                acted = [("/nation", effect["nation"])]
            elif effect.get("op") == "airdrop":
                acted = [(f"/types/{k}", _unit_owner(scenario, index, u))
                         for k, u in enumerate(effect.get("types") or [])]
            elif effect.get("op") == "remove_unit":
                acted = [("/type", _unit_owner(scenario, index, effect.get("type")))]
            for where, owner in acted:
                other = index.side_of(owner) if isinstance(owner, str) else None
                if other is not None and other != side:
                    yield error("GJX013", f"card {card.get('id')!r} is in the {side} deck but its "
                                f"{effect['op']} works on units of {owner!r} ({other}); a side plays its "
                                "cards for its own units (§2.3, §19)",
                                scenario.locate("decks", here + where),
                                hint="move the card to the other deck, or name the side's own units")
    for pointer, option in scenario.entities("scenario", "options"):
        for i, change in enumerate(option.get("changes") or []):
            if not isinstance(change, dict) or change.get("op") != "place_units":
                continue
            named = change.get("owner")
            for k, unit_id in enumerate(change.get("types") or []):
                owner = _unit_owner(scenario, index, unit_id)
                if isinstance(named, str) and owner is not None and owner != named:
                    yield error("GJX013", f"option {option.get('id')!r} places {unit_id!r} for {named!r}, "
                                f"but its counters belong to {owner!r} (§17.2)",
                                scenario.locate("scenario", f"{pointer}/changes/{i}/types/{k}"))


def victory_points_at_start(scenario: Scenario, index: ScenarioIndex) -> dict[tuple, float]:
    """(side, timing) -> VP its objectives pay on the starting position (§15.0)."""
    position = Position.starting(scenario, index)
    totals: dict[tuple, float] = {}
    for objective in index.objectives.values():
        data = objective.data
        award = data.get("award") or {}
        if isinstance(data.get("when"), dict) and evaluate(data["when"], position).met:
            key = (data.get("owner"), data.get("timing"))
            totals[key] = totals.get(key, 0) + award.get("amount", 0)
    return totals


def explain(scenario: Scenario, index: ScenarioIndex) -> str:
    """The VP each side would score on the starting position: a quick look at the balance."""
    totals = victory_points_at_start(scenario, index)
    if not totals:
        return ""
    lines = [f"{scenario.id}: victory points on the starting position (§15.0)"]
    for side in index.sides:
        per_turn = totals.get((side, "end_of_turn"), 0)
        at_end = totals.get((side, "end_of_game"), 0)
        lines.append(f"  {side:<8} {per_turn:g} VP at the end of each turn, {at_end:g} VP for the areas "
                     "it holds at the end of the game")
    drawn = [d for _, d in scenario.entities("setup", "draws")]
    for draw in drawn:
        lines.append(f"  plus the hidden VP of the markers drawn for {', '.join(draw.get('to') or [])}")
    return "\n".join(lines) + "\n"
