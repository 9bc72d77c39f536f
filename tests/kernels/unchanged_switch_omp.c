// shapes: constructs accsat must leave unchanged (and that must still compile and run): an innermost omp parallel for body containing a switch with fallthrough, default and break, loads repeated in several cases; next to it an ordinary rewritable omp parallel for loop; model: OpenMP
// model: omp
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define N 110

static unsigned int seed = 4040u;
static unsigned int lcg_u(void)
{
  seed = seed * 1664525u + 1013904223u;
  return seed;
}
static double lcg(void)
{
  return (double)(lcg_u() >> 8) * (1.0 / 16777216.0);
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

static void with_switch(int n, const int *kind, const double *a, const double *b, double *o)
{
#pragma omp parallel for
  for (int i = 0; i < n; i++) {
    double t = 0.0;
    switch (kind[i]) {
    case 0:
      t = a[i] * b[i];
      break;
    case 1:
      t = a[i] * a[i];
      /* fall through */
    case 2:
      t = t + a[i] * b[i] - b[i];
      break;
    case 3:
    case 4:
      t = (a[i] + b[i]) * (a[i] + b[i]);
      break;
    default:
      t = -a[i] * b[i];
      break;
    }
    o[i] = t + a[i] * b[i];
  }
}

static void ordinary(int n, const double *a, const double *b, double *o)
{
#pragma omp parallel for
  for (int i = 0; i < n; i++)
    o[i] = (a[i] + b[i]) * (a[i] + b[i]) - a[i] * b[i];
}

int main(void)
{
  int *kind = malloc(N * sizeof(int));
  double *a = malloc(N * sizeof(double)), *b = malloc(N * sizeof(double));
  double *o1 = malloc(N * sizeof(double)), *o2 = malloc(N * sizeof(double));
  int i;
  if (!kind || !a || !b || !o1 || !o2)
    return 1;
  for (i = 0; i < N; i++) {
    kind[i] = (int)(lcg_u() % 7u);
    a[i] = lcg();
    b[i] = lcg() - 0.5;
  }
  with_switch(N, kind, a, b, o1);
  ordinary(N, a, b, o2);
  dump("o1", o1, N);
  dump("o2", o2, N);
  free(kind); free(a); free(b); free(o1); free(o2);
  return 0;
}
