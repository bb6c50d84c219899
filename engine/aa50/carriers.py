"""Fighters on aircraft carriers (§5.4.5, §7.3.2, §5.5.4, §5.6.1.2).

A carrier takes two fighters, its nation's or an ally's. The nation's own fighters take off
before the carrier moves and move by themselves; an ally's fighters are the carrier's cargo:
they go where it goes, do not fight when it attacks, and are lost with it then (§5.4.5). A
fighter on an ally's carrier names it (`Piece.on_carrier`); a nation's other fighters at sea
sit on its own carriers there, which is all the rules need of them.

A fighter takes a seat when its nation's noncombat move ends (§5.6.1.2), when it starts the
game at sea, and when its carrier is sunk in a defence: then it lands on another carrier of its
side in the zone or flies one space to a friendly territory or carrier, or is lost, after the
attacker's battles (§7.3.2).
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from .forces import Piece

if TYPE_CHECKING:
    from .game import AA50Game


def riders(game: AA50Game, carrier: Piece) -> list[Piece]:
    """The allied fighters aboard a carrier."""
    return [p for p in game.pieces[carrier.space] if p.on_carrier is carrier]


def _capacity(game: AA50Game, zone: str, nation: str) -> int:
    """The room on the nation's carriers in the zone less the allied fighters aboard them."""
    types = game.data.types
    room = 0
    for piece in game.pieces[zone]:
        if piece.owner == nation:
            room += types[piece.type].carrier_room
        elif piece.on_carrier is not None and piece.on_carrier.owner == nation:
            room -= types[piece.type].carrier_size
    return room


def own_room(game: AA50Game, zone: str, nation: str) -> int:
    """Room left on the nation's carriers in the zone once its own fighters there (those not
    on an ally's carrier) sit on them; below 0 when some of them have no seat."""
    types = game.data.types
    return _capacity(game, zone, nation) - sum(
        types[p.type].carrier_size for p in game.pieces[zone]
        if p.owner == nation and types[p.type].domain == "air" and p.on_carrier is None)


def _allied_seat(game: AA50Game, zone: str, fighter: Piece) -> Piece | None:
    """An ally's carrier in the zone with a seat the ally's own fighters leave free."""
    types = game.data.types
    size = types[fighter.type].carrier_size
    side = game.side(fighter.owner)
    best, best_free = None, 0
    for carrier in game.pieces[zone]:
        room = types[carrier.type].carrier_room
        if not room or carrier.owner == fighter.owner or game.side(carrier.owner) != side:
            continue
        free = room - sum(types[r.type].carrier_size for r in riders(game, carrier))
        if free >= size > 0 and own_room(game, zone, carrier.owner) >= size and free > best_free:
            best, best_free = carrier, free
    return best


def seat(game: AA50Game, zone: str, nation: str) -> list[Piece]:
    """Seat the nation's aircraft in a sea zone: on its own carriers first, then on an ally's
    as cargo. Returns those left without a seat (bombers never have one)."""
    types = game.data.types
    left = []
    room = _capacity(game, zone, nation)
    for piece in sorted((p for p in game.pieces[zone] if p.owner == nation
                         and types[p.type].domain == "air" and p.on_carrier is None),
                        key=lambda p: p.uid):
        size = types[piece.type].carrier_size
        if size and room >= size:
            room -= size
            continue
        carrier = _allied_seat(game, zone, piece) if size else None
        if carrier is None:
            left.append(piece)
        else:
            piece.on_carrier = carrier
    return left


def land_unseated(game: AA50Game) -> None:
    """§7.3.2: after the attacker's battles, the fighters of other nations whose carrier was
    sunk land on another carrier of their side in the zone, or fly one space to a territory of
    their side or a carrier with room; otherwise they are lost. The first such place in board
    order is taken."""
    board = game.data.board
    types = game.data.types
    for zone in sorted(board.sea):
        for nation in sorted({p.owner for p in game.pieces[zone] if p.owner != game.seat
                              and types[p.type].domain == "air"}):
            for piece in seat(game, zone, nation):
                to = _one_space_away(game, zone, piece)
                if to is None:
                    game.destroy(piece)
                    continue
                game.relocate(piece, to)
                if to in board.sea:
                    seat(game, to, nation)


def _one_space_away(game: AA50Game, zone: str, piece: Piece) -> str | None:
    board = game.data.board
    side = game.side(piece.owner)
    size = game.data.types[piece.type].carrier_size
    for there in board.neighbours[zone]:
        if there in board.land and there not in board.neutral \
                and game.side(game.control.get(there)) == side:
            return there
    for there in board.neighbours[zone]:
        if there in board.sea and size and (own_room(game, there, piece.owner) >= size
                                            or _allied_seat(game, there, piece) is not None):
            return there
    return None


def broken(game: AA50Game, nations: list[str]) -> list[str]:
    """For the invariants: allied fighters away from their carrier or beyond its room, and, for
    the nations given, fighters at sea without a seat on a carrier of their side."""
    found = []
    types = game.data.types
    for zone in game.data.board.sea:
        aboard: dict[int, int] = {}
        for piece in game.pieces[zone]:
            carrier = piece.on_carrier
            if carrier is None:
                continue
            if carrier.space != zone or carrier not in game.pieces[zone]:
                found.append(f"{piece} is cargo of {carrier}, which is not there (§5.4.5)")
            elif carrier.owner == piece.owner or game.side(carrier.owner) != game.side(piece.owner):
                found.append(f"{piece} is cargo of {carrier}, not an ally's carrier")
            aboard[carrier.uid] = aboard.get(carrier.uid, 0) + types[piece.type].carrier_size
        for piece in game.pieces[zone]:
            if aboard.get(piece.uid, 0) > types[piece.type].carrier_room:
                found.append(f"{piece} carries {aboard[piece.uid]} allied fighters, more "
                             "than it has room for (§7.3.2)")
        for nation in nations:
            if any(p.owner == nation and types[p.type].domain == "air" for p in game.pieces[zone]) \
                    and own_room(game, zone, nation) < 0:
                found.append(f"{nation} has aircraft in {zone} without a seat on a carrier of "
                             "its side (§5.4.5, §7.3.2)")
    return found
