/* flags: -O1 -fshort-enums | expect: rewritten
   With -fshort-enums an enum takes the smallest type that holds its values: promoted
   to int, (P - 1) / 2 of SOLID is 0. */
#include <stdio.h>
#define N 9
enum phase { SOLID, LIQUID, GAS };
enum wide { W0, W1 = 300 };
enum phase P[N];
enum wide Q[N];
long long R[N];
int main(void)
{
  for (int i = 0; i < N; i++) { P[i] = (enum phase)(i % 3); Q[i] = i % 2 ? W1 : W0; }
#pragma acc parallel loop
  for (int i = 0; i < N; i++)
    R[i] = (P[i] - 1) / 2 + (P[i] - 1) / 4 + (Q[i] - 301) / 2 + (Q[i] - 301) * 3;
  for (int i = 0; i < N; i++) printf("%lld\n", R[i]);
  return 0;
}
