// shapes: loads and stores to the same array in one acc parallel loop body: a[i] = a[i] + 1; b[i] = a[i]*2 (read-after-write), write-after-read (x = a[i]; a[i] = ...; use x), store then reload of a different element of the same array a[2i] / a[2i+1] (stride-2 so iterations stay independent), repeated store to the same element, store to an element computed two ways (a[i+1] vs a[1+i]); model: OpenACC
// model: acc
#include <stdio.h>
#include <string.h>

#define N 64

double a[2 * N + 2], b[N], c[N], d[N], e[2 * N];

static unsigned int seed = 2718281u;
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

static void raw_war(void)
{
  int i;
#pragma acc parallel loop copy(a, b, c, d)
  for (i = 0; i < N; i++) {
    double x;
    a[2 * i] = a[2 * i] + 1.0;                /* RAW: the next line reads the new value */
    b[i] = a[2 * i] * 2.0;
    x = a[2 * i + 1];                         /* WAR: x keeps the old value */
    a[2 * i + 1] = a[i * 2] * 0.5 + x;
    c[i] = x - a[2 * i + 1] + a[1 + 2 * i] * b[i];
    a[2 * i] = a[2 * i] * a[2 * i];           /* store of a load of itself */
    a[2 * i] = a[2 * i] - b[i];               /* second store to the same element */
    d[i] = a[2 * i] + a[2 * i + 1] + x;
  }
}

/* the same element written and read through e[2*i+1] and e[1+i*2] */
static void two_spellings(void)
{
  int i;
#pragma acc parallel loop copy(e) copyin(b)
  for (i = 0; i < N; i++) {
    e[2 * i + 1] = e[2 * i] * b[i];
    e[2 * i] = e[1 + i * 2] + e[i * 2 + 1] * 0.25;
    e[i + i + 1] += b[i];
  }
}

int main(void)
{
  int i;
  for (i = 0; i < 2 * N + 2; i++)
    a[i] = lcg();
  for (i = 0; i < 2 * N; i++)
    e[i] = lcg() - 0.5;
  raw_war();
  two_spellings();
  dump("a", a, 2 * N + 2);
  dump("b", b, N);
  dump("c", c, N);
  dump("d", d, N);
  dump("e", e, 2 * N);
  return 0;
}
