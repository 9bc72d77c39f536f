// shapes: LU/SSOR-style 5x5 block work inside an acc data region holding several compute constructs: acc parallel loop gang vector collapse(3) over k,j,i; reciprocal temporaries (tmp1 = 1.0/u[0][..]; tmp2 = tmp1*tmp1; tmp3 = tmp1*tmp2); 5-D global d[K][J][I][5][5] written entry by entry; a private local array tv[5] in the body filled by an inner m loop and read by an unrolled 5x5 product; backward loop k from K-2 down to 1; present() clauses; model: OpenACC
// model: acc
#include <stdio.h>
#include <string.h>

#define NK 5
#define NJ 6
#define NI 6

double u[5][NK][NJ][NI];
double v[NK][NJ][NI][5];
double d[NK][NJ][NI][5][5];
double dt, omega, r43, c1345, c34, tx1, ty1, tz1;

static unsigned int seed = 31415u;
static double lcg(void)
{
  seed = seed * 1664525u + 1013904223u;
  return (double)(seed >> 8) * (1.0 / 16777216.0);
}

static void dump(const char *name, const void *p, long n)
{
  const unsigned char *bb = (const unsigned char *)p;
  double x;
  long q;
  for (q = 0; q < n; q++) {
    memcpy(&x, bb + q * (long)sizeof x, sizeof x);
    printf("%s %ld %a\n", name, q, x);
  }
}

static void build_diag(void)
{
  int k, j, i;
  double tmp1, tmp2, tmp3;
#pragma acc parallel loop gang vector collapse(3) present(u, d) private(tmp1, tmp2, tmp3)
  for (k = 0; k < NK; k++) {
    for (j = 0; j < NJ; j++) {
      for (i = 0; i < NI; i++) {
        tmp1 = 1.0 / u[0][k][j][i];
        tmp2 = tmp1 * tmp1;
        tmp3 = tmp1 * tmp2;
        d[k][j][i][0][0] = 1.0 + dt * 2.0 * (tx1 + ty1 + tz1);
        d[k][j][i][0][1] = 0.0;
        d[k][j][i][0][2] = 0.0;
        d[k][j][i][0][3] = 0.0;
        d[k][j][i][0][4] = 0.0;
        d[k][j][i][1][0] = -dt * 2.0 * (tx1 * r43 + ty1 + tz1) * c34 * tmp2 * u[1][k][j][i];
        d[k][j][i][1][1] = 1.0 + dt * 2.0 * c34 * tmp1 * (tx1 * r43 + ty1 + tz1) + dt * 2.0 * tx1;
        d[k][j][i][1][2] = 0.0;
        d[k][j][i][1][3] = 0.0;
        d[k][j][i][1][4] = 0.0;
        d[k][j][i][2][0] = -dt * 2.0 * (tx1 + ty1 * r43 + tz1) * c34 * tmp2 * u[2][k][j][i];
        d[k][j][i][2][1] = 0.0;
        d[k][j][i][2][2] = 1.0 + dt * 2.0 * c34 * tmp1 * (tx1 + ty1 * r43 + tz1) + dt * 2.0 * ty1;
        d[k][j][i][2][3] = 0.0;
        d[k][j][i][2][4] = 0.0;
        d[k][j][i][3][0] = -dt * 2.0 * (tx1 + ty1 + tz1 * r43) * c34 * tmp2 * u[3][k][j][i];
        d[k][j][i][3][1] = 0.0;
        d[k][j][i][3][2] = 0.0;
        d[k][j][i][3][3] = 1.0 + dt * 2.0 * c34 * tmp1 * (tx1 + ty1 + tz1 * r43) + dt * 2.0 * tz1;
        d[k][j][i][3][4] = 0.0;
        d[k][j][i][4][0] = -dt * 2.0 * (((tx1 * (r43 * c34 - c1345) + ty1 * (c34 - c1345) + tz1 * (c34 - c1345)) *
                                         (u[1][k][j][i] * u[1][k][j][i]) +
                                         (tx1 * (c34 - c1345) + ty1 * (r43 * c34 - c1345) + tz1 * (c34 - c1345)) *
                                         (u[2][k][j][i] * u[2][k][j][i])) * tmp3 +
                                        (tx1 + ty1 + tz1) * c1345 * tmp2 * u[4][k][j][i]);
        d[k][j][i][4][1] = dt * 2.0 * tmp2 * u[1][k][j][i] * (tx1 * (r43 * c34 - c1345) + ty1 * (c34 - c1345) + tz1 * (c34 - c1345));
        d[k][j][i][4][2] = dt * 2.0 * tmp2 * u[2][k][j][i] * (tx1 * (c34 - c1345) + ty1 * (r43 * c34 - c1345) + tz1 * (c34 - c1345));
        d[k][j][i][4][3] = dt * 2.0 * tmp2 * u[3][k][j][i] * (tx1 * (c34 - c1345) + ty1 * (c34 - c1345) + tz1 * (r43 * c34 - c1345));
        d[k][j][i][4][4] = 1.0 + dt * 2.0 * (tx1 + ty1 + tz1) * c1345 * tmp1 + dt * 2.0 * (tx1 + ty1 + tz1);
      }
    }
  }
}

/* v(k) <- v(k) - omega * D(k)^-ish * v(k+1): a sweep whose k loop runs backwards (seq), j/i parallel */
static void sweep(void)
{
  int k, j, i, m;
  for (k = NK - 2; k >= 1; k--) {
#pragma acc parallel loop gang present(v, d) private(i, m)
    for (j = 0; j < NJ; j++) {
#pragma acc loop vector private(m)
      for (i = 0; i < NI; i++) {
        double tv[5];
        for (m = 0; m < 5; m++)
          tv[m] = omega * v[k + 1][j][i][m];
        v[k][j][i][0] = v[k][j][i][0] - (d[k][j][i][0][0] * tv[0] + d[k][j][i][0][1] * tv[1] + d[k][j][i][0][2] * tv[2] +
                                         d[k][j][i][0][3] * tv[3] + d[k][j][i][0][4] * tv[4]) * 0.01;
        v[k][j][i][1] = v[k][j][i][1] - (d[k][j][i][1][0] * tv[0] + d[k][j][i][1][1] * tv[1] + d[k][j][i][1][2] * tv[2] +
                                         d[k][j][i][1][3] * tv[3] + d[k][j][i][1][4] * tv[4]) * 0.01;
        v[k][j][i][2] = v[k][j][i][2] - (d[k][j][i][2][0] * tv[0] + d[k][j][i][2][1] * tv[1] + d[k][j][i][2][2] * tv[2] +
                                         d[k][j][i][2][3] * tv[3] + d[k][j][i][2][4] * tv[4]) * 0.01;
        v[k][j][i][3] = v[k][j][i][3] - (d[k][j][i][3][0] * tv[0] + d[k][j][i][3][1] * tv[1] + d[k][j][i][3][2] * tv[2] +
                                         d[k][j][i][3][3] * tv[3] + d[k][j][i][3][4] * tv[4]) * 0.01;
        v[k][j][i][4] = v[k][j][i][4] - (d[k][j][i][4][0] * tv[0] + d[k][j][i][4][1] * tv[1] + d[k][j][i][4][2] * tv[2] +
                                         d[k][j][i][4][3] * tv[3] + d[k][j][i][4][4] * tv[4]) * 0.01;
      }
    }
  }
}

int main(void)
{
  int m, k, j, i;
  dt = 0.5; omega = 1.2; r43 = 4.0 / 3.0; c34 = 0.1 * 1.0; c1345 = 1.4 * 0.1 * 1.0 * 0.4;
  tx1 = 0.9; ty1 = 1.1; tz1 = 1.3;
  for (m = 0; m < 5; m++)
    for (k = 0; k < NK; k++)
      for (j = 0; j < NJ; j++)
        for (i = 0; i < NI; i++) {
          u[m][k][j][i] = (m == 0 ? 1.0 : 0.0) + lcg();
          v[k][j][i][m] = lcg() - 0.5;
        }
#pragma acc data copyin(u) copy(v) copyout(d)
  {
    build_diag();
    sweep();
  }
  dump("d", d, (long)(sizeof d / sizeof(double)));
  dump("v", v, (long)(sizeof v / sizeof(double)));
  return 0;
}
