// model: acc
// flags: -fwrapv
// regression: under -fwrapv, a store through a subscript with an identity (`a[i * 1]`,
// `a[i * (2 - 1)]`, `a[(i - 1) + 1]`) is another place than `a[i]` to the SSA
// (ssa/expressions.py wraps_narrow: signed arithmetic in a subscript wraps there, so it
// is not the polynomial i), but the extraction folds the identity and prints `a[i]`,
// which the re-read takes for the place of the load `a[i]` after it and forwards the
// stored value: every variant keeps the kernel as written ("internal: the printed C
// does not re-read as the extracted program ... 23 (int) is not the extracted ...").
// x * 1, x + 0, (x + k) - k cannot wrap. A false alarm (no wrong program), present on
// main f7328b6; without -fwrapv the kernel is rewritten (`p[i] = 23`). Found by
// benchmarks/fuzz.py --seed 35000000 --batch 1 (seeds 35000060, 35000128), shrunk by
// hand.
// fixed: a wrapping subscript whose polynomial is one in-range leaf, every operation in
// its type, is that leaf's place (ssa/expressions.identity_of).
// status: fixed
// finding: reread
#include <stdio.h>
int a[32], p[32];
static void kern(int n)
{
#pragma acc parallel loop
  for (int i = 0; i < n; i++) {
    a[i * 1] = 21 + i;
    p[i] = a[i] + 2;
  }
}

int main(void)
{
  for (int i = 0; i < 32; i++)
    a[i] = p[i] = -i;
  kern(16);
  for (int i = 0; i < 32; i++)
    printf("%d %d\n", a[i], p[i]);
  return 0;
}
