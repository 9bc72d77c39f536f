/* flags: -O1 -fwrapv ; -O1 -fno-strict-overflow | expect: rewritten
   With -fwrapv signed overflow wraps: INT_MAX + 1 is INT_MIN, and the kernel may
   compute it. */
#include <limits.h>
#include <stdio.h>
#define N 8
int A[N];
long long R[N];
int main(void)
{
  for (int i = 0; i < N; i++) A[i] = INT_MAX - 3 + i;
#pragma acc parallel loop
  for (int i = 0; i < N; i++) {
    R[i] = (A[i] + 2) / 3 + (A[i] + 2) % 5 + (A[i] * 2 - 1) / 7;
    R[i] += (A[i] + 4 < A[i]) * 100;
  }
  for (int i = 0; i < N; i++) printf("%lld\n", R[i]);
  return 0;
}
