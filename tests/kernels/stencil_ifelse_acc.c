// shapes: stencils with if / else if / else on the loop index (i == 1, i == 2, i == n-3, i == n-2, else) inside the innermost acc loop vector; inner sequential for (m = 0; m < 5; m++) loop in the body; loop-carried scalars in that inner loop (running sum, previous value); acc parallel loop gang + loop vector over 4-D u[K][J][I][5]; model: OpenACC
// model: acc
#include <stdio.h>
#include <string.h>
#include <math.h>

#define NK 5
#define NJ 6
#define NI 12

double u[NK][NJ][NI][5];
double rhs[NK][NJ][NI][5];
double acc_m[NK][NJ][NI];
double dssp, eps2, half;

static unsigned int seed = 4242u;
static double lcg(void)
{
  seed = seed * 1664525u + 1013904223u;
  return (double)(seed >> 8) * (1.0 / 16777216.0);
}

static void dump(const char *name, const void *p, long n)
{
  const unsigned char *b = (const unsigned char *)p;
  double v;
  long q;
  for (q = 0; q < n; q++) {
    memcpy(&v, b + q * (long)sizeof v, sizeof v);
    printf("%s %ld %a\n", name, q, v);
  }
}

/* fourth-order dissipation along i with one-sided stencils at both ends */
static void dissipation(int n)
{
  int k, j, i, m;
  double prev, run;
#pragma acc parallel loop gang collapse(2) private(i, m, prev, run)
  for (k = 0; k < NK; k++) {
    for (j = 0; j < NJ; j++) {
#pragma acc loop vector private(m, prev, run)
      for (i = 1; i < n - 1; i++) {
        if (i == 1) {
          for (m = 0; m < 5; m++)
            rhs[k][j][i][m] = rhs[k][j][i][m] - dssp * (5.0 * u[k][j][i][m] - 4.0 * u[k][j][i + 1][m] + u[k][j][i + 2][m]);
        } else if (i == 2) {
          for (m = 0; m < 5; m++)
            rhs[k][j][i][m] = rhs[k][j][i][m] - dssp * (-4.0 * u[k][j][i - 1][m] + 6.0 * u[k][j][i][m] -
                                                          4.0 * u[k][j][i + 1][m] + u[k][j][i + 2][m]);
        } else if (i == n - 3) {
          for (m = 0; m < 5; m++)
            rhs[k][j][i][m] = rhs[k][j][i][m] - dssp * (u[k][j][i - 2][m] - 4.0 * u[k][j][i - 1][m] +
                                                          6.0 * u[k][j][i][m] - 4.0 * u[k][j][i + 1][m]);
        } else if (i == n - 2) {
          for (m = 0; m < 5; m++)
            rhs[k][j][i][m] = rhs[k][j][i][m] - dssp * (u[k][j][i - 2][m] - 4.0 * u[k][j][i - 1][m] + 5.0 * u[k][j][i][m]);
        } else {
          for (m = 0; m < 5; m++) {
            rhs[k][j][i][m] = rhs[k][j][i][m] - dssp * (u[k][j][i - 2][m] - 4.0 * u[k][j][i - 1][m] +
                                                          6.0 * u[k][j][i][m] - 4.0 * u[k][j][i + 1][m] + u[k][j][i + 2][m]);
          }
        }
        /* loop-carried scalars in a sequential inner loop */
        prev = u[k][j][i][0];
        run = 0.0;
        for (m = 1; m < 5; m++) {
          run = run + (u[k][j][i][m] - prev) * (u[k][j][i][m] + prev);
          prev = u[k][j][i][m] * half + prev * half;
          rhs[k][j][i][m] = rhs[k][j][i][m] + eps2 * run;
        }
        acc_m[k][j][i] = run + prev;
      }
    }
  }
}

/* 2-D 5-point stencil with a boundary branch on both indices */
static double g2[NJ][NI], h2[NJ][NI];
static void stencil2d(void)
{
  int j, i;
#pragma acc parallel loop gang private(i)
  for (j = 0; j < NJ; j++) {
#pragma acc loop vector
    for (i = 0; i < NI; i++) {
      if (i == 0 || j == 0 || i == NI - 1 || j == NJ - 1) {
        h2[j][i] = g2[j][i];
      } else if ((i + j) % 2 == 0) {
        h2[j][i] = 0.25 * (g2[j][i - 1] + g2[j][i + 1] + g2[j - 1][i] + g2[j + 1][i]) - g2[j][i] * eps2;
      } else {
        h2[j][i] = 0.5 * g2[j][i] + 0.125 * (g2[j][i - 1] + g2[j][i + 1] + g2[j - 1][i] + g2[j + 1][i]);
      }
    }
  }
}

int main(void)
{
  int k, j, i, m;
  dssp = 0.0625; eps2 = 0.03; half = 0.5;
  for (k = 0; k < NK; k++)
    for (j = 0; j < NJ; j++)
      for (i = 0; i < NI; i++)
        for (m = 0; m < 5; m++) {
          u[k][j][i][m] = lcg();
          rhs[k][j][i][m] = lcg() - 0.5;
        }
  for (j = 0; j < NJ; j++)
    for (i = 0; i < NI; i++)
      g2[j][i] = 2.0 * lcg() - 1.0;
  dissipation(NI);
  stencil2d();
  dump("rhs", rhs, (long)(sizeof rhs / sizeof(double)));
  dump("acc_m", acc_m, (long)(sizeof acc_m / sizeof(double)));
  dump("h2", h2, (long)(sizeof h2 / sizeof(double)));
  return 0;
}
