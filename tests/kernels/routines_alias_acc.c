// shapes: function units (issue 37): acc routine seq helpers with pointer parameters that alias each other (called with p = q + 1 and p = q), the same helper with restrict parameters called on disjoint arrays, early returns on both paths of an if, a static callee (no directive) that writes a global array and through its pointer parameter between a load and its reuse, a routine calling another; model: OpenACC
// model: acc
#include <stdio.h>

#define N 96

double a[N + 2], b[2 * N + 2], c[2 * N + 2], out[N];
int hits[N];

static unsigned int seed = 2718281u;
static double lcg(void)
{
  seed = seed * 1664525u + 1013904223u;
  return (double)(seed >> 8) * (1.0 / 16777216.0) - 0.5;
}

#pragma acc routine seq
static double shift(double *p, double *q, int k)
{
  double t = q[k];
  p[k] = t * 2.0 + q[k + 1];
  return t + q[k] * q[k + 1] + q[k];
}

#pragma acc routine seq
static double shift_r(double *restrict p, const double *restrict q, int k)
{
  double t = q[k];
  p[k] = t * 2.0 + q[k + 1];
  return t + q[k] * q[k + 1] + q[k];
}

#pragma acc routine seq
static double branchy(const double *x, int k)
{
  if (x[k] < 0.0)
    return x[k] * x[k] - x[k + 1];
  if (x[k + 1] > 0.25)
    return x[k + 1] * x[k] + x[k] * x[k];
  return x[k] + x[k + 1] * x[k + 1];
}

#pragma acc routine seq
static double twice(const double *x, int k)
{
  return branchy(x, k) + x[k] * x[k] + branchy(x, k + 1) * x[k];
}

static void bump(double *p, int k)
{
  p[k] = p[k] * 0.5 + 1.0;
  hits[k]++;
}

void alias_same(int n)
{
#pragma acc parallel loop
  for (int i = 0; i < n; i++)
    out[i] = shift(b, b, 2 * i);  /* p == q: the store is seen by the next load */
}

void alias_next(int n)
{
#pragma acc parallel loop
  for (int i = 0; i < n; i++)
    out[i] += shift(c + 1, c, 2 * i);  /* p[k] is q[k + 1] */
}

void apart(int n)
{
#pragma acc parallel loop
  for (int i = 0; i < n; i++)
    out[i] += shift_r(b, a, i) + twice(a, i);
}

void callee(int n)
{
#pragma acc parallel loop
  for (int i = 0; i < n; i++) {
    double t = a[i] * a[i] + c[i];
    bump(c, i);
    out[i] += t + a[i] * a[i] + c[i];
  }
}

int main(void)
{
  for (int i = 0; i < 2 * N + 2; i++) {
    if (i < N + 2)
      a[i] = lcg();
    b[i] = lcg();
    c[i] = lcg();
  }
  for (int i = 0; i < N; i++)
    out[i] = 0.0;
  alias_same(N);
  alias_next(N);
  apart(N);
  callee(N);
  for (int i = 0; i < N; i++)
    printf("out %d %a %d\n", i, out[i], hits[i]);
  for (int i = 0; i < 2 * N + 2; i++)
    printf("bc %d %a %a\n", i, b[i], c[i]);
  return 0;
}
