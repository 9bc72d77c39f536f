/* flags: -O1 | expect: rewritten */
#include <stdio.h>
#define N 8
_Bool B[N];
int K[N];
long long R[N];
int main(void)
{
  for (int i = 0; i < N; i++) { B[i] = i % 3 == 0; K[i] = i - 3; }
#pragma acc parallel loop
  for (int i = 0; i < N; i++) {
    _Bool t = K[i];
    R[i] = (B[i] + B[i]) * 5 + (B[i] - 2) / 2 + t * 7 + (_Bool)(K[i] + 3) * 11;
  }
  for (int i = 0; i < N; i++) printf("%lld\n", R[i]);
  return 0;
}
