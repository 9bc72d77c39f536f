// shapes: non-pure calls inside an omp parallel for body: a function that writes a global array element, called between a load of that element and a reuse of it (the reuse must be a reload); a function that writes through a pointer argument into the array being read (&a[i]); a function that reads a global that the body just stored to; a pure helper called twice with the same argument (may be CSE'd only if known pure -- here it is static and side-effect free); model: OpenMP
// model: omp
#include <stdio.h>
#include <string.h>

#define N 120

double g[N], a[N], seen[N], r1[N], r2[N], r3[N];

static unsigned int seed = 3141592u;
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

static void poke_global(int i, double x)   /* writes g[i] */
{
  g[i] = g[i] * x + 1.0;
}

static void scale_in_place(double *p, double f)   /* writes *p */
{
  *p = *p * f - 0.125;
}

static double peek_global(int i)   /* reads a[i] */
{
  return a[i] * 3.0;
}

static double smooth(double x)   /* pure */
{
  return x / (1.0 + x * x);
}

static void kernel(void)
{
#pragma omp parallel for
  for (int i = 0; i < N; i++) {
    double g0 = g[i];
    poke_global(i, a[i]);
    r1[i] = g[i] + g0 * a[i];          /* g[i] must be reloaded */
    double a0 = a[i];
    scale_in_place(&a[i], 0.5);
    r2[i] = a[i] * a0 + a[i];           /* a[i] must be reloaded */
    a[i] = a[i] + g[i];
    seen[i] = peek_global(i);           /* sees the store just above */
    r3[i] = smooth(a[i] + g0) + smooth(a[i] + g0) * seen[i];
  }
}

int main(void)
{
  int i;
  for (i = 0; i < N; i++) {
    g[i] = lcg();
    a[i] = lcg() - 0.25;
  }
  kernel();
  dump("g", g, N);
  dump("a", a, N);
  dump("seen", seen, N);
  dump("r1", r1, N);
  dump("r2", r2, N);
  dump("r3", r3, N);
  return 0;
}
