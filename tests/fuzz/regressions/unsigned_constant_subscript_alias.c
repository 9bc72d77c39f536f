// model: acc
// regression: a folded unsigned constant in a subscript made the alias analysis call two
// equal addresses distinct: `p[j + (0u - 1)]` is `p[j - 1]` for unsigned j (both wrap
// modulo 2^32), but the constant read as 4294967295 once folded, so the store through it
// was not seen by the later load of p[j - 1] (every variant printed `c[i] = x + x`).
// Found by an independent review of the round's diff. Subscripts with unsigned
// arithmetic narrower than 64 bits are now a value of their own (ssa/expressions.py
// `wraps_narrow`), and 64-bit unsigned constants read modulo 2^64.
// status: fixed
#include <stdio.h>
double c[8], buf[16];
unsigned long z;
static void kern(int n, unsigned j, double *p)
{
  int i;
  double x, y;
#pragma acc parallel loop private(x, y)
  for (i = 0; i < n; i++) {
    x = p[j - 1];
    p[j + (0u - 1)] = 1.0;
    y = buf[z - 1];
    buf[z + (unsigned long)-1] = 2.0;
    c[i] = p[j - 1] + x + buf[z - 1] + y;
  }
}

int main(void)
{
  int i;
  double s = 0;
  for (i = 0; i < 16; i++)
    buf[i] = 0.25 * i;
  z = 6;
  kern(1, 5, buf);
  for (i = 0; i < 8; i++)
    s += c[i];
  printf("%.17g\n", s);
  return 0;
}
