/* flags: -O1 -funsigned-char ; -O1 -fsigned-char | expect: rewritten
   Plain char is signed or unsigned as the flags say: (C - 1) / 2 of 200 differs. */
#include <stdio.h>
#define N 8
char C[N];
long long R[N];
int main(void)
{
  for (int i = 0; i < N; i++) C[i] = (char)(124 + i * 2);
#pragma acc parallel loop
  for (int i = 0; i < N; i++)
    R[i] = (C[i] - 1) / 2 + (C[i] - 1) % 3 + (C[i] >> 1) + (C[i] < 127);
  for (int i = 0; i < N; i++) printf("%lld\n", R[i]);
  return 0;
}
