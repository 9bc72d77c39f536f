// model: acc
// regression: a call with effects in the right operand of && (|| and ?: alike) at the
// root of an if condition is hoisted above the if and runs unconditionally; here probe()
// must never run (k is 0), the rewrite calls it 8 times.
// status: fixed
// and the guard check is applied to children only, never to the node itself)
#include <stdio.h>
#define N 8
double a[N], c[N];
int calls;
int probe(int j) { calls++; return j % 2; }
static void kern(int k)
{
  int i;
#pragma acc parallel loop
  for (i = 0; i < N; i++) {
    if (k > 1 && probe(i))
      c[i] = a[i] + 1.0;
  }
}
int main(void)
{
  int i;
  for (i = 0; i < N; i++)
    a[i] = i * 0.5;
  kern(0);
  printf("calls %d\n", calls);
  for (i = 0; i < N; i++)
    printf("c %d %a\n", i, c[i]);
  return 0;
}
