"""Strides through variables, phis and inner loops; groups along a sequential loop."""

from __future__ import annotations

from advise_helpers import kernel_at, rows

KERNELS = """
double a[8][256], b[256], s[4];
int rowstr[257], col[4096];
double v[4096];

void csr(void) {
  int i, j;
  double sum;
  #pragma acc parallel loop gang vector
  for (i = 0; i < 256; i++) {
    sum = 0.0;
    for (j = rowstr[i]; j < rowstr[i + 1]; j++)
      sum = sum + v[j] * b[col[j]];
    b[i] = sum;
  }
}

void through_variables(int c) {
  int i, ii, t;
  #pragma acc parallel loop vector
  for (i = 0; i < 255; i++) {
    ii = i + 1;
    t = 0;
    if (c) t = col[i];
    b[ii] = a[0][t] + a[1][ii];
  }
}

void sweep(void) {
  int i, m;
  #pragma acc parallel loop vector
  for (i = 0; i < 256; i++) {
    for (m = 1; m < 7; m++)
      b[i] = b[i] + a[m - 1][i] + a[m][i] + a[m + 1][i];
  }
}

void reduce(void) {
  int i;
  #pragma acc parallel loop vector
  for (i = 0; i < 256; i++)
    s[0] = s[0] + b[i];
}

void vla(int n) {
  int i;
  double w[4][n][256];
  #pragma acc parallel loop vector
  for (i = 0; i < 256; i++)
    w[1][0][i] = b[i];
}
"""


def test_inner_loop_started_from_the_thread_index_makes_its_accesses_unknown(advise):
    k = kernel_at(advise(KERNELS, rewritten=False), "csr")
    assert rows(k) == [
        ("v[j]", "load", "unknown", None, None),
        ("col[j]", "load", "unknown", None, None),
        ("b[col[j]]", "load", "unknown", None, None),
        ("b[i]", "store", "coalesced", 1, 2),
    ]
    assert [r.loop for r in k.stages["written"].accesses] == ["j", "j", "j", None]


def test_values_flow_through_variables_and_phis(advise):
    k = kernel_at(advise(KERNELS, rewritten=False), "through_variables")
    assert rows(k) == [
        ("col[i]", "load", "coalesced", 1, 1),
        ("a[0][t]", "load", "unknown", None, None),  # t = col[i] on one path
        ("a[1][ii]", "load", "coalesced", 1, 2),
        ("b[ii]", "store", "coalesced", 1, 2),
    ]


def test_group_along_the_sequential_loop(advise):
    k = kernel_at(advise(KERNELS, rewritten=False), "sweep")
    (g,) = k.stages["written"].groups
    assert (g.along, g.var, g.offsets) == ("loop", "m", [-1, 0, 1])
    assert (g.loads, g.loads_shared, g.halo, g.stored) == (3, 1.0, 2, False)


def test_uniform_store_in_a_vector_loop_is_hinted(advise):
    k = kernel_at(advise(KERNELS, rewritten=False), "reduce")
    store = k.stages["written"].accesses[-1]
    assert (store.kind, store.cls) == ("store", "uniform")
    assert "same address" in store.hint


def test_variable_length_array_is_unknown_and_says_why(advise):
    k = kernel_at(advise(KERNELS, rewritten=False), "vla")
    w = k.stages["written"].accesses[-1]
    assert (w.array, w.cls) == ("w", "unknown") and "not modelled" in w.hint
