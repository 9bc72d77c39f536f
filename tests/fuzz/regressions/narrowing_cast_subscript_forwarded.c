// model: acc
// regression: a subscript through a narrowing cast was taken for the same place as the
// uncast one (ssa/expressions.py `poly` looked through every integer cast): the store
// w[i][j] = -1.0 was forwarded to the read of w[i][(unsigned char)j], which is w[i][44]
// for j = 300 (silent wrong output in every variant: -4 instead of 356). Only casts that
// keep every value (to a type whose range holds the source's) are looked through now.
// Found while checking why a constant subscript `(5) & 15` was not a[5] to the alias
// analysis (issue 21's round-trip check flagged the difference).
// status: fixed
#include <stdio.h>
double w[8][400], d[8];
static void kern(int n, int j)
{
  int i;
#pragma acc parallel loop
  for (i = 0; i < n; i++) {
    w[i][j] = -1.0;
    d[i] = w[i][(unsigned char)j] + 0.5;
  }
}

int main(void)
{
  int i, k;
  double s = 0;
  for (i = 0; i < 8; i++)
    for (k = 0; k < 400; k++)
      w[i][k] = k;
  kern(8, 300);
  for (i = 0; i < 8; i++)
    s += d[i];
  printf("%.17g\n", s);
  return 0;
}
