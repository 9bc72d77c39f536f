// model: acc
// flags: -fwrapv
// regression: under -fwrapv, a subscript whose polynomial is one leaf only because
// another leaf cancels out of it (`a[i + 0 * n]`, `a[i + (n - n)]`, `a[1 * i + 0 * n]`:
// polynomial i) is another place than `a[i]` to the SSA: ssa/expressions.py `_in_type`
// (what identity_of and wrapped_place ask: is every operation down to the leaves +, -, *
// in the subscript's type) descended only to the polynomial's own leaves, and n, gone
// from the polynomial, is none of them. So the load after the store `a[i] = -11` was a
// new memory version (not forwarded), while the extraction folds `0 * n` and `n - n` and
// prints `a[i]`, which the re-read takes for the place just stored and forwards: every
// variant keeps the kernel as written ("internal: the printed C does not re-read as the
// extracted program ... Add(Phi[sum sum.2.h2], -11.0 (double)) is not the extracted
// Add(Phi[sum sum.3.h2], Cast(Load[[] e0](Sym[a a.0], TCons)))"). i + 0 * n wraps to i:
// a leaf cancelled from the polynomial is a leaf all the same. A false alarm (no wrong
// program), present on main 85440d8; without -fwrapv the kernel is rewritten. Found by
// benchmarks/fuzz.py --seed 37001000 (seed 37002400: a store `AT(a, 1 * i + 0 * n)`, a
// load `a[i + (n - n)]` in an inner loop, -fshort-enums -fwrapv), shrunk by hand.
// fixed: every operation down to terms that are their own polynomial, in the polynomial
// or cancelled out of it (ssa/expressions._in_type).
// status: fixed
// finding: reread
#include <stdio.h>
int a[32];
double g;
static void kern(int n, int k)
{
  double sum = 0.0;
#pragma acc parallel loop reduction(+:sum)
  for (int i = 0; i < n; i++) {
    a[1 * i + 0 * n] = -11 + i;
    for (int m = 0; m < k; m++)
      sum += a[i + (n - n)] + a[i + 0 * n + m];
  }
  g = sum;
}

int main(void)
{
  for (int i = 0; i < 32; i++)
    a[i] = -i;
  kern(16, 3);
  for (int i = 0; i < 32; i++)
    printf("%d\n", a[i]);
  printf("%a\n", g);
  return 0;
}
