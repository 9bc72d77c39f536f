"""What a rewrite is asked to do: the variants and the options of one run.

The one home of the variant list. It is cheap to import (no egglog, no
pycparser, no solver): the compiler wrapper, the harnesses and the CLI read it
before deciding whether any real work is needed.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field

from .frontend.preprocess import PreprocessOptions


@dataclass(frozen=True)
class Variant:
    """One way of rewriting a kernel (names from the paper)."""

    name: str
    rules: bool  # saturate with the rule sets of rules/ (FMA, commutativity, ...)
    bulk: bool  # bulk load: hoist every load to the first point its inputs exist
    summary: str

    @property
    def fp_changing(self) -> bool:
        """Whether its results may differ from the original's in floating point
        (the rule sets include FMA and float reassociation unless ``--fp-exact``)."""
        return self.rules


VARIANTS: dict[str, Variant] = {v.name: v for v in (
    Variant("cse", rules=False, bulk=False, summary="common loads and subexpressions once"),
    Variant("cse+sat", rules=True, bulk=False, summary="cse + saturation rules"),
    Variant("cse+bulk", rules=False, bulk=True, summary="cse + bulk load"),
    Variant("accsat", rules=True, bulk=True, summary="cse + rules + bulk load"),
)}
DEFAULT_VARIANT = "accsat"
# a kernel (or a build) left as the user wrote it: the baseline of every comparison
ORIG = "orig"
CONFIGS: tuple[str, ...] = (ORIG, *VARIANTS)  # what sweeps and tuning compare
# a build with a tuning database (accsat tune): each kernel the config chosen for it
TUNED = "tuned"
EXACT_VARIANTS = frozenset(name for name, v in VARIANTS.items() if not v.fp_changing)


def variant(name: str) -> Variant:
    """The variant called ``name``; ValueError naming the choices otherwise."""
    try:
        return VARIANTS[name]
    except KeyError:
        raise ValueError(f"unknown variant '{name}' (one of {', '.join(VARIANTS)})") from None


@dataclass(frozen=True)
class Limits:
    """When saturation stops (the paper's limits)."""

    nodes: int = 10_000
    iterations: int = 10
    seconds: float = 10.0


@dataclass(frozen=True)
class Options:
    """Everything that decides the rewrite of one file (and so the wrapper's cache key)."""

    variant: str = DEFAULT_VARIANT
    rules: tuple[str, ...] | None = None  # rulesets to run (None: the manifest's defaults)
    disabled_rules: tuple[str, ...] = ()
    fp_exact: bool = False
    fma_call: bool = False
    cost_model: str = "paper"
    limits: Limits = Limits()
    extract_seconds: float = 30.0
    # stop the ILP when its best has not improved for this long (on NPB's 223 kernels
    # with the ILP of extract/ilp.py: 1 s loses 60 of 481763 cost units to 2 s, on one
    # LU kernel, and saves it 3.5 s; most kernels end with a proof well before)
    extract_stall: float | None = 1.0
    # stop the ILP once its best is within this fraction of its bound; the cost model's
    # own error is far larger (benchmarks/extract_stop.py on NPB's 224 kernels: 1 % adds
    # 90 of 481703 cost units, 5 kernels dearer by 0.61 % at most, and takes the extract
    # stage from 16.0 to 13.4 s, its slowest kernel from 3.2 to 1.8 s)
    extract_gap: float = 0.01
    solver: str = "highs"
    use_ilp: bool = True
    preprocess: PreprocessOptions = field(default_factory=PreprocessOptions)
    line_directives: str | None = None  # file name for #line directives (the wrapper's)
    verify: bool = False  # translation-validate each rewrite; keep the original if it fails
    verify_trials: int = 24
    # a tuning database's choices for this file (accsat.tune.db.choices): (first line,
    # last line, config) per compute construct; a kernel whose line lies in one gets that
    # config (ORIG: left as written), the others ``variant``
    kernel_configs: tuple[tuple[int, int, str], ...] = ()

    @property
    def spec(self) -> Variant:
        from .errors import AccsatError

        try:
            return variant(self.variant)
        except ValueError as exc:
            raise AccsatError(str(exc)) from None

    @property
    def bulk(self) -> bool:
        return self.spec.bulk

    def config_for(self, line: int) -> str:
        """The config of the kernel whose loop is on ``line``: its construct's, else ``variant``."""
        for first, last, config in self.kernel_configs:
            if first <= line <= last:
                return config
        return self.variant

    def key(self) -> str:
        """A stable text of every field, for cache keys."""
        return json.dumps(asdict(self), sort_keys=True, default=str)
