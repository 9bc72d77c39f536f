"""``SSAKernel.sites``: every memory access as written, for ``accsat advise``."""

from __future__ import annotations

from pycparser import c_generator

from accsat.frontend.load import load
from accsat.ssa.statements import build_ssa

SOURCE = """double a[16], b[16], g;
void f(double *p) {
  int i;
  #pragma acc parallel loop
  for (i = 1; i < 15; i++) {
    b[i] = a[i] + g;
    b[i] += *(p + i);
    a[i]++;
    if (a[i] > 0.0)
      b[i - 1] = b[i];
  }
}
"""


def test_sites_are_the_accesses_as_written(tmp_path):
    path = tmp_path / "s.c"
    path.write_text(SOURCE)
    loaded = load(path)
    (kernel,) = loaded.kernels
    ssa = build_ssa(kernel, loaded.symbols, lambda op, ty: 0.0, loaded.defined)
    gen = c_generator.CGenerator()
    got = [(s.kind, gen.visit(s.node), s.node.coord.line) for s in ssa.sites]
    # scalars (g) are not sites; b[i] read back after its store is one, as written;
    # compound assignments and increments read, then store
    assert got == [
        ("load", "a[i]", 6),
        ("store", "b[i]", 6),
        ("load", "*(p + i)", 7),
        ("load", "b[i]", 7),
        ("store", "b[i]", 7),
        ("load", "a[i]", 8),
        ("store", "a[i]", 8),
        ("load", "a[i]", 9),
        ("load", "b[i]", 10),
        ("store", "b[i - 1]", 10),
    ]
    assert [s.access.size for s in ssa.sites] == [8] * 10
    then = ssa.body.stmts[-1].then.ctx  # the if's branch
    assert [s.ctx for s in ssa.sites[-2:]] == [then, then]
