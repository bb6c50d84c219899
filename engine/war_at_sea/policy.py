"""Choices in a surface battle made by rule rather than by a player.

The battle calculator makes them from the position's settings (`SettingsChoices`); the heuristic
player uses the same helpers for the parts it plays the same way (forming escape groups, sending
pursuers after them).
"""
from __future__ import annotations

from .combat import Action, Decision
from .position import WaSPosition


def group_by(decision: Decision, how: str, minimum: int) -> Action:
    """The group of `decision.ship` (ships are asked fastest first): "together", "by-speed"
    (ships of one speed together), or "singly"."""
    ship, groups = decision.ship, decision.groups
    if how == "singly":
        return decision.options[-1]
    if how == "by-speed" and ship is not None:
        for number, group in enumerate(groups, 1):
            if group and group[0].speed(minimum) == ship.speed(minimum):
                return decision.options[number - 1]
        return decision.options[-1]
    return decision.options[0]


def pursuit_target(decision: Decision, pursuers_of: dict[int, float]) -> Action:
    """Send the ship after the group it can catch that has the fewest guns after it yet,
    for the size of the group; `pursuers_of` counts the guns already sent (group -> dice)."""
    reachable = [a for a in decision.options if a[2]]
    if not reachable:
        return decision.options[0]

    def weight(action: Action) -> tuple:
        group = decision.groups[action[2] - 1]
        return (pursuers_of.get(action[2], 0.0) / max(1, len(group)), action[2])

    chosen = min(reachable, key=weight)
    gunnery = decision.ship.gunnery() if decision.ship is not None else 0
    pursuers_of[chosen[2]] = pursuers_of.get(chosen[2], 0.0) + max(1, gunnery)
    return chosen


class SettingsChoices:
    """The choices of a battle as `playtest battle` sets them (WaSPosition's fields)."""

    def __init__(self, position: WaSPosition, attacker: str, minimum: int):
        self.position = position
        self.attacker = attacker
        self.minimum = minimum
        self.pursuers_of: dict[int, float] = {}

    def __call__(self, decision: Decision) -> Action:
        position, side = self.position, decision.side
        if decision.kind == "aim":
            return ("aim", "convoys" if position.aim_at_convoys and side == "axis" else "warships")
        if decision.kind == "escape":
            return ("escape", "yes" if self.escapes(decision) else "no")
        if decision.kind == "group":
            return group_by(decision, position.escape_groups, self.minimum)
        if decision.kind == "pursue":
            if not position.pursue:
                return decision.options[0]
            return pursuit_target(decision, self.pursuers_of)
        return decision.options[0]        # "press": go on with the pursuit

    def escapes(self, decision: Decision) -> bool:
        side, position = decision.side, self.position
        if position.escape in (side, "both") and decision.rounds >= position.escape_after:
            return True
        at_most = position.policy.retreat_at
        if at_most and side == self.attacker:
            left = sum(1 for s in decision.fighting[side] if s.in_battle)
            return left <= at_most
        return False

