"""What every game's `clone` copies the same way: its random generator (a chronicle copies
itself, engine/game.py `Chronicle.copy`).

(engine/game.py fixes the interface; systems copy their own positions and use these for the
parts every game has.)
"""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np


def generator_at(state: Mapping[str, Any]) -> np.random.Generator:
    """A new generator of the kind `state` names (a bit generator's `state`), in that state."""
    generator = np.random.Generator(getattr(np.random, state["bit_generator"])())
    generator.bit_generator.state = state
    return generator


def copy_generator(rng: np.random.Generator) -> np.random.Generator:
    """A generator that draws what `rng` would draw next, without touching `rng`."""
    return generator_at(rng.bit_generator.state)
