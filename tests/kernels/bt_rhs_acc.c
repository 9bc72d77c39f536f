// shapes: BT-style acc parallel loop gang / loop worker / loop vector nests over k,j,i; 4-D global arrays u[5][K][J][I], rhs[5][K][J][I]; 30+ statement bodies reloading u[m][k][j][i]; function-scope temporaries (temp1 = rho_i[..]; temp2 = temp1*temp1) made private; constants from global scalars c1,c2,con43; stores to many components; store then load of the same element (square -> qs); model: OpenACC
// model: acc
#include <stdio.h>
#include <string.h>
#include <math.h>

#define NK 8
#define NJ 8
#define NI 8

double u[5][NK][NJ][NI];
double rhs[5][NK][NJ][NI];
double forcing[5][NK][NJ][NI];
double rho_i[NK][NJ][NI], us[NK][NJ][NI], vs[NK][NJ][NI], ws[NK][NJ][NI];
double square[NK][NJ][NI], qs[NK][NJ][NI], speed[NK][NJ][NI];

double c1, c2, c3, c4, c1c2, con43, conz, tx1, tx2, ty2, tz2;
double dxa, dxb, dxc, dxd, dxe, xcona, xconb, xconc, xcond;

static unsigned int seed = 20240601u;
static double lcg(void)
{
  seed = seed * 1664525u + 1013904223u;
  return (double)(seed >> 8) * (1.0 / 16777216.0);
}

/* print n doubles bit-exactly; reads the bytes, so any array shape can be passed */
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
  int m, k, j, i;
  c1 = 1.4; c2 = 0.4; c3 = 0.1; c4 = 1.0; c1c2 = c1 * c2;
  con43 = 4.0 / 3.0; conz = 1.0 / 7.0;
  tx1 = 0.33; tx2 = 0.5 * 0.33; ty2 = 0.45; tz2 = 0.55;
  dxa = 0.75; dxb = 0.71; dxc = 0.73; dxd = 0.77; dxe = 0.79;
  xcona = 0.013; xconb = 0.017; xconc = 0.019; xcond = 0.023;
  for (m = 0; m < 5; m++)
    for (k = 0; k < NK; k++)
      for (j = 0; j < NJ; j++)
        for (i = 0; i < NI; i++) {
          u[m][k][j][i] = (m == 0 ? 1.0 : 0.1) + lcg();
          forcing[m][k][j][i] = lcg() - 0.5;
        }
}

/* auxiliary fields: a store followed by a reload of the same element */
static void compute_aux(void)
{
  int k, j, i;
  double rho_inv, temp1, temp2;
#pragma acc parallel loop gang private(j, i, rho_inv, temp1, temp2)
  for (k = 0; k < NK; k++) {
#pragma acc loop worker private(i, rho_inv, temp1, temp2)
    for (j = 0; j < NJ; j++) {
#pragma acc loop vector private(rho_inv, temp1, temp2)
      for (i = 0; i < NI; i++) {
        rho_inv = 1.0 / u[0][k][j][i];
        rho_i[k][j][i] = rho_inv;
        us[k][j][i] = u[1][k][j][i] * rho_inv;
        vs[k][j][i] = u[2][k][j][i] * rho_inv;
        ws[k][j][i] = u[3][k][j][i] * rho_inv;
        square[k][j][i] = 0.5 * (u[1][k][j][i] * u[1][k][j][i] +
                                 u[2][k][j][i] * u[2][k][j][i] +
                                 u[3][k][j][i] * u[3][k][j][i]) * rho_inv;
        qs[k][j][i] = square[k][j][i] * rho_inv;
        temp1 = rho_i[k][j][i];
        temp2 = temp1 * temp1;
        speed[k][j][i] = sqrt(c1c2 * temp1 * (u[4][k][j][i] - square[k][j][i]) + temp2);
      }
    }
  }
}

/* long body: many reloads of u[m][k][j][i] and of its neighbours */
static void compute_rhs_x(void)
{
  int k, j, i, m;
  double temp1, temp2, temp3, uc, up, um, vc, wc, qc, sq, pr_p, pr_m, ke, flx0, flx1, flx2, flx3, flx4;
  double d0, d1, d2, d3, d4, visc, ener;

#pragma acc parallel loop gang private(j, i, m)
  for (k = 0; k < NK; k++) {
#pragma acc loop worker private(i, m)
    for (j = 0; j < NJ; j++) {
#pragma acc loop vector private(m)
      for (i = 0; i < NI; i++) {
        for (m = 0; m < 5; m++)
          rhs[m][k][j][i] = forcing[m][k][j][i];
      }
    }
  }

#pragma acc parallel loop gang private(j, i)
  for (k = 1; k < NK - 1; k++) {
#pragma acc loop worker private(i)
    for (j = 1; j < NJ - 1; j++) {
#pragma acc loop vector private(temp1, temp2, temp3, uc, up, um, vc, wc, qc, sq, pr_p, pr_m, ke, flx0, flx1, flx2, flx3, flx4, d0, d1, d2, d3, d4, visc, ener)
      for (i = 1; i < NI - 1; i++) {
        temp1 = rho_i[k][j][i];
        temp2 = temp1 * temp1;
        temp3 = temp1 * temp2;
        uc = us[k][j][i];
        up = us[k][j][i + 1];
        um = us[k][j][i - 1];
        vc = vs[k][j][i];
        wc = ws[k][j][i];
        qc = qs[k][j][i];
        sq = square[k][j][i];
        pr_p = c2 * (u[4][k][j][i + 1] - square[k][j][i + 1]);
        pr_m = c2 * (u[4][k][j][i - 1] - square[k][j][i - 1]);
        ke = 0.5 * (uc * uc + vc * vc + wc * wc);
        d0 = u[0][k][j][i + 1] - 2.0 * u[0][k][j][i] + u[0][k][j][i - 1];
        d1 = u[1][k][j][i + 1] - 2.0 * u[1][k][j][i] + u[1][k][j][i - 1];
        d2 = u[2][k][j][i + 1] - 2.0 * u[2][k][j][i] + u[2][k][j][i - 1];
        d3 = u[3][k][j][i + 1] - 2.0 * u[3][k][j][i] + u[3][k][j][i - 1];
        d4 = u[4][k][j][i + 1] - 2.0 * u[4][k][j][i] + u[4][k][j][i - 1];
        flx0 = u[1][k][j][i + 1] - u[1][k][j][i - 1];
        flx1 = u[1][k][j][i + 1] * up - u[1][k][j][i - 1] * um + pr_p - pr_m;
        flx2 = u[2][k][j][i + 1] * up - u[2][k][j][i - 1] * um;
        flx3 = u[3][k][j][i + 1] * up - u[3][k][j][i - 1] * um;
        flx4 = (c1 * u[4][k][j][i + 1] - pr_p) * up - (c1 * u[4][k][j][i - 1] - pr_m) * um;
        visc = xcona * con43 * (up - 2.0 * uc + um);
        ener = xcond * c1 * (u[4][k][j][i + 1] * rho_i[k][j][i + 1] - 2.0 * u[4][k][j][i] * temp1 +
                             u[4][k][j][i - 1] * rho_i[k][j][i - 1]);
        rhs[0][k][j][i] = rhs[0][k][j][i] + dxa * tx1 * d0 - tx2 * flx0;
        rhs[1][k][j][i] = rhs[1][k][j][i] + dxb * tx1 * d1 + visc - tx2 * flx1;
        rhs[2][k][j][i] = rhs[2][k][j][i] + dxc * tx1 * d2 + xconb * (vs[k][j][i + 1] - 2.0 * vc + vs[k][j][i - 1]) - tx2 * flx2;
        rhs[3][k][j][i] = rhs[3][k][j][i] + dxd * tx1 * d3 + xconb * (ws[k][j][i + 1] - 2.0 * wc + ws[k][j][i - 1]) - tx2 * flx3;
        rhs[4][k][j][i] = rhs[4][k][j][i] + dxe * tx1 * d4 + xconc * (qs[k][j][i + 1] - 2.0 * qc + qs[k][j][i - 1]) +
                          xconc * con43 * (up * up - 2.0 * uc * uc + um * um) + ener - tx2 * flx4;
        rhs[1][k][j][i] = rhs[1][k][j][i] - c3 * temp2 * u[1][k][j][i] * (u[0][k][j][i] - sq * temp1);
        rhs[2][k][j][i] = rhs[2][k][j][i] - c3 * temp2 * u[2][k][j][i] * (u[0][k][j][i] - sq * temp1);
        rhs[3][k][j][i] = rhs[3][k][j][i] - c3 * temp2 * u[3][k][j][i] * (u[0][k][j][i] - sq * temp1);
        rhs[4][k][j][i] = rhs[4][k][j][i] - c4 * temp3 * (u[4][k][j][i] * u[0][k][j][i] - ke);
        rhs[0][k][j][i] = rhs[0][k][j][i] * conz + ty2 * (vs[k + 1][j][i] - vs[k - 1][j][i]) * u[0][k][j][i];
        rhs[1][k][j][i] = rhs[1][k][j][i] + ty2 * (u[1][k][j + 1][i] * vs[k][j + 1][i] - u[1][k][j - 1][i] * vs[k][j - 1][i]);
        rhs[2][k][j][i] = rhs[2][k][j][i] + ty2 * (u[2][k][j + 1][i] * vs[k][j + 1][i] - u[2][k][j - 1][i] * vs[k][j - 1][i]);
        rhs[3][k][j][i] = rhs[3][k][j][i] + tz2 * (u[3][k + 1][j][i] * ws[k + 1][j][i] - u[3][k - 1][j][i] * ws[k - 1][j][i]);
        rhs[4][k][j][i] = rhs[4][k][j][i] + tz2 * (u[4][k + 1][j][i] * ws[k + 1][j][i] - u[4][k - 1][j][i] * ws[k - 1][j][i]) + speed[k][j][i] * qc;
      }
    }
  }
}

int main(void)
{
  init();
  compute_aux();
  compute_rhs_x();
  dump("rho_i", rho_i, (long)(sizeof rho_i / sizeof(double)));
  dump("qs", qs, (long)(sizeof qs / sizeof(double)));
  dump("square", square, (long)(sizeof square / sizeof(double)));
  dump("speed", speed, (long)(sizeof speed / sizeof(double)));
  dump("us", us, (long)(sizeof us / sizeof(double)));
  dump("rhs", rhs, (long)(sizeof rhs / sizeof(double)));
  return 0;
}
