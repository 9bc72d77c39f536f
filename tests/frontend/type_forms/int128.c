/* flags: -O1 | expect: rewritten */
#include <stdio.h>
#define N 6
__int128 W[N];
unsigned __int128 U[N];
long long R[N];
unsigned long long S[N];
int main(void)
{
  for (int i = 0; i < N; i++) { W[i] = ((__int128)1 << (60 + i)) - 7; U[i] = ~(unsigned __int128)0 - i; }
#pragma acc parallel loop
  for (int i = 0; i < N; i++) {
    R[i] = (long long)((W[i] * 3 + W[i]) >> 60) + (long long)((W[i] * 3 + W[i]) % 1000);
    S[i] = (unsigned long long)((U[i] + U[i]) % 1000003) + (unsigned long long)((U[i] + U[i]) >> 100);
  }
  for (int i = 0; i < N; i++) printf("%lld %llu\n", R[i], S[i]);
  return 0;
}
