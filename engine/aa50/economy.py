"""Money and new units: research (§5.2), purchase (§5.3), mobilization (§5.7), income (§5.8),
China's infantry (§4), and where aircraft end the turn (§5.6.1.2).

Each phase has `enter_<phase>(game)`, `<phase>_actions(game)`, `<phase>_legal(game, action)`,
`<phase>_apply(game, action)` and `<phase>_done(game)`; game.py strings them together.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from validators.conditions import evaluate

from . import carriers

if TYPE_CHECKING:
    from .game import AA50Game

MAX_RESEARCH_TOKENS = 10      # offered per turn; enough for any sensible budget


# -- what research changes -----------------------------------------------------------------------
def _changes(game: AA50Game, nation: str, op: str) -> list[dict]:
    return [change for tech in sorted(game.tech[nation])
            for change in game.data.breakthroughs.get(tech, {}).get("changes") or []
            if change.get("op") == op]


def granted(game: AA50Game, nation: str, kind: str) -> dict[str, dict]:
    """Unit type -> the ability of `kind` the nation's breakthroughs grant it (Paratroopers'
    air_transport for bombers, Mechanized Infantry's mechanized_escort for tanks, §5.2.3)."""
    return {c["type"]: c["ability"] for c in _changes(game, nation, "grant_ability")
            if (c.get("ability") or {}).get("kind") == kind}


def movement(game: AA50Game, nation: str, type_: str) -> int:
    """A unit type's movement, with Long-range Aircraft (§5.2.3)."""
    value = game.data.types[type_].movement
    for change in _changes(game, nation, "set_stat"):
        if change.get("type") == type_ and change.get("stat") == "movement":
            value = int(change["value"])
    return value


def production_bonus(game: AA50Game, nation: str) -> int:
    """Units a factory mobilizes beyond its territory's value (Increased Factory Production)."""
    return sum(int(c.get("units", 0)) for c in _changes(game, nation, "factory_production_bonus"))


def repair_rate(game: AA50Game, nation: str) -> int:
    """Damage markers one IPC removes (§5.3.2; 2 with Increased Factory Production)."""
    rates = [int(c.get("markers_per_ipc", 1)) for c in _changes(game, nation, "repair_rate")]
    return max(rates, default=1)


def production(game: AA50Game, nation: str) -> int:
    """The IPCs a nation collects: its territories' values, nothing while its capital is
    held by the enemy (§5.5.3.8); China collects none (§4)."""
    if game.is_china(nation) or not game.capital_held(nation):
        return 0
    board = game.data.board
    return sum(board.value[s] for s, holder in game.control.items() if holder == nation)


def army_values(game: AA50Game) -> dict[str, float]:
    values = {side: 0.0 for side in game.data.sides}
    for found in game.pieces.values():
        for piece in found:
            side = game.side(piece.owner)
            if side in values and game.data.types[piece.type].domain != "structure":
                values[side] += game.data.types[piece.type].cost
                values[side] += sum(game.data.types[c.type].cost for c in piece.cargo)
    return values


def may_spend(game: AA50Game, nation: str) -> bool:
    """A nation whose capital is lost buys nothing and researches nothing (§5.5.3.8)."""
    return not game.is_china(nation) and game.capital_held(nation)


# -- research (§5.2) -----------------------------------------------------------------------------
def enter_research(game: AA50Game) -> None:
    game.step = ""


def research_on(game: AA50Game) -> bool:
    """Whether the current nation researches: the option is on, it may spend, the scenario
    has charts (§5.2; research is an optional rule, note 18)."""
    return bool(game.options.get("research")) and may_spend(game, game.seat) \
        and bool(game.data.charts)


def research_done(game: AA50Game) -> bool:
    if not research_on(game):
        return True
    return game.step == "done"


def research_actions(game: AA50Game) -> list[tuple]:
    if game.step == "chart":
        return [("chart", chart["id"]) for chart in _open_charts(game, game.seat)]
    cost = int(game.data.research.get("token_cost", 5))
    most = min(MAX_RESEARCH_TOKENS, game.money[game.seat] // cost)
    return [("research", k) for k in range(most + 1)]


def _open_charts(game: AA50Game, nation: str) -> list[dict]:
    return [chart for chart in game.data.charts
            if any(b["id"] not in game.tech[nation] for b in chart.get("breakthroughs") or [])]


def research_apply(game: AA50Game, action: tuple) -> None:
    nation = game.seat
    if action[0] == "chart":
        chart = next(c for c in game.data.charts if c["id"] == action[1])
        _breakthrough(game, nation, chart)
        game.step = "done"
        return
    cost = int(game.data.research.get("token_cost", 5))
    game.money[nation] -= action[1] * cost
    game.tokens[nation] += action[1]
    dice = list(game.rng.integers(1, 7, size=game.tokens[nation])) if game.tokens[nation] else []
    success = int(game.data.research.get("success_roll", 6))
    if any(int(face) == success for face in dice) and _open_charts(game, nation):
        game.tokens[nation] = 0                       # all tokens are spent (§5.2.2)
        game.step = "chart"
    else:
        game.step = "done"


def _breakthrough(game: AA50Game, nation: str, chart: dict) -> None:
    """Roll on the chosen chart until the roll names a breakthrough not yet made (§5.2.3)."""
    left = [b for b in chart.get("breakthroughs") or [] if b["id"] not in game.tech[nation]]
    while True:
        roll = int(game.rng.integers(1, 7))
        found = next((b for b in left if int(b.get("roll", 0)) == roll), None)
        if found is not None:
            game.tech[nation].add(found["id"])
            game.chronicle.payout(game.round, "research:" + found["id"], nation, 0)
            return


# -- purchase (§5.3) -----------------------------------------------------------------------------
def enter_purchase(game: AA50Game) -> None:
    china = game.data.china
    if china is not None and game.seat == china.nation:
        game.pool[china.nation][china.unit] += china_infantry(game)


def china_infantry(game: AA50Game) -> int:
    """One infantry for every two Chinese territories not held by the Axis (§4, note 14)."""
    china = game.data.china
    if china is None:
        return 0
    held = sum(1 for space in china.territories
               if game.side(game.control.get(space)) == game.side(china.nation))
    return held // china.per_territories


def purchase_done(game: AA50Game) -> bool:
    return not may_spend(game, game.seat) or game.step == "bought"


def buyable(game: AA50Game, nation: str) -> list[str]:
    return [t for t, kind in game.data.types.items() if kind.cost > 0]


def idle_money(game: AA50Game, nation: str) -> int:
    """The money a nation ends its purchase with, when it could still have bought something
    to use: a unit its factories have room to mobilize this turn beside what waits to be
    mobilized (§5.7.1), or a factory with a territory to place it in (§7.1.5); else 0 (a few
    IPCs short of any unit, or no room left, is not money left idle)."""
    money = game.money[nation]
    types = game.data.types
    waiting = sum(n for t, n in game.pool[nation].items() if types[t].domain != "structure")
    room = sum(factory_rooms(game, nation).values()) - waiting
    for type_ in buyable(game, nation):
        if game.cost(nation, type_) > money:
            continue
        if types[type_].has("factory"):
            if placement_spaces(game, nation, type_):
                return money
        elif types[type_].domain != "structure" and room > 0:
            return money
    return 0


def purchase_actions(game: AA50Game) -> list[tuple]:
    nation = game.seat
    money = game.money[nation]
    actions: list[tuple] = [("end",)]
    actions += [("buy", t, 1) for t in buyable(game, nation) if game.cost(nation, t) <= money]
    if money:
        actions += [("repair", space, 1) for space in sorted(game.damage)
                    if game.damage[space] and game.control.get(space) == nation]
    return actions


def purchase_legal(game: AA50Game, action: tuple) -> bool:
    nation = game.seat
    if action == ("end",):
        return True
    if len(action) != 3 or not isinstance(action[2], int) or isinstance(action[2], bool) \
            or action[2] < 1:
        return False
    kind, what, count = action
    if kind == "buy":
        return what in buyable(game, nation) and game.cost(nation, what) * count <= game.money[nation]
    if kind == "repair":
        need = -(-count // repair_rate(game, nation))
        return game.control.get(what) == nation and game.damage.get(what, 0) >= count \
            and need <= game.money[nation]
    return False


def purchase_apply(game: AA50Game, action: tuple) -> None:
    nation = game.seat
    if action == ("end",):
        game.step = "bought"
        return
    kind, what, count = action
    if kind == "buy":
        game.money[nation] -= game.cost(nation, what) * count
        game.pool[nation][what] += count
    else:
        game.money[nation] -= -(-count // repair_rate(game, nation))
        game.damage[what] -= count


# -- mobilize (§5.7) -----------------------------------------------------------------------------
def enter_mobilize(game: AA50Game) -> None:
    game.step = "placing"
    game.first_new_uid = game.next_uid()


def mobilize_done(game: AA50Game) -> bool:
    return game.step == "placed" or not _placements(game)


def factory_rooms(game: AA50Game, nation: str, repaired: dict[str, int] | None = None) -> dict[str, int]:
    """Factory territory -> units it may still mobilize this turn (§5.7.1, §7.1.5): a factory
    the nation controlled at the start of the turn (not one taken or placed this turn), in a
    territory it held then; its territory's value less damage, once the `repaired` damage
    markers are removed (a repair takes effect at once, §5.3.2)."""
    found = {}
    bonus = production_bonus(game, nation)
    repaired = repaired or {}
    for space, factory in game.factories.items():
        if game.control.get(space) != nation or game.start_control.get(space) != nation \
                or factory.captured_now or factory.placed_now:
            continue
        damage = max(0, game.damage.get(space, 0) - repaired.get(space, 0))
        limit = game.data.board.value[space] + bonus - damage
        room = limit - game.placed[space]
        if room > 0:
            found[space] = room
    return found


def placement_spaces(game: AA50Game, nation: str, type_: str) -> list[str]:
    kind = game.data.types[type_]
    china = game.data.china
    if china is not None and nation == china.nation:
        return [s for s in china.territories if game.control.get(s) == nation
                and len(game.pieces[s]) < china.placement_limit]
    if kind.has("factory"):
        return sorted(s for s in game.data.board.land
                      if game.control.get(s) == nation and game.start_control.get(s) == nation
                      and game.data.board.value[s] >= 1 and game.factory_at(s) is None)
    factories = factory_rooms(game, nation)
    if kind.domain == "sea":
        return sorted({sea for space in factories for sea in game.data.board.coasts[space]})
    if kind.domain == "air" and kind.carrier_size:
        return sorted(set(factories) | {sea for space in factories
                                        for sea in game.data.board.coasts[space]
                                        if carrier_room_for_new(game, nation, sea) >= kind.carrier_size})
    return sorted(factories)


def carrier_room_for_new(game: AA50Game, nation: str, sea: str) -> int:
    """Room for new fighters on the nation's own carriers in `sea`, new or there before
    (§5.7.1, note 54; never on an ally's carrier): what the allied fighters aboard them and the
    nation's fighters there, placed before or not, leave (two a carrier, §7.3.2)."""
    return max(0, carriers.own_room(game, sea, nation))


def _placements(game: AA50Game) -> list[tuple[str, str]]:
    nation = game.seat
    return [(t, s) for t in sorted(game.pool[nation]) if game.pool[nation][t] > 0
            for s in placement_spaces(game, nation, t)]


def mobilize_actions(game: AA50Game) -> list[tuple]:
    return [("end",)] + [("place", t, s, 1) for t, s in _placements(game)]


def mobilize_legal(game: AA50Game, action: tuple) -> bool:
    if action == ("end",):
        return True
    if len(action) != 4 or action[0] != "place" or not isinstance(action[3], int) \
            or isinstance(action[3], bool) or action[3] < 1:
        return False
    _, type_, space, count = action
    nation = game.seat
    if game.pool[nation].get(type_, 0) < count or space not in placement_spaces(game, nation, type_):
        return False
    return count <= _room(game, nation, type_, space)


def _room(game: AA50Game, nation: str, type_: str, space: str) -> int:
    kind = game.data.types[type_]
    china = game.data.china
    if china is not None and nation == china.nation:
        return china.placement_limit - len(game.pieces[space])
    if kind.has("factory"):
        return 1
    factories = factory_rooms(game, nation)
    if space in game.data.board.sea:
        room = sum(room for f, room in factories.items() if space in game.data.board.coasts[f])
        if kind.domain == "air":
            room = min(room, carrier_room_for_new(game, nation, space) // kind.carrier_size)
        return room
    return factories.get(space, 0)


def mobilize_apply(game: AA50Game, action: tuple) -> None:
    if action == ("end",):
        game.step = "placed"
        return
    _, type_, space, count = action
    nation = game.seat
    kind = game.data.types[type_]
    game.pool[nation][type_] -= count
    left = count
    if space in game.data.board.sea and not game.is_china(nation):
        for factory, room in sorted(factory_rooms(game, nation).items()):
            if space in game.data.board.coasts[factory] and left:
                used = min(room, left)
                game.placed[factory] += used
                left -= used
    elif not kind.has("factory") and not game.is_china(nation):
        game.placed[space] += count
    for _ in range(count):
        piece = game.new_piece(nation, type_, space)
        piece.done = piece.placed_now = True
        game.created += 1
        if kind.has("factory"):
            game.factories[space] = piece


def placement_broken(game: AA50Game) -> list[str]:
    """What the current nation's mobilization broke (for the invariants): units counted
    against a factory it did not control at the start of the turn, or beyond the factory's
    limit, and new units standing where none of its factories could put them (§5.7, §7.1.5)."""
    nation = game.seat
    if game.is_china(nation):
        return []
    broken = []
    bonus = production_bonus(game, nation)
    usable = set()
    for space, factory in game.factories.items():
        if factory.placed_now or factory.captured_now or game.start_control.get(space) != nation:
            if game.placed[space]:
                broken.append(f"the factory in {space} mobilized {game.placed[space]} unit(s) "
                              f"though {nation} did not control it at the start of the turn")
            continue
        usable.add(space)
        limit = game.data.board.value[space] + bonus - game.damage.get(space, 0)
        if game.placed[space] > max(limit, 0):
            broken.append(f"the factory in {space} mobilized {game.placed[space]} units, "
                          f"more than its {limit}")
    coasts = game.data.board.coasts
    for found in game.pieces.values():
        for piece in found:
            if piece.owner != nation or not piece.placed_now \
                    or game.data.types[piece.type].has("factory"):
                continue
            if piece.space not in usable and not any(piece.space in coasts[f] for f in usable):
                broken.append(f"{piece} was mobilized where no factory {nation} controlled at "
                              "the start of the turn could put it")
    return broken


# -- income (§5.8) -------------------------------------------------------------------------------
def collect_income(game: AA50Game) -> None:
    nation = game.seat
    if not may_spend(game, nation):
        return
    game.money[nation] += production(game, nation)
    for _change in _changes(game, nation, "bonus_income_roll"):        # War Bonds
        game.money[nation] += int(game.rng.integers(1, 7))
    if not game.options.get("national_objectives"):
        return
    position = None
    for objective in game.data.objectives:
        if objective.get("owner") != nation or objective.get("timing", "collect_income") \
                != "collect_income":
            continue
        position = position or game.position()
        if evaluate(objective["when"], position).met:
            amount = int((objective.get("award") or {}).get("amount", 0))
            game.money[nation] += amount
            game.chronicle.payout(game.round, objective["id"], nation, amount)


# -- aircraft at the end of the noncombat move (§5.6.1.2) ----------------------------------------
def land_aircraft(game: AA50Game) -> None:
    """Aircraft not on a territory friendly since the start of the turn, nor seated on a
    carrier of their side (their nation's own first, then an ally's, as its cargo), are lost."""
    nation = game.seat
    side = game.side(nation)
    types = game.data.types
    board = game.data.board
    for space in board.spaces:
        if space in board.sea:
            lost = carriers.seat(game, space, nation)
        elif any(p.owner == nation and types[p.type].domain == "air" for p in game.pieces[space]):
            safe = game.side(game.control.get(space)) == side and \
                game.side(game.start_control.get(space)) == side
            lost = [] if safe else [p for p in game.pieces[space] if p.owner == nation
                                    and types[p.type].domain == "air"]
        else:
            continue
        for piece in lost:
            game.destroy(piece)
