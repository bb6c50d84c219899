"""What must hold after every action of a GJ69 game; `GJ69Game.invariants` returns the broken
ones as sentences (the property tests and `playtest games --check` call it)."""
from __future__ import annotations

from .damage import READY, USED
from .movement import AIR_LIMIT, LAND_LIMIT


def broken(game) -> list[str]:
    """Broken invariants of the map (worked out again only when the forces have changed),
    of the decks and of the turn."""
    key = (game.forces.version, tuple(sorted(game.forces.control.items())),
           tuple(sorted((u, n) for u, n in game.retreating.items() if n)))
    if game.invariant_cache[0] != key:
        game.invariant_cache = (key, _map(game))
    return game.invariant_cache[1] + _decks_and_turn(game)


def _map(game) -> list[str]:
    found: list[str] = []
    forces, profiles, board = game.forces, game.profiles, game.board
    for area, stacks in forces.units.items():
        land = board.areas[area].land
        holder = forces.control.get(area)
        per_side: dict[tuple[str, str], int] = {}
        for (unit, face), n in stacks.items():
            profile = profiles[unit]
            if n <= 0:
                found.append(f"{area} holds {n} {face} {unit}")
            if face not in (READY, USED):
                found.append(f"{unit} in {area} has no face {face!r}")
            if profile.domain == "sea" and land:
                found.append(f"ship {unit} stands in the land area {area} (§7.2(3))")
            if profile.domain == "air" and (not land or holder != profile.side):
                found.append(f"air unit {unit} stands in {area}, not a land area its side holds "
                             "(§7.2(2), §7.4(2))")
            if not game.movement.unit_may_be(unit, area):
                found.append(f"{unit} stands in {area}, which its side or nation may not enter "
                             "(§2.2.1(3), §16.3)")
            key = (profile.side, profile.domain)
            per_side[key] = per_side.get(key, 0) + n
        if land:
            for (side, domain), n in per_side.items():
                if domain == "land" and n > LAND_LIMIT:
                    found.append(f"{side} has {n} land units in {area} (at most {LAND_LIMIT}, §7.4(1))")
                if domain == "air" and n > AIR_LIMIT:
                    found.append(f"{side} has {n} air units in {area} (at most {AIR_LIMIT}, §7.4(2))")
    for area in board.ids:
        if area not in forces.control:
            found.append(f"{area} has no controller (§14.0)")
        elif area in game.permanent and forces.control[area] != game.permanent[area]:
            found.append(f"{area} changed hands despite its permanent control (§2.2.2(2))")
    totals = forces.total()
    for unit, n in game.retreating.items():
        if n:
            totals[unit] = totals.get(unit, 0) + n
    if totals != game.counters:
        changed = sorted(u for u in set(totals) | set(game.counters)
                         if totals.get(u, 0) != game.counters.get(u, 0))
        found.append("counters appeared or vanished: " + ", ".join(
            f"{u} {game.counters.get(u, 0)} -> {totals.get(u, 0)}" for u in changed))
    return found


def _decks_and_turn(game) -> list[str]:
    found: list[str] = []
    for side, deck in game.decks.items():
        cards = deck.all_cards()
        if cards != game.deck_cards[side]:
            found.append(f"the {side} deck holds {cards}, not its own {game.deck_cards[side]}")
        if len(deck.hand) > deck.hand_size:
            found.append(f"the {side} hand holds {len(deck.hand)} cards (at most {deck.hand_size}, §5.1)")
        strangers = [c for c in cards if game.system.cards[c].side != side]
        if strangers:
            found.append(f"the {side} deck holds the other side's cards {strangers} (§2.3)")
    order = game.order
    if order is not None:
        most = 1 + order.again_times if order.again_groups else 1
        if any(n > most for n in game.actions_taken):
            found.append(f"a group took {max(game.actions_taken)} actions under one card "
                         f"(at most {most}, §19)")
        again = sum(1 for n in game.actions_taken if n > 1)
        if again > order.again_groups:
            found.append(f"{again} groups acted again under one card (at most "
                         f"{order.again_groups}, §19)")
    if game.turn > game.rules.last_turn:
        found.append(f"turn {game.turn} is past the last turn {game.rules.last_turn} (§4.0)")
    if not game.is_terminal() and not game.legal_actions():
        found.append("the game goes on but offers no legal action")
    return found
