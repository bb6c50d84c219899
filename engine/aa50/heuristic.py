"""The heuristic AA50 player: plays each power as a sensible human would, quickly.

At the start of each phase it makes a plan for the whole phase, then answers the game's
questions from it:

- purchase: defend the capital when it is threatened; a power that must cross the sea
  (its capital on an island, no enemy within reach by land, or no enemy capital left within
  reach by land) keeps enough transports for its troops, bought only with a zone to place
  them in where no enemy ship or aircraft could sink them, or with the destroyers that make
  one so, and a destroyer against submarines; the rest is infantry, artillery and tanks
  (3:1:1), with a fighter when money is plentiful, never more than its factories can place
  (units still waiting from an earlier purchase count); money the room leaves over buys
  better units (tanks for infantry, aircraft for tanks), and then a factory;
- combat move: weighs every enemy territory and fleet within reach, most valuable first
  (production, victory cities, capitals, its national objectives), gathers the cheapest force
  whose estimated chance to win (estimate.py) reaches its `odds`, and attacks only then and
  only if the expected gain outweighs the expected loss; takes empty territories with one
  unit; keeps enough units at home to hold the capital, victory cities and valuable
  territories (one at least in a victory city the enemy could enter), though those kept may
  strike a neighbour whose army threatens them; sends no aircraft against submarines
  without a destroyer (§7.3.4); loads transports for assaults on the
  coast, an empty one sailing a zone first to take aboard troops waiting there (§5.4.8), with
  idle battleships and cruisers sailing to the landing zones to bombard the shore, their
  expected hits counted in the odds (§5.5.2.2); idle warships escort a landing to zones
  the enemy could strike, and a landing counts the transports it must still leave there
  among its losses, and the shore's income for as long as the troops landed can hold it
  against what the enemy could strike it with next turn; troops that must land where the plan did
  not foresee it go where the odds are best;
  never counts transports as fighting ships; sends idle bombers on raids;
- conduct combat: presses on while the odds hold, retreats early when they fall;
- noncombat move: moves land units toward the nearest enemy victory city within four land
  moves (massing on one road), else toward the front, to the territories most threatened;
  once no enemy capital is left within reach by land, armies away from the front gather at
  the harbour (its coast nearest the nearest enemy capital across the sea), where new land
  units are placed too, for the transports to carry them over;
  a threatened capital keeps the garrison it needs and lets the rest go, a victory city the
  enemy could enter one defender at least (an empty one is held again);
  ships toward the troops they carry; fighters onto the carriers beside transports the enemy
  could sink, the fewest that make them safe (none where they cannot), other aircraft to the
  safest landing near the front; an
  empty transport sails to troops waiting by the sea within its move, takes them aboard where
  it stops and goes on toward the front with what is left of its move (§7.3.6); with none
  within its move it sails toward the shore where most troops wait for a ship; no transport
  ends its move where the enemy could strike it, unless the nation's warships can join it
  there (they are sent) or no zone in reach is safe;
- mobilize: places at the factory nearest the enemy, the capital first when threatened; new
  transports in a safe zone by the troops waiting for them (none where the enemy could sink
  them: they wait for the next turn), new fighters on carriers (§5.7.1), which the
  purchase buys for an empty deck next to a factory; troops cut off by sea count toward the
  transports it buys.

Settings restrict it for balance questions: `naval=false` (never buys ships),
`first-attack-round=N` (no attack before round N), `bombing=false`, `odds=X`,
`research=N` (tokens bought each turn when research is on).
"""
from __future__ import annotations

import copy
import math
from collections import defaultdict
from collections.abc import Sequence

import numpy as np

from ..options import Setting, SettingError, named_values
from ..players.base import Plan, Player
from . import carriers, movement
from .economy import MAX_RESEARCH_TOKENS, buyable, factory_rooms, repair_rate
from .estimate import (
    Fighter,
    after_bombardment,
    attack_chance,
    expected_losses,
    fighter_of,
    forces,
    gun_chance,
    win_chance,
)
from .forces import Piece

FAR = 99
# transports wait only where the enemy's chance to sink them, all it has in reach striking at
# once, is below this (the enemy's heuristic attacks at 0.75)
SAFE_ODDS = 0.4
# a landing is worth the shore's income for one round, and for up to this many more as the
# troops landed are likely to hold it against the enemy's next turn
ROUNDS_HELD = 3


class HeuristicPlayer(Player):
    name = "heuristic"
    # a search (engine/players/search.py) looks ahead until the deciding power's next turn,
    # so that every other power answers the plan once, with 8 look-aheads a decision (6 gained
    # a side about 11 to 13 points of decided games over the heuristic, 8 about 19 to 28)
    search_horizon = 1
    search_from_seat = True
    search_budget = 8
    settings = [
        Setting("naval", True, "bool", "buys sea units"),
        Setting("first-attack-round", 1, "int", "attacks nothing before this round", minimum=1),
        Setting("bombing", True, "bool", "flies strategic bombing raids"),
        Setting("odds", 0.75, "float", "the least estimated chance to win it attacks with",
                minimum=0, maximum=1),
        Setting("landing-risk", 1.0, "float", "the share of the cost of transports a landing "
                "leaves where the enemy can sink them (§7.3.6) that the landing must be worth",
                minimum=0, maximum=4),
        Setting("landing-risk-of", None, "text", "nations' own landing-risk in place of the "
                "side's: NATION:X, several joined by + (japan:1+italy:0.25)", optional=True),
        Setting("research", 0, "int", "research tokens it buys each turn (research option)",
                minimum=0, maximum=MAX_RESEARCH_TOKENS),
        Setting("judge", "estimate", "text", "how it weighs a planned attack: the quick "
                "estimate, or the battle calculator (exact, else 500 simulated battles)",
                ("estimate", "calculator")),
    ]

    def __init__(self, system, side, options, rng):
        super().__init__(system, side, options, rng)
        self.landing_risks = landing_risks(self.options["landing_risk_of"])
        self.plan_key = None
        self.moves: dict[tuple[str, str], list[tuple[str, int, str]]] = {}
        self.shopping: list[tuple[str, int]] = []
        self.need: dict[str, float] = {}
        self.stranded: set[int] = set()        # land units waiting for a transport
        self.convoy: str | None = None         # where the transports bought are placed
        self.factory_site: str | None = None   # where the factory bought is placed
        # sea zone -> (territory, land type) of each unit a transport takes aboard there on
        # its way to an assault in the combat move
        self.loads: dict[str, list[tuple[str, str]]] = defaultdict(list)

    @classmethod
    def check_settings(cls, options: dict, system) -> None:
        risks = landing_risks(options.get("landing_risk_of"))
        nations = set(system.nations()) if risks else set()
        for nation in risks:
            if nation not in nations:
                raise SettingError(f"landing-risk-of: no nation {nation!r} in this scenario "
                                   f"(nations: {', '.join(sorted(nations))})")

    def landing_risk(self, nation: str) -> float:
        """The share of the cost of the transports a landing leaves exposed that the landing
        must be worth, for this nation (`landing-risk-of`, else `landing-risk`)."""
        return self.landing_risks.get(nation, self.options["landing_risk"])

    # -- dispatch ------------------------------------------------------------------------------
    def choose(self, state):
        key = (state.round, state.seat, state.phase)
        if key != self.plan_key:
            self.plan_key = key
            self._plan(state)
        phase = state.phase
        if phase == "research":
            return self._research(state)
        if phase == "purchase":
            return self.shopping.pop(0) if self.shopping else ("end",)
        if phase in ("combat-move", "noncombat-move"):
            return self._move(state)
        if phase == "conduct-combat":
            return self._fight(state)
        if phase == "mobilize":
            return self._place(state)
        return state.legal_actions()[0]

    def _plan(self, state) -> None:
        self.moves = {}
        self.loads = defaultdict(list)
        if state.phase in ("purchase", "combat-move", "noncombat-move", "mobilize"):
            self.survey = self._survey(state)
        if state.phase == "purchase":
            self._take(self._purchase(state, "own").content)
        elif state.phase == "combat-move":
            if state.round >= self.options["first_attack_round"]:
                self._take(self._attacks(state, self.options["odds"]).content)
        elif state.phase == "noncombat-move":
            self.moves = NoncombatPlan(self, state).plan()

    # -- what a search asks of it (engine/players/search.py) -----------------------------------
    def plans(self, state) -> list[Plan]:
        """At the start of a purchase: its own, then land-heavy, naval (transports with an
        escort, warships) and air-heavy ones. At the start of a combat move: its own
        attacks, then its own without the landings that leave a transport where the enemy can
        sink it (its own trades a transport for a landing worth more), its own without the
        riskiest attack, a more cautious and a bolder set (odds 0.15 higher and lower). At the
        start of a noncombat move that leaves transports where the enemy could sink them: its
        own, and one where every warship that can reach them joins them. Plans that come out
        the same are offered once; China (no purchase, a few infantry) has none to weigh. A
        search weighs the first few."""
        key = (state.round, state.seat, state.phase)
        if key == self.plan_key or state.is_china(state.seat) \
                or state.phase not in ("purchase", "combat-move", "noncombat-move"):
            return []
        self.survey = self._survey(state)
        if state.phase == "purchase":
            found = [self._purchase(state, style) for style in Purchase.STYLES]
        elif state.phase == "noncombat-move":
            own = NoncombatPlan(self, state)
            found = [_noncombat("own", own.plan())]
            if not own.exposed:
                return []
            found.append(_noncombat("fleet with the transports",
                                    NoncombatPlan(self, state, gather=True).plan()))
        else:
            if state.round < self.options["first_attack_round"]:
                return []
            odds = self.options["odds"]
            found = [self._attacks(state, odds),
                     self._attacks(state, odds, "sheltered landings", sheltered=True)]
            if found[0].content["risks"]:
                riskiest = min(found[0].content["risks"])[1]
                found.append(self._attacks(state, odds, f"without {riskiest}", {riskiest}))
            found += [self._attacks(state, min(odds + 0.15, 0.95), "cautious"),
                      self._attacks(state, max(odds - 0.15, 0.5), "bold")]
        distinct: list[Plan] = []
        for plan in found:
            if any(_same(plan.content, other.content) for other in distinct):
                continue
            distinct.append(plan)
        return distinct

    def follow(self, state, plan: Plan) -> None:
        self.plan_key = (state.round, state.seat, state.phase)
        self.moves = {}
        self.loads = defaultdict(list)
        survey = getattr(self, "survey", None)
        if survey is not None and survey.taken_at[:2] == (state.round, state.seat) \
                and survey.taken_at[2] in ("purchase", state.phase):
            self.survey = survey.on(state)       # the same position, perhaps a clone of it
        else:
            self.survey = Survey(state, state.seat)
        self._take(plan.content)

    def fork(self, rng) -> HeuristicPlayer:
        twin = HeuristicPlayer(self.system, self.side, self.options, rng)
        twin.stranded = set(self.stranded)
        twin.need = dict(self.need)
        twin.convoy, twin.factory_site = self.convoy, self.factory_site
        if getattr(self, "survey", None) is not None:
            twin.survey = self.survey
        return twin

    def _purchase(self, state, style: str) -> Plan:
        purchase = Purchase(self, state, style)
        shopping = purchase.plan()
        return Plan(f"purchase: {style}", {"shopping": shopping, "convoy": purchase.convoy,
                                           "factory_site": purchase.factory_site})

    def _attacks(self, state, odds: float, label: str = "own", skip: frozenset | set = frozenset(),
                 sheltered: bool = False) -> Plan:
        combat = CombatPlan(self, state, odds, skip, sheltered)
        moves = combat.plan()
        return Plan(f"attacks: {label}", {"moves": moves, "loads": dict(combat.loads),
                                          "risks": combat.risks})

    def _take(self, content: dict) -> None:
        """Carry out a plan's content from here (copied: the player uses it up)."""
        if "shopping" in content:
            self.shopping = list(content["shopping"])
            self.convoy, self.factory_site = content["convoy"], content["factory_site"]
        if "moves" in content:
            self.moves = {key: list(entries) for key, entries in content["moves"].items()}
            self.loads = defaultdict(list, {zone: list(found)
                                            for zone, found in content["loads"].items()})

    def _survey(self, state) -> Survey:
        """The board read afresh; or the purchase's reading again in the combat move (nothing
        moved between), and the noncombat move's in the mobilization with the nation's own
        units counted where they went (the enemy's stand where they stood)."""
        earlier = getattr(self, "survey", None)
        if earlier is not None and earlier.state is state:
            taken = earlier.taken_at
            if (state.phase == "combat-move" and taken == (state.round, state.seat, "purchase")) \
                    or (state.phase == "mobilize"
                        and taken == (state.round, state.seat, "noncombat-move")):
                if state.phase == "mobilize":
                    earlier.refresh_defence()
                return earlier
        return Survey(state, state.seat)

    # -- phases --------------------------------------------------------------------------------
    def _research(self, state):
        actions = state.legal_actions()
        if actions[0][0] == "chart":
            wanted = "chart-2" if naval_power(state, state.seat) else "chart-1"
            return next((a for a in actions if a[1] == wanted), actions[0])
        tokens = min(self.options["research"], len(actions) - 1)
        return ("research", tokens)

    def _move(self, state):
        group = state.current_group()
        first = group[0]
        tag = state.group_tag(first)
        hold = ("hold", first.space, first.type, tag)
        shuttle = state.phase == "noncombat-move" and first.owner == state.seat \
            and state.data.types[first.type].capacity
        if shuttle:
            pick_up = self._pick_up(state, first, tag)
            if pick_up is not None:
                return pick_up
        if state.phase == "combat-move" and self.loads.get(first.space) \
                and state.data.types[first.type].capacity:
            on_the_way = self._load_on_the_way(state, first, tag)
            if on_the_way is not None:
                return on_the_way
        planned = self.moves.get((first.space, first.type), [])
        if state.phase == "combat-move" and any(c.owner == state.seat for c in first.cargo):
            planned = sorted(planned, key=lambda entry: not entry[2])    # assaults first
        for to, count, target in planned:
            action = ("move", first.space, first.type, tag, to, min(count, len(group)), target)
            if state.is_legal(action):
                _consume(self.moves, (first.space, first.type), to, count, len(group))
                return action
        if state.phase == "noncombat-move" and state.data.types[first.type].domain == "air":
            return self._land(state, group, tag) or hold
        if shuttle and first.spent and first.cargo:
            return self._sail_on(state, first, tag) or hold
        if not state.is_legal(hold):          # troops went aboard another transport than planned
            return self._forced_landing(state, first)
        return hold

    def _forced_landing(self, state, transport: Piece):
        """Troops taken aboard in the combat move must assault (§5.4.8): where the plan did
        not foresee it, they join the landing or attack with the best odds, counting what is
        already bound there and the aircraft planned to fly there."""
        board = state.data.board
        nation = state.seat
        moves = [a for a in state.legal_actions() if a[0] == "move"]
        landings = [a for a in moves if a[6] in board.land]
        if not landings:
            return moves[0]

        def odds(action) -> tuple:
            shore = action[6]
            attackers = [p for p in state.pieces[shore] if p.owner == nation]
            attackers += [c for zone in board.coasts.get(shore, ()) for p in state.pieces[zone]
                          for c in p.cargo if c.owner == nation and c.target == shore]
            attackers += list(transport.cargo)
            fighters = forces(state, attackers)
            for (_space, type_), entries in self.moves.items():
                if state.data.types[type_].domain == "air":
                    count = sum(n for to, n, _ in entries if to == shore)
                    if count:
                        fighters.append((fighter_of(state, type_, nation, True), count))
            defenders = movement.enemies_in(state, shore, nation)
            chance = win_chance(fighters, forces(state, defenders, attacking=False),
                                gun_chance(state, shore, nation))
            return (chance, board.value.get(shore, 0), shore, action[4])

        return max(landings, key=odds)

    def _pick_up(self, state, transport: Piece, tag: str):
        """A transport takes aboard the troops waiting for one by the zone it is in, where it
        started or where its move brought it (§7.3.6)."""
        if not self.stranded:
            return None
        for territory, type_, most in movement.transport_loads(state, transport):
            waiting = sum(1 for p in state.pieces[territory] if p.uid in self.stranded
                          and p.type == type_)
            if waiting:
                return ("load", transport.space, transport.type, tag, territory, type_,
                        min(most, waiting))
        return None

    def _load_on_the_way(self, state, transport: Piece, tag: str):
        """In the combat move, a transport that sailed to troops planned for an assault takes
        them aboard (§5.4.8)."""
        planned = self.loads[transport.space]
        for territory, type_, most in movement.transport_loads(state, transport):
            if (territory, type_) in planned:
                count = min(most, planned.count((territory, type_)))
                for _ in range(count):
                    planned.remove((territory, type_))
                return ("load", transport.space, transport.type, tag, territory, type_, count)
        return None

    def _sail_on(self, state, transport: Piece, tag: str):
        """A transport that picked troops up on its way goes on toward the front with what is
        left of its move, and puts them ashore there when it can."""
        board = state.data.board
        best = None
        for zone, (distance, _, targets) in state.group_destinations([transport]).items():
            if not self.survey.safe_at_sea(zone):
                continue                          # never to where it would wait alone
            for shore in targets:
                front = self.survey.front(shore) if shore else FAR
                score = (front, distance, zone, shore)
                if shore and (best is None or score < best):
                    best = score
        here = min((self.survey.front(s) for s in board.shores[transport.space]), default=FAR)
        if best is None or best[0] >= here:
            return None
        _, _, zone, shore = best
        return ("move", transport.space, transport.type, tag, zone, 1, shore)

    def _land(self, state, group: list[Piece], tag: str):
        """An aircraft's landing: on a carrier guarding the nation's transports where they
        would be sunk without it (`_cover`); else stay when it may, else the safest reachable
        spot."""
        first = group[0]
        spots = state.group_destinations(group)
        cover = self._cover(state, group, spots)
        if cover is not None:
            count = min(len(group), cover[1])
            return ("move", first.space, first.type, tag, cover[0], count, "")
        here_ok = state.landing_spots(first.owner, bool(
            state.data.types[first.type].carrier_size))[state.data.board.number[first.space]]
        if here_ok:
            return None
        if not spots:
            return None
        best = max(spots, key=lambda s: (self.need.get(s, 0.0) if s in state.data.board.land
                                         else -1.0, -spots[s][0], s))
        return ("move", first.space, first.type, tag, best, len(group), "")

    def _cover(self, state, group: list[Piece], spots) -> tuple[str, int] | None:
        """A sea zone within reach where the nation's transports wait and the enemy could
        sink them, and the fewest of these fighters that, seated on the carriers there
        (§5.6.1.2) and defending with the fleet, make them safe: (zone, how many). None when
        no such zone is in reach, or these fighters cannot make it safe (they would only be
        lost with the transports)."""
        types, board, survey = state.data.types, state.data.board, self.survey
        if not types[group[0].type].carrier_size:
            return None
        fighter = fighter_of(state, group[0].type, state.seat, False)
        best = None
        for zone in sorted(board.sea.intersection(spots)):
            if zone == group[0].space or survey.safe_at_sea(zone) or not any(
                    p.owner == state.seat and types[p.type].capacity for p in state.pieces[zone]):
                continue
            room = carriers.own_room(state, zone, state.seat) // types[group[0].type].carrier_size
            count = next((n for n in range(1, min(room, len(group)) + 1)
                          if survey.safe_at_sea(zone, [(fighter, n)])), None)
            if count is not None and (best is None or count < best[1]):
                best = (zone, count)
        return best

    def _fight(self, state):
        actions = state.legal_actions()
        if len(actions) == 1:
            return actions[0]
        space = actions[0][1]
        chance = battle_chance(state, state.seat, space)
        return actions[-1] if chance < 0.35 else actions[0]

    def _place(self, state):
        actions = state.legal_actions()
        # a transport is placed only where the enemy cannot sink it: else it waits in the pool
        places = [a for a in actions if a[0] == "place" and not (
            state.data.types[a[1]].capacity and not self.survey.safe_at_sea(a[2]))]
        if not places:
            return ("end",)
        capital = state.data.nations[state.seat].capital
        threat = self.survey.threat_to(capital) if capital else 0.0
        board = state.data.board
        muster = self._muster_zone(state)
        convoy = self.convoy if any(a[2] == self.convoy for a in places) else None

        def score(action):
            _, type_, space, _ = action
            kind = state.data.types[type_]
            first = 10 if space == capital and threat > 0 and kind.domain == "land" else 0
            if kind.domain == "structure":
                return (space == self.factory_site, board.value[space], -self.survey.front(space),
                        space)
            if kind.capacity:
                # transports where the enemy cannot strike them: the zone the purchase chose,
                # else the safest, nearest the troops waiting for them
                safe = self.survey.safe_at_sea(space)
                near = -sea_distances(board)[space].get(muster, FAR) if muster else 0
                return (safe, space == convoy, -len(self.survey.sea_danger(space)), near, space)
            if kind.domain == "sea" and convoy is not None:
                return (first, space == convoy, space)        # the transports' escort
            if kind.domain == "air" and space in board.sea:
                return (first + 5, 0, space)         # on a carrier with the fleet (§5.7.1)
            if kind.domain == "land" and self.survey.harbour is not None and self.options["naval"]:
                return (first, -self.survey.to_sea(space), space)
            return (first, -self.survey.front(space), space)

        # place the most valuable units first, so that cheap ones fill what is left; warships
        # before transports, so that the transports find their escort in place
        best_type = max({a[1] for a in places}, key=lambda t: state.data.types[t].cost)
        candidates = [a for a in places if a[1] == best_type]
        return max(candidates, key=score)

    def _muster_zone(self, state) -> str | None:
        """The sea zone by the shore where most of the nation's troops wait for a ship: new
        transports are placed nearest it."""
        if not self.stranded:
            return None
        board = state.data.board
        counts: dict[str, int] = defaultdict(int)
        for found in state.pieces.values():
            for piece in found:
                if piece.uid in self.stranded and piece.space in board.land:
                    counts[piece.space] += 1
        if not counts:
            return None
        shore = max(counts, key=lambda s: (counts[s], s))
        zones = [z for z in board.coasts.get(shore, ())
                 if not movement.hostile_sea(state, z, state.seat)]
        return min(zones) if zones else None


def landing_risks(text: str | None) -> dict[str, float]:
    """'japan:1+italy:0.25' -> {'japan': 1.0, 'italy': 0.25}; SettingError for anything else
    ('+' joins them: ',' already parts a player's settings)."""
    try:
        found = dict(named_values(text or "", "+", float))
        valid = all(0 <= share <= 4 for share in found.values())
    except ValueError:
        valid = False
    if not valid:
        raise SettingError(f"landing-risk-of={text!r}: expected NATION:X with X from 0 to "
                           f"4, several joined by + (japan:1+italy:0.25)")
    return found


def _noncombat(label: str, moves: dict) -> Plan:
    return Plan(f"noncombat: {label}", {"moves": moves, "loads": {}})


def _same(one: dict, other: dict) -> bool:
    """Whether two plans' contents would play the same."""
    if "shopping" in one:
        return sorted(one["shopping"]) == sorted(other["shopping"]) \
            and one["convoy"] == other["convoy"]
    return {k: sorted(v) for k, v in one["moves"].items() if v} == \
        {k: sorted(v) for k, v in other["moves"].items() if v} \
        and {k: sorted(v) for k, v in one["loads"].items() if v} == \
        {k: sorted(v) for k, v in other["loads"].items() if v}


def _consume(moves, key, to, count, available) -> None:
    plan = moves[key]
    for index, (dest, wanted, target) in enumerate(plan):
        if dest == to:
            left = wanted - min(wanted, available)
            if left > 0:
                plan[index] = (dest, left, target)
            else:
                plan.pop(index)
            return


# -- what the player reads off the board ---------------------------------------------------------
def naval_power(state, nation: str, survey: Survey | None = None) -> bool:
    """A power that must cross the sea to fight: its capital is an island, or none of its
    factories has an enemy territory within three land moves."""
    board = state.data.board
    capital = state.data.nations[nation].capital
    if capital is None:
        return False
    if capital in board.islands:
        return True
    factories = [s for s in state.factories if state.control.get(s) == nation] or [capital]
    survey = survey or Survey(state, nation)
    return survey.harbour is not None or all(survey.front(s) > 3 for s in factories)


_COASTAL: dict[int, tuple[object, np.ndarray]] = {}


def _coastal(board) -> np.ndarray:
    """Per space, whether it is a territory with a coast (worked out once per board)."""
    cached = _COASTAL.get(id(board))
    if cached is None or cached[0] is not board:
        cached = _COASTAL[id(board)] = (board, np.array([bool(board.coasts.get(s))
                                                         for s in board.spaces]))
    return cached[1]


_SEA_MATRIX: dict[int, tuple[object, np.ndarray]] = {}


def _sea_matrix(board) -> np.ndarray:
    """Fewest sea moves between the sea zones, in sorted order, as an array (FAR: none)."""
    cached = _SEA_MATRIX.get(id(board))
    if cached is None or cached[0] is not board:
        zones = sorted(board.sea)
        sea = sea_distances(board)
        matrix = np.array([[sea[a].get(b, FAR) for b in zones] for a in zones])
        cached = _SEA_MATRIX[id(board)] = (board, matrix)
    return cached[1]


_SEA_DISTANCES: dict[int, tuple[object, dict[str, dict[str, int]]]] = {}


def sea_distances(board) -> dict[str, dict[str, int]]:
    """Fewest sea moves between sea zones, canals open (worked out once per board): how far a
    ship is from a coast, where flying distance would cut across land."""
    cached = _SEA_DISTANCES.get(id(board))
    if cached is not None and cached[0] is board:
        return cached[1]
    links: dict[str, set[str]] = {z: {n for n in board.neighbours[z] if n in board.sea}
                                  for z in board.sea}
    for pair in board.canal_borders:
        a, b = tuple(pair)
        links[a].add(b)
        links[b].add(a)
    found: dict[str, dict[str, int]] = {}
    for start in board.sea:
        seen = {start: 0}
        frontier = [start]
        while frontier:
            following = []
            for here in frontier:
                for there in links[here]:
                    if there not in seen:
                        seen[there] = seen[here] + 1
                        following.append(there)
            frontier = following
        found[start] = seen
    _SEA_DISTANCES[id(board)] = (board, found)
    return found


def sea_defence(state, zone: str, nation: str) -> list[tuple[Fighter, float]]:
    """The side's defenders in a sea zone; transports are not among them: they take hits
    last and cannot hit back (§7.3.6)."""
    side = state.side(nation)
    return forces(state, [p for p in state.pieces[zone] if state.side(p.owner) == side
                          and not state.data.types[p.type].capacity], attacking=False)


def battle_chance(state, nation: str, space: str) -> float:
    attackers = [p for p in state.pieces[space] if p.owner == nation]
    return attack_chance(state, nation, space, attackers, movement.enemies_in(state, space, nation))


def calculated_chance(state, nation: str, space: str, attackers: list[Piece],
                      defenders: list[Piece], rng: np.random.Generator) -> float:
    """The battle calculator's answer: exact where the battle is small, else 500 battles."""
    from collections import Counter

    from ..system import Contingent
    from . import montecarlo
    from .position import AA50Position
    position = AA50Position(
        space, (Contingent(nation, dict(Counter(p.type for p in attackers))),),
        tuple(Contingent(owner, dict(Counter(p.type for p in defenders if p.owner == owner)))
              for owner in sorted({p.owner for p in defenders})))
    model = state.system.model(position)
    found = state.system.exact(position, budget=20_000, time_limit=0.05)
    if found is not None:
        return float(found.probability[found.result == 0].sum())
    batch = montecarlo.simulate(model, 500, rng)       # the player's own dice, not the game's
    return float((batch.result == 0).mean())


def _landing(state, transport: Piece, taken: set[int]) -> float:
    """The strength a transport could put ashore next turn: the troops aboard, and its own
    nation's troops waiting on the shores of its zone that fit in the room left (each counted
    for one transport). An empty transport with nobody by it threatens no coast."""
    types = state.data.types
    board = state.data.board

    def strength(piece: Piece) -> float:
        profile = state.profiles(piece.owner)[piece.type]
        return profile.value(True) * profile.dice(True) / 6

    room = types[transport.type].capacity
    found = 0.0
    for piece in transport.cargo:
        room -= types[piece.type].size
        found += strength(piece)
    waiting = sorted((p for shore in sorted(board.shores.get(transport.space, ()))
                      for p in state.pieces[shore]
                      if p.owner == transport.owner and p.uid not in taken
                      and types[p.type].domain == "land" and types[p.type].size),
                     key=lambda p: (-strength(p), p.uid))
    for piece in waiting:
        size = types[piece.type].size
        if size <= room:
            room -= size
            taken.add(piece.uid)
            found += strength(piece)
    return found


class Survey:
    """What a player reads off the board once per phase: how far each space is from the
    enemy, and how much enemy strength could strike it next turn."""

    def __init__(self, state, nation: str):
        self.state, self.nation = state, nation
        board = state.data.board
        side = state.side(nation)
        sides = {n: entry.side for n, entry in state.data.nations.items()}
        control = state.control
        enemy = np.array([s in board.land and control.get(s) is not None
                          and sides.get(control[s]) != side for s in board.spaces])
        self.enemy_land = enemy
        if enemy.any():
            self.on_foot = board.land_distance[:, enemy].min(axis=1).astype(int)
            self.by_air = board.air_distance[:, enemy].min(axis=1).astype(int)
        else:
            self.on_foot = self.by_air = np.full(len(board.spaces), FAR)
        cities = enemy & np.array([s in board.victory_cities for s in board.spaces])
        self.to_city = board.land_distance[:, cities].min(axis=1).astype(int) if cities.any() \
            else np.full(len(board.spaces), FAR)
        attack = np.zeros(len(board.spaces))
        defence = np.zeros(len(board.spaces))
        reaching: dict[tuple[int, str, int], float] = defaultdict(float)
        # (owner, type) -> (defence, attack strength a round, domain, movement), per phase
        values: dict[tuple[str, str], tuple[float, float, str, int]] = {}
        transports = []
        for space, found in state.pieces.items():
            there = board.number[space]
            for piece in found:
                known = values.get((piece.owner, piece.type))
                if known is None:
                    kind = state.data.types[piece.type]
                    profile = state.profiles(piece.owner)[piece.type]
                    known = values[(piece.owner, piece.type)] = (
                        profile.value(False) / 6, profile.value(True) * profile.dice(True) / 6,
                        kind.domain if not kind.capacity else "transport", kind.movement)
                if sides.get(piece.owner) == side:
                    defence[there] += known[0]
                elif known[2] in ("land", "air"):
                    reaching[(there, known[2], known[3])] += known[1]
                elif known[2] == "transport":
                    transports.append((space, piece))
        taken: set[int] = set()          # troops counted for one transport already
        for space, piece in sorted(transports, key=lambda item: item[0]):
            reaching[(board.number[space], "sea", 3)] += _landing(state, piece, taken)
        coastal = _coastal(board)
        by_reach: dict[tuple[str, int], tuple[list[int], list[float]]] = defaultdict(
            lambda: ([], []))
        for (there, domain, moves), strength in reaching.items():
            theres, strengths = by_reach[(domain, moves)]
            theres.append(there)
            strengths.append(strength)
        for (domain, moves), (theres, strengths) in by_reach.items():
            if domain == "land":
                near = board.land_distance[theres] <= max(moves, 1)
            elif domain == "air":
                near = board.air_distance[theres] <= moves - 1
            else:
                near = (board.air_distance[theres] <= moves) & coastal
            attack += np.asarray(strengths) @ near
        self.attack = attack
        self.threat = attack - defence
        self.taken_at = (state.round, nation, state.phase)
        self.harbour = self._harbour()
        self._sea_danger: dict | None = None
        self.to_harbour = board.land_distance[:, board.number[self.harbour]].astype(int) \
            if self.harbour is not None else None

    def on(self, state) -> Survey:
        """This reading for another state in the same position (a clone of it)."""
        twin = copy.copy(self)
        twin.state = state
        return twin

    def refresh_defence(self) -> None:
        """The side's own units moved (and nothing else changed): their defence again."""
        state = self.state
        board = state.data.board
        side = state.side(self.nation)
        defence = np.zeros(len(board.spaces))
        values: dict[tuple[str, str], float] = {}      # (owner, type) -> defence, read once
        for space, found in state.pieces.items():
            there = board.number[space]
            for piece in found:
                if state.side(piece.owner) == side:
                    value = values.get((piece.owner, piece.type))
                    if value is None:
                        value = values[(piece.owner, piece.type)] = \
                            state.profiles(piece.owner)[piece.type].value(False) / 6
                    defence[there] += value
        self.threat = self.attack - defence
        self.taken_at = (state.round, self.nation, state.phase)

    def _harbour(self) -> str | None:
        """Once no enemy capital is left within reach by land, the nation's coast nearest the
        nearest enemy capital across the sea: where its idle armies gather for a crossing and
        its transports take them aboard (None while its land war goes on, or for an island)."""
        state, nation = self.state, self.nation
        board = state.data.board
        capital = state.data.nations[nation].capital
        if capital is None or capital in board.islands or state.control.get(capital) != nation:
            return None
        home = board.number[capital]
        targets = sorted(n.capital for n in state.data.nations.values() if n.capital
                         and movement.enemy_territory(state, n.capital, nation))
        if not targets or any(board.land_distance[home, board.number[t]] < FAR for t in targets):
            return None
        target = min(targets, key=lambda t: (board.air_distance[home, board.number[t]], t))
        shores = [s for s in board.land if state.control.get(s) == nation
                  and board.land_distance[home, board.number[s]] < FAR
                  and any(not movement.hostile_sea(state, z, nation) for z in board.coasts.get(s, ()))]
        if not shores:
            return None
        return min(shores, key=lambda s: (board.distance(s, target), s))

    def front(self, space: str) -> int:
        """Land moves from `space` to the nearest enemy territory (flying distance, plus a
        crossing's worth, where no land path leads there)."""
        here = self.state.data.board.number[space]
        near = int(self.on_foot[here])
        if near >= FAR:
            near = int(self.by_air[here]) + 3
        return near

    def to_sea(self, space: str) -> int:
        """Land moves from `space` to the harbour (0 when there is none)."""
        if self.to_harbour is None:
            return 0
        return int(self.to_harbour[self.state.data.board.number[space]])

    def city(self, space: str) -> int:
        """Land moves from `space` to the nearest enemy victory city (FAR: none by land)."""
        return int(self.to_city[self.state.data.board.number[space]])

    def threat_to(self, space: str) -> float:
        return float(self.threat[self.state.data.board.number[space]])

    def exposed(self, space: str) -> bool:
        """Whether any enemy land unit could enter `space` next turn, on foot or by sea."""
        return bool(self.attack[self.state.data.board.number[space]] > 0)

    def sea_danger(self, zone: str) -> list[tuple[Fighter, float]]:
        """The enemy units that could strike the sea zone next turn: aircraft within their
        move less one (they must land again), warships within their move by sea."""
        if self._sea_danger is None:
            self._sea_danger = self._strikes_at_sea()
        found = self._sea_danger.get(zone)
        if found is None:
            return []
        if isinstance(found, dict):            # counted; made into forces when first asked
            found = self._sea_danger[zone] = [
                (self._fighters[key], n) for key, n in sorted(found.items())]
        return found

    def _strikes_at_sea(self) -> dict:
        state = self.state
        board, types = state.data.board, state.data.types
        side = state.side(self.nation)
        zones = sorted(board.sea)
        numbers = np.array([board.number[z] for z in zones])
        sides = {n: entry.side for n, entry in state.data.nations.items()}
        strikers = {t for t, kind in types.items() if kind.domain in ("air", "sea")
                    and not kind.capacity}
        groups: dict[tuple[str, str, str], int] = defaultdict(int)
        for space, found in state.pieces.items():
            for piece in found:
                if piece.type in strikers and sides.get(piece.owner) != side:
                    groups[(space, piece.owner, piece.type)] += 1
        counts: dict[str, dict[tuple[str, str], int]] = defaultdict(lambda: defaultdict(int))
        self._fighters: dict[tuple[str, str], Fighter] = {}
        matrix = _sea_matrix(board)
        position = {z: i for i, z in enumerate(zones)}
        for (space, owner, type_), n in groups.items():
            if (owner, type_) not in self._fighters:
                self._fighters[(owner, type_)] = fighter_of(state, type_, owner, True)
            moves = state.movement(owner, type_)
            if types[type_].domain == "air":
                row = board.air_distance[board.number[space]][numbers] <= moves - 1
            else:
                row = matrix[position[space]] <= moves
            for i in np.flatnonzero(row):
                counts[zones[i]][(owner, type_)] += n
        self._danger_counts = {zone: dict(found) for zone, found in counts.items()}
        return dict(counts)

    def safe_at_sea(self, zone: str, escort: Sequence[tuple[Fighter, float]] = ()) -> bool:
        """Whether transports may wait in `zone`: no enemy could strike it next turn, or the
        side's warships there (and `escort`) would likely beat all that could (`guarded`)."""
        if not self.sea_danger(zone):
            return True
        state = self.state
        defence, own, allies = guards(state, self.nation, [
            p for p in state.pieces[zone] if state.side(p.owner) == state.side(self.nation)
            and not state.data.types[p.type].capacity])
        return self.guarded(zone, defence + list(escort), own + list(escort), allies)

    def guarded(self, zone: str, defence: list, own: list, allies: set[str]) -> bool:
        """Whether the side's warships in `zone` (`defence`; `own`, the nation's among them;
        `allies`, the other nations with warships there) would likely beat all the enemy
        could strike it with next turn (`strike_chance`)."""
        return self.strike_chance(zone, defence, own, allies, SAFE_ODDS) < SAFE_ODDS

    def strike_chance(self, zone: str, defence: list, own: list, allies: set[str],
                      enough: float = 1.0) -> float:
        """The chance that all the enemy could strike `zone` with next turn beats the side's
        warships there (`defence`; `own`, the nation's among them; `allies`, the other nations
        with warships there). An ally's warships guard only until the ally's own turn: against
        the enemies that move after it and before this nation's next turn, the nation's own
        must do (Italy's fleet, which sails on its turn, leaves a German transport to the
        American bomber that follows). A chance of `enough` or more is not refined."""
        danger = self.sea_danger(zone)
        if not danger:
            return 0.0
        chance = win_chance(danger, defence) if defence else 1.0
        if chance >= enough:
            return chance
        later = set().union(*(self.enemies_after(ally) for ally in allies))
        danger = self.sea_danger_from(zone, later) if later else []
        if danger:
            chance = max(chance, win_chance(danger, own) if own else 1.0)
        return chance

    def enemies_after(self, ally: str) -> set[str]:
        """The enemy nations that move after `ally` and before this nation's next turn."""
        order = self.state.data.order
        start = order.index(self.nation)
        coming = order[start + 1:] + order[:start]
        if ally not in coming:
            return set()
        side = self.state.side(self.nation)
        return {n for n in coming[coming.index(ally) + 1:] if self.state.side(n) != side}

    def sea_danger_from(self, zone: str, nations: set[str]) -> list[tuple[Fighter, float]]:
        """`sea_danger` of these nations' units alone."""
        if self._sea_danger is None:
            self._sea_danger = self._strikes_at_sea()
        return [(self._fighters[key], n) for key, n in sorted(self._danger_counts.get(zone, {}).items())
                if key[0] in nations]


def guards(state, nation: str, warships: list[Piece]) -> tuple[list, list, set[str]]:
    """The side's `warships` in a zone as `Survey.guarded` reads them: their defence, the
    nation's own among it, and the allies that own the rest."""
    return (forces(state, warships, attacking=False),
            forces(state, [p for p in warships if p.owner == nation], attacking=False),
            {p.owner for p in warships} - {nation})


def objective_spaces(state, nation: str) -> set[str]:
    """The territories the nation's national objectives ask it to hold (none when the
    objectives are not played)."""
    found: set[str] = set()
    if not state.options.get("national_objectives"):
        return found

    def walk(condition):
        if isinstance(condition, dict):
            for key, body in condition.items():
                if key == "controls" and isinstance(body, dict) and body.get("owner") == nation:
                    found.update(body.get("spaces") or [])
                else:
                    walk(body)
        elif isinstance(condition, list):
            for item in condition:
                walk(item)
    for objective in state.data.objectives:
        if objective.get("owner") == nation:
            walk(objective.get("when"))
    return found


# -- purchase ------------------------------------------------------------------------------------
# what a unit bought with money to spare becomes: better units for the same factory room
UPGRADES = (("infantry", "armour"), ("artillery", "armour"), ("armour", "fighter"),
            ("fighter", "bomber"))
ESCORT = "destroyer"
MOST_ESCORTS = 3


class Purchase:
    """A turn's purchase (see the module's docstring). `style` gives the other purchases a
    search weighs: "land" (no ships), "naval" (transports with an escort, and warships),
    "air" (fighters first); "own" is the player's own. Every style spends what the factories'
    room allows: money kept back for no plan of its own is money lost to the war."""

    STYLES = ("own", "land", "naval", "air")

    def __init__(self, player: HeuristicPlayer, state, style: str = "own"):
        self.player, self.state, self.nation, self.style = player, state, state.seat, style
        self.convoy: str | None = None      # where the transports bought are to be placed
        self.factory_site: str | None = None  # where the factory bought is to be placed

    def plan(self) -> list[tuple]:
        state, nation, style = self.state, self.nation, self.style
        self.money = state.money[nation]
        self.cost = {t: state.cost(nation, t) for t in buyable(state, nation)}   # none without a cost
        self.bought: dict[str, int] = {}
        repairs: list[tuple] = []
        repaired: dict[str, int] = {}
        rate = repair_rate(state, nation)          # damage markers an IPC removes (§5.3.2)
        for space in sorted(state.damage):
            if state.damage.get(space) and state.control.get(space) == nation and self.money > 10:
                fix = min(state.damage[space], (self.money - 10) * rate)
                if fix > 0:
                    repairs.append(("repair", space, fix))
                    repaired[space] = fix
                    self.money -= -(-fix // rate)
        # the room the repairs give back is room to fill (§5.3.2: a repair takes effect at once)
        self.room, self.sea_room = self._room(repaired)
        capital = state.data.nations[nation].capital
        threat = self.player.survey.threat_to(capital) if capital else 0.0
        if threat > 0:
            self.buy("infantry", math.ceil(threat / (2 / 6)))
        naval = self.player.options["naval"] and style != "land"
        if naval and self.sea_room > 0 and (naval_power(state, nation, self.player.survey)
                                            or style == "naval"):
            self._transports()
            if self._enemy_subs_near():
                self.buy("destroyer", 1)
        if naval and style == "naval":
            self._warships()
        if naval and (deck := self._deck_room()) and self.money >= 30:
            self.buy("fighter", min(deck, 2))        # placed aboard (§5.7.1)
        if style == "air":
            self.buy("fighter", self.room)
        if self.money >= 40 and self.room > 4:
            self.buy("fighter", 1)
        while self.room > 0 and self.money >= self.cost.get("infantry", FAR):
            for type_, share in (("infantry", 3), ("artillery", 1), ("armour", 1)):
                if self.room <= 0:
                    break
                self.buy(type_, share)
        self._spend_the_rest()
        return repairs + [("buy", t, n) for t, n in self.bought.items() if n > 0] + [("end",)]

    def buy(self, type_: str, wanted: int) -> int:
        """Buy up to `wanted` units the money and the factories' room allow; how many."""
        if type_ not in self.cost:
            return 0
        kind = self.state.data.types[type_]
        most = self.money // max(self.cost[type_], 1)
        if kind.domain != "structure":
            most = min(most, self.sea_room if kind.domain == "sea" else self.room)
        n = max(0, min(wanted, most))
        if n:
            self.bought[type_] = self.bought.get(type_, 0) + n
            self.money -= n * self.cost[type_]
            if kind.domain == "sea":
                self.sea_room -= n
            if kind.domain != "structure":
                self.room -= n
                self.sea_room = min(self.sea_room, self.room)
        return n

    def _room(self, repaired: dict[str, int] | None = None) -> tuple[int, int]:
        """Units the factories may place this turn, once the `repaired` damage markers are
        removed (the rules' own count, economy.factory_rooms), and how many of them at sea;
        units bought before and still waiting take their room first."""
        state, nation = self.state, self.nation
        land = sea = 0
        for space, room in factory_rooms(state, nation, repaired).items():
            land += room
            if state.data.board.coasts.get(space):
                sea += room
        waiting = sum(n for t, n in state.pool[nation].items()
                      if state.data.types[t].domain != "structure")
        land = max(0, land - waiting)
        return land, min(sea, land)

    def _transports(self) -> None:
        """Transports for the troops waiting to cross, only with a zone to place them in that
        the enemy cannot strike, or with destroyers that make one so."""
        state, nation = self.state, self.nation
        transports = sum(1 for found in state.pieces.values() for p in found
                         if p.owner == nation and state.data.types[p.type].capacity)
        transports += state.pool[nation].get("transport", 0)      # bought, not yet placed
        overseas = self._coastal_factories()
        if self.player.survey.harbour is not None:
            overseas.add(self.player.survey.harbour)
        troops = sum(1 for found in state.pieces.values() for p in found
                     if p.owner == nation and state.data.types[p.type].domain == "land"
                     and state.data.types[p.type].size and p.space in overseas)
        # troops cut off by sea elsewhere, beyond the one that holds each such territory (those
        # by a coastal factory are counted above)
        troops += sum(max(0, n - 1) for space, n in self._cut_off().items() if space not in overseas)
        wanted = min(max(2, self.sea_room // 2), max(0, math.ceil(troops / 2) - transports))
        if self.style == "naval":
            wanted = max(wanted, 2)
        if wanted <= 0 or "transport" not in self.cost:
            return
        convoy = self._convoy_zone()
        if convoy is None:
            return
        zone, escorts = convoy
        if self.style == "naval":
            escorts = max(escorts, 1)
        affordable = (self.money - escorts * self.cost.get(ESCORT, FAR)) // self.cost["transport"]
        if affordable < 1 or escorts > min(wanted, affordable):
            return                     # no more escorts than transports they guard
        if escorts and self.buy(ESCORT, escorts) < escorts:
            return
        if self.buy("transport", wanted):
            self.convoy = zone

    def _convoy_zone(self) -> tuple[str, int] | None:
        """The sea zone by a coastal factory where new transports would be safest, and the
        destroyers they need there (None: no zone is safe even with an escort)."""
        state, survey = self.state, self.player.survey
        zones = sorted({z for f in self._coastal_factories() for z in state.data.board.coasts[f]
                        if not movement.hostile_sea(state, z, self.nation)})
        if not zones:
            return None
        escort = fighter_of(state, ESCORT, self.nation, False) if ESCORT in self.cost else None
        for count in range(MOST_ESCORTS + 1 if escort is not None else 1):
            for zone in zones:
                if survey.safe_at_sea(zone, [(escort, count)] if count and escort else []):
                    return zone, count
        return None

    def _warships(self) -> None:
        """A naval purchase: a destroyer and a cruiser for every two transports' worth of
        room left, placed with the convoy."""
        for type_ in ("destroyer", "cruiser"):
            if self.sea_room > 0:
                self.buy(type_, max(1, self.sea_room // 4))

    def _spend_the_rest(self) -> None:
        """Money the factories' room leaves over buys better units instead of the cheap ones
        (tanks for infantry, aircraft for tanks); what is still left buys a factory where
        the nation has the income for more room than it has."""
        for cheap, better in UPGRADES:
            if cheap not in self.cost or better not in self.cost:
                continue
            extra = self.cost[better] - self.cost[cheap]
            while self.bought.get(cheap, 0) and self.money >= extra:
                self.bought[cheap] -= 1
                self.bought[better] = self.bought.get(better, 0) + 1
                self.money -= extra
        if self.room == 0 and self.money >= self.cost.get("factory", FAR):
            site = self._factory_site()
            if site is not None:
                self.buy("factory", 1)
                self.factory_site = site

    def _factory_site(self) -> str | None:
        """The most valuable territory (2 IPCs or more) the nation has held since its turn
        began, without a factory and safe from attack, nearest the front."""
        state, survey = self.state, self.player.survey
        board = state.data.board
        sites = [s for s in board.land if state.control.get(s) == self.nation
                 and state.start_control.get(s) == self.nation and board.value[s] >= 2
                 and state.factory_at(s) is None and survey.threat_to(s) <= 0]
        if not sites:
            return None
        return min(sites, key=lambda s: (-board.value[s], survey.front(s), s))

    def _coastal_factories(self) -> set[str]:
        state = self.state
        return {s for s in state.data.board.land if state.factory_at(s) is not None
                and state.control.get(s) == self.nation and state.data.board.coasts.get(s)}

    def _deck_room(self) -> int:
        """Room for fighters on the nation's carriers next to its coastal factories, where new
        fighters may be placed aboard (§5.7.1)."""
        state = self.state
        types = state.data.types
        zones = {z for f in self._coastal_factories() for z in state.data.board.coasts[f]}
        room = 0
        for zone in zones:
            pieces = state.pieces[zone]
            if any(p.owner == self.nation and types[p.type].carrier_room for p in pieces):
                room += max(0, sum(types[p.type].carrier_room - types[p.type].carrier_size
                                   for p in pieces if state.side(p.owner) == state.side(self.nation)))
        return room

    def _cut_off(self) -> dict[str, int]:
        """The nation's coastal territories with no road to the enemy (troops there need
        ships), with the nation's land units in each."""
        state, survey = self.state, self.player.survey
        board = state.data.board
        return {s: sum(1 for p in state.pieces[s] if p.owner == self.nation
                       and state.data.types[p.type].domain == "land")
                for s in board.land if board.coasts.get(s) and state.control.get(s) == self.nation
                and survey.on_foot[board.number[s]] >= FAR}

    def _enemy_subs_near(self) -> bool:
        state = self.state
        board = state.data.board
        zones = {z for f in self._coastal_factories() for z in board.coasts[f]}
        for zone in zones:
            for other in [zone] + board.neighbours[zone]:
                if any(state.side(p.owner) != state.side(self.nation)
                       and state.data.types[p.type].has("submerge") for p in state.pieces[other]):
                    return True
        return False


# -- combat move ---------------------------------------------------------------------------------
class CombatPlan:
    """Chooses the turn's attacks (see the module's docstring)."""

    def __init__(self, player: HeuristicPlayer, state, odds: float,
                 skip: frozenset | set = frozenset(), sheltered: bool = False):
        self.player, self.state, self.nation = player, state, state.seat
        self.odds, self.skip = odds, skip          # the least chance it attacks with; spaces left alone
        self.sheltered = sheltered                 # no landing that leaves a transport exposed
        self.side = state.side(self.nation)
        self.loads: dict[str, list[tuple[str, str]]] = defaultdict(list)
        self.risks: list[tuple[float, str]] = []   # (estimated chance, space) of each attack
        self.moves: dict[tuple[str, str], list[tuple[str, int, str]]] = defaultdict(list)
        self.used: set[int] = set()
        self.wanted = objective_spaces(state, self.nation)
        self.gunships: list[tuple[int, Piece, dict]] | None = None   # idle bombarding ships
        self.kept: dict[int, str] = {}        # units kept at home that may strike a neighbour
        self.warships: list[tuple[int, Piece, dict]] | None = None   # idle escorts for landings
        self.attacked: set[str] = set()       # spaces attacked so far

    def plan(self):
        self.reach = self._reach()
        self._keep_home()
        targets = self._targets()
        for target in targets:
            self._attack(target)
        self._assaults()
        if self.player.options["bombing"]:
            self._raids()
        return dict(self.moves)

    def _reach(self) -> dict[int, tuple[Piece, dict]]:
        """Each movable piece of the nation and where it may go."""
        state = self.state
        found = {}
        groups: dict[tuple, list[Piece]] = defaultdict(list)
        for space, pieces in state.pieces.items():
            for piece in pieces:
                if piece.owner == self.nation and state.movable(piece):
                    groups[(space, piece.type, state.group_tag(piece))].append(piece)
        for group in groups.values():
            destinations = state.group_destinations(group)
            for piece in group:
                found[piece.uid] = (piece, destinations)
        return found

    def _keep_home(self) -> None:
        """Units that stay to hold what matters (the capital, victory cities, territories
        worth 2 or more) against what could strike it next turn; a victory city or capital any
        enemy could enter keeps one at least. Those kept beyond that one, away from the capital,
        may still strike a neighbour that threatens them (`strikers`)."""
        state, survey = self.state, self.player.survey
        board = state.data.board
        capital = state.data.nations[self.nation].capital
        for space in board.land:
            if state.control.get(space) != self.nation:
                continue
            important = space == capital or space in board.victory_cities
            if not (important or board.value[space] >= 2):
                continue
            danger = survey.threat_to(space)
            least = 1 if important and survey.exposed(space) else 0
            if danger <= 0 and not least:
                continue
            danger = max(danger, 0.0) + sum(
                state.profiles(p.owner)[p.type].value(False) / 6
                for p in state.pieces[space] if state.side(p.owner) == self.side) * (danger > 0)
            if space == capital:
                danger *= 1.5
            defenders = sorted((p for p in state.pieces[space] if p.owner == self.nation
                                and state.data.types[p.type].domain == "land"
                                and p.uid in self.reach),
                               key=lambda p: (-state.profiles(p.owner)[p.type].value(False),
                                              state.data.types[p.type].cost))
            held = 0.0
            for count, piece in enumerate(defenders):
                if held >= danger and count >= least:
                    break
                self.used.add(piece.uid)
                held += state.profiles(piece.owner)[piece.type].value(False) / 6
                if count >= least and space != capital:
                    self.kept[piece.uid] = space

    def _strikers(self, target: str) -> list[Piece]:
        """Units kept at home next to `target` that may strike it: it holds enemy land units
        that threaten their home, and beating them lifts the threat."""
        state = self.state
        board = state.data.board
        if not any(state.data.types[p.type].domain == "land"
                   for p in movement.enemies_in(state, target, self.nation)):
            return []
        found = []
        for uid, home in sorted(self.kept.items()):
            piece, dest = self.reach[uid]
            if target in dest and target in board.neighbours[home] and "" in dest[target][2]:
                found.append(piece)
        found.sort(key=lambda p: (state.data.types[p.type].cost, p.uid))
        return found

    def _targets(self) -> list[tuple[float, str]]:
        state = self.state
        board = state.data.board
        seen = {to for piece, dest in self.reach.values() for to in dest}
        found = []
        for space in seen:
            if space in self.skip:
                continue
            if space in board.land and not movement.enemy_territory(state, space, self.nation):
                continue
            if space in board.sea and not movement.enemies_in(state, space, self.nation):
                continue
            found.append((self._worth(space), space))
        found.sort(key=lambda item: (-item[0], item[1]))
        return found

    def _worth(self, space: str) -> float:
        state = self.state
        board = state.data.board
        worth = float(board.value.get(space, 0))
        if space in board.victory_cities:
            worth += 6
        if any(n.capital == space for n in state.data.nations.values()):
            worth += 15
        if space in self.wanted:
            worth += 4
        defenders = movement.enemies_in(state, space, self.nation)
        worth += 0.1 * sum(state.data.types[p.type].cost for p in defenders)
        return worth

    def _free(self, space: str, domain: str) -> list[Piece]:
        state = self.state
        found = []
        for uid, (piece, dest) in self.reach.items():
            if uid in self.used or space not in dest:
                continue
            kind = state.data.types[piece.type]
            if kind.domain != domain or "board" in dest[space][2] or kind.capacity:
                continue                 # transports neither fight nor shield (§7.3.6)
            found.append(piece)
        found.sort(key=lambda p: (state.data.types[p.type].cost, p.uid))
        return found

    def _attack(self, item: tuple[float, str]) -> None:
        worth, space = item
        state = self.state
        board = state.data.board
        defenders = [p for p in movement.enemies_in(state, space, self.nation)]
        defence = forces(state, defenders, attacking=False)
        gun = gun_chance(state, space, self.nation)
        odds = self.odds
        ground = self._free(space, "land" if space in board.land else "sea")
        air = self._free(space, "air")
        if space in board.sea and not self._air_may_hit(defenders, ground):
            air = []               # aircraft cannot hit submarines without a destroyer (§7.3.4)
            ground.sort(key=lambda p: not state.data.types[p.type].has("anti_submarine"))
        strikers = self._strikers(space) if space in board.land and defence else []
        if space in board.land and not ground and not strikers:
            return
        if not defence:
            self._send([ground[0]], space)          # an empty territory: one unit takes it
            return
        chosen: list[Piece] = []
        for piece in ground + strikers + air:
            chosen.append(piece)
            if win_chance(forces(state, chosen), defence, gun) >= min(odds + 0.1, 0.97):
                break
        chance = win_chance(forces(state, chosen), defence, gun)
        if self.player.options["judge"] == "calculator":
            chance = calculated_chance(state, self.nation, space, chosen, defenders,
                                       self.player.rng)
        if chance < odds:
            return
        if space in board.land and not any(state.data.types[p.type].domain == "land"
                                           for p in chosen):
            return
        lost, killed = expected_losses(forces(state, chosen), defence)
        if chance * (killed + 2 * worth) < lost * (1.2 - chance):
            return
        self.risks.append((chance, space))
        self._send(chosen, space)

    def _air_may_hit(self, defenders: list[Piece], ground: list[Piece]) -> bool:
        """Whether aircraft attacking these defenders at sea have something to hit: not when
        they are all submarines and no destroyer comes along (§7.3.4)."""
        types = self.state.data.types
        fighting = [p for p in defenders if not types[p.type].capacity]
        if not fighting or not all(types[p.type].has("submerge") for p in fighting):
            return True
        return any(types[p.type].has("anti_submarine") for p in ground)

    def _send(self, pieces: list[Piece], space: str) -> None:
        self.attacked.add(space)
        for piece in pieces:
            self.used.add(piece.uid)
            self.kept.pop(piece.uid, None)
            targets = self.reach[piece.uid][1][space][2]
            target = "" if "" in targets else targets[0]
            self._add((piece.space, piece.type), space, 1, target)

    def _add(self, key, to, count, target) -> None:
        plan = self.moves[key]
        for index, (dest, n, aim) in enumerate(plan):
            if dest == to and aim == target:
                plan[index] = (dest, n + count, aim)
                return
        plan.append((to, count, target))

    def _assaults(self) -> None:
        """Amphibious assaults (§5.4.3): idle land units board the transports beside them; the
        transports that can reach the same enemy coast join in one assault, with aircraft, on
        the most valuable coast where together they reach the player's odds."""
        state = self.state
        board = state.data.board
        odds = self.odds
        fleets = self._loaded_transports()
        while fleets:
            best = None
            for shore in sorted(board.land):
                if not movement.enemy_territory(state, shore, self.nation) \
                        or shore in self.attacked or shore in self.skip:
                    continue
                # each transport lands from the zone nearest it, a safe one where it can: it
                # stays there after the landing (§7.3.6)
                coming = {uid: zone for uid, (_, _, zones, _) in fleets.items()
                          for zone in [min((z for z in zones if shore in board.shores[z]),
                                           key=lambda z: (not self._safe_landing(z), zones[z], z),
                                           default=None)]
                          if zone is not None}
                if not coming:
                    continue
                troops = [p for uid in coming for p in fleets[uid][1]]
                defenders = movement.enemies_in(state, shore, self.nation)
                defence = forces(state, defenders, attacking=False)
                air = [p for p in self._free(shore, "air")] if defence else []
                gun = gun_chance(state, shore, self.nation)
                ships = self._bombarding(set(coming.values()), len(troops)) if defence else []
                if ships:
                    defence = after_bombardment(state, defence, [ship for ship, _ in ships])
                ships = ships + self._escorts(set(coming.values()), ships)
                chosen = list(troops)
                for piece in air:
                    if win_chance(forces(state, chosen), defence, gun) >= odds:
                        break
                    chosen.append(piece)
                chance = win_chance(forces(state, chosen), defence, gun)
                if chance >= odds and self._worth_landing(shore, chance, chosen, defence, coming,
                                                          fleets, ships):
                    score = (self._worth(shore), -len(coming), shore)
                    if best is None or score > best[0]:
                        best = (score, shore, coming, chosen[len(troops):], ships, chance)
            if best is None:
                return
            _, shore, coming, air, ships, chance = best
            self.risks.append((chance, shore))
            for ship, zone in ships:
                self.used.add(ship.uid)
                if ship.space != zone:
                    self._add((ship.space, ship.type), zone, 1, "")
            for uid, zone in coming.items():
                transport, troops, _, via = fleets.pop(uid)
                self.used.add(uid)
                for piece in troops:
                    self.used.add(piece.uid)
                    if piece.aboard is not None:
                        continue
                    if via is None:                            # boards where the transport is
                        self._add((piece.space, piece.type), transport.space, 1, "board")
                    else:                                      # taken aboard on the way
                        self.loads[via].append((piece.space, piece.type))
                if via is not None:
                    self._add((transport.space, transport.type), via, 1, "")
                    self.moves[(via, transport.type)].append((zone, 1, shore))
                else:
                    self._add((transport.space, transport.type), zone, 1, shore)
            self._send(air, shore)

    def _escorts(self, zones: set[str], ships: list[tuple[Piece, str]]) -> list[tuple[Piece, str]]:
        """Idle warships sent to the landing zones the enemy could strike, where the
        transports stay after the landing (§7.3.6), until each zone is safe; none to a zone
        they cannot make safe."""
        state = self.state
        if self.warships is None:
            self.warships = [(uid, piece, dest) for uid, (piece, dest) in sorted(self.reach.items())
                             if state.data.types[piece.type].domain == "sea"
                             and not state.data.types[piece.type].capacity
                             and not state.data.types[piece.type].has("submerge")]
        taken = {ship.uid for ship, _ in ships}
        found: list[tuple[Piece, str]] = []
        for zone in sorted(zones):
            joining = [ship for ship, z in ships if z == zone]
            if self._safe_landing(zone, joining):
                continue
            extra: list[Piece] = []
            for uid, piece, dest in self.warships:
                if uid in self.used or uid in taken or (piece.space != zone and zone not in dest):
                    continue
                extra.append(piece)
                if self._safe_landing(zone, joining + extra):
                    found += [(ship, zone) for ship in extra]
                    taken.update(ship.uid for ship in extra)
                    break
        return found

    def _worth_landing(self, shore: str, chance: float, chosen: list[Piece], defence,
                       coming: dict[int, str], fleets, ships) -> bool:
        """Whether a landing is worth its expected losses, counting the transports left in
        zones the enemy can strike even with the ships that stay there too (at the
        `landing-risk` share of their cost: all of it by default, as transports left alone
        are sunk without a fight, §5.5.3.2), and the troops the enemy is likely to destroy on
        the shore next turn (`_survivors_lost`), against the shore's income for the rounds the
        troops are likely to hold it (`_rounds_held`)."""
        state = self.state
        lost, killed = expected_losses(forces(state, chosen), defence)
        escort: dict[str, list[Piece]] = defaultdict(list)
        for ship, zone in ships:
            escort[zone].append(ship)
        exposed = sum(state.data.types[fleets[uid][0].type].cost for uid, zone in coming.items()
                      if not self._safe_landing(zone, escort[zone]))
        if exposed and self.sheltered:
            return False
        risk = self.player.landing_risk(self.nation)
        held = self._rounds_held(shore, chosen, lost)
        gain = killed + held * self._worth(shore) - self._survivors_lost(shore, chosen, lost)
        return chance * gain >= lost * (1.2 - chance) + exposed * risk

    def _rounds_held(self, shore: str, chosen: list[Piece], lost: float) -> float:
        """The rounds of the shore's income a landing wins: one, and up to ROUNDS_HELD more as
        the troops that survive it could stand against all the enemy could strike the shore
        with next turn (none once that strike is twice their defence). Troops landed on a
        far shore the enemy can mass against (Japan's in Alaska) win a round; those on an
        island the enemy cannot reach win the whole of it."""
        _, defence, strike = self._next_strike(shore, chosen, lost)
        if not defence:
            return 1.0
        return 1 + ROUNDS_HELD * (1 - self._lost_next(defence, strike))

    def _survivors_lost(self, shore: str, chosen: list[Piece], lost: float) -> float:
        """The cost of the landed troops the enemy's strike on the shore next turn is likely
        to destroy, less what they take with them: as likely lost as the shore (all of them
        once the strike is twice their defence), each round of that battle the strike's hits
        against theirs, so they are worth defence/strike of themselves in enemy losses. Troops
        landed where they cannot stand (Americans in the Balkans beside the German army) are
        thrown away, however little they lose on landing."""
        surviving, defence, strike = self._next_strike(shore, chosen, lost)
        if not surviving or strike <= defence:
            return 0.0
        return self._lost_next(defence, strike) * surviving * (1 - defence / strike)

    @staticmethod
    def _lost_next(defence: float, strike: float) -> float:
        """How likely troops of this defence (expected hits a round) lose a shore to an enemy
        strike of this many: not while they defend with as much, surely at twice it."""
        return min(1.0, max(0.0, strike / defence - 1))

    def _next_strike(self, shore: str, chosen: list[Piece], lost: float) -> tuple[float, float, float]:
        """(the cost of the landed troops likely to survive the landing, their defence in
        expected hits a round, all the enemy could strike the shore with next turn)."""
        state = self.state
        troops = [p for p in chosen if state.data.types[p.type].domain == "land"]
        cost = sum(state.data.types[p.type].cost for p in troops)
        if not cost:
            return 0.0, 0.0, 0.0
        surviving = max(0.0, cost - lost)
        defence = surviving / cost * sum(state.profiles(p.owner)[p.type].value(False) / 6
                                         for p in troops)
        return surviving, defence, self.player.survey.attack[state.data.board.number[shore]]

    def _safe_landing(self, zone: str, joining: Sequence[Piece] = ()) -> bool:
        """Whether transports landing troops from `zone` (where they stay, §7.3.6) are safe
        there: with the side's ships that stay (not those sent to attack elsewhere) and the
        ships `joining` them."""
        state = self.state
        survey = self.player.survey
        if not survey.sea_danger(zone):
            return True
        staying = [p for p in state.pieces[zone] if state.side(p.owner) == self.side
                   and not state.data.types[p.type].capacity and p.uid not in self.used
                   and p not in joining] + list(joining)
        return survey.guarded(zone, *guards(state, self.nation, staying))

    def _bombarding(self, zones: set[str], most: int) -> list[tuple[Piece, str]]:
        """Idle battleships and cruisers that can join the transports in their landing zones
        and bombard the shore (§5.5.2.2), at most one per landing unit: each with its zone;
        none in a zone with enemy ships, where a sea battle comes first and no ship of it
        bombards."""
        state = self.state
        found: list[tuple[Piece, str]] = []
        zones = {z for z in zones if not movement.enemies_in(state, z, self.nation)}
        if self.gunships is None:
            self.gunships = [(uid, piece, dest) for uid, (piece, dest) in sorted(self.reach.items())
                             if state.profiles(self.nation)[piece.type].offshore_bombardment]
        for uid, piece, dest in self.gunships:
            if len(found) >= most:
                break
            if uid in self.used:
                continue
            if piece.space in zones:
                found.append((piece, piece.space))
                continue
            near = sorted(z for z in zones if z in dest)
            if near:
                found.append((piece, near[0]))
        return found

    def _loaded_transports(self) -> dict[int, tuple[Piece, list[Piece], dict[str, int], str | None]]:
        """Idle transports with the troops they carry or can take aboard, and the safe zones
        they reach this turn."""
        state = self.state
        board = state.data.board
        fleets = {}
        taken: set[int] = set()
        for uid, (transport, _dest) in sorted(self.reach.items()):
            if not state.data.types[transport.type].capacity or uid in self.used:
                continue
            room = state.room_on(transport)
            troops = [c for c in transport.cargo if c.owner == self.nation
                      and not state.data.types[c.type].has("noncombat_move_only")]
            for shore in sorted(board.shores.get(transport.space, ())):
                for piece in state.pieces[shore]:
                    size = state.data.types[piece.type].size
                    if piece.owner == self.nation and piece.uid in self.reach and \
                            piece.uid not in self.used and piece.uid not in taken and size and \
                            size <= room and transport.space in self.reach[piece.uid][1]:
                        troops.append(piece)
                        taken.add(piece.uid)
                        room -= size
            moves = state.movement(self.nation, transport.type)
            via = None
            if not troops and not transport.cargo:
                via, troops = self._on_the_way(transport, room, taken)
            if not troops:
                continue
            start = transport.space if via is None else via
            reach = movement.sea_reach(state, start, self.nation, moves - (via is not None),
                                       True, False)
            zones = {z: d for z, d in reach.items() if not movement.hostile_sea(state, z, self.nation)}
            fleets[uid] = (transport, troops, zones, via)
        return fleets

    def _on_the_way(self, transport: Piece, room: int, taken: set[int]) -> tuple[str | None, list[Piece]]:
        """An empty transport with nobody beside it sails one zone to troops waiting on a shore
        there, takes them aboard and goes on to an assault (§5.4.8, §7.3.6): the zone and the
        troops, the most it can carry."""
        state = self.state
        board = state.data.board
        best: tuple[str | None, list[Piece]] = (None, [])
        for zone, distance in sorted(movement.sea_reach(state, transport.space, self.nation, 1,
                                                        True, False).items()):
            if distance != 1 or movement.hostile_sea(state, zone, self.nation):
                continue
            left, troops = room, []
            waiting = sorted((p for shore in sorted(board.shores.get(zone, ()))
                              for p in state.pieces[shore]),
                             key=lambda p: (-state.data.types[p.type].size, p.uid))
            for piece in waiting:
                kind = state.data.types[piece.type]
                size = kind.size
                if piece.owner == self.nation and kind.domain == "land" and size and size <= left \
                        and piece.uid in self.reach and piece.uid not in self.used \
                        and piece.uid not in taken and not kind.has("noncombat_move_only"):
                    troops.append(piece)
                    left -= size
            if len(troops) > len(best[1]):
                best = (zone, troops)
        taken.update(p.uid for p in best[1])
        return best

    def _raids(self) -> None:
        state = self.state
        for uid, (piece, dest) in sorted(self.reach.items()):
            if uid in self.used or not state.data.types[piece.type].has("strategic_bombing"):
                continue
            raids = [s for s, (_, _, targets) in dest.items() if "raid" in targets]
            if not raids:
                continue
            target = max(raids, key=lambda s: (state.data.board.value[s]
                                               - state.damage.get(s, 0), s))
            self.used.add(uid)
            self._add((piece.space, piece.type), target, 1, "raid")


# -- noncombat move ------------------------------------------------------------------------------
class NoncombatPlan:
    """Moves toward the front and the threatened places (see the module's docstring). With
    `gather`, every warship that can reach them joins the transports left where the enemy
    could sink them, even where they cannot make them safe (they raise the price of the
    strike, and an enemy that attacks only at good odds may leave them be); without it,
    warships go only where they make the transports safe."""

    def __init__(self, player: HeuristicPlayer, state, gather: bool = False):
        self.player, self.state, self.nation = player, state, state.seat
        self.survey = player.survey
        self.gather = gather
        self.moves: dict[tuple[str, str], list[tuple[str, int, str]]] = defaultdict(list)
        self.reached: dict[tuple, dict] = {}
        # sea zone -> transports the plan leaves there where the enemy could sink them
        self.exposed: dict[str, int] = defaultdict(int)

    def plan(self):
        state = self.state
        board = state.data.board
        survey = self.survey
        need = {}
        for space in board.land:
            if movement.friendly_territory(state, space, self.nation) and space not in board.neutral \
                    and survey.front(space) <= 2:
                need[space] = survey.threat_to(space) + board.value[space] / 4
        self.player.need = need
        self.player.stranded = set()
        self.need = need
        groups: dict[tuple, list[Piece]] = defaultdict(list)
        for space, pieces in state.pieces.items():
            for piece in pieces:
                if piece.owner == self.nation and state.movable(piece):
                    groups[(space, piece.type, state.group_tag(piece))].append(piece)
        self.garrison = self._garrison(groups)
        boarding: dict[str, int] = defaultdict(int)        # sea zone -> room taken
        for (space, type_, _tag), group in sorted(groups.items()):
            if state.data.types[type_].domain == "land":
                self._march(space, type_, group, boarding)
        self.fleet = {key: group for key, group in groups.items()
                      if state.data.types[key[1]].domain == "sea"
                      and not state.data.types[key[1]].capacity
                      and not state.data.types[key[1]].has("submerge")}
        self.escorting: dict[tuple, str] = {}              # warship group -> zone it guards
        convoy = self._transports(groups, boarding)
        if self.gather:
            self._gather()
        self._warships(groups, convoy)
        return dict(self.moves)

    def _march(self, space: str, type_: str, group: list[Piece], boarding: dict) -> None:
        """Land units walk toward the front, or board a transport where no road leads on."""
        state, survey = self.state, self.survey
        board = state.data.board
        kept = self.garrison.get((space, type_), 0)
        if kept:
            group = group[kept:]
            if not group:
                return
        destinations = state.group_destinations(group)

        def score(to):
            # toward the nearest enemy victory city while one lies within a few land moves,
            # so that armies mass on one road instead of spreading along the whole front
            city = survey.city(to)
            front = survey.front(to) if not idle else survey.to_sea(to)
            return (min(city, FAR) if city <= 4 else FAR, front, -self.need.get(to, 0.0))

        # with the land war over, armies not at the front gather at the harbour for a crossing
        # (a player that buys no ships keeps them at the front)
        idle = survey.harbour is not None and self.player.options["naval"] \
            and survey.front(space) > 2 and survey.city(space) > 4

        best, best_score = None, score(space)
        for to in destinations:
            if to in board.land:
                found = score(to)
                if found < best_score:
                    best, best_score = to, found
        if best is not None:
            self.moves[(space, type_)].append((best, len(group), ""))
            return
        if survey.front(space) <= 1:
            return                                        # at the front already
        size = state.data.types[type_].size
        for to, (_, _, targets) in sorted(destinations.items()):
            if "board" not in targets:
                continue
            room = state.room_to_board(to, self.nation, size, False) - boarding[to] // max(size, 1)
            if room > 0:
                count = min(room, len(group))
                boarding[to] += count * size
                self.moves[(space, type_)].append((to, count, "board"))
                group = group[count:]
                break
        if board.coasts.get(space):
            self.player.stranded.update(p.uid for p in group)

    def _garrison(self, groups) -> dict[tuple[str, str], int]:
        """(territory, land type) -> how many stay to hold it, the best defenders first; the
        rest may leave for the front. The capital keeps what it needs against what could strike
        it next turn; a victory city any enemy could enter keeps as much, and one at least;
        one empty is held again by the nearest unit that can reach it."""
        state, survey = self.state, self.survey
        board = state.data.board
        capital = state.data.nations[self.nation].capital
        kept: dict[tuple[str, str], int] = defaultdict(int)
        side = state.side(self.nation)
        for space in sorted(board.land):
            if state.control.get(space) != self.nation:
                continue
            attack = float(survey.attack[board.number[space]])
            if space == capital and self.need.get(capital, 0) > 0:
                danger = 1.5 * attack + 1
            elif space in board.victory_cities and attack > 0:
                danger = attack if survey.threat_to(space) > 0 else 0.0
            else:
                continue
            held = sum(state.profiles(p.owner)[p.type].value(False) / 6
                       for p in state.pieces[space] if state.side(p.owner) == side
                       and p.owner != self.nation)
            defenders = sorted((p for p in state.pieces[space] if p.owner == self.nation
                                and state.data.types[p.type].domain == "land"),
                               key=lambda p: (-state.profiles(p.owner)[p.type].value(False),
                                              state.data.types[p.type].cost))
            staying = 0
            for piece in defenders:
                if held >= danger and staying:
                    break
                kept[(space, piece.type)] += 1
                staying += 1
                held += state.profiles(piece.owner)[piece.type].value(False) / 6
            if not staying and not any(state.side(p.owner) == side
                                       and state.data.types[p.type].domain == "land"
                                       for p in state.pieces[space]):
                self._hold_again(space, groups, kept)
        return kept

    def _reach(self, key: tuple, group: list[Piece]) -> dict:
        """Where a group may go, worked out once a phase."""
        found = self.reached.get(key)
        if found is None:
            found = self.reached[key] = self.state.group_destinations(group)
        return found

    def _hold_again(self, city: str, groups, kept) -> None:
        """The cheapest land unit that can reach an empty victory city moves in (not one that
        holds a city itself)."""
        state = self.state
        best = None
        for (space, type_, _tag), group in sorted(groups.items()):
            kind = state.data.types[type_]
            if kind.domain != "land" or kind.has("noncombat_move_only") or space == city \
                    or len(group) <= kept.get((space, type_), 0):
                continue
            if city not in self._reach((space, type_, _tag), group):
                continue
            score = (kind.cost, self.survey.front(space) <= 1, space, type_)
            if best is None or score < best:
                best = score
        if best is not None:
            _, _, space, type_ = best
            self.moves[(space, type_)].append((city, 1, ""))
            kept[(space, type_)] += 1         # the group's other units march as planned

    def _transports(self, groups, boarding) -> dict[str, str]:
        """Loaded transports carry their troops toward the enemy and put them ashore next to
        it; empty ones go back to the nation's factories; none ends its move where the enemy
        could sink it (`_shelter`). Returns zone -> where it sails."""
        state, survey = self.state, self.survey
        board = state.data.board
        factories = {z for f, piece in state.factories.items()
                     if state.control.get(f) == self.nation for z in board.coasts.get(f, ())}
        # first the transports that may not move (they landed troops) and the new ones to be
        # placed: warships guard them where they can; then an ally's, which the enemy may
        # strike before that ally moves again (the fleet may not leave them alone where it
        # could make them safe; where it cannot, that is the ally's to weigh)
        side = state.side(self.nation)
        staying: dict[str, int] = defaultdict(int)
        allied: set[str] = set()
        for found in state.pieces.values():
            for p in found:
                if not state.data.types[p.type].capacity or p.space not in board.sea:
                    continue
                if p.owner == self.nation and not state.movable(p):
                    staying[p.space] += 1
                elif p.owner != self.nation and state.side(p.owner) == side:
                    allied.add(p.space)
        for zone in sorted(staying):
            if not self._escort(zone):
                self.exposed[zone] += staying[zone]
        for zone in sorted(allied - set(staying)):
            self._escort(zone)
        if self.player.convoy is not None and state.pool[self.nation].get("transport"):
            self._escort(self.player.convoy)
        sailing = {}
        for (space, type_, _tag), group in sorted(groups.items()):
            kind = state.data.types[type_]
            if not kind.capacity:
                continue
            loaded = any(c.owner == self.nation for p in group for c in p.cargo) \
                or boarding.get(space, 0) > 0
            reach = movement.sea_reach(state, space, self.nation,
                                       state.movement(self.nation, type_), False, False)
            zone, count, target = space, len(group), ""
            if loaded:
                best = None
                for to, distance in reach.items():
                    for shore in board.shores[to]:
                        if movement.friendly_territory(state, shore, self.nation):
                            score = (survey.front(shore), distance, to, shore)
                            if best is None or score < best:
                                best = score
                if best is not None:
                    front, _, to, shore = best
                    here = min((survey.front(s) for s in board.shores[space]), default=FAR)
                    if front <= 1 or front < here - 1:
                        zone, target = to, shore if front <= 1 else ""
                    elif (invasion := self._invasion_zone(reach)) is not None:
                        zone = invasion
            elif (waiting := self._waiting(reach, space)) is not None:
                zone, count = waiting, 1
            elif (muster := self._muster(reach, space, len(group))) is not None:
                zone = muster
            elif factories and space not in factories:
                zone = min(reach, key=lambda z: (min(board.distance(z, f) for f in factories), z))
            zone, target = self._shelter(space, reach, zone, target)
            if not self._escort(zone, claim=False):
                self.exposed[zone] += count
            if zone != space or target:
                self.moves[(space, type_)].append((zone, count, target))
                sailing[space] = zone
            if count < len(group):
                # the rest of the group (one went for troops waiting by another zone) is
                # sheltered too: it stays only where it is safe, with the escort counted there
                rest, _ = self._shelter(space, reach, space, "")
                if not self._escort(rest, claim=False):
                    self.exposed[rest] += len(group) - count
                if rest != space:
                    self.moves[(space, type_)].append((rest, len(group) - count, ""))
        return sailing

    def _shelter(self, space: str, reach: dict[str, int], zone: str, target: str) -> tuple[str, str]:
        """Where a transport bound for `zone` ends its move: there, if it is safe, with the
        nation's warships that can join it as escort; else the safe zone within reach
        nearest it (putting its troops ashore there only on the same shore), else the least
        dangerous one."""
        state = self.state
        board = state.data.board
        if self._escort(zone):
            return zone, target
        sea = sea_distances(board)
        options = [z for z in reach if not movement.hostile_sea(state, z, self.nation)]
        if not options:
            return zone, target
        safe = [z for z in options if self._escort(z, claim=False)]
        if safe:
            chosen = min(safe, key=lambda z: (sea[zone].get(z, FAR), reach[z], z))
            self._escort(chosen)
        else:
            # where every zone is deadly, the one an ally's fleet still guards for a while
            chosen = min(options, key=lambda z: (self._strike_chance(z), win_chance(
                self.survey.sea_danger(z), self._defence(z)), reach[z], z))
        return chosen, target if target in board.shores[chosen] else ""

    def _defence(self, zone: str, extra: list | tuple = (), own: bool = False) -> list[tuple[Fighter, float]]:
        """The side's defence in a sea zone after this move: the nation's warships that stay
        or are sent there, its allies' ships (not with `own`), and `extra` groups."""
        state = self.state
        # the nation's own aircraft are not counted: each lands where its own move takes it
        # (`_cover` seats fighters on a carrier that guards transports)
        staying = [p for p in state.pieces[zone] if state.side(p.owner) == state.side(self.nation)
                   and (p.owner == self.nation or not own)
                   and not state.data.types[p.type].capacity
                   and not (p.owner == self.nation and state.data.types[p.type].domain == "air")
                   and not any(p in group for group in self.fleet.values())]
        for key, group in self.fleet.items():
            if self.escorting.get(key) == zone or key in extra:
                staying += group
        return forces(state, staying, attacking=False)

    def _guarded(self, zone: str, extra: list | tuple = ()) -> bool:
        """Whether transports are safe in `zone` after this move, with `extra` groups too."""
        return self._strike_chance(zone, extra, SAFE_ODDS) < SAFE_ODDS

    def _strike_chance(self, zone: str, extra: list | tuple = (), enough: float = 1.0) -> float:
        """`Survey.strike_chance` in `zone` after this move, with `extra` groups too: an
        ally's warships guard only until the ally's turn."""
        if not self.survey.sea_danger(zone):
            return 0.0
        state = self.state
        allies = {p.owner for p in state.pieces[zone] if p.owner != self.nation
                  and state.side(p.owner) == state.side(self.nation)
                  and not state.data.types[p.type].capacity}
        return self.survey.strike_chance(zone, self._defence(zone, extra),
                                         self._defence(zone, extra, own=True), allies, enough)

    def _escort(self, zone: str, claim: bool = True) -> bool:
        """Whether transports are safe in `zone` after this move; the nation's free warships
        that can reach it are counted, and sent there (`claim`) when they are needed."""
        if self._guarded(zone):
            return True
        free = [key for key, group in self.fleet.items() if key not in self.escorting
                and (key[0] == zone or zone in self._reach(key, group))]
        if not self._guarded(zone, free):
            return False
        if claim:
            for key in free:
                self.escorting[key] = zone
        return True

    def _gather(self) -> None:
        """Free warships join the transports left exposed, the zone with most first."""
        for zone in sorted(self.exposed, key=lambda z: (-self.exposed[z], z)):
            for key, group in self.fleet.items():
                if key not in self.escorting and (key[0] == zone or zone in self._reach(key, group)):
                    self.escorting[key] = zone

    def _waiting(self, reach: dict[str, int], here: str) -> str | None:
        """The nearest other zone within reach, short of the transport's full move, by which
        troops wait for a transport: it sails there, takes them aboard and goes on."""
        state = self.state
        board = state.data.board
        stranded = self.player.stranded
        found = [(distance, zone) for zone, distance in reach.items()
                 if zone != here and distance < state.movement(self.nation, "transport")
                 and not movement.hostile_sea(state, zone, self.nation)
                 and any(p.uid in stranded for shore in board.shores[zone]
                         for p in state.pieces[shore])]
        return min(found)[1] if found else None

    def _muster(self, reach: dict[str, int], here: str, transports: int) -> str | None:
        """Empty transports with nobody waiting within their move sail toward the coast where
        most troops wait for a ship (an army gathered on a shore it cannot leave, such as
        eastern Canada), rather than idle by a factory; None when none waits or it is here."""
        state = self.state
        board = state.data.board
        sea = sea_distances(board)
        stranded = self.player.stranded
        waiting: dict[str, int] = defaultdict(int)
        for shore in {p.space for found in state.pieces.values() for p in found
                      if p.uid in stranded}:
            count = sum(1 for p in state.pieces[shore] if p.uid in stranded)
            for zone in board.coasts.get(shore, ()):
                if not movement.hostile_sea(state, zone, self.nation):
                    waiting[zone] = max(waiting[zone], count)
        here_waiting = waiting.get(here, 0)
        best = None
        for zone, count in waiting.items():
            distance = sea[here].get(zone)
            if distance is None or count < 2 * transports or count <= here_waiting:
                continue
            score = (count / (1 + (distance + 1) // 2), -distance, zone)
            if best is None or score > best[0]:
                best = (score, zone)
        if best is None:
            return None
        goal = best[1]
        step = min(reach, key=lambda z: (sea[z].get(goal, FAR), reach[z], z))
        return step if step != here else None

    def _invasion_zone(self, reach: dict[str, int]) -> str | None:
        """The safe zone within reach nearest the most valuable enemy coast: a loaded
        transport waits there to assault next turn."""
        state = self.state
        board = state.data.board
        coasts = [(board.value[s] + (6 if s in board.victory_cities else 0), s)
                  for s in board.land if board.coasts.get(s)
                  and movement.enemy_territory(state, s, self.nation)]
        if not coasts:
            return None
        best = None
        for zone in reach:
            if movement.hostile_sea(state, zone, self.nation):
                continue
            for worth, shore in coasts:
                score = (board.distance(zone, shore) - worth / 10, zone)
                if best is None or score < best:
                    best = score
        return best[1] if best else None

    def _warships(self, groups, convoy: dict[str, str]) -> None:
        """Warships escort the transports, or keep with the nation's largest fleet."""
        state = self.state
        for (space, type_, _tag), group in sorted(groups.items()):
            kind = state.data.types[type_]
            if kind.domain != "sea" or kind.capacity or kind.has("submerge"):
                continue
            guarded = self.escorting.get((space, type_, _tag))
            if guarded is not None:
                if guarded != space:
                    self.moves[(space, type_)].append((guarded, len(group), ""))
                continue
            destinations = state.group_destinations(group)
            escort = [zone for zone in convoy.values() if zone in destinations]
            if escort:
                self.moves[(space, type_)].append((min(escort), len(group), ""))
                continue
            strength = {to: sum(state.data.types[p.type].cost for p in state.pieces[to]
                                if p.owner == self.nation) for to in destinations}
            if not strength:
                continue
            best = max(strength, key=lambda to: (strength[to], to))
            here = sum(state.data.types[p.type].cost for p in state.pieces[space]
                       if p.owner == self.nation)
            if strength[best] > here:
                self.moves[(space, type_)].append((best, len(group), ""))
