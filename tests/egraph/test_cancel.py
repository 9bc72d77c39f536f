"""Constants that cancel (issue 35): ``(U[i] + 4294967295u) + 1u`` is ``U[i]``, and the
sum that says so is subsumed, so that no cycle x = (x + k) + 1 feeds commutativity and
associativity; saturation stays small and within its memory budget."""

from __future__ import annotations

import subprocess
import sys
import textwrap

import pytest

from accsat.egraph import saturate as sat_mod
from accsat.egraph.rules import rulesets_for
from accsat.egraph.saturate import CANCEL, combine, saturate
from accsat.extract import load_cost_model
from accsat.frontend.load import load
from accsat.options import VARIANTS, Limits, Options
from accsat.pipeline import _op_cost
from accsat.ssa import ir
from accsat.ssa.statements import build_ssa

SRC = """\
unsigned ru[8], rv[8]; unsigned long rl[8]; double rd[8];
void k(int n, unsigned u, unsigned long l, double d)
{{
  int i;
#pragma acc parallel loop
  for (i = 0; i < n; i++) {{
    {stmt}
  }}
}}
"""


def _saturated(tmp_path, stmt: str, variant: str, limits: Limits | None = None):
    path = tmp_path / "k.c"
    path.write_text(SRC.format(stmt=stmt))
    loaded = load(path)
    (kernel,) = loaded.kernels
    ssa = build_ssa(kernel, loaded.symbols, _op_cost(load_cost_model("paper")), loaded.defined)
    # a cycle would grow to the node limit (within the memory budget: a failure, not a
    # machine out of memory)
    options = Options(variant=variant, limits=limits or Limits(nodes=5_000))
    sat = saturate(ssa.terms, ssa.roots, rulesets_for(options), options.limits)
    (store,) = [s for s, _ in ir.walk(ssa.body) if isinstance(s, ir.Store)]
    return ssa, sat, sat.class_of[store.value]


def _var_class(ssa, sat, name: str) -> int:
    (cls,) = {
        sat.class_of[tid]
        for tid, term in enumerate(ssa.terms.terms)
        if term.op == "Var" and term.attrs[0] == name and tid in sat.class_of
    }
    return cls


@pytest.mark.parametrize(
    "outer,inner,ty,k1,k2",
    [
        ("Add", "Add", "unsigned int", "4294967295u", "1u"),
        ("Add", "Sub", "unsigned int", "1u", "1u"),
        ("Sub", "Add", "int", "5", "5"),
        ("Mul", "Mul", "unsigned int", "4294967295u", "4294967295u"),
        ("Mul", "Mul", "unsigned int", "3u", "2863311531u"),
        ("Add", "Add", "unsigned long", "18446744073709551615ul", "1ul"),
    ],
)
def test_constants_that_cancel_are_answered_so(outer, inner, ty, k1, k2):
    assert combine(outer, inner, ty, k1, k2) == (CANCEL, "")


def test_constants_that_do_not_cancel_still_combine():
    assert combine("Add", "Add", "unsigned int", "4294967295u", "2u") == ("Add", "1u")
    assert combine("Mul", "Mul", "unsigned int", "2147483648u", "2u") == ("Mul", "0u")


# the statement, the variable its value is
WRAPS = [
    ("ru[i] = (u + 4294967295u) + 1u;", "u"),
    ("ru[i] = (u + 0xffffffffu) + 1u;", "u"),
    ("ru[i] = (u - 1u) + 1u;", "u"),
    ("ru[i] = (u + 5u) - 5u;", "u"),
    ("ru[i] = (u * 4294967295u) * 4294967295u;", "u"),
    ("ru[i] = (u * 3u) * 2863311531u;", "u"),
    ("rl[i] = (l + 18446744073709551615ul) + 1ul;", "l"),
]


@pytest.mark.parametrize("variant", list(VARIANTS))
@pytest.mark.parametrize("stmt,var", WRAPS)
def test_a_cancelling_sum_is_its_operand_and_grows_nothing(tmp_path, stmt, var, variant):
    """Without the subsumption, cse+sat grew x + n * 4294967295u for every n, to the node
    limit (10 GB in 70 s at 10,000 nodes)."""
    ssa, sat, cls = _saturated(tmp_path, stmt, variant)
    assert cls == _var_class(ssa, sat, var)
    assert sat.stop_reason == "saturated"
    assert sat.nodes < 60, sat.nodes


def test_a_float_ring_of_products_grows_nothing(tmp_path):
    """(d * 2.0) * 0.5 folds to d * 1.0, which is d: both products of the ring are
    subsumed (assoc-float made 3,500 e-nodes of d * 2^n before)."""
    ssa, sat, cls = _saturated(tmp_path, "rd[i] = (d * 2.0) * 0.5;", "cse+sat")
    assert cls == _var_class(ssa, sat, "d")
    assert sat.stop_reason == "saturated" and sat.nodes < 60, sat.nodes


def test_saturation_stops_at_its_memory_budget(tmp_path, monkeypatch):
    """A process that grows 8 MB at every look stops within a 20 MB budget, on the
    e-graph of an iteration that was within it; the reason is said."""
    grown = iter(range(0, 10_000, 8))
    monkeypatch.setattr(sat_mod, "resident_mb", lambda: float(next(grown)))
    stmt = "rd[i] = d * 2.0 + d * 3.0 + d * 4.0 + d * 5.0 + d * 6.0 + d * 7.0;"
    _, sat, _ = _saturated(tmp_path, stmt, "cse+sat", Limits(memory=20))
    assert sat.stop_reason == "memory-limit"
    free = _saturated(tmp_path, stmt, "cse+sat")[1]
    assert sat.iterations < free.iterations


WRAP_FILE = """\
#define N 1024
unsigned U[N];
unsigned R[N];

void kernel(void)
{
#pragma acc parallel loop
  for (int i = 0; i < N; i++)
    R[i] = (U[i] + 4294967295u) + 1u;
}
"""
# every variant in one process under an address-space limit: a regression dies of it
# (egglog aborts) instead of taking the machine's memory
CHILD = textwrap.dedent(
    """
    import resource, sys
    from pathlib import Path
    from accsat.options import VARIANTS, Options
    from accsat.pipeline import rewrite_file
    resource.setrlimit(resource.RLIMIT_AS, (2 << 30, 2 << 30))
    for v in VARIANTS:
        (k,) = rewrite_file(Path(sys.argv[1]), Options(variant=v)).kernels
        print(v, k.status, k.egraph["stop_reason"], k.egraph["nodes"])
    status = Path("/proc/self/status")
    if status.exists():  # the peak resident memory, in kB
        print("peak", status.read_text().split("VmHWM:")[1].split()[0])
    """
)


def test_the_wrap_around_kernel_rewrites_within_300_mb(tmp_path):
    path = tmp_path / "wrap.c"
    path.write_text(WRAP_FILE)
    done = subprocess.run(
        [sys.executable, "-c", CHILD, str(path)], capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, done.stderr[-2000:]
    lines = done.stdout.split("\n")
    for v in VARIANTS:
        (line,) = [x for x in lines if x.startswith(v + " ")]
        _, status, stop, nodes = line.split()
        assert (status, stop) == ("rewritten", "saturated") and int(nodes) < 60, line
    peak = [int(x.split()[1]) for x in lines if x.startswith("peak ")]
    assert all(kb < 300 * 1024 for kb in peak), f"{peak[0] / 1024:.0f} MB"
