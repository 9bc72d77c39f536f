// shapes: MG-style index macros #define I3D(a,n1,n2,i3,i2,i1) a[((i3)*(n2)+(i2))*(n1)+(i1)] over malloc'd double pointers; 27-point residual-like stencil with coefficient array c[0..3]; omp parallel for collapse(2) over i3,i2 with the innermost sequential-in-source i1 loop; per-row private scratch arrays u1[]/u2[] filled in one i1 loop and read in the next; trilinear-style prolongation with loads at i1 and i1+1; model: OpenMP
// model: omp
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define N1 10
#define N2 9
#define N3 8
#define I3D(a, n1, n2, i3, i2, i1) a[((i3) * (n2) + (i2)) * (n1) + (i1)]

static unsigned int seed = 1618033u;
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

/* r = v - A u, with A a 27-point operator weighted by distance class */
static void residual(int n1, int n2, int n3, const double *u, const double *v, double *r, const double *c)
{
#pragma omp parallel for collapse(2)
  for (int i3 = 1; i3 < n3 - 1; i3++) {
    for (int i2 = 1; i2 < n2 - 1; i2++) {
      double u1[N1], u2[N1];
      for (int i1 = 0; i1 < n1; i1++) {
        u1[i1] = I3D(u, n1, n2, i3, i2 - 1, i1) + I3D(u, n1, n2, i3, i2 + 1, i1)
               + I3D(u, n1, n2, i3 - 1, i2, i1) + I3D(u, n1, n2, i3 + 1, i2, i1);
        u2[i1] = I3D(u, n1, n2, i3 - 1, i2 - 1, i1) + I3D(u, n1, n2, i3 - 1, i2 + 1, i1)
               + I3D(u, n1, n2, i3 + 1, i2 - 1, i1) + I3D(u, n1, n2, i3 + 1, i2 + 1, i1);
      }
      for (int i1 = 1; i1 < n1 - 1; i1++) {
        I3D(r, n1, n2, i3, i2, i1) = I3D(v, n1, n2, i3, i2, i1)
            - c[0] * I3D(u, n1, n2, i3, i2, i1)
            - c[1] * (I3D(u, n1, n2, i3, i2, i1 - 1) + I3D(u, n1, n2, i3, i2, i1 + 1) + u1[i1])
            - c[2] * (u2[i1] + u1[i1 - 1] + u1[i1 + 1])
            - c[3] * (u2[i1 - 1] + u2[i1 + 1]);
      }
    }
  }
}

/* coarse-to-fine prolongation along i1 only, with the same macro on both grids */
static void prolong(int m1, int n2, int n3, const double *z, int n1, double *f)
{
#pragma omp parallel for collapse(2)
  for (int i3 = 0; i3 < n3; i3++) {
    for (int i2 = 0; i2 < n2; i2++) {
      for (int i1 = 0; i1 < m1 - 1; i1++) {
        I3D(f, n1, n2, i3, i2, 2 * i1) = I3D(f, n1, n2, i3, i2, 2 * i1) + I3D(z, m1, n2, i3, i2, i1);
        I3D(f, n1, n2, i3, i2, 2 * i1 + 1) = I3D(f, n1, n2, i3, i2, 2 * i1 + 1)
            + 0.5 * (I3D(z, m1, n2, i3, i2, i1 + 1) + I3D(z, m1, n2, i3, i2, i1));
      }
    }
  }
}

int main(void)
{
  long total = (long)N1 * N2 * N3;
  int m1 = N1 / 2 + 1;
  long ztotal = (long)m1 * N2 * N3;
  double *u = malloc(total * sizeof(double));
  double *v = malloc(total * sizeof(double));
  double *r = calloc(total, sizeof(double));
  double *f = malloc(total * sizeof(double));
  double *z = malloc(ztotal * sizeof(double));
  double c[4] = {-8.0 / 3.0, 0.0, 1.0 / 6.0, 1.0 / 12.0};
  long q;
  if (!u || !v || !r || !f || !z)
    return 1;
  for (q = 0; q < total; q++) {
    u[q] = lcg() - 0.5;
    v[q] = lcg();
    f[q] = lcg() * 0.25;
  }
  for (q = 0; q < ztotal; q++)
    z[q] = lcg();
  residual(N1, N2, N3, u, v, r, c);
  prolong(m1, N2, N3, z, N1, f);
  dump("r", r, total);
  dump("f", f, total);
  free(u); free(v); free(r); free(f); free(z);
  return 0;
}
