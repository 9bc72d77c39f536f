/* flags: -O2 -mfpmath=387 -std=c11 | expect: rewritten
   x87 arithmetic (FLT_EVAL_METHOD 2): a double temporary would round a value the
   original kept at 80 bits; loads are shared, arithmetic stays where it was. */
#include <stdio.h>
#define N 8
double A[N], B[N], C[N], R[N];
int main(void)
{
  for (int i = 0; i < N; i++) { A[i] = 1.0 + i * 1e-16; B[i] = 1e16 + i; C[i] = -1e16 - i; }
#pragma acc parallel loop
  for (int i = 0; i < N; i++)
    R[i] = A[i] * B[i] + C[i] + (A[i] * B[i] + C[i]) * 0.5;
  for (int i = 0; i < N; i++) printf("%.17g\n", R[i]);
  return 0;
}
