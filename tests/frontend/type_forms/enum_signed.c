/* flags: -O1 | expect: rewritten
   An enum with a negative enumerator is int; one past unsigned int's range is 64 bits. */
#include <stdio.h>
#define N 8
enum dir { LEFT = -1, NONE, RIGHT };
enum big { SMALL = 1, HUGE = 0x100000000ull };
enum dir D[N];
enum big B[N];
long long R[N], S[N];
int main(void)
{
  for (int i = 0; i < N; i++) { D[i] = (enum dir)(i % 3 - 1); B[i] = i % 2 ? HUGE : SMALL; }
#pragma acc parallel loop
  for (int i = 0; i < N; i++) {
    R[i] = (D[i] - 1) / 2 + (D[i] - 1) % 3 + (D[i] >> 1);
    S[i] = (B[i] - 2) / 3 + (B[i] - 2) % 7 + HUGE / 2;
  }
  for (int i = 0; i < N; i++) printf("%lld %lld\n", R[i], S[i]);
  return 0;
}
