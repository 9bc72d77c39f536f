"""A cell: one benchmark, problem size, compiler, target and config.

A sweep is a list of cells; each is built once, run ``--runs`` times and
cached on disk under its key. ``orig`` is the plain compiler; every other
config is an accsat variant applied through ``accsat-cc``.
"""

from __future__ import annotations

import re
from dataclasses import asdict, dataclass
from itertools import product

from ..options import ORIG, check_config


@dataclass(frozen=True, order=True)
class Cell:
    suite: str  # "npb" | "spec"
    benchmark: str  # "BT", "303.ostencil"
    size: str  # NPB class ("S", "W"...) or SPEC input set ("test"...)
    compiler: str  # a Compiler's name ("gcc")
    target: str  # "host" | "nvptx" | "ptx"
    variant: str  # a config: "orig", an accsat variant, or one with a budget ("cse@keep")

    @property
    def key(self) -> str:
        """A file name that names the cell (and nothing else)."""
        raw = f"{self.benchmark}.{self.size}.{self.compiler}.{self.target}.{self.variant}"
        return re.sub(r"[^A-Za-z0-9.+_-]", "_", raw)

    @property
    def group(self) -> tuple[str, str, str, str, str]:
        """The cells sharing this one's ``orig`` baseline differ only in the variant."""
        return (self.suite, self.benchmark, self.size, self.compiler, self.target)

    def baseline(self) -> Cell:
        return Cell(self.suite, self.benchmark, self.size, self.compiler, self.target, ORIG)

    def as_dict(self) -> dict[str, str]:
        return asdict(self)


def split_list(text: str) -> list[str]:
    """``"BT, SP,,LU"`` -> ``["BT", "SP", "LU"]`` (order kept, duplicates dropped)."""
    seen: list[str] = []
    for item in text.split(","):
        item = item.strip()
        if item and item not in seen:
            seen.append(item)
    return seen


def check_variants(variants: list[str]) -> None:
    """ValueError for the first that is not orig, a variant or a variant with a register
    budget (``cse@keep``)."""
    for v in variants:
        check_config(v)


def grid(
    suite: str,
    benchmarks: list[str],
    sizes: list[str],
    compilers: list[str],
    targets: list[str],
    variants: list[str],
) -> list[Cell]:
    """Every combination, ``orig`` always included (speedups are relative to it).

    Ordered so that a benchmark's variants are neighbours: a sweep interrupted
    half-way has complete speedup groups rather than one variant everywhere.
    """
    if ORIG not in variants:
        variants = [ORIG, *variants]
    return [
        Cell(suite, b, s, c, t, v)
        for s, c, t, b, v in product(sizes, compilers, targets, benchmarks, variants)
    ]
