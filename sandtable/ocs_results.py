"""Reading the result cells of the Operational Combat Series charts.

Each chart prints its results in a notation of its own: the combat results table writes
`Ao1 e4 DL1o2`, the barrage table `[1/2]`, the facility barrage table `1 * (5)`. A table in
tables.yaml names its notation (`results:`), and every cell keeps both the text as printed and
that text read into data. The data is what the engine uses; this module is how the data is made
and how the validator proves it still says what the printed text says.

`parse(notation, printed)` returns the outcome as a mapping (without `printed`);
`cell(notation, printed)` returns the whole cell. Both raise `ResultSyntaxError` on text that is
not a result of the notation. Pure functions, no I/O.
"""
from __future__ import annotations

import copy
import re
from collections.abc import Callable


class ResultSyntaxError(ValueError):
    """Printed text that is not a result of its notation; `offset` is where reading stopped."""

    def __init__(self, message: str, offset: int = 0):
        super().__init__(message)
        self.offset = offset


# -- the combat results table (9.9, explained in 9.10) ------------------------------------------
# A result is one or two parts, the attacker's (A...) and the defender's (D...). A part holds
# L# (steps lost), o# (option: retreat or lose steps), e# (attackers with an action rating of at
# least # exploit) and DG (the defender is disorganized). A part may continue in the next word
# without its letter, as in `Ao1 e4`.
_COMBAT_ITEM = re.compile(r"L(?P<loss>[1-9][0-9]*)|o(?P<option>[1-9][0-9]*)|e(?P<exploit>[0-9]+)|(?P<dg>DG)")
_COMBAT_FIELDS = {"loss": "loss", "option": "option", "exploit": "exploit", "dg": "disorganized"}
_SIDE_LETTERS = {"A": "attacker", "D": "defender"}
_ONLY_FOR = {"exploit": "attacker", "disorganized": "defender"}


def parse_combat(printed: str) -> dict:
    outcome: dict[str, dict] = {}
    side = None
    offset = 0
    for word in printed.split(" "):
        if not word:
            raise ResultSyntaxError("two spaces in a row", offset)
        position = 0
        if word[0] in _SIDE_LETTERS and not word.startswith("DG"):
            side = _SIDE_LETTERS[word[0]]
            if side in outcome:
                raise ResultSyntaxError(f"the {side}'s part is written twice", offset)
            outcome[side] = {}
            position = 1
        elif side is None:
            raise ResultSyntaxError("a result starts with A (attacker) or D (defender)", offset)
        if position == len(word):
            raise ResultSyntaxError(f"the {side}'s part is empty", offset + position)
        while position < len(word):
            match = _COMBAT_ITEM.match(word, position)
            if match is None:
                raise ResultSyntaxError(f"cannot read {word[position:]!r}; expected L#, o#, e# or DG",
                                        offset + position)
            name = _COMBAT_FIELDS[str(match.lastgroup)]  # every alternative is a named group
            if _ONLY_FOR.get(name, side) != side:
                raise ResultSyntaxError(f"{match.group()} belongs to the {_ONLY_FOR[name]}, "
                                        f"not the {side}", offset + position)
            if name in outcome[side]:
                raise ResultSyntaxError(f"{match.group()} repeats the {side}'s {name}", offset + position)
            outcome[side][name] = True if name == "disorganized" else int(match.group(name))
            position = match.end()
        offset += len(word) + 1
    return outcome


# -- the barrage table (10.0a) ------------------------------------------------------------------
def parse_barrage(printed: str) -> dict:
    """`-` nothing; `DG` the hex is disorganized; `1/2` a die decides a step; `[1/2]` counts as
    DG against hard targets (see the table's text); `#` # steps lost and DG."""
    if printed == "-":
        return {"effect": "none"}
    if printed == "DG":
        return {"effect": "disorganized"}
    if printed == "1/2":
        return {"effect": "half"}
    if printed == "[1/2]":
        return {"effect": "half", "bracketed": True}
    if re.fullmatch(r"[1-9][0-9]*", printed):
        return {"effect": "steps", "steps": int(printed)}
    raise ResultSyntaxError(f"{printed!r} is not a barrage result (-, DG, 1/2, [1/2] or a number)")


# -- the facility barrage table (10.0c) ---------------------------------------------------------
_FACILITY = re.compile(r"(?P<hits>[1-9][0-9]*)?\s*(?P<trainbusting>\*)?\s*(?:\((?P<aircraft>[1-6])\))?")


def parse_facility(printed: str) -> dict:
    """`#` airbase levels lost or port hits; `*` trainbusting succeeds; `(#)` each aircraft at
    the airbase is hit on a die of # or more; `-` nothing."""
    if printed == "-":
        return {}
    match = _FACILITY.fullmatch(printed)
    if match is None or not any(match.groupdict().values()):
        raise ResultSyntaxError(f"{printed!r} is not a facility result (such as 1 * (5))")
    outcome: dict = {}
    if match["hits"]:
        outcome["hits"] = int(match["hits"])
    if match["trainbusting"]:
        outcome["trainbusting"] = True
    if match["aircraft"]:
        outcome["aircraft"] = int(match["aircraft"])
    return outcome


# -- numbers, rolls and ratios ------------------------------------------------------------------
def parse_percent(printed: str) -> dict:
    """A percentage, with or without its sign: `25`, `80%`."""
    match = re.fullmatch(r"(100|[1-9]?[0-9])%?", printed)
    if match is None:
        raise ResultSyntaxError(f"{printed!r} is not a percentage from 0 to 100")
    return {"percent": int(match[1])}


_SUPPLY = re.compile(r"(?P<tokens>[1-9][0-9]*)T(?: per (?P<per>step|combat))?")


def parse_supply(printed: str) -> dict:
    """Supply spent, in tokens (4T = 1 SP): `2T`, `1T per step`, `2T per combat`."""
    match = _SUPPLY.fullmatch(printed)
    if match is None:
        raise ResultSyntaxError(f"{printed!r} is not a supply cost such as 2T or 1T per step")
    outcome: dict = {"tokens": int(match["tokens"])}
    if match["per"]:
        outcome["per"] = match["per"]
    return outcome


def parse_roll_range(printed: str) -> dict:
    """Modified rolls that give the result: `4 or less`, `5 or more`, `13+`, `2-8`, `11`; `-` none."""
    if printed == "-":
        return {"never": True}
    patterns = [
        (r"([0-9]+) or less", lambda m: {"max": int(m[1])}),
        (r"([0-9]+) or more", lambda m: {"min": int(m[1])}),
        (r"([0-9]+)\+", lambda m: {"min": int(m[1])}),
        (r"([0-9]+)-([0-9]+)", lambda m: {"min": int(m[1]), "max": int(m[2])}),
        (r"([0-9]+)", lambda m: {"min": int(m[1]), "max": int(m[1])}),
    ]
    for pattern, read in patterns:
        match = re.fullmatch(pattern, printed)
        if match:
            outcome = read(match)
            if outcome.get("min", 0) > outcome.get("max", outcome.get("min", 0)):
                raise ResultSyntaxError(f"{printed!r} runs backwards")
            return outcome
    raise ResultSyntaxError(f"{printed!r} is not a roll range such as 2-8, 11, 13+ or 4 or less")


def parse_odds(printed: str) -> dict:
    """Combat odds, attacker to defender: `3:1`, `1:2`."""
    match = re.fullmatch(r"([1-9][0-9]*):([1-9][0-9]*)", printed)
    if match is None:
        raise ResultSyntaxError(f"{printed!r} is not odds such as 3:1")
    return {"attacker": int(match[1]), "defender": int(match[2])}


def parse_mission_loss(printed: str) -> dict:
    """Which aircraft of the mission takes the step: `#2` the second in the stack, `W` the
    weakest, `S` the strongest (by barrage rating)."""
    match = re.fullmatch(r"#([1-9])", printed)
    if match:
        return {"aircraft": int(match[1])}
    words = {"W": "weakest", "S": "strongest"}
    if printed in words:
        return {"aircraft": words[printed]}
    raise ResultSyntaxError(f"{printed!r} is not a mission loss (#1 ... #4, W or S)")


def parse_multiplier(printed: str) -> dict:
    """A terrain effect on combat strength: `x2`, `x1.5`."""
    match = re.fullmatch(r"x([0-9]+(?:\.[0-9]+)?)", printed)
    if match is None:
        raise ResultSyntaxError(f"{printed!r} is not a multiplier such as x1.5")
    value = float(match[1])
    return {"terrain": int(value) if value.is_integer() else value}


def parse_rating(printed: str) -> dict:
    """A change of action rating: `-1` added, `=0` set."""
    match = re.fullmatch(r"([+-][0-9]+)|=([0-9]+)", printed)
    if match is None:
        raise ResultSyntaxError(f"{printed!r} is not a rating change such as -1 or =0")
    return {"add": int(match[1])} if match[1] else {"set": int(match[2])}


# -- results the chart states in words ----------------------------------------------------------
def _words(vocabulary: dict[str, dict], what: str) -> Callable[[str], dict]:
    def parse(printed: str) -> dict:
        if printed not in vocabulary:
            raise ResultSyntaxError(f"{printed!r} is not {what}; known: " + ", ".join(vocabulary))
        return copy.deepcopy(vocabulary[printed])
    parse.__doc__ = f"One of the words for {what}: " + ", ".join(vocabulary) + "."
    return parse


parse_air_combat = _words({
    "Attacker returns": {"returns": ["attacker"]},
    "Both return": {"returns": ["attacker", "defender"]},
    "Defender returns": {"returns": ["defender"]},
}, "an air combat result")

parse_loss = _words({
    "No loss": {"steps": 0},
    "Lose 1 step": {"steps": 1},
    "Lose 2 steps": {"steps": 2},
    "Lose 4 steps": {"steps": 4},
    "Lose all steps": {"steps": "all"},
}, "a step loss")

parse_flak_roll = _words({
    "Always": {"flak": "always"},
    "In an enemy patrol zone": {"flak": "patrol-zone"},
    "Never": {"flak": "never"},
}, "when flak is rolled")

# Who acts at a step of a procedure: groups of players in turn, each group acting together.
parse_actor = _words({
    "Attacker": {"turns": [["attacker"]]},
    "Defender": {"turns": [["defender"]]},
    "Both players": {"turns": [["attacker", "defender"]]},
    "Attacker, then defender": {"turns": [["attacker"], ["defender"]]},
    "Defender, then both players": {"turns": [["defender"], ["attacker", "defender"]]},
    "Not stated": {"turns": []},
}, "who acts")


# notation name (a table's `results:`) -> its reader
NOTATIONS: dict[str, Callable[[str], dict]] = {
    "combat": parse_combat,
    "barrage": parse_barrage,
    "facility-barrage": parse_facility,
    "percent": parse_percent,
    "supply": parse_supply,
    "roll-range": parse_roll_range,
    "odds": parse_odds,
    "mission-loss": parse_mission_loss,
    "multiplier": parse_multiplier,
    "rating": parse_rating,
    "air-combat": parse_air_combat,
    "loss": parse_loss,
    "flak-roll": parse_flak_roll,
    "actor": parse_actor,
}


def parse(notation: str, printed: str) -> dict:
    """The outcome that `printed` states in `notation`."""
    reader = NOTATIONS.get(notation)
    if reader is None:
        raise KeyError(f"unknown result notation {notation!r}")
    if not isinstance(printed, str) or not printed or printed != printed.strip():
        raise ResultSyntaxError("printed text is a non-empty string without surrounding spaces")
    return reader(printed)


def cell(notation: str, printed: str) -> dict:
    """A whole table cell: the printed text and its outcome."""
    return {"printed": printed, **parse(notation, printed)}


# -- comparing combat results for the attacker --------------------------------------------------
NO_EXPLOIT = 99  # an exploit threshold no unit reaches


def attacker_view(outcome: dict) -> tuple[int, int, int, int, int, bool]:
    """The measures by which a combat result favours the attacker (see `worse_for_attacker`)."""
    attacker = outcome.get("attacker", {})
    defender = outcome.get("defender", {})
    return (attacker.get("loss", 0) + attacker.get("option", 0),
            attacker.get("loss", 0),
            defender.get("loss", 0) + defender.get("option", 0),
            defender.get("loss", 0),
            attacker.get("exploit", NO_EXPLOIT),
            bool(defender.get("disorganized")))


def worse_for_attacker(later: dict, earlier: dict) -> list[str]:
    """Why the combat result `later` is worse for the attacker than `earlier` ([] when it is not).

    `later` is worse when, compared with `earlier`, any one of these holds:
    - the attacker risks more steps (its loss plus its option is larger);
    - the attacker must lose more steps outright (its loss is larger);
    - the defender risks fewer steps (its loss plus its option is smaller);
    - the defender must lose fewer steps outright (its loss is smaller);
    - fewer attackers exploit (the e# threshold is higher; no e# is the highest of all);
    - the defender is no longer disorganized.
    So a result is "no worse" only when it is at least as good on every measure at once: an
    option that replaces a loss (AL2 -> AL1o1) is an improvement, since the attacker may still
    choose to lose the step, and may retreat instead.
    """
    a_risk, a_loss, d_risk, d_loss, exploit, dg = attacker_view(later)
    b_risk, b_loss, e_risk, e_loss, e_exploit, e_dg = attacker_view(earlier)
    reasons = []
    if a_risk > b_risk:
        reasons.append(f"the attacker risks {a_risk} step(s), not {b_risk}")
    if a_loss > b_loss:
        reasons.append(f"the attacker loses {a_loss} step(s), not {b_loss}")
    if d_risk < e_risk:
        reasons.append(f"the defender risks {d_risk} step(s), not {e_risk}")
    if d_loss < e_loss:
        reasons.append(f"the defender loses {d_loss} step(s), not {e_loss}")
    if exploit > e_exploit:
        reasons.append("fewer attackers exploit" if exploit != NO_EXPLOIT else "no attacker exploits")
    if e_dg and not dg:
        reasons.append("the defender is no longer disorganized")
    return reasons
