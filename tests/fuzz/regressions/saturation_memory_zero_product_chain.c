// model: omp
// regression: saturation memory is not bounded by the limits again: a product chain that
// ends in 0.0, `a[i] * 3.0 * 2.0 * 0.0`, makes `accsat rewrite --variant cse+sat` (and
// accsat) abort ("memory allocation of N bytes failed") under a 3 GB address-space limit
// within ~8 s, with the fuzzing limits (4,000 nodes, 6 iterations, 2 s) as with the default
// ones: FLOAT-ASSOC brings the constants together ((a * 3.0) * (2.0 * 0.0)), folding makes
// 0.0 * ... = 0.0, and the class of 0.0 then holds products of itself again (the cycle
// saturation_memory_blowup.c was, which subsuming folded operations fixed only where the
// constants are together in the source). Found by benchmarks/fuzz.py with the edge
// constants of issue 21 (`a * (((double)INT_MAX * 0x1p-31) * 0.0)`: a batch killed twice),
// shrunk by hand. Fixed: a product with a zero is not folded
// (saturate._absorbs); 0.6 s and 100 MB now.
// status: fixed
// memory: 2048
// variant: cse+sat
#include <stdio.h>

double a[16];

int main(void)
{
  int i;
  for (i = 0; i < 16; i++)
    a[i] = i * 0.25 - 1.0;
#pragma omp parallel for
  for (i = 0; i < 16; i++) {
    a[i] = a[i] * 3.0 * 2.0 * 0.0;
  }
  for (i = 0; i < 16; i++)
    printf("%d %a\n", i, a[i]);
  return 0;
}
