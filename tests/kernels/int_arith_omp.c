// shapes: integer-only kernels under omp parallel for: int division and modulo guarded by a test of the divisor (d != 0 ? x / d : 0, if (d > 0) ...), compound assignments %=, <<=, >>=, /=, *=, &=, |=, ^=, ++/-- on array elements and locals, unsigned wrap-around hashes, long accumulators of int products, shifts by loaded amounts, ternary min/max on ints, repeated identical integer subexpressions (x*x + y) computed many times; model: OpenMP
// model: omp
#include <stdio.h>
#include <stdlib.h>

#define N 150

static unsigned int seed = 13579u;
static unsigned int lcg_u(void)
{
  seed = seed * 1664525u + 1013904223u;
  return seed;
}

static void intkernel(int n, const int *x, const int *d, int *q, int *m, unsigned int *h, long *acc, int *cnt, int *bits)
{
#pragma omp parallel for
  for (int i = 0; i < n; i++) {
    int t = x[i];
    q[i] = d[i] != 0 ? x[i] / d[i] : 0;
    if (d[i] > 0)
      m[i] = x[i] % d[i];
    else if (d[i] < 0)
      m[i] = -(x[i] % d[i]);
    else
      m[i] = x[i] & 7;
    m[i] %= 97;
    m[i] *= 3;
    h[i] = (unsigned int)x[i] * 2246822519u;
    h[i] ^= h[i] >> 13;
    h[i] *= 3266489917u;
    h[i] <<= (unsigned int)(t & 7);
    h[i] += (unsigned int)(x[i] * x[i] % 1000 + t);
    acc[i] = (long)x[i] * x[i] + (long)d[i] * x[i] + (long)(x[i] * x[i] % 1000 + t);
    acc[i] /= 3;
    acc[i] -= (long)q[i] * 16;            /* not << : q may be negative */
    cnt[i] = 0;
    cnt[i]++;
    ++cnt[i];
    if (t > 0)
      cnt[i] += t % 5;
    else
      cnt[i]--;
    bits[i] = (t > d[i] ? t : d[i]) - (t < d[i] ? t : d[i]);
    bits[i] |= 1;
    bits[i] &= 0xffff;
    bits[i] ^= (int)(h[i] & 0xffu);
    bits[i] >>= 1;
    t = t / 2 - t % 3;
    bits[i] += t;
  }
}

int main(void)
{
  int *x = malloc(N * sizeof(int)), *d = malloc(N * sizeof(int)), *q = malloc(N * sizeof(int));
  int *m = malloc(N * sizeof(int)), *cnt = malloc(N * sizeof(int)), *bits = malloc(N * sizeof(int));
  unsigned int *h = malloc(N * sizeof(unsigned int));
  long *acc = malloc(N * sizeof(long));
  int i;
  if (!x || !d || !q || !m || !cnt || !bits || !h || !acc)
    return 1;
  for (i = 0; i < N; i++) {
    x[i] = (int)(lcg_u() % 40001u) - 20000;
    d[i] = (int)(lcg_u() % 21u) - 10;     /* zero about one time in 21 */
  }
  intkernel(N, x, d, q, m, h, acc, cnt, bits);
  for (i = 0; i < N; i++)
    printf("%d %d %d %d %u %ld %d %d\n", i, x[i], q[i], m[i], h[i], acc[i], cnt[i], bits[i]);
  free(x); free(d); free(q); free(m); free(cnt); free(bits); free(h); free(acc);
  return 0;
}
