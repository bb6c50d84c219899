"""The settings of a GJ69 game and what they change: the special rules of §16 and the optional
rules of §17 are the scenario's `options:`, each on or off; their `changes` are read here.

A whole game takes the scenario's options by their ids, true or false, except those that only
set the game's length, which are the choices of one setting:

- `last-turn`: the turn the game ends with: the scenario's `turns.count` (8, §4.0), or what the
  longer-game / shorter-game options set (9 or 7, §17.1); naming those options in a game's
  options (`longer-game: true`, in a replay or a study) still works;
- `hands`: `choose` (each player chooses its hand from its deck, §5.1) or `draw` (the hand is
  dealt at random from the shuffled deck, a variant for playtests of luck).
"""
from __future__ import annotations

from dataclasses import dataclass, field

from ..options import Setting, settings_of_scenario
from ..system import EngineError

HANDS = ("choose", "draw")


def game_settings(scenario) -> list[Setting]:
    """Every scenario option as its own true/false setting (the groups of GJ69's options are
    headings, not choices), except the options that only set the game's length: they are the
    choices of `last-turn`; then how hands are made."""
    found = []
    lengths = {}
    for option in scenario.manifest.get("options") or []:
        if not isinstance(option, dict) or not isinstance(option.get("id"), str):
            continue
        turns = _set_turns(option)
        if turns is not None:
            lengths[turns] = option
            continue
        found += settings_of_scenario([{k: v for k, v in option.items() if k != "group"}])
    base = _turn_count(scenario)
    meaning = "; ".join(f"{n}: {option.get('name', option['id'])}"
                        + (f" ({option['source']})" if option.get("source") else "")
                        for n, option in sorted(lengths.items()))
    found.append(Setting("last-turn", str(base), "text",
                         f"the game's last turn: {base} (§4.0)" + (f"; {meaning}" if meaning else ""),
                         tuple(str(n) for n in sorted({base} | set(lengths)))))
    found.append(Setting("hands", "choose", "text",
                         "choose: each player chooses its hand from its deck (§5.1); "
                         "draw: hands are dealt at random", HANDS))
    return found


def _set_turns(option: dict) -> int | None:
    """The game length an option sets, when that is all it does (§17.1)."""
    changes = [c for c in option.get("changes") or [] if isinstance(c, dict)]
    if changes and all(c.get("op") == "set_turns" for c in changes):
        return int(changes[0]["count"])
    return None


def _turn_count(scenario) -> int:
    turns = scenario.manifest.get("turns") or {}
    return int(turns.get("count", 8)) if isinstance(turns, dict) else 8


@dataclass
class Rules:
    """The rules in force in one game: the options chosen and their changes."""

    options: dict[str, bool]
    last_turn: int
    hands: str
    changes: list[dict] = field(default_factory=list)

    @classmethod
    def of(cls, scenario, chosen: dict) -> Rules:
        chosen = {str(k).replace("_", "-"): v for k, v in (chosen or {}).items()}
        known = {s.name: s for s in game_settings(scenario)}
        known.update({o["id"]: None for o in scenario.manifest.get("options") or []
                      if isinstance(o, dict) and isinstance(o.get("id"), str)})
        unknown = sorted(set(chosen) - set(known))
        if unknown:
            raise EngineError(f"unknown GJ69 game setting {unknown[0]!r}; the settings are: "
                              + ", ".join(sorted(known)))
        options = {}
        for option in scenario.manifest.get("options") or []:
            if isinstance(option, dict) and isinstance(option.get("id"), str):
                options[option["id"]] = bool(chosen.get(option["id"], option.get("default", False)))
        changes = [change for option in scenario.manifest.get("options") or []
                   if isinstance(option, dict) and options.get(option.get("id"))
                   for change in option.get("changes") or [] if isinstance(change, dict)]
        base = _turn_count(scenario)
        lengths = {int(c["count"]) for c in changes if c.get("op") == "set_turns"}
        if len(lengths) > 1:
            raise EngineError("the options chosen set different game lengths ("
                              + ", ".join(str(n) for n in sorted(lengths)) + " turns); choose one")
        last = chosen.get("last-turn")
        allowed = {base} | {int(c["count"]) for o in scenario.manifest.get("options") or []
                            if isinstance(o, dict) for c in o.get("changes") or []
                            if isinstance(c, dict) and c.get("op") == "set_turns"}
        if last is not None:
            if int(last) not in allowed:
                raise EngineError(f"last-turn={last}: the game lasts "
                                  + " or ".join(str(n) for n in sorted(allowed)) + " turns (§4.0, §17.1)")
            if lengths and int(last) not in lengths:
                raise EngineError(f"last-turn={last} disagrees with the game-length option chosen "
                                  f"({next(iter(lengths))} turns)")
        last_turn = int(last) if last is not None else (next(iter(lengths)) if lengths else base)
        hands = str(chosen.get("hands", "choose"))
        if hands not in HANDS:
            raise EngineError(f"hands={hands}: choose one of {', '.join(HANDS)}")
        return cls(options, last_turn, hands, changes)

    # -- the changes, by operation -----------------------------------------------------------
    def __post_init__(self):
        self._by_op: dict[str, list[dict]] = {}
        for change in self.changes:
            self._by_op.setdefault(str(change.get("op")), []).append(change)
        self._immune = {c["type"] for c in self.of_op("supply_leader") if c.get("immune_to_air_damage")}

    def of_op(self, op: str) -> list[dict]:
        return self._by_op.get(op, [])

    def fortress(self) -> dict | None:
        """The fortress-areas change (§16.1), when in force."""
        found = self.of_op("fortress_areas")
        return found[0] if found else None

    def fortress_areas(self) -> frozenset[str]:
        change = self.fortress()
        return frozenset(change.get("spaces") or []) if change else frozenset()

    def leader(self) -> dict | None:
        """The supply leader (§16.2: MacArthur), when in force."""
        found = self.of_op("supply_leader")
        return found[0] if found else None

    def confinement(self) -> dict[str, frozenset[str]]:
        """Nation -> the only areas its units may be placed in and enter (§16.3)."""
        return {c["nation"]: frozenset(c.get("spaces") or []) for c in self.of_op("confine_nation")}

    def elimination_vp(self) -> dict[str, dict]:
        """Unit type -> its elimination_vp change (§16.2(3))."""
        return {c["type"]: c for c in self.of_op("elimination_vp")}

    def immune_to_air(self) -> set[str]:
        """§16.2(2): unit types that take no air-attack damage."""
        return self._immune

    def placements(self, turn: int) -> list[dict]:
        """Units that enter play at the start of `turn` (§17.2)."""
        return [c for c in self.of_op("place_units") if int(c.get("turn", 1)) == turn]

    def holidays(self, turn: int) -> list[dict]:
        """The holiday VP changes that score at the end of `turn` (§17.3)."""
        return [c for c in self.of_op("holiday_vp") if turn in (c.get("turns") or [])]
