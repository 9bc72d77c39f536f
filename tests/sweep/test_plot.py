"""accsat.sweep.plot: every variant has a colour of its own."""

from __future__ import annotations

from accsat.options import VARIANTS
from accsat.sweep.plot import _COLOURS


def test_every_variant_has_its_own_colour():
    # a variant added beyond the palette would be drawn in matplotlib's next colour
    assert set(_COLOURS) == set(VARIANTS)
    assert len(set(_COLOURS.values())) == len(VARIANTS)
