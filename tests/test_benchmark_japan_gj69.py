"""benchmarks/japan_gj69.py: its variants change the counters they say they change."""
from __future__ import annotations

import sys

from helpers import REPO

sys.path.insert(0, str(REPO / "benchmarks"))

import japan_gj69  # noqa: E402


def test_japanese_attack_is_raised_up_to_six_and_the_allies_are_left_alone():
    units = japan_gj69.bundled_units()
    raised = japan_gj69.japanese_attack_raised(units, 2)
    every = japan_gj69.japanese_attack_raised(units, 6)
    assert set(raised) == set(every) == {u for u in units if u.startswith(("ija-", "ijn-"))}
    saigon = units["ijn-af-saigon"]
    assert raised["ijn-af-saigon"]["air_power"] == min(6, saigon["air_power"] + 2)
    for unit, stats in raised.items():
        assert stats["attack"] == min(6, units[unit]["attack"] + 2)
        assert every[unit]["attack"] == 6
        assert stats["durability"] == units[unit]["durability"]
        assert ("air_power" in stats) == (units[unit].get("air_power") is not None)
