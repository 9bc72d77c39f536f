/* flags: -O1 -ffp-contract=off | expect: rewritten | compilers: gcc clang */
#include <stdio.h>
#define N 8
_Float16 A[N], B[N], R[N];
int main(void)
{
  for (int i = 0; i < N; i++) { A[i] = (_Float16)(1.0 + i / 1024.0); B[i] = (_Float16)(3.0 - i * 0.37); }
#pragma acc parallel loop
  for (int i = 0; i < N; i++)
    R[i] = A[i] * B[i] + A[i] * B[i] * A[i] + B[i] / A[i];
  for (int i = 0; i < N; i++) printf("%a\n", (double)R[i]);
  return 0;
}
