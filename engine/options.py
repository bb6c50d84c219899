"""Named settings typed on the command line (`--option NAME=VALUE`) or chosen in the editor.

A `Setting` says what a name means: its default, the kind of value it takes, the values allowed.
Two places declare settings:

- a game system's battle position type (`GameSystem.position_type`): every field beyond
  `BattlePosition`'s own is a setting of `playtest battle` (`settings_of_position`); a field's
  `metadata` may carry `help` and `choices`;
- a scenario's `options:` (research, national objectives, victory conditions ...) and the game
  system's own game settings are the settings of `playtest games` (`settings_of_scenario`).

`resolve(pairs, settings)` turns the user's `NAME=VALUE` texts into typed values, refusing an
unknown name with a suggestion and a value of the wrong kind with what was expected.
"""
from __future__ import annotations

import dataclasses
import difflib
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

_TRUE = {"true", "yes", "on", "1"}
_FALSE = {"false", "no", "off", "0"}


class SettingError(ValueError):
    """A `NAME=VALUE` the settings do not accept; the message says what would be accepted."""


@dataclass(frozen=True)
class Setting:
    """One named setting.

    name: as typed, in kebab case (`escape-after`); `key` is the name the code uses.
    kind: "bool", "int", "float", "text" or "counts" (`type:n,type:n`, e.g. damage per ship).
    optional: None is a value too (typed as `none`).
    minimum, maximum: the range a number must be in (both included), where a value outside
    would make no sense or stop the game (a margin of 0 divides by zero, 1e300 overflows).
    """

    name: str
    default: Any
    kind: str = "text"
    help: str = ""
    choices: tuple[str, ...] = ()
    optional: bool = False
    key: str = ""
    minimum: float | None = None
    maximum: float | None = None

    def __post_init__(self):
        if not self.key:
            object.__setattr__(self, "key", self.name.replace("-", "_"))

    def values(self) -> str:
        """The values it takes, as a help text writes them: `true|false`, `N`, `a|b|c`."""
        shown = "|".join(self.choices) if self.choices else {
            "bool": "true|false", "int": "N", "float": "X", "counts": "TYPE:N,...",
        }.get(self.kind, "TEXT")
        return f"{shown} ({self.range_text()})" if self.range_text() else shown

    def default_text(self) -> str:
        return "none" if self.default is None else _show(self.default)

    def describe(self) -> str:
        """One line for a help text: name, values, default, meaning."""
        return (f"{self.name}={self.values()} (default {self.default_text()})"
                f"{': ' + self.help if self.help else ''}")

    def range_text(self) -> str:
        """The range a number must be in, as `0.1 to 10` or `at least 1`; '' when any will do."""
        low, high = (None if v is None else _show(v) for v in (self.minimum, self.maximum))
        if low is not None and high is not None:
            return f"{low} to {high}"
        return f"at least {low}" if low is not None else f"at most {high}" if high is not None else ""

    def parse(self, text: str) -> Any:
        """The typed value of `text`, or SettingError saying what this setting takes."""
        raw = text.strip()
        if self.optional and raw.lower() in ("none", ""):
            return None
        try:
            value = _PARSERS[self.kind](raw)
        except (ValueError, KeyError):
            raise SettingError(f"{self.name}={text!r}: expected {self._expected()}") from None
        if self.kind in ("int", "float") and value is not None and (
                (self.minimum is not None and value < self.minimum)
                or (self.maximum is not None and value > self.maximum)):
            raise SettingError(f"{self.name}={text!r}: expected {self._expected()}, {self.range_text()}")
        if self.choices and value not in self.choices:
            close = difflib.get_close_matches(str(value), self.choices, n=1, cutoff=0.5)
            hint = f"; did you mean {close[0]}?" if close else ""
            raise SettingError(f"{self.name}={text!r}: choose one of "
                               f"{', '.join(self.choices)}{hint}")
        return value

    def check(self, value: Any) -> Any:
        """A value stored typed (a replay's header), checked as the text of it would be on the
        command line: the same values are refused, with the same messages."""
        text = value if isinstance(value, str) else "" if value == {} else _show(value)
        typed = self.parse(text)
        if typed != value or type(typed) is not type(value) and not (
                self.kind == "float" and type(value) is int):
            raise SettingError(f"{self.name}={text!r}: expected {self._expected()}")
        return value

    def _expected(self) -> str:
        return {"bool": "true or false", "int": "a whole number", "float": "a number",
                "counts": "TYPE:N pairs separated by commas, as 'battleship:2,cruiser:1'",
                }.get(self.kind, "a text")


def _parse_bool(text: str) -> bool:
    lowered = text.lower()
    if lowered in _TRUE:
        return True
    if lowered in _FALSE:
        return False
    raise ValueError(text)


def _parse_int(text: str) -> int:
    if len(text) > 18:          # a count beyond any board; int() of a huge text is slow
        raise ValueError(text)
    return int(text)


def _parse_float(text: str) -> float:
    value = float(text)
    if value != value or value in (float("inf"), float("-inf")):
        raise ValueError(text)
    return value


def named_values(text: str, separator: str, parse: Callable[[str], Any]) -> list[tuple[str, Any]]:
    """'a:1,b:2' -> [('a', 1), ('b', 2)]: NAME:VALUE items parted by `separator`, each value
    read by `parse`; ValueError for an item that is not NAME:VALUE or a value `parse` refuses."""
    found = []
    for item in filter(None, (part.strip() for part in text.split(separator))):
        name, colon, value = item.partition(":")
        if not colon or not name.strip():
            raise ValueError(item)
        found.append((name.strip(), parse(value.strip())))
    return found


def _parse_counts(text: str) -> dict[str, int]:
    counts: dict[str, int] = {}
    for name, n in named_values(text, ",", _parse_int):
        counts[name] = counts.get(name, 0) + n
    return counts


_PARSERS: dict[str, Callable[[str], Any]] = {"bool": _parse_bool, "int": _parse_int, "float": _parse_float,
            "counts": _parse_counts, "text": str}


def _show(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, dict):
        return ",".join(f"{k}:{v}" for k, v in value.items()) or "none"
    return str(value)


def split_assignments(pairs: Iterable[str]) -> list[tuple[str, str]]:
    """`["escape=axis", "pursue=false"]` -> `[("escape", "axis"), ("pursue", "false")]`."""
    found = []
    for pair in pairs:
        name, equals, value = pair.partition("=")
        if not equals or not name.strip():
            raise SettingError(f"{pair!r}: write NAME=VALUE, as 'research=true'")
        found.append((name.strip().lower().replace("_", "-"), value))
    return found


def resolve(pairs: Iterable[str], settings: Sequence[Setting]) -> dict[str, Any]:
    """The values the user chose, keyed by `Setting.key`; settings not named are left out."""
    by_name = {setting.name: setting for setting in settings}
    chosen: dict[str, Any] = {}
    for name, text in split_assignments(pairs):
        setting = by_name.get(name) or _unknown(name, by_name)
        chosen[setting.key] = setting.parse(text)
    return chosen


def check_values(values: Mapping[str, Any], settings: Sequence[Setting]) -> dict[str, Any]:
    """Values stored by `Setting.key` (a replay's header), checked as `resolve` checks typed
    text: an unknown name or a value of the wrong kind is refused with the same message."""
    by_key = {setting.key: setting for setting in settings}
    by_name = {setting.name: setting for setting in settings}
    checked: dict[str, Any] = {}
    for key, value in values.items():
        setting = by_key.get(key) or _unknown(key.lower().replace("_", "-"), by_name)
        checked[key] = setting.check(value)
    return checked


def _unknown(name: str, by_name: Mapping[str, Setting]) -> Setting:
    known = sorted(by_name)
    close = difflib.get_close_matches(name, known, n=3, cutoff=0.5)
    hint = (f"; did you mean {' or '.join(close)}?" if close
            else f"; the settings are: {', '.join(known)}" if known
            else "; there are none here")
    raise SettingError(f"unknown setting {name!r}{hint}")


def defaults(settings: Sequence[Setting]) -> dict[str, Any]:
    return {setting.key: setting.default for setting in settings}


# -- where settings come from --------------------------------------------------------------------
_KINDS = {"bool": "bool", "int": "int", "float": "float", "str": "text",
          "dict[str, int]": "counts"}


def setting(default: Any, help: str, choices: Sequence[str] = ()) -> Any:
    """A dataclass field that is a setting: its default, what it means and the values allowed
    (`settings_of_fields` reads them back)."""
    metadata = {"help": help, "choices": tuple(choices)} if choices else {"help": help}
    return dataclasses.field(default=default, metadata=metadata)


def settings_of_position(position_type: type, base: type) -> list[Setting]:
    """The settings of a battle: the fields `position_type` adds to `base` (BattlePosition)."""
    return settings_of_fields(position_type, {f.name for f in dataclasses.fields(base)})


def settings_of_fields(inputs_type: type, skip: Iterable[str] = ()) -> list[Setting]:
    """The fields of a dataclass as settings (those named in `skip` left out): a field's
    `metadata` may carry `help` and `choices`."""
    skipped = set(skip)
    found = []
    for field in dataclasses.fields(inputs_type):
        if field.name in skipped:
            continue
        annotation = str(field.type).replace(" ", "")
        optional = annotation.endswith("|None")
        kind = _KINDS.get(annotation.removesuffix("|None").replace(",", ", "), "text")
        factory: Any = field.default_factory
        default = field.default if field.default is not dataclasses.MISSING else factory()
        found.append(Setting(field.name.replace("_", "-"), default, kind,
                             field.metadata.get("help", ""),
                             tuple(field.metadata.get("choices", ())), optional, field.name))
    return found


def settings_of_scenario(options: Sequence[dict]) -> list[Setting]:
    """A scenario's `options:` (scenario.yaml) as settings: an option of its own is true/false; options sharing
    a `group` (the victory conditions) are one setting named by the group, whose value is the
    chosen option's id (None when no option of the group is on by default and none is chosen)."""
    found: list[Setting] = []
    groups: dict[str, list[dict]] = {}
    for option in options:
        if option.get("group"):
            groups.setdefault(option["group"], []).append(option)
        else:
            found.append(Setting(option["id"], bool(option.get("default", False)), "bool",
                                 str(option.get("name", ""))))
    for group, members in groups.items():
        # a group none of whose options is on by default (an optional end condition) is off
        # unless chosen: its setting takes `none` too
        chosen = next((m["id"] for m in members if m.get("default")), None)
        found.append(Setting(group, chosen, "text", f"one of the scenario's {group} options",
                             tuple(m["id"] for m in members), optional=chosen is None))
    return found
