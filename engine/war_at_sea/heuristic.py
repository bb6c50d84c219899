"""The heuristic War at Sea player: plays like a careful admiral, in a few microseconds a move.

- Strength is Lanchester's: the dice a force throws times the damage it takes before it sinks
  (`Force`). A task force goes only where it is stronger than what the enemy has (or, moving
  first, could bring) by a margin; otherwise the ships stay home. So it concentrates.
- Areas are worth the points both sides would get there (§2.1), more with a convoy on the
  route (the Allies escort it, §13) or prey in it (the Axis hunts convoys and lone ships).
- Moving two areas is done only by ships that will likely pass their speed roll (§6.2);
  badly damaged ships stay in port and repair (§15).
- In battle it escapes when outgunned (§11), in groups by speed; it pursues only groups it can
  beat, and gives up when the chase turns; the Axis names convoys as targets when it has guns
  to spare (§10.7). U-boats go where they most likely deny the Allies an area (§8, §12.1), the
  air-strike marker where its three dice hurt most (§9).
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from math import comb
from typing import ClassVar

from ..options import Setting
from ..players.base import Plan, Player
from .combat import Decision
from .policy import group_by

END = ("end",)


@dataclass
class Force:
    """A force's dice and toughness; its strength is their product."""

    dice: float = 0.0
    toughness: float = 0.0

    def add(self, ship) -> None:
        dice, toughness = ship_values(ship)
        self.dice += dice
        self.toughness += toughness

    @property
    def strength(self) -> float:
        return self.dice * self.toughness


def ship_values(ship) -> tuple[float, float]:
    """(dice, toughness) of one ship: gunnery (an undamaged German warship's dice hit or
    disable half the time instead of a third, §10.5) and air strikes; armour left plus one."""
    dice = float(ship.gunnery())
    if ship.type.nation == "germany" and ship.type.is_warship and not ship.damaged:
        dice *= 1.5
    dice += 0.5 * ship.air_strike()
    if ship.type.is_convoy:
        return 0.0, 0.5
    return dice, float(max(1, ship.type.armour - ship.damage + 1))


def force_of(ships) -> Force:
    found = Force()
    for ship in ships:
        found.add(ship)
    return found


def survives_roll(ship, minimum: int = 1) -> float:
    """§6.2: the chance that a die is below the ship's speed."""
    return min(1.0, max(0.0, (ship.speed(minimum) - 1) / 6))


@cache
def at_least(dice: int, hits: int, p: float = 1 / 3) -> float:
    """The chance that `dice` dice show at least `hits` successes of chance p."""
    return sum(comb(dice, k) * p ** k * (1 - p) ** (dice - k) for k in range(hits, dice + 1))


def uboat_worth(boats: int, dice: int, deny: float, prey: float) -> float:
    """What `boats` U-boats are worth in an area with `dice` anti-submarine dice (§8.3): the
    Allied points they deny if one survives (§12.1), the convoys they may strike (§8.4), less
    the flotillas a 6 sinks."""
    survive = 1 - at_least(dice, boats) if boats else 0.0
    return deny * survive + prey * boats - 0.15 * min(boats, dice / 6)


# The margin each side plays by default, by when it moves (§5.2): measured, the margin whose
# worst share of decided games against every margin of the other side is best (its maximin;
# benchmarks/war_at_sea_players.py margins, the figures in docs/playtest.md). Both sides come
# out at 1.15; they are kept apart since a scenario of its own may part them.
MARGINS = {"first": 1.15, "second": 1.15}
# The task-force plans a search weighs at each movement besides the player's own, in the order
# it weighs them (engine/players/search.py takes the first few): a bolder and a warier margin,
# the convoys kept in port, then margins nearer the player's own.
PLAN_MARGINS = (("bold", 0.85), ("wary", 1.6), ("even", 1.0), ("cautious", 1.3))


class WaSHeuristic(Player):
    name = "heuristic"
    settings: ClassVar[list[Setting]] = [
        Setting("margin", None, "float", "how much stronger a task force must be than the enemy "
                "it may meet (strength: dice x toughness); by default the side's own, "
                f"{MARGINS['first']} moving first (the Allies), {MARGINS['second']} second",
                optional=True, minimum=0.1, maximum=10),
        Setting("escape-below", 0.7, "float", "escape a battle when the side's strength there "
                "falls below this share of the enemy's (§11)", minimum=0, maximum=10),
        Setting("convoys", True, "bool", "sail the convoys (§13); false keeps them in port"),
        Setting("uboats", True, "bool", "send the U-boats out (§8)"),
        Setting("judge", "strength", "text", "how it judges whether a task force wins where it "
                "strikes and whether to escape: by strength, or by asking the battle calculator "
                "(200 simulated battles; slow, the benchmark's baseline)",
                ("strength", "calculator")),
    ]

    search_horizon = 1
    search_budget = 24

    def __init__(self, system, side, options, rng):
        super().__init__(system, side, options, rng)
        chosen = self.options["margin"]
        self.margin = MARGINS["first" if system.board.order[0] == side else "second"] \
            if chosen is None else chosen
        self.plan: list[tuple] = []
        self.plan_for: tuple | None = None

    # -- dispatch ------------------------------------------------------------------------------
    def choose(self, state):
        request = state.request
        handler = getattr(self, "_" + request.step.replace("-", "_"))
        return handler(state, request)

    # -- what a search weighs ------------------------------------------------------------------
    def plans(self, state) -> list[Plan]:
        """At the start of the side's movement (§6): the task-force plan of its own margin,
        then those of PLAN_MARGINS and its own with the convoys kept in port (§13), each
        that plans differently from those before it. None where the enemy's ships are face
        down (§18.2): a look-ahead would play on what the side may not see."""
        request = state.request
        if (request is None or request.step != "movement" or request.restart is None
                or request.side != self.side or state.hidden_from(self.side)):
            return []
        found, seen = [], set()
        options: list[tuple[str, float, bool | None]] = [
            (f"{label} (margin {margin})", margin, None)
            for label, margin in (("own", self.margin), *PLAN_MARGINS)]
        options.insert(3, ("own, convoys in port", self.margin, False))
        for label, margin, sail in options:
            moves = tuple(self.plan_moves(state, request.moves, margin, sail))
            if moves not in seen:
                seen.add(moves)
                found.append(Plan(label, moves))
        return found

    def follow(self, state, plan: Plan) -> None:
        self.plan_for, self.plan = self._key(state, state.request), list(plan.content)

    # -- plans made once a step ----------------------------------------------------------------
    @staticmethod
    def _key(state, request) -> tuple:
        return (state.round, request.step, request.side, id(request.moves))

    def _planned(self, state, request, make) -> tuple:
        """The next action of a plan made once for this step of this turn (a step met again in
        the turn, as a second battle's withdrawals, is planned again)."""
        key = self._key(state, request)
        if self.plan_for != key:
            self.plan_for, self.plan = key, make()
        for attempt in range(2):
            while self.plan:
                action = self.plan.pop(0)
                if request.check(action):
                    return action
            if attempt == 0:
                self.plan = make()
        return END if request.check(END) else request.options()[0]

    # -- where things are ------------------------------------------------------------------------
    def enemy_forces(self, state, moving_first: bool) -> dict[str, Force]:
        """Area -> the enemy force there now or, when the enemy moves after us, that could come."""
        found: dict[str, Force] = {a: Force() for a in state.board.sea_areas}
        for ship in state.vessels.values():
            if ship.side == self.side:
                continue
            if moving_first and ship.at_war and ship.may_sail:
                for area in set(state.reach(ship)) | {ship.at}:
                    if area in found:
                        found[area].add(ship)
            elif ship.at in found:
                found[ship.at].add(ship)
        if not moving_first and state.hidden_from(self.side):     # §18.2: face down
            enemies = [s for s in state.vessels.values() if s.side != self.side]
            mean = force_of(enemies)
            share = 1 / max(1, len(enemies))
            for area in found:
                counters = state.seen(self.side, area)
                found[area] = Force(mean.dice * share * counters, mean.toughness * share * counters)
        return found

    def wins(self, state, ships, area: str) -> bool:
        """With the calculator as judge, whether `ships` sent to `area` win against the enemy
        there (what the strength test already passed, asked again of the calculator)."""
        if self.options["judge"] != "calculator" or state.hidden_from(self.side):
            return True
        theirs = [s for s in state.vessels.values() if s.at == area and s.side != self.side]
        ours = list(ships) + [s for s in state.vessels.values()
                              if s.at == area and s.side == self.side]
        return not theirs or self.odds(state, ours, theirs, area) >= 0.6

    def odds(self, state, ours, theirs, area: str) -> float:
        """The share of 200 simulated battles (engine/calculator.py's way) that `ours` win."""
        from ..system import Contingent
        from .position import WaSPosition

        def contingents(ships):
            found: dict[str, dict[str, int]] = {}
            for ship in ships:
                if getattr(ship, "side", ship.type.side) != ship.type.side:
                    continue           # a taken-over Italian ship (§16.4) has no counter of its side
                units = found.setdefault(ship.type.nation, {})
                units[ship.type.id] = units.get(ship.type.id, 0) + 1
            return tuple(Contingent(nation, units) for nation, units in found.items())
        damaged = {s.type.id: s.damage for s in list(ours) + list(theirs) if s.damage}
        attackers, defenders = contingents(ours), contingents(theirs)
        if not attackers or not defenders:
            return 0.0 if not attackers else 1.0
        position = WaSPosition(area, attackers, defenders, damaged=damaged)
        batch = self.system.simulate(position, 200, self.rng)
        return float((batch.result == 0).mean())

    def area_values(self, state) -> dict[str, float]:
        board, enemy = state.board, state.other(self.side)
        values = {a: board.points[a][self.side] + board.points[a][enemy] for a in board.sea_areas}
        hidden = state.hidden_from(self.side)          # §18.2: a counter is all it sees
        for ship in state.vessels.values():
            if ship.at in values and ship.side != self.side:
                values[ship.at] += 2.0 if ship.type.is_convoy and not hidden else 0.5
        return values

    # -- setting up (§4.3) ------------------------------------------------------------------------
    def _setup(self, state, request):
        def make():
            options = request.options()
            movable: dict[str, list[str]] = {}
            for action in options:
                if action[0] == "base":
                    movable.setdefault(action[1], []).append(action[2])
            threats = self.enemy_forces(state, moving_first=True)
            plan = []
            for port in {p for ports in movable.values() for p in ports}:
                home = {a for name in movable for a in state.board.adjacent[state.vessels[name].at]}
                areas = [a for a in state.board.adjacent[port]
                         if a in state.board.points and a not in home]
                threat = max((threats[a].strength for a in areas), default=0.0)
                if not threat:
                    continue
                ships = sorted((state.vessels[n] for n, ports in movable.items() if port in ports),
                               key=lambda s: -sum(ship_values(s)))
                force, chosen = Force(), []
                for ship in ships[:len(ships) // 2]:
                    if force.strength >= threat * self.margin ** 2:
                        break
                    force.add(ship)
                    chosen.append(ship)
                if force.strength >= threat * self.margin ** 2:
                    plan += [("base", s.name, port) for s in chosen]
            return plan
        return self._planned(state, request, make)

    # -- movement (§6) ---------------------------------------------------------------------------------
    def _movement(self, state, request):
        return self._planned(state, request, lambda: self.plan_moves(state, request.moves))

    def plan_moves(self, state, moves: dict[str, dict[str, bool]],
                   margin: float | None = None, sail: bool | None = None) -> list[tuple]:
        """Moving first, spread over every area in proportion to what the enemy could bring
        there; moving second, strike only where the force wins by the margin (the player's
        own unless given), and take empty areas with the least ship that can. Convoys sail
        as the `convoys` setting says unless told by `sail` (a convoy at sea sails on,
        §13.2)."""
        if sail is None:
            sail = self.options["convoys"]
        board, margin = state.board, (self.margin if margin is None else margin) ** 2
        first = self.side == state.allies
        threats = self.enemy_forces(state, moving_first=first)
        values = self.area_values(state)
        free = {}
        for name in moves:
            ship = state.vessels[name]
            if ship.type.is_convoy:
                continue
            if ship.at in board.repair and ship.damage * 2 >= ship.type.armour + 1:
                continue                              # stays to be repaired (§15.1)
            free[name] = ship
        forces = {a: force_of(s for s in state.vessels.values() if s.at == a
                              and s.side == self.side and s.name not in moves)
                  for a in board.sea_areas}
        convoys = {}
        for name, dests in moves.items():
            ship = state.vessels[name]
            if ship.type.is_convoy and dests and (ship.staying or sail) \
                    and next(iter(dests)) not in convoys:
                convoys[next(iter(dests))] = name
        chosen: dict[str, list] = {a: [] for a in board.sea_areas}
        minimum = state.combat_rules.minimum_speed
        worth = {name: sum(ship_values(ship)) for name, ship in free.items()}
        reach = {name: [a for a, rolls in moves[name].items()
                        if a in forces and (not rolls or survives_roll(ship, minimum) >= 0.5)]
                 for name, ship in free.items()}

        def reachable(ship, area):
            return area in reach[ship.name]

        def send(ship, area):
            chosen[area].append(ship)
            forces[area].add(ship)
            del free[ship.name]

        order = sorted(free.values(), key=lambda s: (-worth[s.name], s.name))
        plan = []
        # a convoy sails only when its area can be held with anti-submarine escorts (§8.2, §13)
        for area, name in convoys.items():
            need = threats[area].strength * margin
            trial = Force(forces[area].dice, forces[area].toughness)
            escort = sum(s.type.anti_submarine for s in state.vessels.values()
                         if s.at == area and s.side == self.side and s.name not in moves)
            taken = []
            for ship in (s for s in order if s.name in free and reachable(s, area)):
                if trial.strength >= need and trial.dice and escort >= 3:
                    break
                trial.add(ship)
                escort += ship.type.anti_submarine
                taken.append(ship)
            if trial.strength >= need and trial.dice and escort >= 3:
                for ship in taken:
                    send(ship, area)
                plan.append(("move", name, area))
            elif state.vessels[name].staying:
                plan.append(("move", name, area))     # it must sail on (§13.2)
        # empty areas: the least ship that can get there takes the points
        for area in sorted(board.sea_areas, key=lambda a: -values[a]):
            if threats[area].strength or forces[area].dice:
                continue
            fit = [s for s in free.values() if s.gunnery() and reachable(s, area)]
            if fit:
                send(min(fit, key=lambda s: (worth[s.name], s.name)), area)
        if first:
            # each ship, strongest first, to the reachable area least covered for its threat
            for ship in (s for s in order if s.name in free):
                best, worst = None, None
                for area in reach[ship.name]:
                    if not threats[area].strength:
                        continue
                    need = threats[area].strength * margin
                    cover = forces[area].strength / need
                    if cover < 1.0 and (worst is None or cover / values[area] < worst):
                        best, worst = area, cover / values[area]
                if best is not None:
                    send(ship, best)
        else:
            for area in sorted(board.sea_areas, key=lambda a: -values[a]):
                threat = threats[area].strength
                if not threat:
                    continue
                fit = [s for s in order if s.name in free and reachable(s, area)]
                trial = Force(forces[area].dice, forces[area].toughness)
                taken = []
                for ship in fit:
                    if trial.strength >= threat * margin:
                        break
                    trial.add(ship)
                    taken.append(ship)
                if trial.strength >= threat * margin and self.wins(state, taken, area):
                    for ship in taken:
                        send(ship, area)
        plan += [("move", s.name, a) for a in board.sea_areas for s in chosen[a]]
        return plan + [END]

    def _withdraw(self, state, request):
        def make():
            best: dict[str, tuple] = {}
            for action in request.options():
                if action[1] not in best or self.port_score(state, action) > self.port_score(
                        state, best[action[1]]):
                    best[action[1]] = action
            return list(best.values())
        return self._planned(state, request, make)

    _return = _disabled = _withdraw

    def port_score(self, state, action) -> tuple:
        """A damaged ship goes where it is repaired most; a sound one where most areas are
        near (§15.2); a neutral port only when nothing else is left (§15.6)."""
        board = state.board
        ship, port = state.vessels[action[1]], action[2]
        seas = sum(1 for a in board.adjacent[port] if a in board.points)
        neutral = board.port_side.get(port, "?") is None
        return ((board.repair.get(port, 0) if ship.damage else 0) - 5 * neutral, seas,
                board.repair.get(port, 0))

    # -- U-boats (§8) ------------------------------------------------------------------------------------
    def _submarines(self, state, request):
        def make():
            if not self.options["uboats"]:
                return [END]
            areas: dict[str, list] = {a: [] for a in state.board.sea_areas}
            axis_at = set()
            for ship in state.vessels.values():
                if ship.at in areas:
                    if ship.side != self.side:
                        areas[ship.at].append(ship)
                    else:
                        axis_at.add(ship.at)
            placed = {a: state.uboats_at[a] for a in areas}
            plan = []
            for _ in range(state.uboats_home):
                best, gain = None, 0.08
                for area, ships in areas.items():
                    if not ships or not request.check(("deploy", area)):
                        continue
                    dice = sum(s.type.anti_submarine for s in ships)
                    deny = 0.0 if area in axis_at else state.board.points[area][state.allies]
                    prey = 0.3 * sum(1 for s in ships if s.type.is_convoy)
                    k = placed[area]

                    more = uboat_worth(k + 1, dice, deny, prey) - uboat_worth(k, dice, deny, prey)
                    if more > gain:
                        best, gain = area, more
                if best is None:
                    break
                placed[best] += 1
                plan.append(("deploy", best))
            return plan + [END]
        return self._planned(state, request, make)

    # -- air strikes (§9) ---------------------------------------------------------------------------------
    def _air(self, state, request):
        best, value = END, 0.0
        here: dict[str, list] = {}
        for ship in state.vessels.values():
            here.setdefault(ship.at, []).append(ship)
        for action in request.options():
            if action == END:
                continue
            space = action[1]
            targets = sorted((s for s in here.get(space, ()) if s.side != self.side
                              and not s.sheltered), key=lambda s: -sum(ship_values(s)))
            carriers = (sum(s.air_strike() for s in here.get(space, ())
                            if s.side == self.side and s.type.is_carrier)
                        if space in state.board.points else 0)
            at_sea = space in state.board.points
            worth = sum(sum(ship_values(s)) * (1.0 if at_sea else 0.5) + 2.0 * s.type.is_convoy
                        for s in targets[carriers:carriers + 3])
            if worth > value:
                best, value = action, worth
        return best

    def _battle_order(self, state, request):
        return request.options()[0]

    # -- surface battles (§10-§11) -------------------------------------------------------------------------
    def _surface(self, state, request):
        decision: Decision = request.decision
        kind = decision.kind
        minimum = state.combat_rules.minimum_speed
        enemy = state.other(self.side)
        if kind == "aim":
            shooters = sum(1 for s in decision.fighting[self.side] if s.in_battle and s.gunnery())
            unhurt = sum(1 for s in decision.fighting[enemy]
                         if s.in_battle and s.type.is_warship and not s.damaged)
            return ("aim", "convoys" if shooters > unhurt else "warships")
        if kind == "escape":
            ours = [s for s in decision.fighting[self.side] if s.in_battle]
            theirs = [s for s in decision.fighting[enemy] if s.in_battle]
            if self.options["judge"] == "calculator":
                outgunned = self.odds(state, ours, theirs, request.where) < 0.35
            else:
                outgunned = (force_of(ours).strength
                             < force_of(theirs).strength * self.options["escape_below"] ** 2)
            return ("escape", "yes" if outgunned else "no")
        if kind == "group":
            return group_by(decision, "by-speed", minimum)
        if kind == "pursue":
            return self.pursue(decision, minimum)
        if kind == "press":
            chasers = force_of(s for s in decision.fighting[self.side] if s.in_battle)
            prey = force_of(s for s in decision.groups[0] if s.in_battle)
            if chasers.strength >= prey.strength * 0.8:
                return ("press", "on")
            return decision.options[1]
        return decision.options[0]

    def pursue(self, decision: Decision, minimum: int):
        """Go after the group it can catch that our fast-enough ships beat by the most."""
        ship, best, ratio = decision.ship, decision.options[0], self.margin ** 2
        for action in decision.options[1:]:
            group = decision.groups[action[2] - 1]
            speed = decision.speeds[action[2] - 1]
            hunters = force_of(s for s in decision.fighting[self.side]
                               if s.in_battle and s.speed(minimum) >= speed)
            prey = force_of(s for s in group if s.in_battle)
            found = hunters.strength / max(prey.strength, 1e-9)
            if found >= ratio and (prey.dice or any(s.type.is_convoy for s in group)):
                best, ratio = action, found
        return best if ship is not None else decision.options[0]

    # -- convoys, refuelling (§13, §14) ---------------------------------------------------------------------
    def _convoys(self, state, request):
        deliver, stay = request.options()
        ship = state.vessels[deliver[1]]
        if state.round >= state.last:
            return deliver
        leg = next((i for i, r in enumerate(state.route) if r[0] == ship.at), None)
        nxt = state.route[leg + 1][0] if leg is not None and leg + 1 < len(state.route) else None
        if nxt is None:
            return deliver
        threat = Force()
        cover = Force()
        for other in state.vessels.values():
            reach = state.reach(other)
            if nxt in reach or other.at == nxt:
                (cover if other.side == self.side else threat).add(other)
        return stay if cover.strength >= threat.strength * self.margin ** 2 * 2 else deliver

    def _refuel(self, state, request):
        need = (state.refuelling.get("success_at_most") or {}).get(str(state.round), 0)
        if int(need) < 4:
            return END
        for action in request.options():
            if action != END:
                ship = state.vessels[action[1]]
                if ship.damage * 2 < ship.type.armour:
                    return action
        return END
