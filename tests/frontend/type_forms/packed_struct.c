/* flags: -O1 | expect: unchanged: attribute
   A packed struct's members are not where the SysV layout puts them: left as written. */
#include <stdio.h>
#define N 8
struct __attribute__((packed)) rec { char tag; double x; int k; };
struct rec R[N];
double out[N];
int main(void)
{
  for (int i = 0; i < N; i++) { R[i].tag = (char)i; R[i].x = i * 0.5; R[i].k = i * 3; }
#pragma acc parallel loop
  for (int i = 0; i < N; i++)
    out[i] = R[i].x * R[i].x + R[i].x * R[i].k;
  for (int i = 0; i < N; i++) printf("%.17g\n", out[i]);
  return 0;
}
