// model: acc
// regression: the same bug as inner_loop_break_stale_value.c with the variable declared in
// the body: accsat prints "int _v0 = t;" above "int t = 8;", and the rewritten file does
// not compile ('t' undeclared). Found by benchmarks/fuzz.py (seed 1000116), shrunk by hand.
// The same bug as leaf_copy_then_if_stale.c: t = 8 copies a constant, and the if
// holding the break is the if that follows.
// status: fixed
#include <stdio.h>
#define N 16
double a[N + 8], b[N];
static void kern(int n)
{
  int i;
#pragma acc parallel loop
  for (i = 0; i < n; i++) {
    int t = 8;
    for (int m = 0; m < 2; m++) {
      if (a[i] > 100.0) break;
      b[i] = b[i] + t * 1.5;
    }
  }
}
int main(void)
{
  int i;
  for (i = 0; i < N + 8; i++)
    a[i] = i * 0.25;
  kern(N);
  for (i = 0; i < N; i++)
    printf("b %d %a\n", i, b[i]);
  return 0;
}
