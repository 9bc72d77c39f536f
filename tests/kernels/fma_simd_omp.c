// shapes: omp parallel for over rows with an inner omp simd loop (the simd loop is the innermost parallel loop), float arithmetic with float constants (x*2.5f + y) and float/double mixing, long sums of products in float and double, x - y*z / y*z - x, a loop-invariant row pointer (const float *ar = A + r*cols) used as ar[c]; omp simd on a loop nested directly in a function; model: OpenMP
// model: omp
// tolerance: rel=1e-5 abs=1e-6
#include <stdio.h>
#include <stdlib.h>

#define ROWS 16
#define COLS 40

static unsigned int seed = 271828u;
static double lcg(void)
{
  seed = seed * 1664525u + 1013904223u;
  return (double)(seed >> 8) * (1.0 / 16777216.0);
}

static void rows_simd(int rows, int cols, const float *A, const float *B, float *C, double *D, float alpha)
{
#pragma omp parallel for
  for (int r = 0; r < rows; r++) {
    const float *ar = A + r * cols;
    const float *br = B + r * cols;
#pragma omp simd
    for (int c = 0; c < cols; c++) {
      float x = ar[c] * 2.5f + br[c];
      float y = ar[c] * br[c] - x * alpha;
      C[r * cols + c] = x * y + ar[c] * alpha + br[c] * br[c] * 0.5f;
      D[r * cols + c] = (double)ar[c] * br[c] - (double)x * y + ar[c] * 0.1;
    }
  }
}

static void simd_only(int n, const double *x, const double *y, const double *z, double *o1, double *o2)
{
#pragma omp simd
  for (int i = 0; i < n; i++) {
    o1[i] = x[i] - y[i] * z[i] + x[i] * y[i] + y[i] * z[i] * x[i];
    o2[i] = y[i] * z[i] - x[i] + (x[i] * x[i] + y[i] * y[i] + z[i] * z[i]) * 0.5;
  }
}

int main(void)
{
  int n = ROWS * COLS, i;
  float *A = malloc(n * sizeof(float)), *B = malloc(n * sizeof(float)), *C = malloc(n * sizeof(float));
  double *D = malloc(n * sizeof(double)), *x = malloc(n * sizeof(double)), *y = malloc(n * sizeof(double));
  double *z = malloc(n * sizeof(double)), *o1 = malloc(n * sizeof(double)), *o2 = malloc(n * sizeof(double));
  if (!A || !B || !C || !D || !x || !y || !z || !o1 || !o2)
    return 1;
  for (i = 0; i < n; i++) {
    A[i] = (float)(lcg() - 0.5);
    B[i] = (float)(lcg() * 2.0);
    x[i] = lcg();
    y[i] = lcg() - 0.5;
    z[i] = lcg() * 3.0;
  }
  rows_simd(ROWS, COLS, A, B, C, D, 0.375f);
  simd_only(n, x, y, z, o1, o2);
  for (i = 0; i < n; i++)
    printf("%d %a %a %a %a\n", i, (double)C[i], D[i], o1[i], o2[i]);
  free(A); free(B); free(C); free(D); free(x); free(y); free(z); free(o1); free(o2);
  return 0;
}
