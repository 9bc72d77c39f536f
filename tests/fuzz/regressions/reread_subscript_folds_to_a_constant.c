// model: omp
// regression: the round-trip check rejected correct printed C. The e-graph folds the
// subscript `((i) - (i)) & 15` to 0 and prints st[0]; the alias analysis took the
// original's subscript for an unknown place (`&` of a non-constant), which may be st[10],
// and the printed one for st[0], which is not: the load of st[10].x after the store read
// another memory version in each. `poly` now folds an integer operation whose operands'
// polynomials are constants their types hold. Found by benchmarks/fuzz.py (seed
// 9200473) in all four variants; a false alarm (the kernel was kept as written).
// status: fixed
#include <stdio.h>
struct pt { double x; float y; };
struct pt st[16];
double out[64];
static void kern(int n, double s0)
{
  int i;
#pragma omp parallel for
  for (i = 0; i < n; i++) {
    st[((i) - (i)) & 15].x = (double)(st[n - 1 - i].y + ((i) - (i)));
    st[10].x += (((i) - (i)) == s0);
    out[i] = st[10].x * st[10].x + st[10].x;
  }
}
int main(void)
{
  for (int k = 0; k < 16; k++) { st[k].x = k * 0.5; st[k].y = (float)(k - 3); }
  kern(16, 0.0);
  double s = 0.0;
  for (int k = 0; k < 16; k++) s += st[k].x + out[k];
  printf("%.17g\n", s);
  return 0;
}
