"""Edge values (accsat/verify/edges.py) and the edge rounds of the states (states.py):
the kernel's own constants, their neighbours and the type limits reach the values the
body loads, deterministically."""

from __future__ import annotations

import math
from pathlib import Path

from accsat.frontend.load import load
from accsat.options import Options
from accsat.verify.cvalues import F32, Desc
from accsat.verify.edges import EdgeValues, kernel_edges
from accsat.verify.interp import compile_body, execute
from accsat.verify.states import make_state
from accsat.verify.validate import verify_programs

INT = Desc(("i", 32, True))
UINT = Desc(("i", 32, False))
LONG = Desc(("i", 64, True))
DOUBLE = Desc(("f64", 64, True))
FLOAT = Desc(("f32", 32, True))
INT_MIN, INT_MAX = -(1 << 31), (1 << 31) - 1

SRC = """#include <limits.h>
void f(int *num, int *q, double *x, double *y, double s, int n)
{
#pragma acc parallel loop
  for (int i = 0; i < n; i++) {
    if (num[i] != INT_MIN && num[i] > 1000) q[i] = 2; else q[i] = num[i] == INT_MIN;
    y[i] = x[i] < 0.25 ? s : x[i];
  }
}
"""


def _kernel(tmp_path: Path, src: str = SRC):
    path = tmp_path / "k.c"
    path.write_text(src)
    loaded = load(path, Options().preprocess)
    k = loaded.kernels[0]
    prog = compile_body(k.loop.stmt, k.scope, loaded.symbols, loaded.defined, k.address_taken)
    edges = kernel_edges([(k.loop.stmt, k.scope, loaded.symbols)], loaded.defined, k.address_taken)
    return prog, edges


def test_constants_of_the_body_and_their_neighbours(tmp_path):
    _prog, edges = _kernel(tmp_path)
    # INT_MIN is (-2147483647 - 1): the folded value and its parts
    assert {INT_MIN, INT_MAX, 1000, 2} <= set(edges.ints)
    assert 0.25 in edges.floats
    pool = edges.pool(INT)
    assert {INT_MIN, INT_MIN + 1, INT_MAX, 1000, 999, 1001, -1000, 0, 1, -1} <= set(pool)
    # the constants and the limits in turn, then the neighbours: kept in this order
    assert EdgeValues(ints=(1000, 7)).pool(INT)[:5] == (1000, 0, 7, 1, -1)
    assert pool.index(INT_MAX - 1) < pool.index(999)
    fpool = edges.pool(DOUBLE)
    assert {0.25, -0.25, 1.25, -0.75, math.nextafter(0.25, 1), math.nextafter(0.25, 0)} <= set(
        fpool
    )
    # what indexes keeps ordinary values
    assert "i" in edges.no_edge
    assert {"s", "p:x", "p:num"}.isdisjoint(edges.no_edge)


def test_type_limits():
    e = EdgeValues()
    assert {0, 1, -1, INT_MIN, INT_MAX} <= set(e.pool(INT))
    assert {0, 1, (1 << 32) - 1, 1 << 31} <= set(e.pool(UINT))
    assert min(e.pool(UINT)) == 0
    assert {-(1 << 63), (1 << 63) - 1} <= set(e.pool(LONG))
    f = e.pool(DOUBLE)
    assert 5e-324 in f and -5e-324 in f and 1.7976931348623157e308 in f
    assert any(v == 0 and math.copysign(1, v) < 0 for v in f)  # -0.0 as well as 0.0
    assert math.inf in f and -math.inf in f and any(v != v for v in f)
    f32 = e.pool(FLOAT)
    assert all(isinstance(v, F32) for v in f32) and F32(1e-45) in f32
    # compared with a tolerance: no edge values for floats
    assert e.pool(DOUBLE, finite=True) == () == e.pool(FLOAT, finite=True)
    assert e.pool(INT, finite=True) == e.pool(INT)


def test_edge_rounds_reach_the_loaded_values(tmp_path):
    prog, edges = _kernel(tmp_path)
    scalars = {n: t for n, (_s, t) in prog.outer_vars.items()}
    pool = edges.pool(INT)
    seen, stored = [], set()
    for r in range(len(pool)):
        st = make_state(7, 0, scalars, prog.outer_objects, edges=edges, edge_round=r)
        assert st.scalars["i"] in (1, 2)  # what indexes stays in range
        i = st.scalars["i"]
        seen.append(st.memory_value("p:num", 4 * i, INT, 0))
        run = execute(prog, st)
        stored.add(run.mem["p:q"][4 * i][1])
    # one pass: every edge value once at the location the body reads, INT_MIN included
    assert sorted(seen) == sorted(pool)
    assert stored == {0, 1, 2}  # both guards true and false
    # deterministic: the same round, the same state
    a = make_state(7, 0, scalars, prog.outer_objects, edges=edges, edge_round=3)
    b = make_state(7, 0, scalars, prog.outer_objects, edges=edges, edge_round=3)
    assert a.scalars == b.scalars
    assert a.memory_value("p:x", 8, DOUBLE, 0) == b.memory_value("p:x", 8, DOUBLE, 0)
    # the scalar s (no index) takes edge values too
    svals = {
        make_state(7, 0, scalars, prog.outer_objects, edges=edges, edge_round=r).scalars["s"]
        for r in range(len(edges.pool(DOUBLE)))
    }
    assert 0.25 in svals and math.inf in svals


def test_finite_rounds_keep_random_floats(tmp_path):
    prog, edges = _kernel(tmp_path)
    scalars = {n: t for n, (_s, t) in prog.outer_vars.items()}
    pool = edges.pool(INT)
    nums = set()
    for r in range(len(pool)):
        st = make_state(7, 0, scalars, prog.outer_objects, finite=True, edges=edges, edge_round=r)
        for v in (st.scalars["s"], st.memory_value("p:x", 8, DOUBLE, 0)):
            assert math.isfinite(v) and 0.5 <= abs(v) <= 8
        nums.add(st.memory_value("p:num", 4 * st.scalars["i"], INT, 0))
    assert nums == set(pool)  # integers still meet their edges


def test_verify_programs_runs_the_edge_rounds(tmp_path):
    prog, edges = _kernel(tmp_path)
    v = verify_programs(prog, prog, trials=10, edges=edges)
    rounds = edges.rounds({INT, DOUBLE}, False, 20)
    assert v.verdict == "pass" and v.states_tried >= 10 + rounds and rounds == 20


def test_what_is_assigned_to_an_index_indexes_too(tmp_path):
    src = """void f(int *idx, int *cnt, double *x, double *y, int n)
{
#pragma acc parallel loop
  for (int i = 0; i < n; i++) {
    int j = idx[i];
    int m;
    for (m = 0; m < cnt[i]; m++) y[j] += x[m] * 2.0;
  }
}
"""
    _prog, edges = _kernel(tmp_path, src)
    assert {"i", "j", "m", "p:idx", "p:cnt"} <= edges.no_edge
    assert {"p:x", "p:y"}.isdisjoint(edges.no_edge)


def test_the_float_past_flt_max_is_infinity_without_a_warning(recwarn):
    # the next float after FLT_MAX overflows to inf in numpy (a RuntimeWarning that the
    # fuzzer and accsat check printed): an edge value, said quietly
    pool = EdgeValues(floats=(3.4028234663852886e38,)).pool(FLOAT)
    assert math.inf in pool and 3.4028234663852886e38 in pool
    assert not [w for w in recwarn if issubclass(w.category, RuntimeWarning)]
