// model: acc
// regression: saturation memory is not bounded by the node limit: this one statement makes
// `accsat rewrite --variant cse+sat` (and accsat) take ~125 MB after 6 iterations, ~950 MB
// after 7 (1219 e-nodes, 67 classes) and abort after 8 ("memory allocation of N bytes
// failed", >5.8 GB) with the default limits (10,000 nodes, 10 iterations, 10 s): the node
// count stays far below --max-nodes while egglog's memory grows ~6x per iteration. Found by
// benchmarks/fuzz.py (a checking process was killed by the OOM killer at 18 GB), shrunk.
// fixed: fold_constants subsumes each folded operation, so no rule matches the cycle.
// status: fixed
// memory: 2048
// variant: cse+sat
#include <stdio.h>
double m2[32];
static void kern(int n)
{
  int i;
#pragma acc parallel loop
  for (i = 0; i < n; i++) {
    m2[5] = 1.5 * 0.0;
  }
}
int main(void)
{
  kern(4);
  printf("%a\n", m2[5]);
  return 0;
}
