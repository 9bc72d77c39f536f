"""Golden tests of the SSA stage: a kernel body in, the SSAKernel dumped as text out.

Each case is a loop body placed in one ``#pragma acc parallel loop`` kernel of a
small file (``PRELUDE``); the front end runs as in the pipeline, then
``build_ssa``; ``ssa_dump.dump`` prints terms, leaves, contexts and the statement
tree, and the text must equal ``golden/<case>.txt`` (which starts with the body).

Regenerate after an intended change, then read every diff before committing:

    ACCSAT_UPDATE_GOLDEN=1 pytest tests/ssa tests/codegen
"""

from __future__ import annotations

from pathlib import Path

import pytest
from ssa_dump import dump
from stage_helpers import check_golden, load_file

from accsat.errors import Unsupported
from accsat.ssa.statements import build_ssa

GOLDEN = Path(__file__).parent / "golden"

# The kernel's body replaces BODY; the lines before it are numbered 1-12, so the
# body's first line is line 13.
PRELUDE = """\
#include <math.h>
struct pt { double x[4]; double y; };
double a[64], b[64], c[64], d[64], m[8][8];
float f[64];
int ix[64];
double g(double);
void k(int n, double s, float q, double *p, struct pt *sp)
{
  int i, j;
  double t, u;
#pragma acc parallel loop
  for (i = 0; i < n; i++) {
BODY
  }
}
"""

CASES = {
    # one term per distinct value: (a[i] + b[i]) is built once and shared by both
    # statements; the loads a[i], b[i] are shared too
    "straight_cse": """\
    c[i] = (a[i] + b[i]) * (a[i] + b[i]);
    d[i] = s * (a[i] + b[i]) - s;""",
    # memory versions: b[i] = 0 is forwarded to the next read of b[i]; a[i] keeps its
    # version across the store to b (distinct arrays); p[i] takes a new version after
    # every store (p may point anywhere)
    # a subscript through a cast that keeps every value is the same place (b[(long)i] is
    # b[i]: the stored 0.0 is forwarded); one through a narrowing cast is another place
    # (b[(unsigned char)i] is b[i - 256] for i = 256: a new load)
    "cast_subscripts": """\
    b[i] = 0.0;
    c[i] = b[(long)i];
    d[i] = b[(unsigned char)i];""",
    # a constant-expression subscript is its value: a[(5) & 15] is a[5], not a[19]
    "constant_expression_subscript": """\
    a[19] = 1.0;
    c[i] = a[(5) & 15] + a[5];""",
    "load_versions": """\
    c[i] = a[i] + b[i] + p[i];
    b[i] = 0.0;
    d[i] = a[i] + b[i] + p[i];
    a[i] = 1.0;
    c[i + 1] = p[i];""",
    # constant offsets: the store to a[1] does not kill the load of a[0], nor the store
    # to b[i] the load of b[i + 1] (their bytes cannot overlap): both keep their terms;
    # a[1] and b[i] are forwarded from the stores; the store to a[i] (i unknown) may
    # write a[0], so a[0] is loaded again after it
    "const_index": """\
    c[i] = a[0] + a[1] + b[i + 1];
    a[1] = s;
    b[i] = s;
    d[i] = a[0] + a[1] + b[i + 1] + b[i];
    a[i] = 2.0;
    c[i + 2] = a[0];""",
    # if/else: t differs by branch -> a phi after the if; the store in one branch
    # gives the later read of b[i] a new version (the if's summary)
    "if_phi": """\
    if (a[i] > 0.0) {
      t = a[i];
      b[i] = t;
    } else
      t = -a[i];
    c[i] = t + b[i];""",
    # an inner sequential loop: u and j get head phis (at each iteration) and exit
    # phis (after the loop); the loop's store to d[j] versions later reads of d
    "inner_loop": """\
    u = 0.0;
    for (j = 0; j < 8; j++) {
      u += m[j][i] * a[i];
      d[j] = u;
    }
    c[i] = u + d[0] + a[i];""",
    # guards: operands of ?:, && and || are inline contexts; b[i] / a[i] (double) is
    # not pinned, 10 / ix[i] (int division, may trap) and its load are pinned there
    "guards": """\
    c[i] = a[i] > 0.0 ? b[i] / a[i] : 0.0;
    d[i] = (ix[i] != 0 && 10 / ix[i] > 1) || b[i] > s;""",
    # a pure math call is a term (shared); an impure call is an Eval statement with a
    # CallRes leaf, evaluated first, and loads after it take its version
    "calls": """\
    c[i] = sqrt(a[i]) * sqrt(a[i]) + fabs(b[i]);
    d[i] = g(a[i]) + a[i] + g(b[i]);""",
    # usual arithmetic conversions made explicit as Casts; int division is pinned;
    # float * float stays float, the float constant 2.0f is a float Const
    "mixed_types": """\
    f[i] = q * f[i] + (float)ix[i] * 2.0f;
    c[i] = f[i] * s + ix[i] / 2 + (int)a[i];""",
    # compound assignment and ++: read-modify-write, the stored value is forwarded
    "compound": """\
    c[i] += a[i];
    c[i] *= 2.0;
    ix[i]++;
    t = 1.0;
    t += c[i];
    d[i] = t;""",
    # declarations inside the body: with initialiser an Assign that declares, without
    # one a Verbatim; b[kk] is indexed by a loaded value
    "local_decl": """\
    double w = a[i] * s;
    int kk = ix[i];
    double z;
    z = w * w + b[kk];
    c[i] = z + w;""",
    # continue: what follows runs only when it did not jump, so it is a braced block
    "continue_braced": """\
    if (a[i] < 0.0)
      continue;
    c[i] = a[i];""",
    # a local whose address is taken lives in memory: loads and stores of 'u'
    "address_taken": """\
    u = a[i];
    t = *&u;
    c[i] = t + u;""",
    # access paths: 2-D array, struct member through a pointer, *(p + i)
    "access_paths": """\
    m[i][2] = sp->x[1] + sp->y;
    c[i] = *(p + i) + m[i][2];""",
}


def _write(tmp_path: Path, body: str, name: str = "k.c") -> Path:
    path = tmp_path / name
    path.write_text(PRELUDE.replace("BODY", body))
    return path


def _ssa(path: Path):
    loaded = load_file(path)
    assert len(loaded.kernels) == 1
    kernel = loaded.kernels[0]
    return build_ssa(kernel, loaded.symbols, _unit_cost, loaded.defined)


def _unit_cost(op: str, ty: str) -> float:
    return 1.0  # stats.cost then counts the operations as written


@pytest.mark.parametrize("case", sorted(CASES))
def test_ssa_golden(case, tmp_path):
    ssa = _ssa(_write(tmp_path, CASES[case]))
    body = "".join(f"// {line}\n" for line in CASES[case].splitlines())
    check_golden(GOLDEN / f"{case}.txt", body + dump(ssa))


def test_dump_is_deterministic(tmp_path):
    """Two builds of one body dump the same (the goldens would be flaky otherwise)."""
    path = _write(tmp_path, CASES["inner_loop"] + "\n" + CASES["calls"])
    assert dump(_ssa(path)) == dump(_ssa(path))


UNSUPPORTED = [
    # (body, reason, line of the offending statement)
    ("    c[i] = a[i];\n    return;", "'return' statement in the loop body", 14),
    ("    switch (ix[i]) { case 0: c[i] = 1.0; }", "'switch' statement in the loop body", 13),
    ("    c[i] = a[i] > 0.0 ? g(a[i]) : 0.0;", "call inside a conditionally evaluated operand", 13),
    ("    d[i] = ix[i] && (t = a[i]);", "assignment inside a conditionally evaluated operand", 13),
    (
        '    char r[4] = "abc";',
        "a char array initialised by a string literal",
        13,
    ),
    ("    int n = ix[i];", "declaration of 'n' hides another variable", 13),
    ("    volatile double v;\n    v = a[i];\n    c[i] = v;", "volatile variable 'v'", 14),
    ("    c[i] = (*g)(a[i]);", "call through an expression", 13),
    ("    c[i] = a[i];\n    typedef int myint;", "typedef inside the loop body", 14),
]


@pytest.mark.parametrize(
    ("body", "reason", "line"), UNSUPPORTED, ids=[r for _, r, _ in UNSUPPORTED]
)
def test_unsupported(body, reason, line, tmp_path):
    with pytest.raises(Unsupported) as info:
        _ssa(_write(tmp_path, body))
    assert (info.value.reason, info.value.line) == (reason, line)
