// model: acc
// regression: a variable assigned a bare constant or another variable (t = s; t = 1.0;
// double t = 8;), then any if statement, then a use of the variable: accsat prints
// "double _v0 = t;" at the top of the body and uses _v0, the value t had before the
// assignment (silent wrong output: b[i] is 0 * 3.0 here instead of 1.25 * 3.0; with t
// declared in the body the rewrite does not compile). Assignments of anything else
// (s * 2.0, b[i], -s) are fine. Found by benchmarks/fuzz.py (seed 1000420), shrunk.
// status: fixed
#include <stdio.h>
#define N 16
double a[N], b[N];
static void kern(int n, double s)
{
  int i;
  double t = 0.0;
#pragma acc parallel loop private(t)
  for (i = 0; i < n; i++) {
    t = s;
    if (i > 3)
      a[i] = 1.5;
    t = t * 3.0;
    b[i] = t;
  }
}
int main(void)
{
  int i;
  kern(N, 1.25);
  for (i = 0; i < N; i++)
    printf("a %d %a b %a\n", i, a[i], b[i]);
  return 0;
}
