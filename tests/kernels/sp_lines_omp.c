// shapes: SP-style line work under OpenMP: omp parallel region with an omp for inside (not combined) and private temporaries declared at function scope (private(...) clause); row pointers (double *row = a + j*n) used as row[i], *(row + i), row[i-1]; omp target teams distribute over j with an inner omp parallel for over i (split target form); speed of sound sqrt computed once and reused via a stored array then reloaded; repeated divisions by the same loaded value (x / rho[i] several times); model: OpenMP
// model: omp
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>

#define NJ 9
#define NI 30

static unsigned int seed = 6021023u;
static double lcg(void)
{
  seed = seed * 1664525u + 1013904223u;
  return (double)(seed >> 8) * (1.0 / 16777216.0);
}

static void dump(const char *name, const void *p, long n)
{
  const unsigned char *bb = (const unsigned char *)p;
  double v;
  long q;
  for (q = 0; q < n; q++) {
    memcpy(&v, bb + q * (long)sizeof v, sizeof v);
    printf("%s %ld %a\n", name, q, v);
  }
}

static void coefficients(int nj, int ni, const double *rho, const double *mom, const double *en,
                         double *speed, double *lhs0, double *lhs1, double *lhs2, double c1, double c2, double dttx)
{
  int j, i;
  double ru, cv, rhon;
#pragma omp parallel private(j, i, ru, cv, rhon)
  {
#pragma omp for
    for (j = 0; j < nj; j++) {
      const double *rrow = rho + j * ni;
      const double *mrow = mom + j * ni;
      const double *erow = en + j * ni;
      double *srow = speed + j * ni;
      for (i = 0; i < ni; i++) {
        ru = mrow[i] / rrow[i];
        cv = erow[i] / rrow[i] - 0.5 * ru * ru;
        srow[i] = sqrt(c1 * c2 * (cv > 0.01 ? cv : 0.01));
        rhon = c1 * (mrow[i] / rrow[i]) + *(srow + i) * 0.5;
        lhs0[j * ni + i] = -dttx * ru - dttx * srow[i] * rhon;
        lhs1[j * ni + i] = 1.0 + 2.0 * dttx * rhon + ru * ru / rrow[i];
        lhs2[j * ni + i] = dttx * ru - dttx * srow[i] * rhon + *(erow + i) / *(rrow + i);
      }
    }
  }
}

static void split_target(int nj, int ni, const double *restrict lhs0, const double *restrict lhs1,
                         const double *restrict lhs2, const double *restrict rhs, double *restrict out)
{
#pragma omp target teams distribute map(to: lhs0[0:nj*ni], lhs1[0:nj*ni], lhs2[0:nj*ni], rhs[0:nj*ni]) map(tofrom: out[0:nj*ni])
  for (int j = 0; j < nj; j++) {
    const double *l0 = lhs0 + j * ni;
    const double *l1 = lhs1 + j * ni;
    const double *l2 = lhs2 + j * ni;
    const double *rr = rhs + j * ni;
#pragma omp parallel for
    for (int i = 1; i < ni - 1; i++) {
      out[j * ni + i] = (rr[i] - l0[i] * rr[i - 1] - l2[i] * rr[i + 1]) / l1[i] +
                        l0[i] * l2[i] / (l1[i] * l1[i]);
    }
  }
}

int main(void)
{
  int n = NJ * NI, q;
  double *rho = malloc(n * sizeof(double)), *mom = malloc(n * sizeof(double)), *en = malloc(n * sizeof(double));
  double *speed = malloc(n * sizeof(double)), *l0 = malloc(n * sizeof(double)), *l1 = malloc(n * sizeof(double));
  double *l2 = malloc(n * sizeof(double)), *rhs = malloc(n * sizeof(double)), *out = calloc(n, sizeof(double));
  if (!rho || !mom || !en || !speed || !l0 || !l1 || !l2 || !rhs || !out)
    return 1;
  for (q = 0; q < n; q++) {
    rho[q] = 1.0 + lcg();
    mom[q] = lcg() - 0.5;
    en[q] = 2.0 + lcg();
    rhs[q] = lcg();
  }
  coefficients(NJ, NI, rho, mom, en, speed, l0, l1, l2, 1.4, 0.4, 0.05);
  split_target(NJ, NI, l0, l1, l2, rhs, out);
  dump("speed", speed, n);
  dump("lhs0", l0, n);
  dump("lhs1", l1, n);
  dump("lhs2", l2, n);
  dump("out", out, n);
  free(rho); free(mom); free(en); free(speed); free(l0); free(l1); free(l2); free(rhs); free(out);
  return 0;
}
