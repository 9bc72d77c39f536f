// shapes: omp parallel for reduction(+:sum,isum) reduction(max:mx) reduction(min:mn) with max/min written as ternaries, omp simd reduction(+:s) inside a parallel for, a per-row sequential reduction loop in the body; compound assignments += -= *= /= on array elements and locals, ++/-- on int counters; summands are dyadic rationals so every summation order (any thread count) gives the same bits; model: OpenMP
// model: omp
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define N 256
#define M 12

static unsigned int seed = 55555u;
static unsigned int lcg_u(void)
{
  seed = seed * 1664525u + 1013904223u;
  return seed;
}
/* multiples of 1/1024 in [-2, 2): sums of products of these are exact */
static double dy(void)
{
  return (double)((int)((lcg_u() >> 8) % 4096u) - 2048) / 1024.0;
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

int main(void)
{
  double *v = malloc(N * sizeof(double)), *w = malloc(N * sizeof(double));
  double *out = malloc(N * sizeof(double)), *rowsum = malloc(N * sizeof(double));
  double *mat = malloc((long)N * M * sizeof(double));
  int *iv = malloc(N * sizeof(int)), *cnt = malloc(N * sizeof(int));
  double sum = 0.0, mx = -1e300, mn = 1e300, s2 = 0.0;
  long isum = 0;
  int i, j;
  if (!v || !w || !out || !rowsum || !mat || !iv || !cnt)
    return 1;
  for (i = 0; i < N; i++) {
    v[i] = dy();
    w[i] = dy();
    out[i] = dy();
    iv[i] = (int)(lcg_u() % 1000u) - 500;
    cnt[i] = (int)(lcg_u() % 10u);
    for (j = 0; j < M; j++)
      mat[(long)i * M + j] = dy();
  }

#pragma omp parallel for reduction(+:sum, isum) reduction(max:mx) reduction(min:mn)
  for (i = 0; i < N; i++) {
    double t = v[i] * w[i] - v[i] + w[i] * w[i];
    sum += t;
    sum -= v[i] * 0.5;
    isum += iv[i] % 7 + (long)iv[i] * iv[i];
    mx = t > mx ? t : mx;
    mn = (v[i] * w[i] < mn) ? v[i] * w[i] : mn;
  }

#pragma omp parallel for private(j)
  for (i = 0; i < N; i++) {
    double s = 0.0;
    for (j = 0; j < M; j++) {
      s += mat[(long)i * M + j] * v[i];
      s -= mat[(long)i * M + j] * w[i];
    }
    rowsum[i] = s;
    out[i] += v[i] * w[i];
    out[i] *= 1.5;
    out[i] -= s * w[i];
    out[i] /= 3.0;
    if (iv[i] > 0)
      cnt[i]++;
    else
      cnt[i]--;
    --cnt[i];
    cnt[i] += iv[i] % 3;
  }

#pragma omp parallel for private(j) reduction(+:s2)
  for (i = 0; i < N / 16; i++) {
    double part = 0.0;
#pragma omp simd reduction(+:part)
    for (j = 0; j < 16; j++)
      part += v[i * 16 + j] * w[i * 16 + j] + v[i * 16 + j];
    s2 += part;
  }

  printf("sum %a\n", sum);
  printf("isum %ld\n", isum);
  printf("mx %a\n", mx);
  printf("mn %a\n", mn);
  printf("s2 %a\n", s2);
  dump("rowsum", rowsum, N);
  dump("out", out, N);
  for (i = 0; i < N; i++)
    printf("cnt %d %d\n", i, cnt[i]);
  free(v); free(w); free(out); free(rowsum); free(mat); free(iv); free(cnt);
  return 0;
}
