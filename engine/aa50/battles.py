"""The Conduct Combat phase of a whole game (§5.5), fought with the battle engine.

In order: strategic bombing raids (§5.5.1) and rockets (§5.2.3), then sea battles, then
battles for territories, amphibious assaults among them (§5.5.2): the sea battle in the
transports' zone is fought first, and a zone that saw a sea battle lends no bombardment. Each
battle is one decision of the attacker, how long to press: `("fight", space, retreat_at)`.
A battle itself is the battle calculator's own procedure (model.py, single.py), with the
pieces on the board as its forces; its survivors are the pieces left standing.
"""
from __future__ import annotations

from collections import Counter, defaultdict
from typing import TYPE_CHECKING

from ..game import BELOW_ODDS
from ..system import ATTACKER_WINS, DEFENDER_WINS, BattlePosition, Contingent, Policy
from . import bombing, carriers, estimate
from .forces import Piece
from .movement import enemies_in, hostile_sea
from .position import AA50Position
from .single import one_battle

if TYPE_CHECKING:
    from .game import AA50Game

RETREAT_CHOICES = (0, 1, 2, 3)


def enter_combat(game: AA50Game) -> None:
    _raids(game)
    _rockets(game)
    board = game.data.board
    nation = game.seat
    seas = [s for s in sorted(board.sea) if _attackers(game, s) and enemies_in(game, s, nation)]
    lands = [s for s in sorted(board.land)
             if (_attackers(game, s) and enemies_in(game, s, nation)) or _landing(game, s)]
    game.battle_queue = seas + lands


def combat_done(game: AA50Game) -> bool:
    """Battles that need no decision (nothing left to fight) are settled on the way; after
    the last, fighters whose carrier was sunk defending land (§7.3.2)."""
    while game.battle_queue and not _needs_decision(game, game.battle_queue[0]):
        fight(game, game.battle_queue.pop(0), 0)
    if game.battle_queue:
        return False
    carriers.land_unseated(game)
    return True


def combat_actions(game: AA50Game) -> list[tuple]:
    space = game.battle_queue[0]
    choices = RETREAT_CHOICES if retreat_space(game, space) else (0,)
    return [("fight", space, r) for r in choices]


def combat_apply(game: AA50Game, action: tuple) -> None:
    _, space, retreat_at = action
    game.battle_queue.pop(0)
    fight(game, space, retreat_at)


# -- who fights ----------------------------------------------------------------------------------
def _on_board(game: AA50Game, piece: Piece) -> bool:
    kind = game.data.types[piece.type]
    return kind.domain in ("land", "sea", "air") and not kind.has("capturable") \
        and not kind.has("factory")


def _attackers(game: AA50Game, space: str) -> list[Piece]:
    return [p for p in game.pieces[space] if p.owner == game.seat and _on_board(game, p)
            and p.target != "raid"]


def _landing(game: AA50Game, territory: str) -> list[Piece]:
    """Transports (the attacker's, or an ally's, §5.5.4.2) that carry an assault of the
    attacker on `territory` (§5.4.3)."""
    return [p for sea in game.data.board.coasts.get(territory, ()) for p in game.pieces[sea]
            if _assault_troops(game, p, territory)]


def _assault_troops(game: AA50Game, transport: Piece, territory: str) -> list[Piece]:
    return [c for c in transport.cargo if c.owner == game.seat and c.target == territory
            and _on_board(game, c)]


def _needs_decision(game: AA50Game, space: str) -> bool:
    nation = game.seat
    defenders = [p for p in enemies_in(game, space, nation) if _on_board(game, p)]
    attackers = _attackers(game, space)
    if space in game.data.board.land:
        attackers = attackers + [c for t in _landing(game, space)
                                 for c in _assault_troops(game, t, space)]
    return bool(defenders) and bool(attackers) and bool(retreat_space(game, space))


def retreat_space(game: AA50Game, space: str) -> str | None:
    """Where the attacker's land or sea units may retreat: a friendly neighbour from which one
    of them came (§5.5.3.5); None when they cannot, or when only aircraft attack."""
    board = game.data.board
    movers = [p for p in _attackers(game, space) if game.data.types[p.type].domain != "air"]
    if not movers:
        return None
    for origin in sorted({p.came_from for p in movers if p.came_from}):
        if origin not in board.neighbours.get(space, ()):
            continue
        if space in board.land and origin in board.land and \
                game.side(game.control.get(origin)) == game.side(game.seat):
            return origin
        if space in board.sea and origin in board.sea and not hostile_sea(game, origin, game.seat) \
                and game.side(game.start_control.get(origin)) in (None, game.side(game.seat)):
            return origin
    return None


# -- one battle ----------------------------------------------------------------------------------
def fight(game: AA50Game, space: str, retreat_at: int) -> None:
    nation = game.seat
    board = game.data.board
    landed = _unload_assault(game, space) if space in board.land else []
    attackers = _attackers(game, space)
    defenders = [p for p in enemies_in(game, space, nation)]
    fighting = [p for p in defenders if _on_board(game, p)]
    gun = any(game.data.types[p.type].has("anti_aircraft") for p in defenders) and \
        any(game.data.types[p.type].domain == "air" for p in attackers)
    if not attackers:
        return
    if not fighting and not gun:
        _conclude(game, space, attackers, won=True)
        return
    bombard = _bombardment(game, space, landed) if landed else None
    if fighting and estimate.attack_chance(game, nation, space, attackers, fighting,
                                           bombard) < BELOW_ODDS:
        game.chronicle.blunder(game.round, "below-odds", game.side_of(nation))
    position = AA50Position(
        space, (Contingent(nation, dict(Counter(p.type for p in attackers))),),
        tuple(Contingent(owner, dict(Counter(p.type for p in defenders if p.owner == owner)))
              for owner in sorted({p.owner for p in defenders})),
        landing=dict(Counter(p.type for p in landed)),
        bombard=Contingent(nation, dict(Counter(p.type for p in bombard))) if bombard else None,
        research={n: frozenset(game.tech[n]) for n in {nation} | {p.owner for p in defenders}
                  if game.tech[n]},
        policy=Policy("cheapest", None, retreat_at if retreat_space(game, space) else 0),
        surprise_strike=game.options.get("surprise_strike", "every-round"))
    model = game.system.model(position)
    result, _, a_final, d_final, _ = one_battle(model, game.rng)
    for piece in bombard or ():
        piece.bombarded = True
    a_left = _left(model.attacker, a_final)
    d_left = _left(model.defender, d_final)
    _note_unfought_losses(game, attackers, fighting, a_left, attacking=True)
    _note_unfought_losses(game, fighting, attackers, d_left, attacking=False)
    _remove_losses(game, attackers, a_left)
    _remove_losses(game, fighting, d_left)
    for piece in attackers:
        piece.fought = True
    winner = {ATTACKER_WINS: "attacker", DEFENDER_WINS: "defender"}.get(result, "draw")
    game.chronicle.battle(game.round, space, nation,
                          fighting[0].owner if fighting else defenders[0].owner,
                          len(attackers), len(fighting), winner)
    survivors = _attackers(game, space)
    if result == ATTACKER_WINS:
        _conclude(game, space, survivors, won=True)
    else:
        _conclude(game, space, survivors, won=False)


def _note_unfought_losses(game: AA50Game, pieces: list[Piece], foes: list[Piece], left: Counter,
                          attacking: bool) -> None:
    """Losses of a side none of whose units could hit the other (transports alone, submarines
    under aircraft, §7.3.4): units lost without a fight, a blunder the report counts."""
    def strikes(piece: Piece) -> bool:
        profile = game.profiles(piece.owner)[piece.type]
        value = profile.attack if attacking else profile.defense
        if not value or profile.defenceless:
            return False
        return not profile.cannot_hit_air or any(
            not game.profiles(f.owner)[f.type].is_air for f in foes)
    if not pieces or any(strikes(p) for p in pieces):
        return
    lost = _lost(pieces, left)
    for (owner, type_), count in Counter((p.owner, p.type) for p in lost).items():
        side = game.side_of(owner)
        game.chronicle.blunder(game.round, "lost-unfought", side, count)
        game.chronicle.blunder(game.round, "lost-unfought-value", side,
                               count * game.profiles(owner)[type_].cost)
    # a transport that put troops ashore in an amphibious assault stays where it unloaded
    # (§7.3.6): its loss is the price of a landing more than a careless move
    for side, count in Counter(game.side_of(p.owner) for p in lost if p.target
                               and game.data.types[p.type].capacity).items():
        game.chronicle.blunder(game.round, "lost-after-landing", side, count)


def _left(side_model, final) -> Counter:
    left: Counter = Counter()
    for kind, count in zip(side_model.kinds, final, strict=True):
        left[(kind.owner, kind.type)] += int(count)
    return left


def _remove_losses(game: AA50Game, pieces: list[Piece], left: Counter) -> None:
    for piece in _lost(pieces, left):
        game.destroy(piece)


def _lost(pieces: list[Piece], left: Counter) -> list[Piece]:
    """The pieces beyond the survivors of each owner and type (the last ones listed: empty
    transports before loaded ones)."""
    by_kind: dict[tuple[str, str], list[Piece]] = defaultdict(list)
    for piece in pieces:
        by_kind[(piece.owner, piece.type)].append(piece)
    found: list[Piece] = []
    for key, kind in by_kind.items():
        kind.sort(key=lambda p: len(p.cargo), reverse=True)
        found += kind[left.get(key, 0):]
    return found


def _conclude(game: AA50Game, space: str, survivors: list[Piece], won: bool) -> None:
    """Take the territory with a land unit (§5.5.3.6); otherwise land and sea units that may
    not stay go back where they came from (§5.5.3.5)."""
    board = game.data.board
    land_units = [p for p in survivors if game.data.types[p.type].domain == "land"]
    if space in board.land:
        if won and land_units:
            game.capture(space, game.seat)
            return
        if land_units and enemies_in(game, space, game.seat):
            back = retreat_space(game, space)
            for piece in land_units:
                if back is None:
                    game.destroy(piece)
                else:
                    game.pieces[space].remove(piece)
                    piece.space = back
                    game.pieces[back].append(piece)
        return
    if not won and enemies_in(game, space, game.seat) and hostile_sea(game, space, game.seat):
        back = retreat_space(game, space)
        if back is not None:
            for piece in survivors:
                if game.data.types[piece.type].domain == "sea":
                    game.relocate(piece, back)


# -- amphibious assaults (§5.5.2) ----------------------------------------------------------------
def _unload_assault(game: AA50Game, territory: str) -> list[Piece]:
    """Cargo of transports still afloat in a zone without enemy warships comes ashore."""
    landed = []
    for transport in _landing(game, territory):
        if hostile_sea(game, transport.space, game.seat):
            continue
        for cargo in _assault_troops(game, transport, territory):
            transport.cargo.remove(cargo)
            cargo.aboard = None
            cargo.space = territory
            cargo.came_from = transport.space
            cargo.done = True
            game.pieces[territory].append(cargo)
            landed.append(cargo)
        if transport.owner == game.seat:
            transport.fought = True
    return landed


def _bombardment(game: AA50Game, territory: str, landed: list[Piece]) -> list[Piece]:
    """Battleships and cruisers in the landing zones that fought no sea battle this turn, at
    most one per landing unit (§5.5.2.2)."""
    zones = {p.came_from for p in landed if p.came_from is not None}
    ships = [p for zone in sorted(zones) for p in game.pieces[zone]
             if p.owner == game.seat and game.data.types[p.type].has("offshore_bombardment")
             and not p.fought and not p.bombarded]
    return ships[:len(landed)]


# -- strategic bombing and rockets ---------------------------------------------------------------
def _raids(game: AA50Game) -> None:
    nation = game.seat
    for space in sorted(game.data.board.land):
        bombers = [p for p in game.pieces[space] if p.owner == nation and p.target == "raid"]
        if not bombers:
            continue
        defenders = [p for p in game.pieces[space] if game.side(p.owner) != game.side(nation)]
        position = BattlePosition(
            space, (Contingent(nation, dict(Counter(p.type for p in bombers))),),
            tuple(Contingent(owner, dict(Counter(p.type for p in defenders if p.owner == owner)))
                  for owner in sorted({p.owner for p in defenders})),
            raid=True, damage=game.damage.get(space, 0),
            research={n: frozenset(game.tech[n]) for n in {nation} | {p.owner for p in defenders}
                      if game.tech[n]})
        raid = game.system.raid(position)
        batch = bombing.simulate(raid, 1, game.rng)
        survivors = int(batch.attacker_survivors[0])
        for piece in bombers[survivors:]:
            game.destroy(piece)
        for piece in bombers[:survivors]:
            piece.fought = True
        damage = int(batch.defender_loss[0])
        game.damage[space] = game.damage.get(space, 0) + damage
        game.chronicle.battle(game.round, space, nation, game.control.get(space) or "",
                              len(bombers), 0, f"raid {damage}")


def _rockets(game: AA50Game) -> None:
    """Rockets: each gun may strike an enemy factory within 3 spaces for 1d6 damage (§5.2.3);
    it strikes the one with the most room for damage, then the most valuable."""
    nation = game.seat
    rockets = [c for tech in game.tech[nation]
               for c in game.data.breakthroughs.get(tech, {}).get("changes") or []
               if (c.get("ability") or {}).get("kind") == "rockets"]
    if not rockets:
        return
    reach = int(rockets[0]["ability"].get("range", 3))
    board = game.data.board
    targets = [s for s in board.land if game.factory_at(s) is not None
               and game.side(game.control.get(s)) != game.side(nation)]
    for space in sorted(board.land):
        for gun in [p for p in game.pieces[space] if p.owner == nation
                    and game.data.types[p.type].has("anti_aircraft") and not p.captured_now]:
            near = [t for t in targets if board.distance(space, t) <= reach]
            room = {t: 2 * board.value[t] - game.damage.get(t, 0) for t in near}
            near = [t for t in near if room[t] > 0]
            if not near:
                continue
            target = max(near, key=lambda t: (room[t], board.value[t], t))
            damage = min(int(game.rng.integers(1, 7)), room[target])
            game.damage[target] = game.damage.get(target, 0) + damage
            gun.fought = True
