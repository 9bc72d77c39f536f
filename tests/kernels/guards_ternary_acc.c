// shapes: short-circuit guards on loads (if (i < n && a[i] > 0), if (j >= n || b[j] < 0.5) where the load would be out of bounds if evaluated eagerly), ternaries selecting between loads (c = a[i] > b[i] ? a[i] : b[i]) and guarding a division (d != 0.0 ? x / d : 0.0), integer division guarded by a test of the divisor (if (k[i] != 0) r = m[i] / k[i]), nested ternaries, loads under the taken branch only (idx[i] >= 0 ? a[idx[i]] : 0.0); acc parallel loop and acc loop inside acc parallel; model: OpenACC
// model: acc
#include <stdio.h>
#include <string.h>
#include <math.h>

#define N 100
#define NB 90   /* b has fewer elements than the loop trip count */

double a[N], b[NB], c[N], sel[N], dv[N], gd[N];
int k[N], mm[N], idx[N], r[N], g[N];

static unsigned int seed = 97531u;
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

static void guarded(int n, int nb)
{
  int i;
#pragma acc parallel loop copyin(a, b, k, mm, idx) copyout(c, sel, dv, r, g, gd)
  for (i = 0; i < n; i++) {
    double den = a[i] - 0.5;
    int j = i + 3;
    /* b[j] exists only when j < nb: the && must guard the load */
    if (j < nb && b[j] > 0.5)
      c[i] = b[j] * a[i] + b[j];
    else if (j >= nb || b[j] < 0.25)
      c[i] = -a[i];
    else
      c[i] = a[i] * a[i];
    sel[i] = a[i] > 0.5 ? (a[i] > 0.75 ? a[i] * 2.0 : a[i]) : (i < nb ? b[i] : a[i] * 0.5);
    dv[i] = den != 0.0 ? a[i] / den : 0.0;
    if (k[i] != 0)
      r[i] = mm[i] / k[i] + mm[i] % k[i];
    else
      r[i] = mm[i];
    g[i] = (k[i] > 0 && mm[i] / k[i] > 10) || (k[i] < 0 && mm[i] % k[i] == 0);
    gd[i] = idx[i] >= 0 ? a[idx[i]] * a[i] : 0.0;
  }
}

/* acc parallel region with an acc loop inside; guards on neighbour loads */
static void guarded_region(int n)
{
  int i;
#pragma acc parallel copyin(a, k) copy(sel)
  {
#pragma acc loop
    for (i = 0; i < n; i++) {
      if (i + 1 < n && a[i + 1] > a[i])
        sel[i] = sel[i] + (a[i + 1] - a[i]) / (k[i] != 0 ? (double)k[i] : 1.0);
      else
        sel[i] = sel[i] - (i > 0 ? a[i - 1] : 0.0);
    }
  }
}

int main(void)
{
  int i;
  for (i = 0; i < N; i++) {
    a[i] = lcg();
    k[i] = (int)(lcg_u() % 9u) - 4;
    mm[i] = (int)(lcg_u() % 1001u) - 200;
    idx[i] = (i % 4 == 0) ? -1 : (int)(lcg_u() % (unsigned int)N);
  }
  a[7] = 0.5;   /* exercise den == 0 */
  for (i = 0; i < NB; i++)
    b[i] = lcg();
  guarded(N, NB);
  guarded_region(N);
  dump("c", c, N);
  dump("sel", sel, N);
  dump("dv", dv, N);
  dump("gd", gd, N);
  for (i = 0; i < N; i++)
    printf("rg %d %d %d\n", i, r[i], g[i]);
  return 0;
}
