// shapes: BT-style 5-D global arrays fjac[K][J][I][5][5], njac[K][J][I][5][5] filled component by component (25+25 stores) from reloads of u[m][k][j][i]; function-scope tmp1/tmp2/tmp3; global constants c1,c2,c3c4,con43,c1345; acc parallel loop gang collapse(2) + loop vector; a second nest doing a 5x5 block update with acc loop seq m/n loops carrying a sum; model: OpenACC
// model: acc
#include <stdio.h>
#include <string.h>
#include <math.h>

#define NK 6
#define NJ 6
#define NI 7

double u[NK][NJ][NI][5];
double rho_q[NK][NJ][NI], qsq[NK][NJ][NI];
double fjac[NK][NJ][NI][5][5];
double njac[NK][NJ][NI][5][5];
double blk[NK][NJ][NI][5];
double c1, c2, c3c4, con43, c1345, dt, tx1, tx2;

static unsigned int seed = 777u;
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

static void init(void)
{
  int k, j, i, m;
  c1 = 1.4; c2 = 0.4; c3c4 = 0.1; con43 = 4.0 / 3.0; c1345 = c1 * con43 * c3c4 * 0.5;
  dt = 0.015; tx1 = 1.7; tx2 = 0.85;
  for (k = 0; k < NK; k++)
    for (j = 0; j < NJ; j++)
      for (i = 0; i < NI; i++) {
        for (m = 0; m < 5; m++)
          u[k][j][i][m] = (m == 0 ? 1.5 : 0.0) + lcg();
        rho_q[k][j][i] = 1.0 / u[k][j][i][0];
        qsq[k][j][i] = 0.5 * (u[k][j][i][1] * u[k][j][i][1] + u[k][j][i][2] * u[k][j][i][2]) * rho_q[k][j][i];
      }
}

static void jacobians(void)
{
  int k, j, i;
  double tmp1, tmp2, tmp3;
#pragma acc parallel loop gang collapse(2) private(i, tmp1, tmp2, tmp3)
  for (k = 0; k < NK; k++) {
    for (j = 0; j < NJ; j++) {
#pragma acc loop vector private(tmp1, tmp2, tmp3)
      for (i = 0; i < NI; i++) {
        tmp1 = rho_q[k][j][i];
        tmp2 = tmp1 * tmp1;
        tmp3 = tmp1 * tmp2;

        fjac[k][j][i][0][0] = 0.0;
        fjac[k][j][i][1][0] = 1.0;
        fjac[k][j][i][2][0] = 0.0;
        fjac[k][j][i][3][0] = 0.0;
        fjac[k][j][i][4][0] = 0.0;

        fjac[k][j][i][0][1] = -(u[k][j][i][1] * tmp2 * u[k][j][i][1]) + c2 * qsq[k][j][i];
        fjac[k][j][i][1][1] = (2.0 - c2) * (u[k][j][i][1] / u[k][j][i][0]);
        fjac[k][j][i][2][1] = -c2 * (u[k][j][i][2] * tmp1);
        fjac[k][j][i][3][1] = -c2 * (u[k][j][i][3] * tmp1);
        fjac[k][j][i][4][1] = c2;

        fjac[k][j][i][0][2] = -(u[k][j][i][1] * u[k][j][i][2]) * tmp2;
        fjac[k][j][i][1][2] = u[k][j][i][2] * tmp1;
        fjac[k][j][i][2][2] = u[k][j][i][1] * tmp1;
        fjac[k][j][i][3][2] = 0.0;
        fjac[k][j][i][4][2] = 0.0;

        fjac[k][j][i][0][3] = -(u[k][j][i][1] * u[k][j][i][3]) * tmp2;
        fjac[k][j][i][1][3] = u[k][j][i][3] * tmp1;
        fjac[k][j][i][2][3] = 0.0;
        fjac[k][j][i][3][3] = u[k][j][i][1] * tmp1;
        fjac[k][j][i][4][3] = 0.0;

        fjac[k][j][i][0][4] = (c2 * 2.0 * qsq[k][j][i] - c1 * u[k][j][i][4]) * (u[k][j][i][1] * tmp2);
        fjac[k][j][i][1][4] = c1 * u[k][j][i][4] * tmp1 - c2 * (u[k][j][i][1] * u[k][j][i][1] * tmp2 + qsq[k][j][i] * tmp1);
        fjac[k][j][i][2][4] = -c2 * (u[k][j][i][2] * u[k][j][i][1]) * tmp2;
        fjac[k][j][i][3][4] = -c2 * (u[k][j][i][3] * u[k][j][i][1]) * tmp2;
        fjac[k][j][i][4][4] = c1 * (u[k][j][i][1] * tmp1);

        njac[k][j][i][0][0] = 0.0;
        njac[k][j][i][1][0] = 0.0;
        njac[k][j][i][2][0] = 0.0;
        njac[k][j][i][3][0] = 0.0;
        njac[k][j][i][4][0] = 0.0;

        njac[k][j][i][0][1] = -con43 * c3c4 * tmp2 * u[k][j][i][1];
        njac[k][j][i][1][1] = con43 * c3c4 * tmp1;
        njac[k][j][i][2][1] = 0.0;
        njac[k][j][i][3][1] = 0.0;
        njac[k][j][i][4][1] = 0.0;

        njac[k][j][i][0][2] = -c3c4 * tmp2 * u[k][j][i][2];
        njac[k][j][i][1][2] = 0.0;
        njac[k][j][i][2][2] = c3c4 * tmp1;
        njac[k][j][i][3][2] = 0.0;
        njac[k][j][i][4][2] = 0.0;

        njac[k][j][i][0][3] = -c3c4 * tmp2 * u[k][j][i][3];
        njac[k][j][i][1][3] = 0.0;
        njac[k][j][i][2][3] = 0.0;
        njac[k][j][i][3][3] = c3c4 * tmp1;
        njac[k][j][i][4][3] = 0.0;

        njac[k][j][i][0][4] = -(con43 * c3c4 - c1345) * tmp3 * (u[k][j][i][1] * u[k][j][i][1])
                              - (c3c4 - c1345) * tmp3 * (u[k][j][i][2] * u[k][j][i][2])
                              - (c3c4 - c1345) * tmp3 * (u[k][j][i][3] * u[k][j][i][3])
                              - c1345 * tmp2 * u[k][j][i][4];
        njac[k][j][i][1][4] = (con43 * c3c4 - c1345) * tmp2 * u[k][j][i][1];
        njac[k][j][i][2][4] = (c3c4 - c1345) * tmp2 * u[k][j][i][2];
        njac[k][j][i][3][4] = (c3c4 - c1345) * tmp2 * u[k][j][i][3];
        njac[k][j][i][4][4] = c1345 * tmp1;
      }
    }
  }
}

/* blk = dt*tx2*fjac*u - dt*tx1*njac*u, with seq loops over the 5x5 block */
static void block_apply(void)
{
  int k, j, i, m, n;
  double sum;
#pragma acc parallel loop gang private(j, i, m, n, sum)
  for (k = 0; k < NK; k++) {
#pragma acc loop worker private(i, m, n, sum)
    for (j = 0; j < NJ; j++) {
#pragma acc loop vector private(m, n, sum)
      for (i = 0; i < NI; i++) {
#pragma acc loop seq
        for (m = 0; m < 5; m++) {
          sum = 0.0;
#pragma acc loop seq
          for (n = 0; n < 5; n++) {
            sum = sum + dt * tx2 * fjac[k][j][i][n][m] * u[k][j][i][n]
                      - dt * tx1 * njac[k][j][i][n][m] * u[k][j][i][n];
          }
          blk[k][j][i][m] = sum;
        }
      }
    }
  }
}

int main(void)
{
  init();
  jacobians();
  block_apply();
  dump("fjac", fjac, (long)(sizeof fjac / sizeof(double)));
  dump("njac", njac, (long)(sizeof njac / sizeof(double)));
  dump("blk", blk, (long)(sizeof blk / sizeof(double)));
  return 0;
}
