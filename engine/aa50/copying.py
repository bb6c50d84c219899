"""A game's position copied for a search: every piece and everything the turn changes, with the
scenario's data (board, unit types, charts, objectives) shared, never copied.

An AA50 game is plain data between actions (no running generator), so a copy of that data is
a game that goes on exactly as the original would; it costs a fraction of a millisecond, where
replaying the game's actions would cost about as much as the game so far.

`SHARED`, `COPIED` and `RESET` name every attribute of a game: a test checks that a new
attribute is sorted into one of them, so that a clone never shares what the rules change.
"""
from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING

from ..clones import copy_generator
from ..game import GameResult
from .forces import Piece

if TYPE_CHECKING:
    from .game import AA50Game

SHARED = frozenset({"system", "data", "max_rounds", "start_count", "_uid", "created", "destroyed",
                    "_version", "_position", "_unchanged", "_round", "turn", "_phase",
                    "first_new_uid", "step", "_ranks"})
COPIED = frozenset({"rng", "options", "chronicle", "control", "start_control", "money", "pool",
                    "damage", "tech", "tokens", "pieces", "factories", "_candidates", "decided",
                    "battle_queue", "placed", "outcome", "_profiles"})
RESET = frozenset({"_group_cache", "_destination_cache", "_landing_cache"})      # caches, worked out again


def copy_game(game: AA50Game) -> AA50Game:
    twin = object.__new__(type(game))
    for name in SHARED:          # the scenario's data, and numbers and strings
        setattr(twin, name, getattr(game, name))
    twin._group_cache = (-1, None)
    twin._destination_cache = (-1, {})
    twin._landing_cache = (-1, {})
    twin.rng = copy_generator(game.rng)
    twin.options = dict(game.options)
    twin.chronicle = game.chronicle.copy()
    twin.control = dict(game.control)
    twin.start_control = dict(game.start_control)
    twin.money = dict(game.money)
    twin.pool = {nation: Counter(bought) for nation, bought in game.pool.items()}
    twin.damage = dict(game.damage)
    twin.tech = {nation: set(made) for nation, made in game.tech.items()}
    twin.tokens = dict(game.tokens)
    twin.decided = set(game.decided)
    twin.battle_queue = list(game.battle_queue)
    twin.placed = Counter(game.placed)
    twin.outcome = None if game.outcome is None else GameResult.from_dict(game.outcome.as_dict())
    twin._profiles = dict(game._profiles)      # cached profile tables, never changed once made
    copies: dict[int, Piece] = {}
    twin.pieces = {space: [_copy_piece(p, copies) for p in found]
                   for space, found in game.pieces.items()}
    twin.factories = {space: _copy_piece(p, copies) for space, p in game.factories.items()}
    twin._candidates = [_copy_piece(p, copies) for p in game._candidates]
    return twin


def _copy_piece(piece: Piece, copies: dict[int, Piece]) -> Piece:
    """The copy of `piece`, made once (keyed by identity: a piece and its cargo point at each
    other)."""
    found = copies.get(id(piece))
    if found is not None:
        return found
    twin = Piece.__new__(Piece)
    for name in Piece.__slots__:
        setattr(twin, name, getattr(piece, name))
    copies[id(piece)] = twin
    twin.cargo = [_copy_piece(c, copies) for c in piece.cargo]
    if piece.aboard is not None:
        twin.aboard = _copy_piece(piece.aboard, copies)
    return twin

