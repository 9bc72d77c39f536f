// shapes: non-restrict pointer parameters that REALLY alias (out == in + 1, b == a, w == v + half, p[0] == p[1] rows); a load, a store through the other pointer, then a reload that must see the store -- an optimizer that reuses the first load across the store prints different numbers; compound assignment through the aliasing pointer; each iteration touches only its own elements so omp parallel for is race-free; model: OpenMP
// model: omp
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define N 100

static unsigned int seed = 8675309u;
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

/* called with out == in + 1: out[i] is in[i+1]; iteration i only touches in[i+1] */
static void shifted(int n, const double *in, double *out, double *r1, double *r2)
{
#pragma omp parallel for
  for (int i = 0; i < n; i++) {
    double before = in[i + 1];
    out[i] = before * 2.0 + 1.0;
    r1[i] = in[i + 1] + before;          /* must see the store through out */
    out[i] = out[i] * 0.5;
    r2[i] = in[i + 1] * in[i + 1] - before;
  }
}

/* called with b == a */
static void same_buffer(int n, double *a, double *b, double *c)
{
#pragma omp parallel for
  for (int i = 0; i < n; i++) {
    c[i] = a[i] * 3.0;
    b[i] = a[i] + 1.0;
    c[i] = c[i] + a[i] * a[i];   /* a[i] was changed through b */
    b[i] += 0.25;
    c[i] = c[i] - a[i];
  }
}

/* called with w == v + n/2: a store through w lands in the upper half of v */
static void halves(int half, double *v, double *w, double *res)
{
#pragma omp parallel for
  for (int i = 0; i < half; i++) {
    double lo = v[i];
    double hi = v[i + half];
    w[i] = lo * hi;
    res[i] = v[i + half] - lo * hi + v[i] * 0.5;
    w[i] -= v[i];
    res[i] += w[i] * v[i + half];
  }
}

/* an array of pointers where two entries point to the same row */
static void rows(int n, double **p, double *res)
{
#pragma omp parallel for
  for (int i = 0; i < n; i++) {
    double x = p[0][i];
    p[1][i] = x + 4.0;
    res[i] = p[0][i] * x + p[1][i];
  }
}

int main(void)
{
  double *buf = malloc((N + 1) * sizeof(double));
  double *a = malloc(N * sizeof(double));
  double *v = malloc(2 * N * sizeof(double));
  double *r1 = malloc(N * sizeof(double)), *r2 = malloc(N * sizeof(double));
  double *c = malloc(N * sizeof(double)), *res = malloc(N * sizeof(double)), *res2 = malloc(N * sizeof(double));
  double *rowbuf = malloc(N * sizeof(double));
  double *pp[2];
  int i;
  if (!buf || !a || !v || !r1 || !r2 || !c || !res || !res2 || !rowbuf)
    return 1;
  for (i = 0; i < N + 1; i++)
    buf[i] = lcg();
  for (i = 0; i < N; i++) {
    a[i] = lcg() - 0.5;
    rowbuf[i] = lcg();
  }
  for (i = 0; i < 2 * N; i++)
    v[i] = lcg() + 0.5;
  shifted(N, buf, buf + 1, r1, r2);
  same_buffer(N, a, a, c);
  halves(N, v, v + N, res);
  pp[0] = rowbuf;
  pp[1] = rowbuf;
  rows(N, pp, res2);
  dump("buf", buf, N + 1);
  dump("r1", r1, N);
  dump("r2", r2, N);
  dump("a", a, N);
  dump("c", c, N);
  dump("v", v, 2 * N);
  dump("res", res, N);
  dump("rowbuf", rowbuf, N);
  dump("res2", res2, N);
  free(buf); free(a); free(v); free(r1); free(r2); free(c); free(res); free(res2); free(rowbuf);
  return 0;
}
