// model: acc
// flags: -fwrapv
// regression: under -fwrapv, a subscript with constants to combine (`a[(i + 5) - 3]`,
// polynomial i + 2) is another place than `a[i + 2]` to the SSA: ssa/expressions.py
// `scaled` makes a wrapping subscript a value of its own (var_poly) unless
// `identity_of` finds it equal to one leaf, and identity_of (line ~301) accepts only a
// polynomial of one term x with coefficient 1, not x + c. So the load after the store
// `a[i + 2] = ...` is a new memory version (not forwarded), while the extraction folds
// the subscript and prints `a[i] = a[i + 2]`, which the re-read takes for the place just
// stored and forwards the stored value: every variant keeps the kernel as written
// ("internal: the printed C does not re-read as the extracted program ... 3.0 (double)
// is not the extracted Load[[] e0](Sym[a a.0], TCons(Add(Var[i i.1], 2 (int)), TNil))").
// (i + 5) - 3 and i + 2 wrap alike (both are i + 2 modulo 2^32): the two subscripts are
// one place. A false alarm (no wrong program), present on main a9dfc87; without -fwrapv
// the kernel is rewritten (`a[i] = 3.0`). Found by tests/test_verify_fuzz.py's
// test_generated_kernels_1 once the generator drew helpers (issue 37's
// fuzz-callees branch), shrunk by hand. The generator folds `(i + 5) - 3` under -fwrapv
// while "wrapvoffset" is in gen.KNOWN_BUGS.
// fixed: a wrapping subscript whose operations down to its leaves are all in its type
// is one place per polynomial (ssa/expressions.wrapped_place).
// status: fixed
// finding: reread
#include <stdio.h>
double a[32];
static void kern(int n)
{
#pragma acc parallel loop
  for (int i = 0; i < n; i++) {
    a[i + 2] = 3.0 + i;
    a[i] = a[(i + 5) - 3];
  }
}

int main(void)
{
  for (int i = 0; i < 32; i++)
    a[i] = -i;
  kern(16);
  for (int i = 0; i < 32; i++)
    printf("%a\n", a[i]);
  return 0;
}
