// shapes: pure libm calls repeated on the same argument inside one acc parallel loop body (sqrt(a[i]*a[i]+b[i]) twice, fabs, exp, pow, fmin, fmax, floor, sqrtf on a float, log) mixed with loads; a non-pure acc routine seq function that writes a global array (declare create + update) called between a load of that global and a reuse of the same element -- the reuse must see the new value; model: OpenACC
// model: acc
// tolerance: rel=1e-5
#include <stdio.h>
#include <string.h>
#include <math.h>

#define N 80

double a[N], b[N], r1[N], r2[N], r3[N], r4[N], r5[N];
float fa[N], fr[N];
double tally[N];
#pragma acc declare create(tally)

static unsigned int seed = 11235813u;
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

/* not pure: updates tally[i] */
#pragma acc routine seq
static double bump(int i, double by)
{
  tally[i] = tally[i] * 0.5 + by;
  return by * 2.0;
}

static void pure_calls(void)
{
  int i;
#pragma acc parallel loop copyin(a, b, fa) copyout(r1, r2, r3, r4, fr)
  for (i = 0; i < N; i++) {
    r1[i] = sqrt(a[i] * a[i] + b[i]) + 1.0 / sqrt(a[i] * a[i] + b[i]) + sqrt(b[i] + a[i] * a[i]);
    r2[i] = fabs(a[i] - b[i]) * exp(-fabs(a[i] - b[i])) + pow(a[i], 1.5) - pow(a[i], 1.5) * b[i];
    r3[i] = fmin(a[i], b[i]) * fmax(a[i], b[i]) + fmax(a[i], b[i]) - fmin(b[i], a[i]);
    r4[i] = floor(a[i] * 10.0) + floor(a[i] * 10.0) * 0.125 + log(1.0 + a[i]) * exp(a[i]) - exp(a[i]);
    fr[i] = sqrtf(fa[i]) * sqrtf(fa[i]) + sqrtf(fa[i] + 1.0f) - fa[i];
  }
}

static void impure_call(void)
{
  int i;
#pragma acc update device(tally)
#pragma acc parallel loop copyin(a) copyout(r5)
  for (i = 0; i < N; i++) {
    double before = tally[i];
    double ret = bump(i, a[i]);
    r5[i] = tally[i] - before + ret * tally[i];   /* tally[i] changed inside bump */
  }
#pragma acc update self(tally)
}

int main(void)
{
  int i;
  for (i = 0; i < N; i++) {
    a[i] = lcg() * 2.0;
    b[i] = lcg();
    fa[i] = (float)(lcg() * 9.0);
    tally[i] = lcg();
  }
  pure_calls();
  impure_call();
  dump("r1", r1, N);
  dump("r2", r2, N);
  dump("r3", r3, N);
  dump("r4", r4, N);
  dump("r5", r5, N);
  dump("tally", tally, N);
  for (i = 0; i < N; i++)
    printf("fr %d %a\n", i, (double)fr[i]);
  return 0;
}
