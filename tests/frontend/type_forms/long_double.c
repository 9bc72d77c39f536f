/* flags: -O1 -ffp-contract=off | expect: rewritten */
#include <stdio.h>
#define N 6
long double A[N], B[N], R[N];
int main(void)
{
  for (int i = 0; i < N; i++) { A[i] = 1.0L / (i + 3); B[i] = 1e10L + i; }
#pragma acc parallel loop
  for (int i = 0; i < N; i++)
    R[i] = A[i] * B[i] + A[i] * B[i] * A[i] + (A[i] - 1.0L) / B[i];
  for (int i = 0; i < N; i++) printf("%.21Lg\n", R[i]);
  return 0;
}
