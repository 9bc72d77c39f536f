"""The extraction's cost adjustments (extract/costs.py ``preferring``)."""

from __future__ import annotations

from accsat.options import Options
from accsat.pipeline import rewrite_file

# ``(int)2.9`` may trap, so it carries the context of the if it is written in; the
# e-graph finds it equal to the 2 of ``(i + 5) - 3``. Printed through it, the subscript
# could only be computed inside that if (fuzz seed 9600248: "internal: a value would be
# computed outside its context").
PINNED = """\
double a0[64], t[64];
int e[64];
void k(int n)
{
  int i;
#pragma acc parallel loop
  for (i = 0; i < n; i++) {
    double t1 = 3.0;
    if (n > 3) {
      if ((int)2.9 != 7) {
      }
    }
    t[i] = t1 * (e[(i + 5) - 3] + a0[i]);
  }
}
"""


def test_a_literal_wins_over_an_equal_constant_pinned_to_an_if(tmp_path):
    path = tmp_path / "k.c"
    path.write_text(PINNED)
    for variant in ("cse+sat", "accsat"):
        (kernel,) = rewrite_file(path, Options(variant=variant)).kernels
        assert kernel.status == "rewritten", kernel.reason
