// shapes: constructs accsat must leave unchanged (and that must still compile and run after a rewrite of the other loops in the file): an innermost acc parallel loop whose body uses goto (forward jump to a label, and a label at the end of the body); a second, ordinary loop in the same file that accsat may rewrite; model: OpenACC
// model: acc
#include <stdio.h>
#include <string.h>

#define N 90

double a[N], b[N], o1[N], o2[N];

static unsigned int seed = 8080u;
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

static void with_goto(void)
{
  int i;
#pragma acc parallel loop copyin(a, b) copyout(o1)
  for (i = 0; i < N; i++) {
    double t = a[i] * b[i];
    if (t < 0.1)
      goto small;
    t = t + a[i] * a[i];
    if (t > 1.0)
      goto done;
    t = t * b[i] + a[i] * b[i];
    goto done;
small:
    t = -t - a[i] * b[i];
done:
    o1[i] = t + a[i] * b[i];
  }
}

static void ordinary(void)
{
  int i;
#pragma acc parallel loop copyin(a, b) copyout(o2)
  for (i = 0; i < N; i++)
    o2[i] = a[i] * b[i] + a[i] * b[i] * a[i] - b[i];
}

int main(void)
{
  int i;
  for (i = 0; i < N; i++) {
    a[i] = lcg();
    b[i] = lcg() * 1.5;
  }
  with_goto();
  ordinary();
  dump("o1", o1, N);
  dump("o2", o2, N);
  return 0;
}
