"""The differential-test corpus is sound before any optimizer touches it.

Every kernel in tests/kernels compiles warning-free with the corpus flags, runs,
and prints the same bytes every time: twice in a row, at -O0 and at -O2, and
(OpenMP) with 1 or 3 threads.  Its output uses only the formats the
comparison understands (hex floats, decimal integers, names), and the harness
helpers (model_of, tolerance_of, count_loads, compare_outputs) work on it.
"""

from __future__ import annotations

import re
from concurrent.futures import ThreadPoolExecutor

import pytest
from difftest import (
    KERNELS,
    compare_outputs,
    compile_kernel,
    count_loads,
    kernel_id,
    model_of,
    run_exe,
    tolerance_of,
)

_TOKEN_OK = re.compile(
    r"^(?:[+-]?0x[0-9a-f]+(?:\.[0-9a-f]*)?p[+-]?\d+"  # %a
    r"|[+-]?\d+"  # %d %ld %u
    r"|[+-]?(?:nan|inf)"
    r"|[A-Za-z_][A-Za-z0-9_]*)$",  # labels
    re.I,
)


def test_corpus_size_and_models():
    assert len(KERNELS) >= 20
    models = {model_of(k) for k in KERNELS}
    assert models == {"acc", "omp"}


@pytest.mark.parametrize("kernel", KERNELS, ids=kernel_id)
def test_header(kernel):
    first = kernel.read_text(encoding="utf-8").splitlines()[0]
    assert first.startswith("// shapes:"), "first line must say which shapes the kernel exercises"
    assert "model:" in first
    rel, abs_ = tolerance_of(kernel)
    assert 0 < rel < 1e-3 and 0 < abs_ < 1e-3


@pytest.mark.parametrize("kernel", KERNELS, ids=kernel_id)
def test_deterministic(kernel, tmp_path):
    model = model_of(kernel)
    with ThreadPoolExecutor(2) as pool:
        o0, o2 = pool.map(
            lambda opt: compile_kernel(
                kernel, tmp_path, model, opt, extra_cflags=("-Wall", "-Werror")
            ),
            ("-O0", "-O2"),
        )
    outs = {opt: [run_exe(exe), run_exe(exe)] for opt, exe in (("-O0", o0), ("-O2", o2))}
    for opt, (a, b) in outs.items():
        assert a, f"{opt}: no output"
        assert a == b, f"{opt}: two runs differ: {compare_outputs(a, b, 0.0, 0.0)}"
    # -ffp-contract=off and SSE2: the optimization level must not change a bit;
    # a difference here usually means undefined behaviour or an inexact reduction
    assert outs["-O0"][0] == outs["-O2"][0], compare_outputs(
        outs["-O0"][0], outs["-O2"][0], 0.0, 0.0
    )
    if model == "omp":
        for threads in (1, 3):
            got = run_exe(o2, threads=threads)
            assert got == outs["-O2"][0], f"OMP_NUM_THREADS={threads} changes the output"
    # every token is something compare_outputs understands
    text = outs["-O2"][0].decode("ascii")
    bad = [t for t in text.split() if not _TOKEN_OK.match(t)]
    assert not bad, f"unparseable output tokens (print floats with %a): {bad[:5]}"
    assert not compare_outputs(outs["-O2"][0], outs["-O2"][0])


@pytest.mark.parametrize("kernel", KERNELS, ids=kernel_id)
def test_count_loads_parses(kernel):
    n = count_loads(kernel.read_text(encoding="utf-8"))
    assert n > 0


def test_count_loads_rules():
    assert (
        count_loads("double a[10]; void f(int i){ double x = a[i] + a[i+1]; a[i] = x; a[i] += 1; }")
        == 3
    )
    assert count_loads("void f(double **p, int i){ double x = p[1][i]; p[0][i] = x; }") == 3
    assert (
        count_loads(
            "struct S {double *a; double b[3]; double c;};"
            "void f(struct S *s, struct S t, int i){ double x = s->a[i] + s->b[i] + s->c + t.c + *(s->a + i); }"
        )
        == 2 + 1 + 1 + 1 + 2
    )
    macro = (
        "#define I3D(a,n,i,j) a[(i)*(n)+(j)]\n"
        "void f(double *u, int i){ double x = I3D(u,4,i,1) * I3D(u,4,i,2); double *p = &u[i]; int n = sizeof(u[0]); }"
    )
    assert count_loads(macro) == 2
    assert (
        count_loads(
            "double u[5][4][4]; void f(int i){ double *r = u[1][i]; double x = u[1][i][2]; x++; }"
        )
        == 1
    )
    # CSE of a repeated load lowers the count
    before = "void f(double *a, double *b, int n){ for (int i = 0; i < n; i++) b[i] = a[i] * a[i] + a[i]; }"
    after = "void f(double *a, double *b, int n){ for (int i = 0; i < n; i++) { double t = a[i]; b[i] = t * t + t; } }"
    assert count_loads(after) < count_loads(before)


def test_compare_outputs_rules():
    a = b"x 1 0x1p+0\ny 2 -0x1.8p-1\n"
    assert compare_outputs(a, a) == []
    assert compare_outputs(a, b"x 1 0x1.0000000000001p+0\ny 2 -0x1.8p-1\n") == []  # 1 ulp
    assert compare_outputs(a, b"x 1 0x1.0001p+0\ny 2 -0x1.8p-1\n")  # far off
    assert compare_outputs(a, b"x 2 0x1p+0\ny 2 -0x1.8p-1\n")  # integers are exact
    assert compare_outputs(a, b"x 1 0x1p+0\n")  # missing line
    assert compare_outputs(b"v nan\n", b"v -nan\n") == []
    assert compare_outputs(b"v inf\n", b"v -inf\n")
    assert compare_outputs(b"v 0x0p+0\n", b"v 0x1p-50\n") == []  # abs_tol near zero
