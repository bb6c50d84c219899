"""The card operations that are not groups acting (§19), each as a step of a game.

Each operation has `possible(game, side, effect)`, whether playing it now can do anything, and
`run(game, side, effect)`, a generator that asks the side (through `game.ask`) what the card
leaves open and changes the game. Dice and random draws come from the game's generator.
"""
from __future__ import annotations

from collections.abc import Callable

from .core import Steps
from .damage import READY, USED


# -- recover_units: Supply (§19, §12.0(2)) ---------------------------------------------------------
def _used_units(game, side, areas) -> list[tuple[str, str]]:
    return [(area, unit) for area in sorted(areas)
            for unit, face, _ in game.forces.stacks(area, side) if face == USED]


def recover_possible(game, side, effect) -> bool:
    areas = game.supplied(side) if effect["scope"] == "supplied_areas" else game.board.ids
    return bool(_used_units(game, side, areas))


def recover_run(game, side, effect) -> Steps:
    """supplied_areas: up to `units` units in areas with a line of communication, one at a time;
    one_area: every unit of one area."""
    if effect["scope"] == "one_area":
        areas = sorted({area for area, _ in _used_units(game, side, game.board.ids)})
        if not areas:
            return
        act = yield from game.ask(side, "recover", [("area", a) for a in areas])
        for unit, face, n in game.forces.stacks(act[1], side):
            if face == USED:
                game.forces.turn(act[1], unit, READY, n)
        return
    for _ in range(int(effect.get("units") or 1)):
        choices = sorted(set(_used_units(game, side, game.supplied(side))))
        if not choices:
            return
        act = yield from game.ask(side, "recover", [("recover", a, u) for a, u in choices] + [("end",)])
        if act[0] == "end":
            return
        game.forces.turn(act[1], act[2], READY)


# -- airdrop: Divine Soldiers from the Sky (§19) ----------------------------------------------------
def _drops(game, side, effect) -> list[tuple]:
    types = set(effect["types"])
    enemy = game.enemy(side)
    found = []
    for area in game.board.ids:
        if game.forces.control.get(area) != side or game.forces.has(area, enemy):
            continue
        for unit, face, _ in game.forces.stacks(area, side):
            if unit in types:
                found += [("drop", area, unit, face, to) for to in game.drop_zones(unit, area)]
    return found


def airdrop_possible(game, side, effect) -> bool:
    return bool(_drops(game, side, effect))


def airdrop_run(game, side, effect) -> Steps:
    """An airborne unit in an own area without enemy units is placed in any area it may be in,
    on the card's face (§19); placing is not entering, so no counter-attack answers it."""
    for _ in range(int(effect["units"])):
        choices = _drops(game, side, effect)
        if not choices:
            return
        act = yield from game.ask(side, "airdrop", choices + [("end",)])
        if act[0] == "end":
            return
        _, source, unit, face, target = act
        game.forces.take(source, unit, face)
        game.forces.add(target, unit, effect["face"])


# -- roll_to_remove: YES or NO? (§19) ---------------------------------------------------------------
def _own_land_areas(game, side) -> list[str]:
    return [a for a in game.board.ids
            if game.forces.count(a, side, game.profiles, "land") and game.forces.has(a, game.enemy(side))]


def roll_possible(game, side, effect) -> bool:
    return bool(_own_land_areas(game, side))


def roll_run(game, side, effect) -> Steps:
    """Choose an area with own land units; a die at or above `at_least` removes enemy units
    there, chosen by the player (§19; MacArthur may be removed, §18.2)."""
    act = yield from game.ask(side, "roll-to-remove", [("area", a) for a in _own_land_areas(game, side)])
    area = act[1]
    if int(game.rng.integers(1, 7)) < int(effect["at_least"]):
        return
    for _ in range(int(effect["units"])):
        targets = game.forces.stacks(area, game.enemy(side))
        if not targets:
            return
        act = yield from game.ask(side, "remove", [("remove", u, f) for u, f, _ in targets])
        game.eliminate(area, act[1], act[2], card=game.playing)


# -- submarine_attack: Submarines (§19) -------------------------------------------------------------
def _sea_targets(game, side) -> list[str]:
    enemy = game.enemy(side)
    return [a for a in game.board.ids if not game.board.areas[a].land and game.forces.has(a, enemy)]


def submarine_possible(game, side, effect) -> bool:
    return bool(_sea_targets(game, side))


def submarine_run(game, side, effect) -> Steps:
    """Each attack: a sea area, a die, -2 under an enemy control marker and -2 per enemy DD
    unit there; at `succeeds_at_least` or more one unit there goes to the replacement pool."""
    enemy = game.enemy(side)
    for _ in range(int(effect["attacks"])):
        areas = _sea_targets(game, side)
        if not areas:
            return
        act = yield from game.ask(side, "submarine", [("area", a) for a in areas] + [("end",)])
        if act[0] == "end":
            return
        area = act[1]
        roll = int(game.rng.integers(1, 7))
        if game.forces.control.get(area) == enemy:
            roll += int(effect["enemy_control_modifier"])
        destroyers = sum(n for u, _, n in game.forces.stacks(area, enemy)
                         if game.profiles[u].unit_class == "dd")
        roll += destroyers * int(effect["per_enemy_destroyer_modifier"])
        if roll < int(effect["succeeds_at_least"]):
            continue
        targets = game.forces.stacks(area, enemy)
        pick = yield from game.ask(side, "sink", [("sink", u, f) for u, f, _ in targets])
        if not destroyers:          # no destroyer stood by to hunt the submarines
            game.note_lost_off_guard(enemy, 1, game.loss_vp_of(pick[1]))
        game.eliminate(area, pick[1], pick[2], card=game.playing)


# -- expose_oil_field: Oil Field Demolition (§19, §4.0(4)①) -----------------------------------------
def _oil_areas(game, side) -> list[str]:
    return [a for a, marker in sorted(game.oil.items())
            if not marker.exposed_by and not marker.destroyed and game.forces.control.get(a) == side]


def oil_possible(game, side, effect) -> bool:
    return bool(_oil_areas(game, side))


def oil_run(game, side, effect) -> Steps:
    act = yield from game.ask(side, "oil-field", [("area", a) for a in _oil_areas(game, side)])
    game.oil[act[1]].exposed_by = side


# -- reinforce: Commonwealth / Nationalist Reinforcements, Air Force Replacements (§19) -------------
def _pool_units(game, effect) -> list[tuple[str, str]]:
    """(pool, type) for each counter the effect may bring in, pools in the card's order."""
    found = []
    for pool in effect["pool"]:
        for unit, n in sorted(game.forces.pools.get(pool, {}).items()):
            profile = game.profiles[unit]
            if profile.owner != effect["nation"]:
                continue
            if effect.get("domain") and profile.domain != effect["domain"]:
                continue
            found += [(pool, unit)] * n
    return found


def _landing_areas(game, side, effect, units: list[str]) -> list[str]:
    spaces = set(effect["spaces"])
    if effect.get("or_area_with_own_units"):
        enemy = game.enemy(side)
        spaces |= {a for a in game.board.ids if not game.forces.has(a, enemy)
                   and any(game.profiles[u].owner == effect["nation"]
                           for u, _, _ in game.forces.stacks(a, side))}
    land = sum(1 for u in units if game.profiles[u].domain == "land")
    air = sum(1 for u in units if game.profiles[u].domain == "air")
    return [a for a in sorted(spaces) if a in game.board.areas
            and all(game.movement.unit_may_be(u, a) for u in units)
            and game.movement.room(game.forces, a, side, land, air)]


def reinforce_possible(game, side, effect) -> bool:
    units = [u for _, u in _pool_units(game, effect)]
    return any(_landing_areas(game, side, effect, [u]) for u in set(units))


def reinforce_run(game, side, effect) -> Steps:
    """`units` counters of the nation (and domain) from the pools, at random when the card says
    so, placed together in one of the card's areas on the card's face."""
    stock = _pool_units(game, effect)
    wanted = min(int(effect["units"]), len(stock))
    if effect.get("random"):
        picks = [stock[i] for i in sorted(game.rng.choice(len(stock), size=wanted, replace=False))]
    else:
        picks = stock[:wanted]
    while picks and not _landing_areas(game, side, effect, [u for _, u in picks]):
        picks.pop()                    # what no area can take stays in its pool
    if not picks:
        return
    areas = _landing_areas(game, side, effect, [u for _, u in picks])
    act = yield from game.ask(side, "reinforce", [("place", a) for a in areas])
    for pool, unit in picks:
        game.forces.from_pool(pool, unit)
        game.forces.add(act[1], unit, effect["face"])


# -- remove_unit: I Shall Return (§19, §16.2(3)) -----------------------------------------------------
def remove_possible(game, side, effect) -> bool:
    return bool(game.forces.where(effect["type"])) and game.profiles[effect["type"]].side == side


def remove_run(game, side, effect) -> Steps:
    """The unit leaves the game; with `scores: false` its removal is worth nothing."""
    areas = game.forces.where(effect["type"])
    act = yield from game.ask(side, "remove-unit", [("area", a) for a in areas])
    for unit, face, _ in game.forces.stacks(act[1], side):
        if unit == effect["type"]:
            if effect.get("scores", True):
                game.eliminate(act[1], unit, face, card=game.playing)
            else:
                game.forces.take(act[1], unit, face)
                game.forces.removed[unit] = game.forces.removed.get(unit, 0) + 1
            return


OPERATIONS: dict[str, tuple[Callable, Callable]] = {
    "recover_units": (recover_possible, recover_run),
    "airdrop": (airdrop_possible, airdrop_run),
    "roll_to_remove": (roll_possible, roll_run),
    "submarine_attack": (submarine_possible, submarine_run),
    "expose_oil_field": (oil_possible, oil_run),
    "reinforce": (reinforce_possible, reinforce_run),
    "remove_unit": (remove_possible, remove_run),
}
