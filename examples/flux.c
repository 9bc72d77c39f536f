/* An example kernel for accsat: a BT-style flux update (our own code).
 *   accsat rewrite examples/flux.c --diff
 */
#include <stdio.h>

#define N 16
double u[5][N][N][N], rhs[5][N][N][N], us[N][N][N], square[N][N][N];
double c1 = 1.4, c2 = 0.4, tx2 = 0.5, dx1 = 0.75;

void flux(int n)
{
  int i, j, k;
  double uijk, up1, um1;
#pragma acc parallel loop gang collapse(2) present(u, rhs, us, square)
  for (k = 1; k < n - 1; k++)
    for (j = 1; j < n - 1; j++) {
#pragma acc loop vector
      for (i = 1; i < n - 1; i++) {
        uijk = us[k][j][i];
        up1 = us[k][j][i + 1];
        um1 = us[k][j][i - 1];
        rhs[0][k][j][i] = rhs[0][k][j][i] + dx1 * (u[0][k][j][i + 1] - 2.0 * u[0][k][j][i]
                          + u[0][k][j][i - 1]) - tx2 * (u[1][k][j][i + 1] - u[1][k][j][i - 1]);
        rhs[1][k][j][i] = rhs[1][k][j][i] + dx1 * (u[1][k][j][i + 1] - 2.0 * u[1][k][j][i]
                          + u[1][k][j][i - 1]) - tx2 * (u[1][k][j][i + 1] * up1
                          - u[1][k][j][i - 1] * um1 + (u[4][k][j][i + 1] - square[k][j][i + 1]
                          - u[4][k][j][i - 1] + square[k][j][i - 1]) * c2);
        rhs[4][k][j][i] = rhs[4][k][j][i] - tx2 * ((c1 * u[4][k][j][i + 1]
                          - c2 * square[k][j][i + 1]) * up1 - (c1 * u[4][k][j][i - 1]
                          - c2 * square[k][j][i - 1]) * um1) + uijk * uijk * 0.5;
      }
    }
}

int main(void)
{
  int i, j, k, m;
  for (m = 0; m < 5; m++)
    for (k = 0; k < N; k++)
      for (j = 0; j < N; j++)
        for (i = 0; i < N; i++) {
          u[m][k][j][i] = 1.0 + 0.01 * (m + k + 2 * j + 3 * i);
          rhs[m][k][j][i] = 0.0;
          us[k][j][i] = 0.5 + 0.001 * (k * j + i);
          square[k][j][i] = 0.25 + 0.002 * (k + j * i);
        }
  flux(N);
  double sum = 0.0;
  for (m = 0; m < 5; m++)
    for (k = 0; k < N; k++)
      for (j = 0; j < N; j++)
        for (i = 0; i < N; i++)
          sum += rhs[m][k][j][i];
  printf("checksum %.12e\n", sum);
  return 0;
}
