/* flags: -O1 | expect: rewritten | compilers: gcc clang
   An enum with no negative enumerator is unsigned int to gcc and clang: (P - 1) / 2
   of SOLID is 2147483647, not 0 (issue 35). */
#include <stdio.h>
#define N 12
enum phase { SOLID, LIQUID, GAS };
enum phase P[N];
long long R[N], S[N];
int main(void)
{
  for (int i = 0; i < N; i++) P[i] = (enum phase)(i % 3);
#pragma omp parallel for
  for (int i = 0; i < N; i++) {
    R[i] = (P[i] - 1) / 2 + (P[i] - 1) / 4;
    S[i] = (P[i] - LIQUID) % 5 + (P[i] - LIQUID) * 3 + (GAS - 3) / 2;
  }
  for (int i = 0; i < N; i++) printf("%lld %lld\n", R[i], S[i]);
  return 0;
}
