// shapes: NPB-style accessor macros #define U(i,j,k) u[(i) + NX*((j) + NY*(k))] and R(c,i,j,k) over flat arrays, typedef double real, loop bounds through macros (c < NCOMP), a compound assignment in an inner c loop, a difference shared by two statements; model: OpenACC
// model: acc
#include <stdio.h>
#define NX 12
#define NY 10
#define NZ 8
#define NCOMP 3
typedef double real;
#define U(i, j, k) u[(i) + NX * ((j) + NY * (k))]
#define R(c, i, j, k) r[(c) + NCOMP * ((i) + NX * ((j) + NY * (k)))]

static real u[NX * NY * NZ];
static real r[NCOMP * NX * NY * NZ];

static void stencil(real dt)
{
  int i, j, k, c;
#pragma acc parallel loop collapse(2) copyin(u) copy(r)
  for (k = 1; k < NZ - 1; k++) {
    for (j = 1; j < NY - 1; j++) {
      for (i = 1; i < NX - 1; i++) {
        real w = U(i, j, k) * dt;
        for (c = 0; c < NCOMP; c++) {
          R(c, i, j, k) += w * (U(i + 1, j, k) - U(i - 1, j, k))
                         + w * (U(i, j + 1, k) - U(i, j - 1, k)) * (real)(c + 1);
        }
        R(0, i, j, k) = R(0, i, j, k) * 0.5 + (U(i, j, k + 1) - U(i, j, k - 1)) * dt;
        R(1, i, j, k) = R(1, i, j, k) - (U(i, j, k + 1) - U(i, j, k - 1)) * w;
        R(2, i, j, k) = u[((k + 1) * NY + j) * NX + i] * dt + (U(i, j, k + 1) - U(i, j, k - 1));
      }
    }
  }
}

int main(void)
{
  int n;
  for (n = 0; n < NX * NY * NZ; n++)
    u[n] = (real)(n % 17) * 0.25 - 1.0;
  for (n = 0; n < NCOMP * NX * NY * NZ; n++)
    r[n] = 0.5;
  stencil(0.125);
  for (n = 0; n < NCOMP * NX * NY * NZ; n++)
    printf("%a\n", r[n]);
  return 0;
}
