// shapes: varied loop headers under OpenMP: descending loop (for (i = n - 1; i >= 0; i--)), step 2 (i += 2), <= bound, long and unsigned loop counters, loop variable declared in the for; omp for inside an omp parallel region with schedule(static, 4) and nowait followed by a second omp for; omp parallel for collapse(2) over a rectangular 2-D nest with an unbraced inner body; omp target teams distribute parallel for collapse(2) with a scalar computed before the loop; model: OpenMP
// model: omp
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define N 96
#define R 7
#define C 13

static unsigned int seed = 192837u;
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

static void forms(int n, const double *x, double *y, double *z, double *w, double *s)
{
  int i;
#pragma omp parallel for
  for (i = n - 1; i >= 0; i--)
    y[i] = x[i] * x[i] - x[n - 1 - i];

#pragma omp parallel for
  for (i = 0; i < n; i += 2) {
    z[i] = x[i] + x[i + 1] * x[i];
    z[i + 1] = x[i + 1] - x[i] * x[i + 1];
  }

#pragma omp parallel for
  for (long l = 1; l <= (long)n - 2; l++)
    w[l] = x[l - 1] * x[l + 1] + x[l] * x[l];

#pragma omp parallel
  {
#pragma omp for schedule(static, 4) nowait
    for (unsigned int u = 0; u < (unsigned int)n / 2; u++)
      s[u] = x[2 * u] * x[2 * u + 1] + x[2 * u];
#pragma omp for schedule(static, 4)
    for (unsigned int u = (unsigned int)n / 2; u < (unsigned int)n; u++)
      s[u] = x[u] * x[u] * x[u];
  }
}

static void grid(int rows, int cols, const double *g, double *h, double *t)
{
  double scale = 1.0 / (double)(rows * cols);
#pragma omp parallel for collapse(2)
  for (int r = 0; r < rows; r++)
    for (int c = 0; c < cols; c++)
      h[r * cols + c] = g[r * cols + c] * g[r * cols + c] * scale + g[r * cols + (cols - 1 - c)];

#pragma omp target teams distribute parallel for collapse(2) map(to: g[0:rows*cols]) map(from: t[0:rows*cols])
  for (int r = 0; r < rows; r++)
    for (int c = 0; c < cols; c++) {
      double v = g[r * cols + c];
      t[r * cols + c] = v * scale - v * v + g[((rows - 1 - r) * cols) + c] * v;
    }
}

int main(void)
{
  double *x = malloc(N * sizeof(double)), *y = malloc(N * sizeof(double)), *z = malloc(N * sizeof(double));
  double *w = calloc(N, sizeof(double)), *s = malloc(N * sizeof(double));
  double *g = malloc(R * C * sizeof(double)), *h = malloc(R * C * sizeof(double)), *t = malloc(R * C * sizeof(double));
  int q;
  if (!x || !y || !z || !w || !s || !g || !h || !t)
    return 1;
  for (q = 0; q < N; q++)
    x[q] = lcg() * 2.0 - 1.0;
  for (q = 0; q < R * C; q++)
    g[q] = lcg();
  forms(N, x, y, z, w, s);
  grid(R, C, g, h, t);
  dump("y", y, N);
  dump("z", z, N);
  dump("w", w, N);
  dump("s", s, N);
  dump("h", h, R * C);
  dump("t", t, R * C);
  free(x); free(y); free(z); free(w); free(s); free(g); free(h); free(t);
  return 0;
}
