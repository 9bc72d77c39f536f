// shapes: arrays read and written through pointer arithmetic on the array itself: *(k + c), *(c + k), *(e[i] + 1) on a row of a 2-D array, *(s.a + k) on a struct member array, a store *(d + k) = ..., and the same elements spelled c[k] (an array's value is the address of its first element, never &c); pointers to const set to an array or a row, which must never spell a store or a plain read of it; model: OpenACC
// model: acc
#include <stdio.h>
#include <string.h>

#define N 64
#define R 8

double c[N], d[N], e[R][R];
struct box { double a[R]; } s;

static unsigned int seed = 1618033u;
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

static void decayed(void)
{
  int k;
#pragma acc parallel loop copyin(c, e, s) copyout(d)
  for (k = 0; k < N; k++) {
    *(d + k) = *(k + c) * 2.0 + *(c + k) * 3.0 + c[k]
             + *(e[k % R] + 1) * *(e[k % R] + 1) + e[k % R][1]
             + *(s.a + k % R) * s.a[k % R];
  }
}

static void through_const(void)
{
  int k;
#pragma acc parallel loop copy(c, e) copyout(d)
  for (k = 0; k < N; k++) {
    const double *p = c;
    const double *r = e[k % R];
    c[k] = p[k] + 1.0;
    d[k] = c[k] * 3.0 + p[k];
    *(e[k % R] + k / R) = r[k / R] * 0.5;
    d[k] = d[k] + r[k / R];
  }
}

int main(void)
{
  int i, j;
  for (i = 0; i < N; i++)
    c[i] = lcg();
  for (i = 0; i < R; i++) {
    s.a[i] = lcg() - 0.5;
    for (j = 0; j < R; j++)
      e[i][j] = lcg();
  }
  decayed();
  dump("d", d, N);
  through_const();
  dump("c", c, N);
  dump("d", d, N);
  dump("e", e, R * R);
  return 0;
}
