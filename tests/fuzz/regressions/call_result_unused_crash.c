// model: acc
// regression: a call with effects whose result is not used, as a statement (probe(i);
// printf(...); (void)f(x); k > 1 && f(x);), makes accsat rewrite crash:
// KeyError in accsat/codegen/placement.py:121 (self.class_of[stmt.result]) -- the whole
// file fails instead of the kernel being left unchanged.
// status: fixed
#include <stdio.h>
#define N 8
double a[N], c[N];
int calls;
int probe(int j) { calls += j; return j % 2; }
static void kern(void)
{
  int i;
#pragma acc parallel loop
  for (i = 0; i < N; i++) {
    probe(i);
    c[i] = a[i] * 2.0 + a[i];
  }
}
int main(void)
{
  int i;
  for (i = 0; i < N; i++)
    a[i] = i * 0.5;
  kern();
  printf("calls %d\n", calls);
  for (i = 0; i < N; i++)
    printf("c %d %a\n", i, c[i]);
  return 0;
}
