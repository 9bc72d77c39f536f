"""The thread index per construct and compiler convention (docs/advise.md)."""

from __future__ import annotations

import pytest
from advise_helpers import kernel_at

from accsat.advise.thread import loop_step, loop_variable
from accsat.frontend.load import load

CONSTRUCTS = """
double a[64][64];
void vector_inner(void) {
  int i, j;
  #pragma acc parallel loop gang
  for (j = 0; j < 64; j++) {
    #pragma acc loop vector
    for (i = 0; i < 64; i++) a[j][i] = 0.0;
  }
}
void worker_vector(void) {
  int i, j;
  #pragma acc parallel loop gang
  for (j = 0; j < 64; j++) {
    #pragma acc loop worker vector
    for (i = 0; i < 64; i++) a[j][i] = 0.0;
  }
}
void auto_loop(void) {
  int i;
  #pragma acc kernels loop independent
  for (i = 0; i < 64; i++) a[0][i] = 0.0;
}
void gang_only(void) {
  int i, j;
  #pragma acc parallel loop gang
  for (j = 0; j < 64; j++)
    for (i = 0; i < 64; i++) a[j][i] = 0.0;
}
void worker_only(void) {
  int i, j;
  #pragma acc parallel loop gang
  for (j = 0; j < 64; j++) {
    #pragma acc loop worker
    for (i = 0; i < 64; i++) a[j][i] = 0.0;
  }
}
void collapsed(void) {
  int i, j;
  #pragma acc parallel loop gang vector collapse(2)
  for (j = 0; j < 64; j++)
    for (i = 0; i < 64; i++) a[j][i] = 0.0;
}
void region_parallel(void) {
  int i;
  #pragma acc parallel
  for (i = 0; i < 64; i++) a[0][i] = 0.0;
}
void region_kernels(void) {
  int i;
  #pragma acc kernels
  for (i = 0; i < 64; i++) a[0][i] = 0.0;
}
void omp_target(void) {
  int i, j;
  #pragma omp target teams distribute parallel for collapse(2)
  for (j = 0; j < 64; j++)
    for (i = 0; i < 64; i++) a[j][i] = 0.0;
}
void omp_simd(void) {
  int i, j;
  #pragma omp target teams distribute parallel for
  for (j = 0; j < 64; j++) {
    #pragma omp simd
    for (i = 0; i < 64; i++) a[j][i] = 0.0;
  }
}
void omp_inner_for(void) {
  int i, j;
  #pragma omp target teams distribute
  for (j = 0; j < 64; j++) {
    #pragma omp parallel for
    for (i = 0; i < 64; i++) a[j][i] = 0.0;
  }
}
void omp_distribute(void) {
  int i;
  #pragma omp target teams distribute
  for (i = 0; i < 64; i++) a[0][i] = 0.0;
}
void omp_host(void) {
  int i;
  #pragma omp parallel for
  for (i = 0; i < 64; i++) a[0][i] = 0.0;
}
"""

# function: (nvc's index, gcc's index, ambiguous?)
EXPECTED = {
    "vector_inner": ("i", "i", False),
    "worker_vector": ("i", "i", False),
    "auto_loop": ("i", "i", False),
    "gang_only": ("j", None, True),
    "worker_only": ("i", None, True),
    "collapsed": ("i", "i", False),
    "region_parallel": (None, None, False),
    "region_kernels": ("i", None, True),
    "omp_target": ("i", None, True),
    "omp_simd": ("i", "i", False),
    "omp_inner_for": ("i", None, True),
    "omp_distribute": (None, None, False),
    "omp_host": ("i", "i", False),
}


@pytest.mark.parametrize("convention", ["nvc", "gcc"])
def test_thread_index_per_construct(advise, convention):
    found = advise(CONSTRUCTS, convention=convention, rewritten=False)
    got = {}
    for name in EXPECTED:
        t = kernel_at(found, name).thread
        got[name] = (t.var, bool(t.ambiguous))
        assert t.rule
    want = {n: (e[0] if convention == "nvc" else e[1], e[2]) for n, e in EXPECTED.items()}
    assert got == want


def test_host_openmp_is_not_a_device_loop(advise):
    found = advise(CONSTRUCTS, rewritten=False)
    assert not kernel_at(found, "omp_host").thread.device
    assert kernel_at(found, "omp_target").thread.device


def test_without_a_thread_index_every_access_is_uniform(advise):
    found = advise(CONSTRUCTS, convention="gcc", rewritten=False)
    (rec,) = kernel_at(found, "gang_only").stages["written"].accesses
    assert (rec.cls, rec.lines_per_warp) == ("uniform", 1)


STEPS = """
void f(int n, int k) {
  int i;
  for (i = 0; i < n; i++) {}
  for (i = n; i > 0; --i) {}
  for (i = 0; i < n; i += 4) {}
  for (i = n; i > 0; i -= 2) {}
  for (i = 0; i < n; i = i + 3) {}
  for (i = 0; i < n; i = 2 + i) {}
  for (i = 0; i < n; i += k) {}
  for (int m = 0; m < n; m++) {}
}
"""


def test_loop_variable_and_step(cfile_steps):
    fors = cfile_steps
    assert [loop_variable(f) for f in fors] == ["i"] * 7 + ["m"]
    assert [loop_step(f, loop_variable(f)) for f in fors] == [1, -1, 4, -2, 3, 2, None, 1]


@pytest.fixture
def cfile_steps(tmp_path):
    from pycparser import c_ast

    path = tmp_path / "s.c"
    path.write_text(STEPS)
    body = load(path).ast.ext[-1].body
    return [s for s in body.block_items if isinstance(s, c_ast.For)]
