"""A SPEC ACCEL installation as the harness sees it.

    $SPEC/shrc                               sets up the environment runspec needs
    $SPEC/bin/runspec
    $SPEC/benchspec/ACCEL/303.ostencil/src/  the sources
                                  .../data/{test,train,ref}/{input,output}/
                                  .../data/all/input/   (inputs every size shares)
                                  .../Spec/object.pm    sources, tolerances, invoke()

The programming model follows the number: 1xx OpenCL (not C compiled by a C
compiler: unsupported here), 3xx OpenACC, 5xx OpenMP 4.x target.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

# The C benchmarks of SPEC ACCEL v1.x that the ACC Saturator paper used: the
# OpenACC suite and the OpenMP-target versions of the same programs. (The other
# ACCEL benchmarks are Fortran or mixed C/Fortran: accsat rewrites C only.)
PAPER_BENCHMARKS = (
    "303.ostencil",
    "304.olbm",
    "314.omriq",
    "352.ep",
    "354.cg",
    "357.csp",
    "370.bt",
    "503.postencil",
    "504.polbm",
    "514.pomriq",
    "552.pep",
    "554.pcg",
    "557.pcsp",
    "570.pbt",
)
SIZES = ("test", "train", "ref")


def model(benchmark: str) -> str:
    """'openacc' (3xx), 'openmp' (5xx), 'opencl' (1xx) or 'unknown'."""
    digits = benchmark.split(".", 1)[0]
    if not digits.isdigit():
        return "unknown"
    return {"1": "opencl", "3": "openacc", "5": "openmp"}.get(digits[0], "unknown")


@dataclass(frozen=True)
class SpecTree:
    root: Path  # a dataclass: a suite holding it can be sent to a batch job (jobspec.py)

    @property
    def benchspec(self) -> Path:
        return self.root / "benchspec" / "ACCEL"

    def benchmarks(self) -> list[str]:
        if not self.benchspec.is_dir():
            return []
        return sorted(p.name for p in self.benchspec.iterdir() if (p / "src").is_dir())

    def resolve(self, name: str) -> str | None:
        """``303`` or ``ostencil`` or ``303.ostencil`` -> ``303.ostencil`` (None: not here)."""
        for b in self.benchmarks():
            num, _, short = b.partition(".")
            if name in (b, num, short):
                return b
        return None

    def bench_dir(self, benchmark: str) -> Path:
        return self.benchspec / benchmark

    def input_dirs(self, benchmark: str, size: str) -> list[Path]:
        """data/all/input (if any) then data/SIZE/input: a run folder gets both."""
        data = self.bench_dir(benchmark) / "data"
        return [d for d in (data / "all" / "input", data / size / "input") if d.is_dir()]

    def output_dir(self, benchmark: str, size: str) -> Path:
        return self.bench_dir(benchmark) / "data" / size / "output"
