/* flags: -O1 | expect: unchanged: a vector type
   A GNU vector type is not modelled: the kernel is left as written, never miscompiled. */
#include <stdio.h>
#define N 8
typedef int v4si __attribute__((vector_size(16)));
v4si A[N], B[N];
int main(void)
{
  for (int i = 0; i < N; i++) { A[i] = (v4si){i, i + 1, i + 2, i + 3}; B[i] = A[i]; }
#pragma acc parallel loop
  for (int i = 0; i < N; i++)
    B[i] = A[i] * A[i] + A[i] * A[i];
  for (int i = 0; i < N; i++) printf("%d %d\n", B[i][0], B[i][3]);
  return 0;
}
