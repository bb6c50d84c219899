"""The pieces on the board during a game: one `Piece` per unit, and what the turn did to it."""
from __future__ import annotations


class Piece:
    """One unit on the board.

    spent: spaces moved this turn; done: it may not move again this turn (it moved in the
    combat move, fought, or was placed this turn); came_from: the space it entered its battle
    from (where it may retreat to, §5.5.3.5); target: for a loaded transport, the territory its
    cargo assaults (§5.4.3), or "raid" for a bomber bombing a factory (§5.5.1); aboard: the
    transport carrying it (cargo is not in its space's list of pieces, §7.3.6);
    cargo: the pieces a transport carries; bombarded: it fired at the shore this turn;
    loaded_now: a land unit went aboard this turn, or a transport took one aboard;
    placed_now: mobilized this turn (a new factory mobilizes nothing before the owner's next
    turn, §7.1.5); on_carrier: for a fighter sitting on an ally's carrier, that carrier: the
    fighter is its cargo and goes where it goes (§5.4.5, §7.3.2, §5.5.4). Unlike a
    transport's cargo it stays in its space's list of pieces: it defends with the fleet.
    """

    __slots__ = ("uid", "owner", "type", "space", "spent", "done", "came_from", "target",
                 "aboard", "cargo", "fought", "bombarded", "loaded_now", "captured_now", "placed_now", "on_carrier")

    def __init__(self, uid: int, owner: str, type_: str, space: str):
        self.uid, self.owner, self.type, self.space = uid, owner, type_, space
        self.cargo: list[Piece] = []
        self.aboard: Piece | None = None
        self.on_carrier: Piece | None = None
        self.new_turn()

    def new_turn(self) -> None:
        self.spent = 0
        self.done = False
        self.came_from: str | None = None
        self.target: str | None = None
        self.fought = False
        self.bombarded = False
        self.loaded_now = False
        self.captured_now = False
        self.placed_now = False

    def __repr__(self) -> str:
        return f"<{self.owner} {self.type} #{self.uid} in {self.space}>"


def cargo_tag(transport: Piece) -> str:
    """How a transport's load reads in an action: 'infantry+armour', or '' when empty; an
    allied power's land units aboard are named with their owner ('united-states:infantry')."""
    return "+".join(sorted(p.type if p.owner == transport.owner else f"{p.owner}:{p.type}"
                           for p in transport.cargo))
