/* flags: -O1 | expect: rewritten
   A bit-field narrower than int promotes to int, a full-width one keeps its type. */
#include <stdio.h>
#define N 8
struct flags { unsigned kind : 3; int delta : 5; unsigned char small : 2; unsigned full : 32; };
struct flags F[N];
long long R[N], S[N];
int main(void)
{
  for (int i = 0; i < N; i++) {
    F[i].kind = (unsigned)i;
    F[i].delta = i - 4;
    F[i].small = (unsigned)(i & 3);
    F[i].full = 4294967295u - (unsigned)i;
  }
#pragma acc parallel loop
  for (int i = 0; i < N; i++) {
    R[i] = (F[i].kind - 4) * 3 + (F[i].kind - 4) / 2 + F[i].delta * (F[i].kind - 4);
    S[i] = (F[i].full + 1u) / 2 + (F[i].full + 1u) % 7 + (F[i].small - 1) / 2;
  }
  for (int i = 0; i < N; i++) printf("%lld %lld\n", R[i], S[i]);
  return 0;
}
