"""A whole AA50 game: every power's seven phases in the scenario's turn order (rulebook §5).

The state keeps who controls each territory, the pieces, each nation's IPCs, units bought and
not yet placed, factory damage and research. Decisions are taken one at a time:

  research        ("research", tokens), then ("chart", chart id) after a breakthrough (§5.2)
  purchase        ("buy", type, n), ("repair", factory territory, markers), ("end",) (§5.3)
  combat move     one group at a time, in a fixed order (land units, warships, transports,
  noncombat move  aircraft, guns): ("move", space, type, tag, to, n, target) or
                  ("hold", space, type, tag); a transport also ("load", zone, type, tag,
                  territory, land type, n), and moves on after a stop (§5.4, §5.6, §7.3.6);
                  see movement.py
  conduct combat  each battle in turn: ("fight", space, retreat_at): the attacker retreats
                  when it has that many units left or fewer, 0 never (§5.5)
  mobilize        ("place", type, space, n), ("end",) (§5.7)

Collecting income (§5.8), strategic bombing (§5.5.1), rockets and the end-of-round victory
check (§5.5.3.9) need no decision. China's turn (rulebook §4) comes just before the United
States': its infantry is counted, it moves and fights, and its new infantry is placed.
"""
from __future__ import annotations

from collections import Counter

import numpy as np

from validators.conditions import Position, Stack, evaluate

from ..game import Chronicle, GameResult, GameState, IllegalAction, as_action
from . import battles, carriers, copying, economy, movement, standing
from .forces import Piece, cargo_tag
from .gamedata import GameData
from .movement import Destinations

PHASES = ("research", "purchase", "combat-move", "conduct-combat", "noncombat-move",
          "mobilize", "collect-income")
DEFAULT_MAX_ROUNDS = 15


class AA50Game(GameState):
    def __init__(self, system, data: GameData, options: dict, rng: np.random.Generator,
                 max_rounds: int | None):
        self.system, self.data, self.rng = system, data, rng
        self.options = dict(options)
        self.max_rounds = max_rounds or DEFAULT_MAX_ROUNDS
        self.chronicle = Chronicle()
        self.control = dict(data.start_control)
        self.start_control = dict(self.control)
        self.money = dict(data.start_money)
        self.pool: dict[str, Counter] = {n: Counter() for n in data.nations}
        self.damage: dict[str, int] = {}
        self.tech: dict[str, set[str]] = {n: set() for n in data.nations}
        self.tokens: dict[str, int] = {n: 0 for n in data.nations}
        self.pieces: dict[str, list[Piece]] = {s: [] for s in data.board.spaces}
        self._uid = 0
        self.created = self.destroyed = 0
        self._place_start_units()
        self.factories = {p.space: p for found in self.pieces.values() for p in found
                          if self.data.types[p.type].has("factory")}
        self.start_count = self.count_pieces()
        self._version = 0                       # counts applied actions: keys the caches below
        # counts the actions that changed where pieces stand or what they may do: a group that
        # only holds leaves every other group's destinations as they were
        self._position = 0
        self._unchanged = False
        self._group_cache: tuple = (-1, None)
        self._destination_cache: tuple = (-1, {})
        self._landing_cache: tuple = (-1, {})
        self._candidates: list[Piece] = []
        self._ranks: dict[str, int] = {}       # unit type -> `movement.rank`, filled as met
        self._round, self.turn, self._phase = 1, 0, PHASES[0]
        self.decided: set[int] = set()         # pieces whose move is decided this phase
        self.battle_queue: list[str] = []
        self.placed: Counter = Counter()        # factory territory -> units placed this turn
        self.first_new_uid = 0                  # the first piece placed in this mobilization
        self.step = ""                          # where the current phase stands
        self.outcome: GameResult | None = None
        self._profiles: dict[str, dict] = {}
        self._start_turn()
        self._advance()                         # past phases the options leave without decision

    # -- set-up --------------------------------------------------------------------------------
    def next_uid(self) -> int:
        """The id the next new piece gets: ids grow, so pieces placed since are told apart."""
        return self._uid + 1

    def new_piece(self, owner: str, type_: str, space: str, aboard: Piece | None = None) -> Piece:
        self._uid += 1
        piece = Piece(self._uid, owner, type_, space)
        if aboard is not None:
            piece.aboard = aboard
            aboard.cargo.append(piece)
        else:
            self.pieces[space].append(piece)
        return piece

    def _place_start_units(self) -> None:
        waiting = []
        for space, owner, type_, aboard, count in self.data.start_units:
            for _ in range(count):
                if aboard:
                    waiting.append((space, owner, type_, aboard))
                else:
                    self.new_piece(owner, type_, space)
        for space, owner, type_, aboard in waiting:      # cargo goes on a transport with room
            size = self.data.types[type_].size
            carrier = next((p for p in self.pieces[space] if p.owner == owner
                            and p.type == aboard and self.room_on(p) >= size), None)
            if carrier is not None:
                self.new_piece(owner, type_, space, aboard=carrier)
            else:
                self.new_piece(owner, type_, space)
        for space in self.data.board.sea:               # fighters at sea on their carriers
            for nation in sorted({p.owner for p in self.pieces[space]}):
                carriers.seat(self, space, nation)

    # -- the GameState interface ---------------------------------------------------------------
    @property
    def current_player(self) -> str | None:
        return None if self.outcome else self.seat

    @property
    def seat(self) -> str:
        return self.data.order[self.turn]

    @property
    def phase(self) -> str:
        return self._phase

    @property
    def round(self) -> int:
        return self._round

    def seats(self) -> list[str]:
        return list(self.data.order)

    def side_of(self, seat: str) -> str:
        return self.data.nations[seat].side

    def is_terminal(self) -> bool:
        return self.outcome is not None

    def result(self) -> GameResult:
        if self.outcome is not None:
            return self.outcome
        return GameResult(None, "not-over", self._round, self.victory_city_counts(),
                          self.incomes())

    def clone(self) -> AA50Game:
        return copying.copy_game(self)

    def standing(self, side: str) -> float:
        if self.outcome is not None:
            return super().standing(side)
        return standing.estimate(self, side)

    def legal_actions(self) -> list[tuple]:
        if self.outcome:
            return []
        return _ACTIONS[self._phase](self)

    def is_legal(self, action) -> bool:
        action = as_action(action)
        checker = _CHECKS.get(self._phase)
        if checker is not None:
            return not self.outcome and checker(self, action)
        return action in self.legal_actions()

    def apply(self, action) -> None:
        action = as_action(action)
        if not self.is_legal(action):
            raise IllegalAction(f"{self.seat} may not {list(action)} in the {self._phase} "
                                f"phase of round {self._round}")
        # what was worked out for the position so far still holds while the move is read
        # (the current group and its destinations, just checked); it changes after
        self._unchanged = False
        _APPLY[self._phase](self, action)
        self._version += 1
        if not self._unchanged:
            self._position += 1
        self._advance()

    # -- questions the rules ask ---------------------------------------------------------------
    def side(self, nation: str | None) -> str | None:
        return self.data.side_of.get(nation)

    def is_china(self, nation: str) -> bool:
        return self.data.china is not None and nation == self.data.china.nation

    def capital_held(self, nation: str) -> bool:
        capital = self.data.nations[nation].capital
        return capital is None or self.control.get(capital) == nation

    def profiles(self, nation: str) -> dict:
        tech = self.tech[nation]
        key = nation + ":" + ",".join(sorted(tech)) if tech else nation
        found = self._profiles.get(key)
        if found is None:
            found = self._profiles[key] = self.system.profiles_for(nation, {nation: frozenset(tech)})
        return found

    def movement(self, nation: str, type_: str) -> int:
        return economy.movement(self, nation, type_)

    def cost(self, nation: str, type_: str) -> int:
        return int(self.profiles(nation)[type_].cost)

    def factory_at(self, space: str) -> Piece | None:
        return self.factories.get(space)

    def room_on(self, transport: Piece) -> int:
        capacity = self.data.types[transport.type].capacity
        return capacity - sum(self.data.types[c.type].size for c in transport.cargo)

    def boardable(self, sea: str, nation: str, combat: bool, owner: str) -> list[Piece]:
        """Transports of `owner` in `sea` that land units of `nation` may board: the nation's
        own that have not moved (in the combat move, with no assault yet); an ally's, in the
        nation's noncombat move only (§5.5.4.2, §7.3.6). None in a hostile sea zone."""
        if combat and owner != nation or movement.hostile_sea(self, sea, nation):
            return []
        types = self.data.types
        if owner == nation:
            return [p for p in self.pieces[sea] if p.owner == nation and types[p.type].capacity
                    and not p.done and not p.spent and (not combat or not p.target)]
        return [p for p in self.pieces[sea] if p.owner == owner and types[p.type].capacity]

    def room_to_board(self, sea: str, nation: str, size: int, combat: bool,
                      owner: str | None = None) -> int:
        """How many land units of `size` may still board `owner`'s transports in `sea`."""
        if not size:
            return 0
        return sum(self.room_on(p) // size
                   for p in self.boardable(sea, nation, combat, owner or nation))

    def most_movers(self, group: list[Piece], to: str, target: str) -> int:
        """How many of the group may make this move: all, or as many as fit aboard."""
        if target == "board" or target.startswith("board:"):
            owner = target.split(":", 1)[1] if ":" in target else None
            return min(len(group), self.room_to_board(
                to, group[0].owner, self.data.types[group[0].type].size,
                self._phase == "combat-move", owner))
        carried = _carried_kind(target)
        if carried:                              # one infantry goes along with each
            return min(len(group), len(movement.escorts(self, group, carried)))
        return len(group)

    def carrier_zones(self, side: str) -> list[str]:
        """Sea zones with room for one more fighter on a carrier of the side (§7.3.2)."""
        found = []
        types = self.data.types
        for space in self.data.board.sea:
            room = 0
            for piece in self.pieces[space]:
                if self.side(piece.owner) != side:
                    continue
                room += types[piece.type].carrier_room
                room -= types[piece.type].carrier_size
            if room > 0:
                found.append(space)
        return found

    def own_warships(self, space: str, nation: str) -> bool:
        types = self.data.types
        return any(p.owner == nation and types[p.type].domain == "sea" and not types[p.type].capacity
                   for p in self.pieces[space])

    def assault_target(self, space: str, nation: str) -> bool:
        """Whether cargo of the nation is bound for an amphibious assault on `space`."""
        return any(c.owner == nation and c.target == space
                   for s in self.data.board.coasts.get(space, ())
                   for p in self.pieces[s] for c in p.cargo)

    def incomes(self) -> dict[str, float]:
        return {n: float(economy.production(self, n)) for n in self.data.order}

    def victory_city_counts(self) -> dict[str, int]:
        counts = {side: 0 for side in self.data.sides}
        for city in self.data.board.victory_cities:
            side = self.side(self.control.get(city))
            if side in counts:
                counts[side] += 1
        return counts

    def position(self) -> Position:
        """The condition evaluator's view of the game (validators/conditions.py): the same
        evaluator the validator uses on the starting set-up."""
        base = self.data.position_base
        units: dict[str, list[Stack]] = {}
        for space, found in self.pieces.items():
            if found:
                counts = Counter((p.owner, p.type) for p in found)
                units[space] = [Stack(owner, type_, n) for (owner, type_), n in counts.items()]
        options = dict(base.options)
        options.update({k.replace("_", "-"): v for k, v in self.options.items()})
        return Position(dict(self.control), units, base.sides, base.space_tags, base.space_kinds,
                        base.unit_domains, base.unit_tags, options,
                        {(n, "ipc"): m for n, m in self.money.items()}, self._round, self._phase)

    # -- groups of pieces for the movement phases ----------------------------------------------
    def group_tag(self, piece: Piece) -> str:
        """A transport's tag is its cargo, then '/N' once it has moved N zones this phase and
        may still go on, and '/loaded' when in the combat move it took aboard troops that must
        now assault (§5.4.8); an aircraft's in the noncombat move the spaces it may still fly."""
        kind = self.data.types[piece.type]
        if kind.capacity:
            tag = cargo_tag(piece)
            if piece.owner == self.seat:
                if piece.spent:
                    tag += f"/{piece.spent}"
                if self._phase == "combat-move" and movement.must_assault(self, piece):
                    tag += "/loaded"
            return tag
        if kind.domain == "air" and self._phase == "noncombat-move":
            return str(self.movement(piece.owner, piece.type) - piece.spent)
        if kind.carrier_room:                   # the allied fighters it carries (§5.4.5)
            return "+".join(sorted(f"{r.owner}:{r.type}" for r in carriers.riders(self, piece)))
        return ""

    def movable(self, piece: Piece) -> bool:
        if piece.uid in self.decided or piece.aboard is not None:
            return False
        if piece.owner != self.data.order[self.turn]:   # an ally's transport, with the seat's cargo
            return bool(self.own_cargo_to_land(piece))
        kind = self.data.types[piece.type]
        if kind.domain == "structure" or kind.movement <= 0:
            return False
        if self._phase == "combat-move":
            return not piece.done and not kind.has("noncombat_move_only")
        if kind.domain == "air":
            return True
        return not piece.done and not piece.fought and not piece.captured_now

    def own_cargo_to_land(self, transport: Piece) -> list[Piece]:
        """The current nation's land units aboard an ally's transport that it may unload
        this turn: aboard since an earlier turn, not yet landed (§5.5.4.2)."""
        return [c for c in transport.cargo if c.owner == self.seat and not c.loaded_now
                and not c.done]

    def current_group(self) -> list[Piece]:
        """The pieces whose move is decided next: the first undecided group in a fixed order."""
        version, cached = self._group_cache
        if version == self._version:
            return cached
        best: Piece | None = None
        best_key: tuple | None = None
        decided, undecided, ranks = self.decided, [], self._ranks
        for piece in self._candidates:
            if piece.uid in decided:          # decided for the rest of the phase: dropped
                continue
            undecided.append(piece)
            rank = ranks.get(piece.type)
            if rank is None:
                rank = ranks[piece.type] = movement.rank(self, piece)
            head = (rank, piece.space, piece.type)
            if best_key is not None and head > best_key[:3]:
                continue
            # whether it may move, and the tag, dearest to work out, only where it may decide
            if not self.movable(piece):
                continue
            key = head + (self.group_tag(piece),)
            if best_key is None or key < best_key:
                best_key, best = key, piece
        found: list[Piece] = []
        if best is not None and best_key is not None:
            _, space, type_, tag = best_key
            found = [p for p in self.pieces[space] if p.owner == best.owner and p.type == type_
                     and self.movable(p) and self.group_tag(p) == tag]
        self._candidates = undecided
        self._group_cache = (self._version, found)
        return found

    def group_destinations(self, group: list[Piece]) -> Destinations:
        # the destinations depend on the group's first piece alone (escorts too), not its size
        key = (group[0].space, group[0].type, self.group_tag(group[0]))
        version, kept = self._destination_cache
        if version != self._position:         # every group's, while the position stands
            kept = {}
            self._destination_cache = (self._position, kept)
        found = kept.get(key)
        if found is None:
            found = kept[key] = movement.destinations(self, group, self._phase == "combat-move")
        return found

    def landing_spots(self, nation: str, fighter: bool) -> np.ndarray:
        """`movement.landing_spots`, kept while the position stands (every aircraft group of
        a nation asks it; read-only)."""
        version, kept = self._landing_cache
        if version != self._position:
            kept = {}
            self._landing_cache = (self._position, kept)
        found = kept.get((nation, fighter))
        if found is None:
            found = kept[(nation, fighter)] = movement.landing_spots(self, nation, fighter)
            found.flags.writeable = False
        return found

    def way_home(self, nation: str, fighter: bool) -> np.ndarray:
        """Each space's flying distance to the nearest of `landing_spots` (empty where there
        is none), kept like them: every aircraft of the combat move keeps that range."""
        spots = self.landing_spots(nation, fighter)
        _, kept = self._landing_cache
        found = kept.get((nation, fighter, "home"))
        if found is None:
            distances = self.data.board.air_distance
            found = distances[:, spots].min(axis=1) if spots.any() else np.empty(0, dtype=distances.dtype)
            found.flags.writeable = False
            kept[(nation, fighter, "home")] = found
        return found

    # -- moving --------------------------------------------------------------------------------
    def move(self, movers: list[Piece], to: str, target: str) -> None:
        """Move pieces of the current group (§5.4, §5.6); a tank blitzing through an empty
        enemy territory takes it (§5.4.7), land units entering an empty one take it at once."""
        distance, via, _ = self.group_destinations(movers)[to]
        combat = self._phase == "combat-move"
        carried: list[Piece] = []
        kind_carried = _carried_kind(target)
        if kind_carried:
            carried = movement.escorts(self, movers, kind_carried)[:len(movers)]
            if target == "drop":
                distance, via = movement.drop_zones(self, movers[0])[to]
            target = target[len("mech+"):] if target.startswith("mech+") else ""
        if target.startswith("blitz:"):
            via = target.split(":", 1)[1]
            if movement.enemy_territory(self, via, movers[0].owner):
                self.capture(via, movers[0].owner)
            target = ""
        for piece in movers:
            if target == "board" or target.startswith("board:"):
                self._board(piece, to, target.split(":", 1)[1] if ":" in target else piece.owner)
                continue
            kind = self.data.types[piece.type]
            if piece.owner != self.seat:      # the nation lands its cargo from an ally's transport
                self._land_cargo(piece, target, combat)
                continue
            origin = piece.space
            piece.on_carrier = None              # a fighter takes off in its own turn
            self.relocate(piece, to)
            piece.spent += distance
            if to != origin:
                piece.came_from = via or origin
            if kind.domain != "air" and not (kind.capacity and not target):
                piece.done = True              # a transport that only sailed may go on
            if target == "raid":
                piece.target = "raid"
            elif kind.capacity and target:
                self._land_cargo(piece, target, combat)
            if combat and kind.domain == "land" and to in self.data.board.land \
                    and movement.enemy_territory(self, to, piece.owner) \
                    and not movement.enemies_in(self, to, piece.owner):
                self.capture(to, piece.owner)
        for piece in carried:                    # the infantry carried along (§5.2.3)
            origin = piece.space
            self.relocate(piece, to)
            piece.spent += distance
            piece.came_from = via or origin
            piece.done = True
            self.decided.add(piece.uid)
        if carried and combat and movement.enemy_territory(self, to, carried[0].owner) \
                and not movement.enemies_in(self, to, carried[0].owner):
            self.capture(to, carried[0].owner)

    def relocate(self, piece: Piece, to: str) -> None:
        """A piece goes to `to` with its cargo: a transport's troops, a carrier's allied
        fighters (§5.4.5)."""
        here = piece.space
        for rider in carriers.riders(self, piece) if self.data.types[piece.type].carrier_room \
                else ():
            self.pieces[here].remove(rider)
            rider.space = to
            self.pieces[to].append(rider)
        self.pieces[here].remove(piece)
        piece.space = to
        self.pieces[to].append(piece)
        for cargo in piece.cargo:
            cargo.space = to

    def _board(self, piece: Piece, sea: str, owner: str) -> None:
        combat = self._phase == "combat-move"
        size = self.data.types[piece.type].size
        transport = max((p for p in self.boardable(sea, piece.owner, combat, owner)
                         if self.room_on(p) >= size),
                        key=lambda p: (len(p.cargo), -p.uid))   # fill one transport first
        self._go_aboard(piece, transport)
        self.decided.add(piece.uid)

    def _go_aboard(self, piece: Piece, transport: Piece) -> None:
        """Loading counts as the land unit's move (§7.3.6)."""
        self.pieces[piece.space].remove(piece)
        piece.came_from = piece.space
        piece.space, piece.aboard = transport.space, transport
        piece.done = piece.loaded_now = True
        transport.cargo.append(piece)
        if transport.owner == piece.owner:
            transport.loaded_now = True

    def load(self, transport: Piece, territory: str, type_: str, count: int) -> None:
        """A transport takes land units aboard from a territory next to the zone it is in,
        where it started or where its move brought it (§5.4.8, §7.3.6)."""
        for piece in movement.loadable(self, transport.space, self.seat,
                                       self._phase == "combat-move")[territory][type_][:count]:
            self._go_aboard(piece, transport)

    def _land_cargo(self, transport: Piece, territory: str, combat: bool) -> None:
        """The current nation's cargo on `transport` goes ashore in `territory` (noncombat
        move), or is bound for an amphibious assault on it (combat move, §5.4.3): all of it,
        to one territory (§7.3.6). A transport that unloads moves no more this turn."""
        own = [c for c in transport.cargo if c.owner == self.seat]
        if transport.owner != self.seat:
            own = self.own_cargo_to_land(transport)
        if combat:
            if transport.owner == self.seat:
                transport.target = territory
            for cargo in own:
                cargo.target = territory
                cargo.done = True
            return
        for cargo in own:
            transport.cargo.remove(cargo)
            cargo.aboard = None
            cargo.space = territory
            cargo.done = True
            cargo.came_from = transport.space
            self.pieces[territory].append(cargo)

    def destroy(self, piece: Piece) -> None:
        """A piece is lost with its cargo; the allied fighters on a carrier sunk in its own
        attack go down with it, those on one sunk defending take off (§5.4.5, §7.3.2)."""
        if self.data.types[piece.type].carrier_room:
            for rider in carriers.riders(self, piece):
                rider.on_carrier = None
                if piece.owner == self.seat:
                    self.destroy(rider)
        self.destroyed += len(piece.cargo)
        piece.cargo.clear()
        if piece.aboard is not None:
            piece.aboard.cargo.remove(piece)
        else:
            self.pieces[piece.space].remove(piece)
        self.destroyed += 1

    # -- control -------------------------------------------------------------------------------
    def capture(self, space: str, taker: str) -> None:
        """A territory taken (§5.5.3.6), liberated (§5.5.3.7), or a capital captured with its
        treasury (§5.5.3.8); its guns and factory change hands with it."""
        old = self.control.get(space)
        new = taker
        original = self.data.board.original_owner.get(space)
        if original and original != taker and self.side(original) == self.side(taker):
            if self.capital_held(original) or space == self.data.nations[original].capital:
                new = original
        china = self.data.china
        if china is not None and self.is_china(taker) and space in china.recapture_only and original:
            new = original
        if new == old:
            return
        for nation, entry in self.data.nations.items():
            if entry.capital == space and old == nation and self.side(taker) != self.side(nation):
                self.money[taker] += self.money[nation]        # the treasury (§5.5.3.8)
                self.money[nation] = 0
        self.control[space] = new
        for piece in self.pieces[space]:
            if self.data.types[piece.type].has("capturable") or \
                    self.data.types[piece.type].has("factory"):
                if self.side(piece.owner) != self.side(taker):
                    piece.captured_now = True
                piece.owner = new
                piece.placed_now = False         # not mobilized by its new owner
        if space == self.data.nations[new].capital and self.side(old) != self.side(new):
            self._liberate_capital(new)
        self.chronicle.capture(self._round, space, old, new)

    def _liberate_capital(self, nation: str) -> None:
        """A liberated capital: territories of the nation held by its allies return (§5.5.3.8)."""
        for space, original in self.data.board.original_owner.items():
            holder = self.control.get(space)
            if original == nation and holder != nation and self.side(holder) == self.side(nation):
                self.control[space] = nation
                for piece in self.pieces[space]:
                    if self.data.types[piece.type].has("factory"):
                        piece.owner = nation

    # -- the flow of a turn --------------------------------------------------------------------
    def _start_turn(self) -> None:
        nation = self.seat
        self.start_control = dict(self.control)
        for found in self.pieces.values():
            for piece in found:
                if piece.owner == nation:
                    piece.new_turn()
                for cargo in piece.cargo:
                    if piece.owner == nation or cargo.owner == nation:
                        cargo.new_turn()
        self.placed.clear()
        self._enter("research")

    def _note_empty_capital(self) -> None:
        """A power that ends its turn with its own capital held by no land unit of its side,
        where an enemy land unit could enter it next turn, invites its capture (a blunder the
        report counts); an empty capital no enemy can reach is none."""
        nation = self.seat
        capital = self.data.nations[nation].capital
        if not capital or self.control.get(capital) != nation:
            return
        side = self.side_of(nation)
        if not any(self.side(p.owner) == side and self.data.types[p.type].domain == "land"
                   and not self.data.types[p.type].has("capturable")
                   and not self.data.types[p.type].has("factory")
                   for p in self.pieces[capital]) and _in_enemy_reach(self, capital, side):
            self.chronicle.blunder(self._round, "capital-empty", side)

    def _enter(self, phase: str) -> None:
        if self._phase == "purchase" and phase != "purchase" and economy.may_spend(self, self.seat) \
                and (idle := economy.idle_money(self, self.seat)):
            # money that could still have bought a unit to mobilize: a blunder the report counts
            self.chronicle.blunder(self._round, "unspent", self.side_of(self.seat), idle)
        self._phase = phase
        self.step = ""
        self.decided.clear()
        self._version += 1
        self._position += 1
        if phase in ("combat-move", "noncombat-move"):
            seat = self.seat
            self._candidates = [p for found in self.pieces.values() for p in found
                                if p.owner == seat or any(c.owner == seat for c in p.cargo)]
        _ENTER[phase](self)

    def touch(self, moved: bool = True) -> None:
        """The state changed: what was worked out for the last state no longer holds (only
        which group moves next, where no piece `moved`)."""
        self._version += 1
        if moved:
            self._position += 1

    def _advance(self) -> None:
        """Go on through phases that need no decision, to the next decision or the end."""
        while self.outcome is None and _DONE[self._phase](self):
            following = PHASES.index(self._phase) + 1
            if following < len(PHASES):
                self._enter(PHASES[following])
                continue
            self._end_turn()

    def _end_turn(self) -> None:
        self._note_empty_capital()
        self.turn += 1
        if self.turn == len(self.data.order):
            self._end_round()
            if self.outcome is not None:
                return
            self.turn = 0
        self._start_turn()

    def _end_round(self) -> None:
        for nation, value in self.incomes().items():
            self.chronicle.record("income", nation, self._round, value)
        for side, count in self.victory_city_counts().items():
            self.chronicle.record("victory cities", side, self._round, count)
        for side, value in economy.army_values(self).items():
            self.chronicle.record("army value", side, self._round, value)
        winner = self._victor()
        if winner is not None:
            self.outcome = GameResult(winner, "victory-cities", self._round,
                                      self.victory_city_counts(), self.incomes())
        elif self._round >= self.max_rounds:
            self.outcome = GameResult(None, "round-limit", self._round,
                                      self.victory_city_counts(), self.incomes())
        else:
            self._round += 1

    def _victor(self) -> str | None:
        """The side meeting the chosen victory condition at the end of the round (§5.5.3.9)."""
        chosen = self.options.get("victory")
        position = None
        for entry in self.data.victory:
            if entry.get("option") and entry["option"] != chosen:
                continue
            position = position or self.position()
            if evaluate(entry["when"], position).met:
                return entry.get("side")
        return None

    # -- checks --------------------------------------------------------------------------------
    def count_pieces(self) -> int:
        return sum(1 + len(p.cargo) for found in self.pieces.values() for p in found)

    def invariants(self):
        broken = []
        for nation, money in self.money.items():
            if money < 0:
                broken.append(f"{nation} has {money} IPCs")
        expected = self.start_count + self.created - self.destroyed
        if self.count_pieces() != expected:
            broken.append(f"{self.count_pieces()} pieces on the board, {expected} expected "
                          f"({self.start_count} at the start, {self.created} placed, "
                          f"{self.destroyed} lost)")
        board = self.data.board
        for space, found in self.pieces.items():
            for piece in found:
                if piece.space != space:
                    broken.append(f"{piece} is listed in {space}")
                if piece.cargo and self.room_on(piece) < 0:
                    broken.append(f"{piece} carries more than it can")
                for cargo in piece.cargo:
                    if cargo.space != space or cargo.aboard is not piece:
                        broken.append(f"{cargo} is not where its transport {piece} is")
                domain = self.data.types[piece.type].domain
                if space in board.sea and domain in ("land", "structure"):
                    broken.append(f"{piece} stands in a sea zone")
                if space in board.land and domain == "sea":
                    broken.append(f"{piece} is ashore")
                if space in board.neutral:
                    broken.append(f"{piece} entered the neutral {space}")
            if space in board.land and space not in board.neutral and self.control.get(space) is None:
                broken.append(f"{space} has no controller")
            if space in board.land and self._phase in ("mobilize", "collect-income", "research",
                                                        "purchase"):
                holder = self.side(self.control.get(space))
                strangers = [p for p in found if self.side(p.owner) != holder]
                if strangers:
                    broken.append(f"{strangers[0]} stands in {space}, held by "
                                  f"{self.control.get(space)}")
        if self.outcome is None and self._phase in _WAITS and _DONE[self._phase](self):
            broken.append(f"{self.seat} is asked to decide in the {self._phase} phase, where "
                          "nothing is left to decide (an option or the rules close it)")
        if self.outcome is None and self._phase in ("mobilize", "collect-income"):
            broken += economy.placement_broken(self)
        # every fighter at sea has a seat on a carrier of its side, but mid-combat (a sunk
        # defender's) and the moving nation's own while it moves
        if self.outcome is None:
            for found in self.pieces.values():
                for piece in found:
                    if piece.owner == self.seat and piece.spent > movement.farthest(self, piece):
                        broken.append(f"{piece} moved {piece.spent} spaces this turn, more than "
                                      "its movement or what carried it allows")
        seated = [] if self._phase == "conduct-combat" else [
            n for n in self.data.order if self.outcome is not None or n != self.seat
            or self._phase not in ("combat-move", "noncombat-move")]
        broken += carriers.broken(self, seated)
        return broken


_ENTER = {
    "research": economy.enter_research, "purchase": economy.enter_purchase,
    "combat-move": lambda game: None, "conduct-combat": battles.enter_combat,
    "noncombat-move": lambda game: None, "mobilize": economy.enter_mobilize,
    "collect-income": economy.collect_income,
}


def _in_enemy_reach(game: AA50Game, space: str, side: str) -> bool:
    """Whether a land unit of another side could enter `space` in its next turn, read
    generously: one within its move by land (whatever stands in the way), or a transport of
    another side within its move and one more space of it, by air distance (a landing,
    §5.4.3)."""
    board, types = game.data.board, game.data.types
    here = board.number[space]
    for where, found in game.pieces.items():
        there = board.number[where]
        for piece in found:
            if game.side(piece.owner) == side or piece.aboard is not None:
                continue
            kind = types[piece.type]
            reach = game.movement(piece.owner, piece.type)
            if kind.capacity and board.air_distance[there, here] <= reach + 1:
                return True
            if kind.domain == "land" and reach and where in board.land \
                    and board.land_distance[there, here] <= reach:
                return True
    return False


def _carried_kind(target: str) -> str:
    """The ability a move's target uses to carry infantry along: 'mech...' (Mechanized
    Infantry) or 'drop' (Paratroopers); '' for none."""
    if target == "drop":
        return movement.PARATROOPERS
    return movement.MECHANIZED if target.startswith("mech") else ""


def _movement_done(game: AA50Game) -> bool:
    while True:
        group = game.current_group()
        if not group:
            if game.phase == "noncombat-move":
                economy.land_aircraft(game)
            return True
        if game.group_destinations(group) or movement.transport_loads(game, group[0]) or (
                game.phase == "noncombat-move" and game.data.types[group[0].type].domain == "air"):
            return False
        game.touch(moved=_decide(game, group))   # nowhere to go: it stays


def _decide(game: AA50Game, pieces: list[Piece]) -> bool:
    """The pieces' move is over for this phase; a transport that sailed or took troops
    aboard moves no more this turn (§5.6.1.3): whether that changed a piece (troops may no
    longer board it)."""
    changed = False
    for piece in pieces:
        game.decided.add(piece.uid)
        if piece.owner == game.seat and (piece.spent or piece.loaded_now) \
                and game.data.types[piece.type].capacity and not piece.done:
            piece.done = changed = True
    return changed


# phases whose `done` test only reads the state: the invariants may ask it
_WAITS = ("research", "purchase", "mobilize")
_DONE = {
    "research": economy.research_done, "purchase": economy.purchase_done,
    "combat-move": _movement_done, "conduct-combat": battles.combat_done,
    "noncombat-move": _movement_done, "mobilize": economy.mobilize_done,
    "collect-income": lambda game: True,
}


def _may_hold(game: AA50Game, group: list[Piece]) -> bool:
    """A transport that took troops aboard in the combat move may not stop short of its
    assault (§5.4.8, note 62) while one is within reach."""
    first = group[0]
    return not (game.phase == "combat-move" and first.owner == game.seat
                and game.data.types[first.type].capacity and movement.must_assault(game, first)
                and game.group_destinations(group))


def _movement_actions(game: AA50Game) -> list[tuple]:
    group = game.current_group()
    first = group[0]
    tag = game.group_tag(first)
    actions: list[tuple] = []
    if _may_hold(game, group):
        actions.append(("hold", first.space, first.type, tag))
    for territory, type_, most in movement.transport_loads(game, first):
        for count in range(1, most + 1):
            actions.append(("load", first.space, first.type, tag, territory, type_, count))
    for to, (_, _, targets) in sorted(game.group_destinations(group).items()):
        for target in targets:
            for count in range(1, game.most_movers(group, to, target) + 1):
                actions.append(("move", first.space, first.type, tag, to, count, target))
    return actions


def _is_count(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _movement_legal(game: AA50Game, action: tuple) -> bool:
    group = game.current_group()
    if not group:
        return False
    first = group[0]
    if action[:1] == ("hold",):
        return action == ("hold", first.space, first.type, game.group_tag(first)) \
            and _may_hold(game, group)
    if len(action) != 7 or action[0] not in ("move", "load"):
        return False
    if action[1:4] != (first.space, first.type, game.group_tag(first)):
        return False
    if action[0] == "load":
        _, _, _, _, shore, land_type, count = action
        return _is_count(count) and any(
            (shore, land_type) == (territory, what) and 1 <= count <= most
            for territory, what, most in movement.transport_loads(game, first))
    _, _, _, _, to, count, target = action
    if not _is_count(count):
        return False
    found = game.group_destinations(group).get(to)
    return found is not None and target in found[2] and \
        1 <= count <= game.most_movers(group, to, target)


def _movement_apply(game: AA50Game, action: tuple) -> None:
    group = game.current_group()
    if action[0] == "hold":
        game._unchanged = not _decide(game, group)
        return
    if action[0] == "load":
        _, _, _, _, shore, land_type, count = action
        game.load(group[0], shore, land_type, count)
        return
    _, _, _, _, to, count, target = action
    movers = group[:count]
    game.move(movers, to, target)
    if not (game.data.types[movers[0].type].capacity and movers[0].owner == game.seat
            and not target):
        _decide(game, movers)                    # a transport that only sailed may go on


_ACTIONS = {
    "research": economy.research_actions, "purchase": economy.purchase_actions,
    "combat-move": _movement_actions, "conduct-combat": battles.combat_actions,
    "noncombat-move": _movement_actions, "mobilize": economy.mobilize_actions,
}
_CHECKS = {
    "purchase": economy.purchase_legal, "combat-move": _movement_legal,
    "noncombat-move": _movement_legal, "mobilize": economy.mobilize_legal,
}
_APPLY = {
    "research": economy.research_apply, "purchase": economy.purchase_apply,
    "combat-move": _movement_apply, "conduct-combat": battles.combat_apply,
    "noncombat-move": _movement_apply, "mobilize": economy.mobilize_apply,
}
