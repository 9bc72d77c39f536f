"""Access classes on kernels whose answers are known by hand (thread index: the vector
loop's variable; doubles are 8 bytes, a warp 32 lanes, a line 128 bytes)."""

from __future__ import annotations

from advise_helpers import kernel_at, rows

KERNELS = """
#define N 64
double a[N][N], b[N][N], c[N], d[4 * N], s[4];
float f[4 * N], g[N];
int idx[N];

void copy(void) {
  int i, j;
  #pragma acc parallel loop gang
  for (j = 0; j < N; j++) {
    #pragma acc loop vector
    for (i = 0; i < N; i++)
      b[j][i] = a[j][i];
  }
}

void transpose(void) {
  int i, j;
  #pragma acc parallel loop gang
  for (j = 0; j < N; j++) {
    #pragma acc loop vector
    for (i = 0; i < N; i++)
      b[j][i] = a[i][j];
  }
}

void stride2(void) {
  int i;
  #pragma acc parallel loop gang vector
  for (i = 0; i < N; i++) {
    c[i] = d[2 * i];
    g[i] = f[2 * i + 1];
  }
}

void broadcast(int k) {
  int i;
  #pragma acc parallel loop vector
  for (i = 0; i < N; i++)
    c[i] = s[0] * a[k][3];
}

void indirect(void) {
  int i;
  #pragma acc parallel loop vector
  for (i = 0; i < N; i++)
    c[i] = d[idx[i]] + d[i * i];
}

void stencil(void) {
  int i, j;
  #pragma acc parallel loop gang
  for (j = 1; j < N - 1; j++) {
    #pragma acc loop vector
    for (i = 1; i < N - 1; i++)
      b[j][i] = a[j][i - 1] + a[j][i + 1] + a[j - 1][i] + a[j + 1][i] - 4.0 * a[j][i];
  }
}

void collapsed(void) {
  int i, j;
  #pragma acc parallel loop collapse(2)
  for (j = 0; j < N; j++)
    for (i = 0; i < N; i++)
      b[j][i] = a[i][j];
}

void target(double x, int n, double *restrict p, double *restrict q) {
  int i;
  #pragma omp target teams distribute parallel for
  for (i = 0; i < n; i++)
    q[i] = x * p[i] + p[i * n] + q[i];
}

void backwards(void) {
  int i;
  #pragma acc parallel loop vector
  for (i = N - 1; i >= 0; i--)
    c[i] = d[i] + d[3 * N + 2 * i];
}

void stepped(void) {
  int i;
  #pragma acc parallel loop vector
  for (i = 0; i < N; i += 2)
    c[i] = 0.0;
}
"""

DOUBLE_UNIT = ("coalesced", 1, 2)  # 32 lanes x 8 B = 256 B: 2 lines


def test_row_major_copy_is_coalesced(advise):
    k = kernel_at(advise(KERNELS), "copy")
    assert k.thread.var == "i"
    assert rows(k) == [("a[j][i]", "load", *DOUBLE_UNIT), ("b[j][i]", "store", *DOUBLE_UNIT)]


def test_transpose_is_uncoalesced_with_an_interchange_hint(advise):
    k = kernel_at(advise(KERNELS), "transpose")
    # a[i][j]: one row (64 doubles, 512 B) per lane: every lane its own line
    assert rows(k) == [
        ("a[i][j]", "load", "uncoalesced", 64, 32),
        ("b[j][i]", "store", *DOUBLE_UNIT),
    ]
    hint = k.stages["written"].accesses[0].hint
    assert "interchange" in hint and "j the vector loop" in hint


def test_stride_two(advise):
    k = kernel_at(advise(KERNELS), "stride2")
    # 31 x 16 B + 8 B = 504 B: 4 lines; floats: 31 x 8 + 4 = 252 B: 2 lines
    assert rows(k) == [
        ("d[2 * i]", "load", "strided", 2, 4),
        ("c[i]", "store", *DOUBLE_UNIT),
        ("f[2 * i + 1]", "load", "strided", 2, 2),
        ("g[i]", "store", "coalesced", 1, 1),
    ]


def test_broadcast_is_uniform(advise):
    k = kernel_at(advise(KERNELS), "broadcast")
    assert rows(k) == [
        ("s[0]", "load", "uniform", 0, 1),
        ("a[k][3]", "load", "uniform", 0, 1),
        ("c[i]", "store", *DOUBLE_UNIT),
    ]


def test_indirect_and_non_affine_are_unknown(advise):
    k = kernel_at(advise(KERNELS), "indirect")
    assert rows(k) == [
        ("idx[i]", "load", "coalesced", 1, 1),
        ("d[idx[i]]", "load", "unknown", None, None),
        ("d[i * i]", "load", "unknown", None, None),
        ("c[i]", "store", *DOUBLE_UNIT),
    ]
    assert all(
        "indirect or non-affine" in r.hint
        for r in k.stages["written"].accesses
        if r.cls == "unknown"
    )


def test_five_point_stencil_classes_and_neighbours(advise):
    k = kernel_at(advise(KERNELS), "stencil")
    assert [r[2] for r in rows(k)] == ["coalesced"] * 6
    (group,) = k.stages["written"].groups  # a[j-1][i], a[j+1][i] are rows apart, not lanes
    assert (group.along, group.var, group.offsets) == ("thread", "i", [-1, 0, 1])
    assert [m.array + m.index for m in group.members] == ["a[j][i - 1]", "a[j][i + 1]", "a[j][i]"]
    # shared: a warp loads its 32 values plus a halo of 2
    assert (group.loads, group.loads_shared, group.halo) == (3, 1.062, 2)


def test_collapse_two_uses_the_innermost_index(advise):
    k = kernel_at(advise(KERNELS), "collapsed")
    assert k.thread.var == "i"
    assert rows(k) == [
        ("a[i][j]", "load", "uncoalesced", 64, 32),
        ("b[j][i]", "store", *DOUBLE_UNIT),
    ]


def test_openmp_target_loop(advise):
    k = kernel_at(advise(KERNELS), "target")
    assert k.thread.var == "i" and k.thread.device
    # p[i * n]: the stride is n elements, known only at run time
    assert rows(k) == [
        ("p[i]", "load", *DOUBLE_UNIT),
        ("p[i * n]", "load", "uncoalesced", None, 32),
        ("q[i]", "load", *DOUBLE_UNIT),
        ("q[i]", "store", *DOUBLE_UNIT),
    ]
    assert "run-time" in k.stages["written"].accesses[1].hint


def test_openmp_target_loop_under_gcc_has_no_lanes(advise):
    k = kernel_at(advise(KERNELS, convention="gcc"), "target")
    assert k.thread.var is None and "warp" in k.thread.ambiguous
    assert {r[2] for r in rows(k)} == {"uniform"}


def test_a_descending_loop_is_still_coalesced(advise):
    k = kernel_at(advise(KERNELS), "backwards")
    assert k.thread.step == -1
    assert rows(k) == [
        ("d[i]", "load", "coalesced", -1, 2),
        ("d[3 * N + 2 * i]", "load", "strided", -2, 4),
        ("c[i]", "store", "coalesced", -1, 2),
    ]


def test_the_loop_step_multiplies_the_stride(advise):
    k = kernel_at(advise(KERNELS), "stepped")
    assert rows(k) == [("c[i]", "store", "strided", 2, 4)]


def test_rewritten_stage_loads_each_address_once(advise):
    found = advise(
        """
double u[64], v[64];
void f(void) {
  int i;
  #pragma acc parallel loop vector
  for (i = 1; i < 63; i++)
    v[i] = u[i - 1] * u[i - 1] + u[i] * u[i] + u[i + 1];
}
""",
        rewrite=__import__("accsat.options").options.Options(variant="cse"),
    )
    (k,) = found.kernels
    written, rewritten = k.stages["written"], k.stages["rewritten"]
    assert [r.index for r in written.accesses if r.kind == "load"] == [
        "[i - 1]",
        "[i - 1]",
        "[i]",
        "[i]",
        "[i + 1]",
    ]
    assert sorted(r.index for r in rewritten.accesses if r.kind == "load") == [
        "[i + 1]",
        "[i - 1]",
        "[i]",
    ]
    assert {r.line for r in rewritten.accesses} == {7}  # the user's line, through #line
    (wg,), (rg,) = written.groups, rewritten.groups
    assert (wg.loads, rg.loads) == (5, 3) and wg.offsets == rg.offsets == [-1, 0, 1]
