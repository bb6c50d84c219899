"""How far each locale of a scenario has come: translated, missing, stale and unknown texts."""
from __future__ import annotations

from dataclasses import dataclass, field

from ..scenario import Scenario
from .model import State, source_language, translation_units


@dataclass
class LocaleStatus:
    locale: str
    texts: int  # texts of the scenario, the same for every locale
    keys: dict[State, list[str]] = field(default_factory=dict)
    broken_placeholders: list[str] = field(default_factory=list)

    def count(self, state: State) -> int:
        return len(self.keys.get(state, []))

    @property
    def percent(self) -> float:
        """Share of the texts with a current translation, to one decimal place."""
        if not self.texts:
            return 100.0
        return round(100 * self.count(State.TRANSLATED) / self.texts, 1)

    @property
    def has_problems(self) -> bool:
        """Stale or unknown entries or broken placeholders: things to fix, not just to do."""
        return bool(self.count(State.STALE) or self.count(State.UNKNOWN) or self.broken_placeholders)

    def as_dict(self) -> dict:
        return {
            "locale": self.locale,
            **{state.value: self.count(state) for state in State},
            "broken_placeholders": len(self.broken_placeholders),
            "percent": self.percent,
            "keys": {**{state.value: self.keys.get(state, []) for state in State
                        if state is not State.TRANSLATED},
                     "broken_placeholders": self.broken_placeholders},
        }


def locale_status(scenario: Scenario, tag: str) -> LocaleStatus:
    units = translation_units(scenario, tag)
    status = LocaleStatus(tag, sum(1 for u in units if u.state is not State.UNKNOWN),
                          {state: [] for state in State})
    for unit in units:
        status.keys[unit.state].append(unit.key)
        if not unit.placeholders_kept:
            status.broken_placeholders.append(unit.key)
    return status


def scenario_status(scenario: Scenario) -> list[LocaleStatus]:
    """The status of every locale the scenario (or a scenario it extends) has, but the source's."""
    source = source_language(scenario)
    return [locale_status(scenario, tag) for tag in scenario.locale_tags if tag != source]
