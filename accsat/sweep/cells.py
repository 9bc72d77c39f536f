"""A cell: one benchmark, problem size, compiler, target and config.

A sweep is a list of cells; each is built once, run ``--runs`` times and
cached on disk under its key. ``orig`` is the plain compiler; every other
config is an accsat variant applied through ``accsat-cc``.
"""

from __future__ import annotations

import re
from dataclasses import asdict, dataclass
from itertools import product

from ..options import CONFIGS, ORIG


@dataclass(frozen=True, order=True)
class Cell:
    suite: str  # "npb" | "spec"
    benchmark: str  # "BT", "303.ostencil"
    size: str  # NPB class ("S", "W"...) or SPEC input set ("test"...)
    compiler: str  # a Compiler's name ("gcc")
    target: str  # "host" | "nvptx" | "ptx"
    variant: str  # one of CONFIGS: "orig" or an accsat variant

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
    unknown = [v for v in variants if v not in CONFIGS]
    if unknown:
        raise ValueError(f"unknown variant(s) {', '.join(unknown)} (one of {', '.join(CONFIGS)})")


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
