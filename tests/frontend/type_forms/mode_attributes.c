/* flags: -O1 | expect: rewritten
   __attribute__((mode(...))) gives an integer type another width (issue 35: a 64-bit
   value in a 32-bit temporary). */
#include <stdio.h>
#define N 6
typedef unsigned int u64 __attribute__((mode(DI)));
typedef int s8 __attribute__((__mode__(__QI__)));
typedef unsigned u16 __attribute__((mode(HI)));
typedef int s128 __attribute__((mode(TI)));
u64 BIG[N];
s8 SM[N];
u16 HW[N];
s128 T[N];
unsigned long long R[N];
long long S[N], U[N];
int main(void)
{
  for (int i = 0; i < N; i++) {
    BIG[i] = ((u64)1 << 32) + i;
    SM[i] = (s8)(120 + i);
    HW[i] = (u16)(65530 + i);
    T[i] = ((s128)1 << 70) - i;
  }
#pragma acc parallel loop
  for (int i = 0; i < N; i++) {
    R[i] = (BIG[i] + BIG[i]) / 2 + BIG[i] * 3;
    S[i] = (SM[i] + 10) / 3 + (SM[i] + 10) % 7 + (HW[i] + 10) / 3 + (HW[i] + 10) % 7;
    U[i] = (long long)((T[i] + T[i]) >> 64) + (long long)((T[i] + T[i]) % 1000);
  }
  for (int i = 0; i < N; i++) printf("%llu %lld %lld\n", R[i], S[i], U[i]);
  return 0;
}
