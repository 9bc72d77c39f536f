"""What every ``accsat`` command line shares: its help options and its numeric types.

Cheap to import (click only): ``accsat --help`` must answer at once.
"""

from __future__ import annotations

import math

import click

# -h as well as --help, inherited by every subcommand (``accsat bench npb -h`` too)
CONTEXT_SETTINGS = {"help_option_names": ["-h", "--help"]}

# A year: more is no limit in practice, and far more overflows timers (1e300 s, inf).
MAX_SECONDS = 365 * 24 * 3600.0


class Seconds(click.FloatRange):
    """A finite duration in [0, a year] (above 0 with ``positive``): a usage error for
    ``-5``, ``nan`` (which compares false with every bound) and ``inf``."""

    name = "seconds"

    def __init__(self, positive: bool = False) -> None:
        super().__init__(0.0, MAX_SECONDS, min_open=positive)

    def convert(self, value, param, ctx):
        seconds = super().convert(value, param, ctx)
        if not math.isfinite(seconds):
            self.fail(f"{value} is not a finite number of seconds", param, ctx)
        return seconds


class Fraction(click.FloatRange):
    """A number in [0, 1]: a usage error for ``-5``, ``2`` and ``nan`` (which compares
    false with every bound and would pass a plain range)."""

    name = "fraction"

    def __init__(self) -> None:
        super().__init__(0.0, 1.0)

    def convert(self, value, param, ctx):
        fraction = super().convert(value, param, ctx)
        if math.isnan(fraction):
            self.fail(f"{value} is not a number", param, ctx)
        return fraction
