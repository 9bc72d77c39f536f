// shapes: OpenMP target teams distribute parallel for (with map clauses) over double *restrict pointer parameters; collapse(2) over a 2-D row-major layout through restrict pointers; plain omp parallel for over restrict params with repeated loads a[i], b[i] and neighbour loads; scalar parameters as constants; model: OpenMP
// model: omp
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>

#define N 200
#define R 12
#define C 17

static unsigned int seed = 31337u;
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

static void axpby_target(int n, double alpha, double beta, const double *restrict x,
                         const double *restrict y, double *restrict z, double *restrict w)
{
#pragma omp target teams distribute parallel for map(to: x[0:n], y[0:n]) map(from: z[0:n], w[0:n])
  for (int i = 0; i < n; i++) {
    z[i] = alpha * x[i] + beta * y[i] + x[i] * y[i];
    w[i] = (x[i] - y[i]) * (x[i] + y[i]) + alpha * beta * x[i] * x[i] - z[i] * beta;
  }
}

static void smooth2d_target(int rows, int cols, const double *restrict in, double *restrict out, double c0, double c1)
{
#pragma omp target teams distribute parallel for collapse(2) map(to: in[0:rows*cols]) map(tofrom: out[0:rows*cols])
  for (int r = 1; r < rows - 1; r++) {
    for (int c = 1; c < cols - 1; c++) {
      out[r * cols + c] = c0 * in[r * cols + c] +
                          c1 * (in[(r - 1) * cols + c] + in[(r + 1) * cols + c] +
                                in[r * cols + c - 1] + in[r * cols + c + 1]) +
                          c1 * c1 * (in[(r - 1) * cols + c - 1] * in[r * cols + c] - in[(r + 1) * cols + c + 1] * in[r * cols + c]);
    }
  }
}

static void diffs_host(int n, const double *restrict x, double *restrict d1, double *restrict d2, double h)
{
#pragma omp parallel for
  for (int i = 1; i < n - 1; i++) {
    double inv = 1.0 / h;
    d1[i] = (x[i + 1] - x[i - 1]) * 0.5 * inv;
    d2[i] = (x[i + 1] - 2.0 * x[i] + x[i - 1]) * inv * inv;
    d1[i] = d1[i] + d2[i] * x[i] * 1e-3;
  }
}

int main(void)
{
  double *x = malloc(N * sizeof *x), *y = malloc(N * sizeof *y);
  double *z = malloc(N * sizeof *z), *w = malloc(N * sizeof *w);
  double *d1 = calloc(N, sizeof *d1), *d2 = calloc(N, sizeof *d2);
  double *g = malloc(R * C * sizeof *g), *h = malloc(R * C * sizeof *h);
  int i;
  if (!x || !y || !z || !w || !d1 || !d2 || !g || !h)
    return 1;
  for (i = 0; i < N; i++) {
    x[i] = lcg() * 4.0 - 2.0;
    y[i] = lcg();
  }
  for (i = 0; i < R * C; i++) {
    g[i] = lcg();
    h[i] = -1.0;
  }
  axpby_target(N, 1.25, -0.375, x, y, z, w);
  smooth2d_target(R, C, g, h, 0.5, 0.125);
  diffs_host(N, x, d1, d2, 0.01);
  dump("z", z, N);
  dump("w", w, N);
  dump("h", h, R * C);
  dump("d1", d1, N);
  dump("d2", d2, N);
  free(x); free(y); free(z); free(w); free(d1); free(d2); free(g); free(h);
  return 0;
}
