"""The War at Sea battle in one space (§7-§11): anti-submarine, air strikes, surface rounds.

Dice (§7.3-§7.5): a 5 disables the target (it returns to port and leaves the battle), a 6 hits
and a second die gives the damage; hits count before disabling. Damage (§7.6) takes speed
(never below 1), leaves gunnery 1 and no air strike when it equals the armour, sinks the ship
when it exceeds the armour. Undamaged German warships add 1 to each gunnery die (§10.5).

Surface combat (§10-§11) is a generator, `engagement`: it fights round after round and stops
with a `Decision` wherever the rules leave a choice to a side (escape, escape groups, pursuit,
giving up a pursuit, naming convoys as targets). Whole games send the players' actions into it;
the battle calculator sends the choices its settings make (engine/war_at_sea/policy.py).

The choices a side makes too often to ask every time are a policy, written here once: each ship
fires at the eligible enemy with the fewest dice aimed at it for the damage it can still take;
U-boats aim at convoys first; air strikes at the enemy's strongest guns.
"""
from __future__ import annotations

from collections.abc import Callable, Generator
from dataclasses import dataclass, field

import numpy as np

from .ships import Ship

ROUND_LIMIT = 100   # a battle in which neither side can ever finish the other ends undecided

Action = tuple


@dataclass(frozen=True)
class CombatRules:
    disable_roll: int = 5
    hit_roll: int = 6
    minimum_speed: int = 1
    bonus_nation: str = "germany"
    bonus: int = 1


@dataclass
class Shot:
    """Dice aimed at one target in one step, applied when the step's firing is over."""

    target: Ship
    damage: int = 0
    disabled: bool = False


@dataclass
class Decision:
    """A choice the rules leave to `side` in the middle of a surface battle.

    kind: "aim" (name convoys as targets, §10.7), "escape" (§11.1, §11.8), "group" (the
        escape group of `ship`, §11.3), "pursue" (the group `ship` pursues, 0 for none, §11.4),
        "press" (go on with a pursuit or let a pursuer give up, §11.5).
    options: the actions the side may take, in a fixed order.
    """

    side: str
    kind: str
    options: tuple[Action, ...]
    rounds: int
    fighting: dict[str, list[Ship]]
    ship: Ship | None = None
    groups: list[list[Ship]] = field(default_factory=list)
    speeds: list[int] = field(default_factory=list)


@dataclass
class BattleEnd:
    """How the surface combat of one area ended.

    escaped: the sides whose ships got away (both, after §11.8).
    pursuers: every ship that pursued; when all of them are sunk or disabled nobody holds the
        area (§11.2), whatever else is left there.
    undecided: nobody could fire any more (or the round limit was reached).
    """

    rounds: int = 0
    escaped: set[str] = field(default_factory=set)
    pursuers: list[Ship] = field(default_factory=list)
    undecided: bool = False

    @property
    def pursuers_lost(self) -> bool:
        return bool(self.pursuers) and all(not p.in_battle for p in self.pursuers)


Engagement = Generator[Decision, Action, BattleEnd]


class Dice:
    """Six-sided dice from one numpy Generator, drawn a batch at a time: the same generator
    gives the same dice, and a die costs a list pop instead of a call into numpy."""

    def __init__(self, rng: np.random.Generator, batch: int = 256):
        self.rng, self.batch = rng, batch
        self._faces: list[int] = []

    def roll(self, count: int) -> list[int]:
        if count > len(self._faces):
            self._faces.extend(self.rng.integers(1, 7, size=max(self.batch, count)).tolist())
        if count <= 0:
            return []
        faces = self._faces[-count:]
        del self._faces[-count:]
        return faces

    def one(self) -> int:
        if not self._faces:
            self._faces = self.rng.integers(1, 7, size=self.batch).tolist()
        return self._faces.pop()

    def drop(self) -> None:
        """Forget the dice drawn ahead: the next come from the generator as it is now (after
        its state was reset, as a search re-draws a game's chance)."""
        self._faces = []

    def copy(self, rng: np.random.Generator) -> Dice:
        """The same dice to come, drawn ahead from this one's generator and then from `rng`
        (a copy of it)."""
        twin = Dice(rng, self.batch)
        twin._faces = list(self._faces)
        return twin


class Battle:
    def __init__(self, rules: CombatRules, ships: dict[str, list[Ship]], air_markers: dict[str, int],
                 sea_area: bool, dice: Dice | np.random.Generator):
        self.rules = rules
        self.ships = ships                   # side -> ships (surface ships and U-boats)
        self.air_markers = air_markers       # side -> air-strike value of its marker here
        self.sea_area = sea_area
        self.dice = dice if isinstance(dice, Dice) else Dice(dice)
        self.events: list[str] = []

    # -- dice ----------------------------------------------------------------------------------
    def roll(self, dice: int, bonus: int = 0) -> list[int]:
        faces = self.dice.roll(dice)
        return [min(face + bonus, 6) for face in faces] if bonus else faces

    def settle(self, shot: Shot, faces: list[int]) -> None:
        """§7.3-§7.4: every 6 hits and rolls a damage die, a 5 disables."""
        hits = sum(1 for face in faces if face >= self.rules.hit_roll)
        if hits:
            shot.damage += sum(self.dice.roll(hits))
        if self.rules.disable_roll in faces:
            shot.disabled = True

    def apply(self, shots: list[Shot]) -> None:
        merged: dict[int, Shot] = {}
        for shot in shots:
            found = merged.setdefault(id(shot.target), Shot(shot.target))
            found.damage += shot.damage
            found.disabled = found.disabled or shot.disabled
        for shot in merged.values():
            if shot.damage or shot.disabled:
                shot.target.take(shot.damage, shot.disabled)
                state = "sunk" if shot.target.sunk else "disabled" if shot.target.disabled else "damaged"
                self.events.append(f"{shot.target.name}: {shot.damage} damage, {state}")

    # -- who is where --------------------------------------------------------------------------
    def enemy(self, side: str) -> str:
        return next(s for s in self.ships if s != side)

    def surface(self, side: str) -> list[Ship]:
        return [s for s in self.ships[side] if s.in_battle and s.type.surface]

    def uboats(self, side: str) -> list[Ship]:
        return [s for s in self.ships[side] if s.in_battle and s.type.is_uboat]

    # -- §8 anti-submarine ---------------------------------------------------------------------
    def anti_submarine(self, hunter: str) -> None:
        prey = self.enemy(hunter)
        boats = self.uboats(prey)
        escorts = self.surface(hunter)
        if not boats or not escorts:
            return
        faces = self.roll(sum(s.type.anti_submarine for s in escorts))
        sunk = sum(1 for face in faces if face >= self.rules.hit_roll)
        disabled = faces.count(self.rules.disable_roll)
        for boat in boats[:sunk]:                 # a U-boat's armour is 0: a 6 sinks it (§8.3)
            boat.sunk = True
        for boat in boats[sunk:sunk + disabled]:  # a 5 sends it home (§8.3)
            boat.disabled = True
        self.events.append(f"anti-submarine: {len(faces)} dice, {min(sunk, len(boats))} U-boat(s) "
                           f"sunk, {max(0, min(disabled, len(boats) - sunk))} disabled")
        survivors = [b for b in boats if b.in_battle]   # sunk and disabled ones do not strike (§8.4)
        targets = sorted(escorts, key=lambda s: (not s.type.is_convoy, s.type.armour - s.damage, s.name))
        shots = []
        for index in range(len(survivors)):  # one target each, chosen before rolling (§8.4)
            shot = Shot(targets[index % len(targets)])
            self.settle(shot, self.roll(1))
            shots.append(shot)
        self.apply(shots)

    # -- §9 air strikes ------------------------------------------------------------------------
    def air_strike_value(self, side: str) -> int:
        """§9.2: the carriers' values (only in a sea area) and the side's marker, added."""
        carriers = (sum(s.air_strike() for s in self.surface(side) if s.type.is_carrier)
                    if self.sea_area else 0)
        return carriers + self.air_markers.get(side, 0)

    def air_targets(self, side: str) -> list[Ship]:
        """§9.5: ships back in port after a failed speed roll or disabled, and U-boats, are no
        targets."""
        return [s for s in self.surface(self.enemy(side)) if not s.sheltered]

    def air_strikes(self, order: list[str], striking: tuple[str, ...] | None = None) -> None:
        """§9.3-§9.5: as many targets as the air-strike value, one die each; both sides strike
        from the same state (return strikes are simultaneous, §9.4). `striking`: the sides that
        strike (a side may choose not to, §7.2); all by default."""
        planned = []
        for side in order:
            if striking is not None and side not in striking:
                continue
            value = self.air_strike_value(side)
            targets = sorted(self.air_targets(side),
                             key=lambda s: (s.type.is_convoy, -s.gunnery(), -s.type.armour, s.name))
            planned.append((side, targets[:value]))
        shots = []
        for side, targets in planned:
            for target in targets:
                shot = Shot(target)
                self.settle(shot, self.roll(1))
                shots.append(shot)
            if targets:
                self.events.append(f"{side} air strike on {len(targets)} target(s)")
        self.apply(shots)

    # -- §10 surface combat --------------------------------------------------------------------
    def eligible_targets(self, enemies: list[Ship], aimed: dict[int, int]) -> list[Ship]:
        """§10.6: a carrier that does not fire is a target only once every other enemy warship
        is; §10.7: convoys only when every enemy warship is damaged (or gone)."""
        warships = [s for s in enemies if s.type.is_warship]
        covered = all(aimed.get(id(s), 0) for s in warships
                      if not (s.type.is_carrier and s.gunnery() == 0))
        found = [s for s in warships
                 if not (s.type.is_carrier and s.gunnery() == 0) or covered]
        if all(s.damaged for s in warships):
            found += [s for s in enemies if s.type.is_convoy]
        return found

    def volley(self, own: list[Ship], enemies: list[Ship],
               at_convoys: bool = False) -> tuple[list[Shot], list[Shot]]:
        """The shots of one side in one round: (shots that count, shots at convoys that count
        only if every enemy warship ends the round damaged, sunk or disabled, §10.7 note).

        With `at_convoys`, once every enemy warship not yet damaged has a ship aimed at it, the
        other ships name convoys although the warships are not all damaged yet."""
        shooters = sorted((s for s in own if s.in_battle and s.type.surface and s.gunnery() > 0),
                          key=lambda s: (-s.gunnery(), s.name))
        aimed: dict[int, int] = {}
        plan = []
        convoys = [s for s in enemies if s.type.is_convoy] if at_convoys else []
        for ship in shooters:             # targets are named before any die is rolled (§10.2)
            candidates = self.eligible_targets(enemies, aimed)
            if convoys and not any(t.type.is_convoy for t in candidates) and all(
                    aimed.get(id(s)) or s.damaged for s in enemies if s.type.is_warship):
                candidates = convoys
            if not candidates:
                continue
            target = min(candidates, key=lambda t: (aimed.get(id(t), 0) / (t.type.armour - t.damage + 1),
                                                   -t.gunnery(), t.name))
            aimed[id(target)] = aimed.get(id(target), 0) + ship.gunnery()
            plan.append((ship, target, target.type.is_convoy
                         and target not in self.eligible_targets(enemies, {})))
        shots: list[Shot] = []
        gambles: list[Shot] = []
        for ship, target, gamble in plan:
            bonus = (self.rules.bonus if ship.type.nation == self.rules.bonus_nation
                     and ship.type.is_warship and not ship.damaged else 0)   # §10.5
            shot = Shot(target)
            self.settle(shot, self.roll(ship.gunnery(), bonus))
            (gambles if gamble else shots).append(shot)
        return shots, gambles

    def surface_round(self, order: list[str], fighting: dict[str, list[Ship]],
                      at_convoys: frozenset[str] = frozenset()) -> bool:
        """One round: the Allies fire, then the Axis, both from the round's starting state
        (ships sunk or disabled in the round still fire back, §10.4); returns False when
        nobody could fire. `at_convoys`: the sides that name convoys as targets (§10.7 note)."""
        shots, gambles = [], {}
        for side in order:
            enemies = [s for s in fighting[self.enemy(side)] if s.in_battle and s.type.surface]
            counted, gambled = self.volley(fighting[side], enemies, side in at_convoys)
            shots += counted
            gambles[side] = (gambled, enemies)
        self.apply(shots)
        for side, (gambled, enemies) in gambles.items():
            if not gambled:
                continue
            if all(s.damaged or not s.in_battle for s in enemies if s.type.is_warship):
                self.events.append(f"{side}'s shots at convoys count: every enemy warship is "
                                   "damaged, sunk or disabled")
                self.apply(gambled)
            else:
                self.events.append(f"{side}'s shots at convoys are lost: an enemy warship "
                                   "is still undamaged")
        return bool(shots) or any(g for g, _ in gambles.values())

    def engagement(self, order: list[str]) -> Engagement:
        """§10-§11: surface rounds until one side has no surface ship left in the battle, or
        escapes; yields a Decision wherever a side must choose, and returns a BattleEnd."""
        fighting = {side: [s for s in self.ships[side] if s.in_battle and s.type.surface]
                    for side in order}
        end = BattleEnd()
        while all(_afloat(fighting[side]) for side in order):
            if end.rounds >= ROUND_LIMIT:
                end.undecided = True
                return end
            aims = yield from self._aims(order, fighting, end.rounds)
            end.rounds += 1
            if not self.surface_round(order, fighting, aims):
                end.undecided = True
                self.events.append("nobody can fire: the battle ends undecided")
                return end
            if not all(_afloat(fighting[side]) for side in order):
                break
            wants = []
            for side in order:                       # §11.8: declared without seeing the other's
                choice = yield Decision(side, "escape", (("escape", "no"), ("escape", "yes")),
                                        end.rounds, fighting)
                if choice == ("escape", "yes"):
                    wants.append(side)
            if len(wants) == 2:
                end.escaped = set(order)
                self.events.append("both sides escape")
                return end
            if wants:
                yield from self._escape(order, wants[0], fighting, end)
                return end
        return end

    def _aims(self, order, fighting, rounds) -> Generator[Decision, Action, frozenset[str]]:
        """§10.7 note: a side facing convoys while an enemy warship is undamaged may still name
        the convoys as targets."""
        aims = set()
        for side in order:
            enemies = [s for s in fighting[self.enemy(side)] if s.in_battle and s.type.surface]
            shooters = [s for s in fighting[side] if s.in_battle and s.gunnery() > 0]
            if (shooters and any(s.type.is_convoy for s in enemies)
                    and not all(s.damaged for s in enemies if s.type.is_warship)):
                choice = yield Decision(side, "aim", (("aim", "warships"), ("aim", "convoys")),
                                        rounds, fighting)
                if choice == ("aim", "convoys"):
                    aims.add(side)
        return frozenset(aims)

    def _escape(self, order, runner: str, fighting, end: BattleEnd) -> Generator[Decision, Action, None]:
        """§11.2-§11.7: the escaping side forms groups; each group's escape speed is its slowest
        ship's, fixed now; the other side sends ships at least that fast after the groups, and
        each group fights its pursuers apart until they all give up (or are slowed below the
        escape speed, or are out) or the group is out."""
        minimum = self.rules.minimum_speed
        hunter = self.enemy(runner)
        escaping = sorted((s for s in fighting[runner] if s.in_battle),
                          key=lambda s: (-s.speed(minimum), s.name))
        groups: list[list[Ship]] = []
        for ship in escaping:
            choice = yield from _ask(Decision(
                runner, "group", tuple(("group", ship.name, n) for n in range(1, len(groups) + 2)),
                end.rounds, fighting, ship, groups))
            number = int(choice[2])
            if number > len(groups):
                groups.append([])
            groups[number - 1].append(ship)
        speeds = [min(s.speed(minimum) for s in group) for group in groups]
        self.events.append(f"{runner} escapes in {len(groups)} group(s) at speed "
                           + ", ".join(map(str, speeds)))
        chasers: list[list[Ship]] = [[] for _ in groups]
        for ship in sorted((s for s in fighting[hunter] if s.in_battle),
                           key=lambda s: (-s.speed(minimum), s.name)):
            reachable = [n for n, speed in enumerate(speeds, 1) if ship.speed(minimum) >= speed]
            if not reachable:
                continue
            choice = yield from _ask(Decision(
                hunter, "pursue",
                (("pursue", ship.name, 0),) + tuple(("pursue", ship.name, n) for n in reachable),
                end.rounds, fighting, ship, groups, speeds))
            if choice[2]:
                chasers[int(choice[2]) - 1].append(ship)
                end.pursuers.append(ship)
        self.events.append(f"{len(end.pursuers)} ship(s) pursue")
        for group, speed, pursuers in zip(groups, speeds, chasers, strict=True):
            chase = {runner: group, hunter: pursuers}
            while end.rounds < ROUND_LIMIT:
                for slowed in [s for s in pursuers if s.in_battle and s.speed(minimum) < speed]:
                    self.events.append(f"{slowed.name} gives up the pursuit")   # §11.5
                    pursuers.remove(slowed)
                pursuers[:] = [s for s in pursuers if s.in_battle]
                if not pursuers or not _afloat(group):
                    break
                aims = yield from self._aims(order, chase, end.rounds)
                end.rounds += 1
                if not self.surface_round(order, chase, aims):
                    break                                   # nobody can fire: they get away
                while _afloat(group) and any(s.in_battle for s in pursuers):
                    active = [s for s in pursuers if s.in_battle]
                    choice = yield Decision(hunter, "press",
                                            (("press", "on"),)
                                            + tuple(("give-up", s.name) for s in active),
                                            end.rounds, chase, None, [group], [speed])
                    if choice[0] != "give-up":
                        break
                    quitting = next(s for s in active if s.name == choice[1])
                    pursuers.remove(quitting)
                    self.events.append(f"{quitting.name} gives up the pursuit")
            if _afloat(group):
                self.events.append(f"a group of {runner} at speed {speed} gets away")   # §11.6
                end.escaped.add(runner)
        for ship in fighting[runner]:
            if ship.in_battle:
                ship.escaped = True
        if end.pursuers_lost:
            self.events.append("every pursuer is sunk or disabled: nobody holds the area (§11.2)")

    def fight(self, order: list[str], decide: Callable[[Decision], Action],
              striking: tuple[str, ...] | None = None) -> BattleEnd:
        """§7.1: anti-submarine, then air strikes, then surface combat, with `decide` making
        every choice."""
        if self.sea_area:
            self.anti_submarine(order[0])
        self.air_strikes(order, striking)
        if not self.sea_area:
            return BattleEnd()
        return run(self.engagement(order), decide)

    def controller(self, order: list[str], end: BattleEnd) -> str | None:
        """§12.1: surface ships that did not escape control the area; surviving U-boats deny the
        Allies control but cannot take it; §11.2: nobody holds it when every pursuer is out."""
        allies, axis = order
        if end.pursuers_lost:
            return None
        present = [side for side in order if side not in end.escaped
                   and any(not s.escaped for s in self.surface(side))]
        if len(present) != 1:
            return None
        (side,) = present
        if side == allies and self.uboats(axis):
            return None
        return side


def run(engagement: Engagement, decide: Callable[[Decision], Action]) -> BattleEnd:
    """Play an engagement to its end, every choice made by `decide`."""
    try:
        decision = next(engagement)
        while True:
            decision = engagement.send(decide(decision))
    except StopIteration as stop:
        return stop.value


def _ask(decision: Decision) -> Generator[Decision, Action, Action]:
    """The side's choice; a decision with one option is taken without asking."""
    if len(decision.options) == 1:
        return decision.options[0]
    return (yield decision)


def _afloat(ships: list[Ship]) -> bool:
    return any(s.in_battle and s.type.surface for s in ships)
