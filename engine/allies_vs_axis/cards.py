"""Fortune and strategy cards: the decks in play, and what each effect of decks.yaml does.

A deck is shuffled when first drawn from (inside `apply`, from the game's one generator), and
its discards are shuffled back when it runs out ("reshuffle: true"). A card drawn is applied at
once, unless it is kept (strategy cards tagged `keep`, "Strategy cards"), and then it goes to
its owner's hand until played. A card `removed_after_use` (the four spies) leaves the game when
used; the others go to the discards.

The effects are the profile's vocabulary (schemas/systems/allies-vs-axis.schema.json `effect`);
`playable` says when a kept card may be played, `apply_effect` does what an effect says.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field

from ..system import EngineError
from .board import SECRET, SPECIAL, Card


@dataclass
class Deck:
    cards: list[Card]                        # every card of the deck, one entry per copy
    pile: list[Card] | None = None           # the draw pile, top last; None until shuffled
    discards: list[Card] = field(default_factory=list)
    removed: list[Card] = field(default_factory=list)

    def draw(self, rng) -> Card | None:
        """The top card (shuffling first, or shuffling the discards back when the pile is
        empty); None when every card is in a hand or out of the game."""
        if self.pile is None:
            self.pile = [self.cards[i] for i in rng.permutation(len(self.cards))]
        if not self.pile and self.discards:
            self.pile = [self.discards[i] for i in rng.permutation(len(self.discards))]
            self.discards = []
        return self.pile.pop() if self.pile else None

    def put_away(self, card: Card) -> None:
        (self.removed if card.removed_after_use else self.discards).append(card)

    def copy(self) -> Deck:
        return Deck(self.cards, None if self.pile is None else list(self.pile),
                    list(self.discards), list(self.removed))


def playable(game, side: str, card: Card) -> bool:
    """Whether a kept card may be played now: each of its effects has something to act on."""
    return all(_effect_playable(game, side, effect) for effect in card.effects)


def _effect_playable(game, side: str, effect: dict) -> bool:
    op = effect.get("op")
    square = game.square
    owner = game.owner.get(square.id)
    if op == "leave_jail":
        return game.jailed[side]
    if game.jailed[side]:
        return False                      # in jail only a card that frees the player is played
    if op == "destroy_secret_base":      # "Invading secret territories": on the opponent's base
        return square.kind == SECRET and owner not in (None, side)
    if op == "ally_with_special":        # only on a neutral special territory not already ours
        return (square.kind == SPECIAL and owner is None and not game.square_done
                and game.board.natural_ally.get(square.id) != side
                and game.money[side] >= game.board.parameter("special_alliance_cost"))
    if op == "scale_defenders":
        space = effect.get("space")
        return (game.owner.get(space) not in (None, side)
                and any(game.defenders.get(space, {}).get(t) for t in effect.get("types") or ()))
    if op == "free_treaty":
        return not game.free_treaty[side]
    return True


def apply_effect(game, side: str, effect: dict, depth: int) -> None:
    """Do what one effect says, for `side` (the player who drew or played the card)."""
    op = effect.get("op")
    target = game.opponent(side) if effect.get("target") == "opponent" else side
    board = game.board
    if op == "gain":
        game.add_resource(target, effect["resource"], int(effect["amount"]))
    elif op == "lose":
        game.add_resource(target, effect["resource"], -int(effect["amount"]))
    elif op == "collect_yield":
        game.collect(target)
    elif op == "move":
        game.move_pawn(side, int(effect["steps"]), depth + 1)
    elif op == "move_to":
        here = game.pawn[side]
        game.move_pawn(side, (board.square_of[effect["space"]] - here) % len(board.squares), depth + 1)
    elif op == "spin_again":
        game.spin_again = True
    elif op == "skip_turns":
        game.skip[target] += int(effect["turns"])
    elif op == "go_to_jail":
        game.send_to_jail(target)
    elif op == "leave_jail":
        game.jailed[target] = False
    elif op == "reset_counter":
        game.counters[target][effect["counter"]] = 0
    elif op == "free_treaty":
        game.free_treaty[side] = True
    elif op == "scale_defenders":
        space = effect["space"]
        army = game.defenders.get(space, {})
        for unit in effect.get("types") or ():
            if army.get(unit):
                army[unit] = math.floor(army[unit] * effect["factor"])
        game.defenders[space] = {u: n for u, n in army.items() if n}
        game.defence_changed(space)
    elif op == "destroy_secret_base":
        game.change_owner(game.square.id, None)
    elif op == "ally_with_special":
        game.pay(side, board.parameter("special_alliance_cost"))
        game.change_owner(game.square.id, side)
        game.square_done = True
    else:
        raise EngineError(f"the engine does not know the card effect {op!r}")
