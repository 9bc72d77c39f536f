"""Where the generator's choices come from.

The generator draws every decision through a ``Chooser``: ``RandomChooser``
(offline runs; it records its choices so that a failure can be replayed and
shrunk), ``ReplayChooser`` and ``HypothesisChooser`` (hypothesis strategies,
which shrink on their own). Smaller choices always mean simpler programs.
"""

from __future__ import annotations

import random


class Chooser:
    def int(self, lo: int, hi: int) -> int:  # pragma: no cover - interface
        raise NotImplementedError

    def pick(self, seq):
        return seq[self.int(0, len(seq) - 1)]

    def chance(self, percent: int) -> bool:
        """True with probability percent/100; the minimal choice is False."""
        return self.int(0, 99) >= 100 - percent


class RandomChooser(Chooser):
    def __init__(self, seed: int | str):
        self.rng = random.Random(seed)
        self.choices: list[int] = []

    def int(self, lo: int, hi: int) -> int:
        v = self.rng.randint(lo, hi)
        self.choices.append(v - lo)
        return v


class ReplayChooser(Chooser):
    """Replays recorded choices (as offsets from each range's minimum); past the end, minimal."""

    def __init__(self, choices: list[int]):
        self.recorded = list(choices)
        self.pos = 0
        self.choices: list[int] = []

    def int(self, lo: int, hi: int) -> int:
        off = self.recorded[self.pos] if self.pos < len(self.recorded) else 0
        self.pos += 1
        v = min(lo + max(off, 0), hi)
        self.choices.append(v - lo)
        return v


class HypothesisChooser(Chooser):
    def __init__(self, draw):
        from hypothesis import strategies as st

        self.draw = draw
        self.st = st

    def int(self, lo: int, hi: int) -> int:
        return self.draw(self.st.integers(lo, hi))
