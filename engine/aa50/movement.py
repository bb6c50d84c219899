"""Where a group of pieces may go: combat move (§5.4) and noncombat move (§5.6).

A *group* is the pieces of one nation in one space of one type, with one tag: a transport's
tag is its cargo ('infantry+armour', an ally's units named with their owner), then '/N' once it
has sailed N zones and may go on, and '/loaded' when troops it took aboard in the combat move
must assault; an aircraft's in the noncombat move the spaces it may still fly ('4'). In a
power's turn an ally's transport carrying the power's troops is a group of the power too: it
does not move, the power only lands its troops from it (§5.5.4.2). The functions here
answer `destinations(game, group) -> {to: (distance, via, targets)}`: `via` is the space a
two-space move passes through (a tank's blitz, §5.4.7), `targets` the choices a move carries
(a transport's assault target, a bomber's raid).

Readings and simplifications, also in docs/engine.md ("The AA50 game"):
- a land unit moving in the combat move must end in an enemy territory, or board a transport
  of its nation in an adjacent sea zone (§5.4, §5.4.8); a transport that carries cargo in the
  combat move takes it to an amphibious assault on an enemy territory next to where it stops
  (§5.4.3); warships may stop in a sea zone next to an enemy territory to support an assault;
- a transport sails in one or more moves within its 2 zones and loads in every friendly zone
  it stops in (§5.4.8, §7.3.6: load, move, load, move, unload); in the combat move only while
  an assault stays in reach, and what it loads then must assault; a transport that sails in
  the combat move and loads nothing just stops;
- land units board an ally's transport in their noncombat move, ride it in the ally's turn and
  land in their own next turn, where it lies (§5.5.4.2); the ally cannot land them;
- a transport lands all of its nation's cargo at once, in one territory;
- neutral territories (§2.2) are entered and flown over by nobody; canals are open to a side's
  ships when the side held the canal's territories at the start of the turn (§2.6);
- aircraft attack only where there is something to fight, and keep the range to land on a
  territory that was friendly at the start of the turn or on a carrier of their side (§5.4.2,
  §5.6.1.2); bombers land on territories only.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from . import economy
from .forces import Piece

if TYPE_CHECKING:
    from .game import AA50Game

LAND_RANK, WARSHIP_RANK, TRANSPORT_RANK, AIR_RANK, GUN_RANK = range(5)
Destinations = dict[str, tuple[int, str | None, tuple[str, ...]]]


def rank(game: AA50Game, piece: Piece) -> int:
    kind = game.data.types[piece.type]
    if kind.domain == "air":
        return AIR_RANK
    if kind.domain == "sea":
        return TRANSPORT_RANK if kind.capacity else WARSHIP_RANK
    if kind.has("noncombat_move_only"):
        return GUN_RANK
    return LAND_RANK


# -- who holds what ------------------------------------------------------------------------------
def enemy_territory(game: AA50Game, space: str, nation: str) -> bool:
    holder = game.control.get(space)
    sides = game.data.side_of
    return holder is not None and sides.get(holder) != sides.get(nation)


def friendly_territory(game: AA50Game, space: str, nation: str) -> bool:
    holder = game.control.get(space)
    sides = game.data.side_of
    return holder is not None and sides.get(holder) == sides.get(nation)


def enemies_in(game: AA50Game, space: str, nation: str) -> list[Piece]:
    sides = game.data.side_of
    side = sides.get(nation)
    return [p for p in game.pieces[space] if sides.get(p.owner) != side]


def hostile_sea(game: AA50Game, space: str, nation: str) -> bool:
    """A sea zone with enemy surface warships (§2.3): submarines and transports do not count."""
    sides = game.data.side_of
    side = sides.get(nation)
    types = game.data.types
    return any(sides.get(p.owner) != side and not types[p.type].has("submerge")
               and not types[p.type].capacity for p in game.pieces[space])


def enemy_destroyer(game: AA50Game, space: str, nation: str) -> bool:
    side = game.data.side(nation)
    return any(game.data.side(p.owner) != side and game.data.types[p.type].has("anti_submarine")
               for p in game.pieces[space])


def canal_open(game: AA50Game, a: str, b: str, nation: str) -> bool:
    canal = game.data.board.canal_borders.get(frozenset((a, b)))
    if canal is None:
        return True
    side = game.data.side(nation)
    holders = game.data.board.canal_holders.get(canal, [])
    return bool(holders) and all(game.data.side(game.start_control.get(t)) == side
                                 for t in holders)


def allowed_for(game: AA50Game, nation: str, space: str) -> bool:
    """China's units stay in China's territories, and enter Kwangtung only to retake it from
    the Axis (rulebook §4)."""
    china = game.data.china
    if china is None or nation != china.nation:
        return True
    if space in game.data.board.sea:
        return False
    if space in china.recapture_only:
        return enemy_territory(game, space, nation)
    return space in china.territories


# -- sea -----------------------------------------------------------------------------------------
def sea_reach(game: AA50Game, start: str, nation: str, steps: int, combat: bool,
              submarine: bool) -> dict[str, int]:
    """Sea zones within `steps` moves, with their distance. Hostile zones stop a move (and are
    closed in the noncombat move); submarines pass them unless an enemy destroyer is there
    (§5.4.6)."""
    board = game.data.board
    found = {start: 0}
    frontier = [start]
    for distance in range(1, steps + 1):
        following = []
        for here in frontier:
            if here != start and _stops(game, here, nation, submarine):
                continue
            links = board.neighbours[here] + [
                other for pair in board.canal_borders if here in pair for other in pair
                if other != here]
            for there in links:
                if there not in board.sea or there in found:
                    continue
                if not canal_open(game, here, there, nation):
                    continue
                if not combat and hostile_sea(game, there, nation) and not submarine:
                    continue
                found[there] = distance
                following.append(there)
        frontier = following
    return found


def _stops(game: AA50Game, space: str, nation: str, submarine: bool) -> bool:
    if submarine:
        return enemy_destroyer(game, space, nation)
    return hostile_sea(game, space, nation)


# -- land ----------------------------------------------------------------------------------------
def land_reach(game: AA50Game, start: str, nation: str, steps: int, combat: bool,
               blitz: bool) -> dict[str, tuple[int, str | None, list[str]]]:
    """Territories a land unit may end its move in: distance, a friendly territory it may pass
    on the way (None: none needed, or none there), and the empty enemy territories it may take
    on the way instead (a tank's blitz, §5.4.7)."""
    board = game.data.board
    found: dict[str, tuple[int, str | None, list[str]]] = {}
    for first in board.neighbours[start]:
        if first not in board.land or first in board.neutral or not allowed_for(game, nation, first):
            continue
        enemy = enemy_territory(game, first, nation)
        if combat == enemy:
            found[first] = (1, None, [])
    if steps < 2:
        return found
    for first in board.neighbours[start]:
        if first not in board.land or first in board.neutral or not allowed_for(game, nation, first):
            continue
        enemy = enemy_territory(game, first, nation)
        blitzed = enemy and combat and blitz and not game.pieces[first]
        if enemy and not blitzed:
            continue
        for second in board.neighbours[first]:
            if second == start or second not in board.land or second in board.neutral \
                    or not allowed_for(game, nation, second):
                continue
            enemy_second = enemy_territory(game, second, nation)
            if not (blitzed or combat == enemy_second):
                continue
            if second in found and found[second][0] == 1:
                continue
            distance, plain, vias = found.get(second, (2, None, []))
            if blitzed:
                vias.append(first)
            elif plain is None:
                plain = first
            found[second] = (distance, plain, vias)
    return found


# -- air -----------------------------------------------------------------------------------------
def landing_spots(game: AA50Game, nation: str, fighter: bool) -> np.ndarray:
    """Where an aircraft may land at the end of the turn (§5.6.1.2): territories friendly since
    the start of the turn, and, for fighters, sea zones with room on a carrier of its side."""
    board = game.data.board
    mask = np.zeros(len(board.spaces), dtype=bool)
    sides = game.data.side_of
    side = sides.get(nation)
    control, start_control = game.control, game.start_control
    for space in board.land:
        if space in board.neutral:
            continue
        if sides.get(control.get(space)) == side and sides.get(start_control.get(space)) == side \
                and allowed_for(game, nation, space):
            mask[board.number[space]] = True
    if fighter and side is not None:
        for space in game.carrier_zones(side):
            mask[board.number[space]] = True
    return mask


def air_reach(game: AA50Game, piece: Piece, combat: bool) -> dict[str, int]:
    """Spaces an aircraft may fly to now, keeping the range to land afterwards."""
    board = game.data.board
    kind = game.data.types[piece.type]
    left = game.movement(piece.owner, piece.type) - piece.spent
    here = board.number[piece.space]
    row = board.air_distance[here]
    mask = game.landing_spots(piece.owner, fighter=bool(kind.carrier_size))
    if not mask.any():
        return {}
    if combat:
        home = game.way_home(piece.owner, fighter=bool(kind.carrier_size))
        usable = (row <= left) & (row + home <= left) & (row > 0)
    else:
        usable = (row <= left) & mask & (row > 0)
    return {board.spaces[i]: int(row[i]) for i in np.flatnonzero(usable)
            if allowed_for(game, piece.owner, board.spaces[i])}


# -- units carried along: Mechanized Infantry, Paratroopers (§5.2.3) ----------------------------
MECHANIZED, PARATROOPERS = "mechanized_escort", "air_transport"


def escorts(game: AA50Game, group: list[Piece], kind: str) -> list[Piece]:
    """Units that may go along with the group, one for each of its pieces: infantry that has
    not moved this turn, in the group's space, when the nation's breakthrough grants the
    group's type the ability (`mechanized_escort`: an infantry paired with a tank moves 2
    with it; `air_transport`: a bomber carries one infantry into combat). Infantry that held
    in the combat move may still be carried: being carried is the carrier's move."""
    first = group[0]
    ability = economy.granted(game, first.owner, kind).get(first.type)
    if ability is None:
        return []
    types = set(ability.get("types") or ())
    return [p for p in game.pieces[first.space] if p.owner == first.owner and p.type in types
            and not p.done and not p.spent and not p.fought and not p.captured_now
            and p.aboard is None]


def drop_zones(game: AA50Game, bomber: Piece) -> dict[str, tuple[int, str]]:
    """Where a bomber carrying paratroopers may go (Paratroopers, §5.2.3): the first hostile
    territory on its way, which it may not fly past, with the range left to land afterwards
    (§5.4.2); with the distance and the space it comes from."""
    board = game.data.board
    nation = bomber.owner
    left = game.movement(nation, bomber.type) - bomber.spent
    if not game.landing_spots(nation, fighter=False).any():
        return {}
    home = game.way_home(nation, fighter=False)
    seen = {bomber.space: (0, bomber.space)}
    frontier = [bomber.space]
    drops = {}
    for distance in range(1, left + 1):
        following = []
        for here in frontier:
            links = board.neighbours[here] + [other for pair in board.canal_borders
                                               if here in pair for other in pair if other != here]
            for there in links:
                if there in seen or there in board.neutral:
                    continue
                seen[there] = (distance, here)
                if there in board.land and enemy_territory(game, there, nation):
                    if distance + home[board.number[there]] <= left:
                        drops[there] = (distance, here)
                    continue                      # it stops in the first hostile territory
                following.append(there)
        frontier = following
    return drops


def farthest(game: AA50Game, piece: Piece) -> int:
    """The most a piece may move in a turn: its movement, or that of a unit that may carry it
    along (a tank under Mechanized Infantry, a bomber under Paratroopers)."""
    most = game.movement(piece.owner, piece.type)
    for kind in (MECHANIZED, PARATROOPERS):
        for carrier, ability in economy.granted(game, piece.owner, kind).items():
            if piece.type in (ability.get("types") or ()):
                most = max(most, game.movement(piece.owner, carrier))
    return most


# -- destinations of a group ---------------------------------------------------------------------
def destinations(game: AA50Game, pieces: list[Piece], combat: bool) -> Destinations:
    """Where the group (pieces of one type in one space, same tag) may go now."""
    first = pieces[0]
    nation, space = first.owner, first.space
    kind = game.data.types[first.type]
    board = game.data.board
    found: Destinations = {}
    if kind.domain == "air":
        for to, distance in air_reach(game, first, combat).items():
            if not combat:
                found[to] = (distance, None, ("",))
                continue
            targets = []
            if _battle_for_air(game, to, nation):
                targets.append("")
            if kind.has("strategic_bombing") and to in board.land and \
                    enemy_territory(game, to, nation) and game.factory_at(to):
                targets.append("raid")
            if targets:
                found[to] = (distance, None, tuple(targets))
        if combat and escorts(game, pieces, PARATROOPERS):
            for to, (distance, _) in drop_zones(game, first).items():
                known = found.get(to, (distance, None, ()))
                found[to] = (known[0], None, known[2] + ("drop",))
        return found
    if kind.domain == "sea":
        if kind.capacity:
            if nation != game.seat:
                return _allied_landings(game, first, combat)
            return _transport_moves(game, first, combat)
        steps = game.movement(nation, first.type)
        reach = sea_reach(game, space, nation, steps, combat, kind.has("submerge"))
        for to, distance in reach.items():
            if to == space:
                continue
            if not combat:
                found[to] = (distance, None, ("",))
            elif enemies_in(game, to, nation) or any(
                    enemy_territory(game, shore, nation) for shore in board.shores[to]) \
                    or hostile_sea(game, space, nation):
                found[to] = (distance, None, ("",))
        return found
    if kind.domain != "land" or (combat and kind.has("noncombat_move_only")):
        return found
    steps = game.movement(nation, first.type)
    blitz = kind.has("blitz")
    paired = bool(escorts(game, pieces, MECHANIZED))
    for to, (distance, plain, vias) in land_reach(game, space, nation, steps, combat, blitz).items():
        ways = (("",) if distance == 1 or plain else ()) + tuple(f"blitz:{v}" for v in vias)
        if paired and distance == 2:            # infantry may go along (Mechanized Infantry)
            ways += tuple(f"mech+{w}" if w else "mech" for w in ways)
        found[to] = (distance, plain, ways)
    if kind.size and not game.is_china(nation):
        for sea in board.coasts.get(space, ()):
            ways = ()
            if game.room_to_board(sea, nation, kind.size, combat) and (
                    not combat or assault_within(game, sea, nation, max(
                        game.movement(nation, p.type)
                        for p in game.boardable(sea, nation, True, nation)))):
                ways = ("board",)
            if not combat:
                ways += tuple(f"board:{owner}" for owner in game.data.order
                              if owner != nation and game.side(owner) == game.side(nation)
                              and game.room_to_board(sea, nation, kind.size, False, owner))
            if ways:
                found[sea] = (1, None, ways)
    return found


def _battle_for_air(game: AA50Game, to: str, nation: str) -> bool:
    """Whether an aircraft flying to `to` in the combat move has something to fight there."""
    board = game.data.board
    if to in board.sea:
        return bool(enemies_in(game, to, nation))
    if not enemy_territory(game, to, nation):
        return False
    return bool(enemies_in(game, to, nation)) or any(
        p.owner == nation and game.data.types[p.type].domain == "land"
        for p in game.pieces[to]) or game.assault_target(to, nation)


# -- transports (§5.4.8, §5.5.4.2, §7.3.6) ------------------------------------------------------
def must_assault(game: AA50Game, transport: Piece) -> bool:
    """In the combat move, troops taken aboard this turn must land in an amphibious assault
    this turn (§5.4.8, note 62)."""
    return any(c.loaded_now and c.owner == transport.owner for c in transport.cargo)


def _assault_cargo(game: AA50Game, transport: Piece, nation: str) -> bool:
    """Whether the nation's cargo aboard could assault: guns never do (§7.1.4)."""
    return any(c.owner == nation and not game.data.types[c.type].has("noncombat_move_only")
               for c in transport.cargo)


def assault_within(game: AA50Game, zone: str, nation: str, steps: int) -> bool:
    """Whether a transport in `zone` could still reach, within `steps`, a zone from which to
    land troops on an enemy territory (§5.4.3)."""
    for to in sea_reach(game, zone, nation, steps, True, False):
        if hostile_sea(game, to, nation) and not game.own_warships(to, nation):
            continue
        if any(enemy_territory(game, shore, nation) for shore in game.data.board.shores[to]):
            return True
    return False


def loadable(game: AA50Game, zone: str, nation: str, combat: bool) -> dict[str, dict[str, list[Piece]]]:
    """The nation's land units a transport in `zone` may take aboard: in territories next to
    it, not moved this turn (loading is their move, §7.3.6), guns only in the noncombat move
    (§7.1.4); none in a hostile zone (§7.3.6) or for China (§4)."""
    if game.is_china(nation) or hostile_sea(game, zone, nation):
        return {}
    types = game.data.types
    found: dict[str, dict[str, list[Piece]]] = {}
    for shore in game.data.board.shores[zone]:
        for piece in game.pieces[shore]:
            kind = types[piece.type]
            if piece.owner != nation or kind.domain != "land" or not kind.size or piece.done \
                    or piece.spent or piece.fought or (combat and kind.has("noncombat_move_only")):
                continue
            found.setdefault(shore, {}).setdefault(piece.type, []).append(piece)
    return found


def transport_loads(game: AA50Game, transport: Piece) -> list[tuple[str, str, int]]:
    """(territory, land type, most) a transport of the current nation may take aboard now; in
    the combat move only while an assault stays within its reach (§5.4.8)."""
    if transport.done or transport.owner != game.seat \
            or not game.data.types[transport.type].capacity:
        return []
    combat = game.phase == "combat-move"
    room = game.room_on(transport)
    types = game.data.types
    if combat and transport.target:
        return []
    found = []
    for territory, by_type in sorted(loadable(game, transport.space, transport.owner,
                                              combat).items()):
        for type_, pieces in sorted(by_type.items()):
            most = min(len(pieces), room // types[type_].size)
            if most:
                found.append((territory, type_, most))
    if found and combat and not assault_within(
            game, transport.space, transport.owner,
            game.movement(transport.owner, transport.type) - transport.spent):
        return []
    return found


def _transport_moves(game: AA50Game, transport: Piece, combat: bool) -> Destinations:
    """A transport sails up to its movement in one or more moves, taking troops aboard where
    it stops (§7.3.6); a move with a territory as target ends it: the cargo goes ashore
    (noncombat move) or is bound for an amphibious assault there (combat move, §5.4.3)."""
    board = game.data.board
    nation = transport.owner
    here = transport.space
    steps = game.movement(nation, transport.type) - transport.spent
    reach = sea_reach(game, here, nation, steps, combat, False)
    found: Destinations = {}
    room = game.room_on(transport)
    smallest = min((k.size for k in game.data.types.values() if k.size), default=0)
    if combat:
        loaded = _assault_cargo(game, transport, nation)
        for to, distance in reach.items():
            targets: tuple[str, ...] = ()
            if loaded and not (hostile_sea(game, to, nation) and not game.own_warships(to, nation)):
                targets = tuple(shore for shore in board.shores[to]
                                if enemy_territory(game, shore, nation))
            if to != here and not hostile_sea(game, to, nation):
                leave = not loaded and not transport.spent and hostile_sea(game, here, nation)
                pick_up = smallest and room >= smallest and loadable(game, to, nation, True) \
                    and assault_within(game, to, nation, steps - distance)
                if leave or pick_up:
                    targets = ("",) + targets
            if targets:
                found[to] = (distance, None, targets)
        return found
    loaded = any(c.owner == nation for c in transport.cargo)
    for to, distance in reach.items():
        targets = ()
        if loaded:
            targets = tuple(shore for shore in board.shores[to]
                            if friendly_territory(game, shore, nation))
        if to != here:
            targets = ("",) + targets
        if targets:
            found[to] = (distance, None, targets)
    return found


def _allied_landings(game: AA50Game, transport: Piece, combat: bool) -> Destinations:
    """The current nation lands its troops from an ally's transport where the transport lies,
    in the nation's own turn: an amphibious assault in the combat move, onto a friendly
    territory in the noncombat move (§5.5.4.2, §7.3.6)."""
    nation = game.seat
    here = transport.space
    shores = game.data.board.shores[here]
    if combat:
        if hostile_sea(game, here, nation) and not game.own_warships(here, nation) \
                or not any(not game.data.types[c.type].has("noncombat_move_only")
                           for c in game.own_cargo_to_land(transport)):
            return {}
        targets = tuple(s for s in shores if enemy_territory(game, s, nation))
    else:
        if hostile_sea(game, here, nation):
            return {}
        targets = tuple(s for s in shores if friendly_territory(game, s, nation)
                        and allowed_for(game, nation, s))
    return {here: (0, None, targets)} if targets else {}
