// shapes: inner control flow inside the innermost acc loop vector body: while loop (Newton iteration with an iteration cap), do/while loop, for loop with break and continue, loop-carried scalars across those inner loops, loads repeated before/inside/after the inner loops; model: OpenACC
// model: acc
#include <stdio.h>
#include <string.h>
#include <math.h>

#define N 96
#define M 9

double a[N], b[N], root[N], steps[N], tab[N][M], firstneg[N], skipsum[N], dw[N];
int iters[N];

static unsigned int seed = 99991u;
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

static void kernel_while(void)
{
  int i;
#pragma acc parallel loop gang vector copyin(a, b) copyout(root, iters)
  for (i = 0; i < N; i++) {
    double x = a[i] + 1.0;
    double target = a[i] * b[i] + a[i];
    int it = 0;
    /* Newton for sqrt(target), capped */
    while (it < 40 && fabs(x * x - target) > 1e-12 * target) {
      x = 0.5 * (x + target / x);
      it++;
    }
    root[i] = x + a[i] * 0.0;
    iters[i] = it;
  }
}

static void kernel_dowhile(void)
{
  int i;
#pragma acc parallel loop copyin(a, b) copyout(steps)
  for (i = 0; i < N; i++) {
    double v = a[i] * 100.0 + b[i];
    double s = 0.0;
    int guard = 0;
    do {
      s = s + v * a[i];
      v = v * 0.5 - b[i];
      guard++;
    } while (v > 1.0 && guard < 64);
    steps[i] = s + (double)guard * a[i];
  }
}

static void kernel_break_continue(void)
{
  int i, m;
#pragma acc parallel loop copyin(tab, a) copyout(firstneg, skipsum) private(m)
  for (i = 0; i < N; i++) {
    double fn = -1.0;
    double acc = 0.0;
    for (m = 0; m < M; m++) {
      if (tab[i][m] - a[i] < 0.0) {
        fn = (double)m + tab[i][m];
        break;
      }
    }
    for (m = 0; m < M; m++) {
      if (tab[i][m] > 0.75)
        continue;
      acc = acc * 0.5 + tab[i][m] * a[i];
      if (acc > 2.0)
        break;
    }
    firstneg[i] = fn;
    skipsum[i] = acc + tab[i][0] * a[i];
  }
}

/* while with a data-dependent exit and loads of neighbours; only even-indexed iterations do work */
static void kernel_nested(void)
{
  int i;
#pragma acc parallel loop copyin(a, b) copyout(dw)
  for (i = 0; i < N; i++) {
    int j = i;
    double w = 0.0;
    if (i % 2 == 1) {
      dw[i] = a[i];
      continue;
    }
    while (j < N && a[j] > 0.1) {
      w = w + a[j] * b[j] - a[i] * b[i];
      j = j + 3;
    }
    dw[i] = w * a[i];
  }
}

int main(void)
{
  int i, m;
  for (i = 0; i < N; i++) {
    a[i] = lcg();
    b[i] = lcg() + 0.25;
    for (m = 0; m < M; m++)
      tab[i][m] = lcg();
  }
  kernel_while();
  kernel_dowhile();
  kernel_break_continue();
  kernel_nested();
  dump("root", root, N);
  for (i = 0; i < N; i++)
    printf("iters %d %d\n", i, iters[i]);
  dump("steps", steps, N);
  dump("firstneg", firstneg, N);
  dump("skipsum", skipsum, N);
  dump("dw", dw, N);
  return 0;
}
