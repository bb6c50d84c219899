"""AI players: each picks an action from the state's `legal_actions()` (or builds one the state
accepts) for the seats of the side it plays.

A player is chosen by a *spec*: its name, then optional settings after a colon,
`heuristic:naval=false,first-attack-round=2`. Settings restrict a player for balance questions
("what if Japan never builds ships?") without copies of the player. `random` exists for every
game system; a system adds its own (its `heuristic`) through `GameSystem.players()`, and
`search` (search.py) exists wherever that heuristic proposes plans for a search to weigh.
"""
from __future__ import annotations

import difflib

import numpy as np

from ..options import SettingError, resolve
from .base import Plan, Player
from .random import RandomPlayer
from .search import SearchPlayer

COMMON = {"random": RandomPlayer}

# Players from the weakest to the strongest: a verdict is checked with the next one up.
STRENGTH_ORDER = ("random", "heuristic", "search")


def available(system) -> dict[str, type[Player]]:
    """Player names -> classes, for a game system."""
    own = system.players()
    found = {**COMMON, **own}
    heuristic = own.get("heuristic")
    if heuristic is not None and heuristic.plans is not Player.plans:
        found["search"] = SearchPlayer
    return found


def stronger(system, name: str) -> str | None:
    """The next stronger player the system has than `name`, or None."""
    known = available(system)
    order = [n for n in STRENGTH_ORDER if n in known]
    return order[order.index(name) + 1] if name in order and order.index(name) + 1 < len(order) \
        else None


def split_spec(spec: str) -> tuple[str, list[str]]:
    """'heuristic:naval=false,first-attack-round=2' -> ('heuristic', ['naval=false', ...])."""
    name, _, rest = spec.partition(":")
    return name.strip().lower(), [part for part in (p.strip() for p in rest.split(",")) if part]


def check_spec(spec: str, system) -> None:
    """SettingError when the spec names no player of the system, or a setting it lacks."""
    name, settings = split_spec(spec)
    kinds = available(system)
    if name not in kinds:
        close = difflib.get_close_matches(name, sorted(kinds), n=1, cutoff=0.5)
        hint = f"; did you mean {close[0]}?" if close else ""
        raise SettingError(f"unknown player {name!r}{hint} (players: {', '.join(sorted(kinds))})")
    kinds[name].check_settings(resolve(settings, kinds[name].settings), system)


def make_player(spec: str, system, side: str, rng: np.random.Generator) -> Player:
    name, settings = split_spec(spec)
    check_spec(spec, system)
    kind = available(system)[name]
    return kind(system, side, resolve(settings, kind.settings), rng)


def assign(texts: list[str], sides: list[str], system) -> dict[str, str]:
    """Side -> player spec from `--players` texts: 'heuristic' (every side) or
    'axis=random' (one side); later texts override earlier ones."""
    chosen = {side: "heuristic" if "heuristic" in available(system) else "random"
              for side in sides}
    for text in texts:
        head, equals, rest = text.partition("=")
        if equals and ":" not in head:
            side = head.strip().lower()
            if side not in sides:
                close = difflib.get_close_matches(side, sides, n=1, cutoff=0.5)
                hint = f"; did you mean {close[0]}?" if close else ""
                raise SettingError(f"unknown side {side!r}{hint} (sides: {', '.join(sides)})")
            check_spec(rest, system)
            chosen[side] = rest.strip()
        else:
            check_spec(text, system)
            chosen = {side: text.strip() for side in sides}
    return chosen


__all__ = ["Plan", "Player", "RandomPlayer", "SearchPlayer", "available", "assign", "check_spec",
           "make_player", "split_spec", "stronger"]
