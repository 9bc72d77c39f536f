// model: acc
// regression: a variable assigned in the body before an inner loop that contains a break
// (or continue) is read, inside that loop, with the value it had when the body started:
// accsat prints "int _v0 = t;" at the top of the body and uses _v0 in the loop, so b[i]
// gets 0 * 1.5 added in the first iteration instead of 8 * 1.5 (silent wrong output).
// Without the break/continue the rewrite is right.
// The same bug as leaf_copy_then_if_stale.c: t = 8 copies a constant, and the if
// holding the break is the if that follows.
// status: fixed
#include <stdio.h>
#define N 16
double a[N + 8], b[N];
static void kern(int n)
{
  int i, t = 0;
#pragma acc parallel loop
  for (i = 0; i < n; i++) {
    t = 8;
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
