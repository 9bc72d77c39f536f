// shapes: plain CSE opportunities under acc parallel loop: the same element spelled differently (a[i+1] / a[1+i], m[j][2*i] / m[j][i*2], b[i-1+1] / b[i]), commuted operands (x*y vs y*x, a+b vs b+a), repeated subexpressions across statements, a load used in a subscript (a[idx[i]] twice), a const global table indexed by a loop-invariant scalar, an expression statement with a comma operator, a repeated cast ((double)n[i]), unary minus forms (-x*y vs -(x*y)); acc parallel loop with an inner acc loop vector over a 2-D array; model: OpenACC
// model: acc
#include <stdio.h>
#include <string.h>

#define N 70
#define M 8

double a[N + 1], b[N], o1[N], o2[N], o3[N], o4[N];
double mtx[M][2 * N], mo[M][N];
int idx[N], nn[N];
const double table[4] = {0.5, 0.25, 0.125, 0.0625};

static unsigned int seed = 2468u;
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

static void shapes(int sel)
{
  int i;
  double t1, t2;
#pragma acc parallel loop copyin(a, b, idx, nn, table) copyout(o1, o2, o3, o4) private(t1, t2)
  for (i = 0; i < N; i++) {
    o1[i] = a[i + 1] * b[i] + b[i] * a[1 + i] + a[i + 1 - 1 + 1];
    o2[i] = (a[i] + b[i]) * (b[i] + a[i]) - a[i] * b[i] + b[i] * a[i];
    t1 = a[idx[i]] * table[sel];
    t2 = a[idx[i]] + table[sel] * b[i - 1 + 1];
    o3[i] = (t1 = t1 * t2, t2 - t1) + (double)nn[i] * (double)nn[i] - (double)nn[i];
    o4[i] = -a[i] * b[i] + -(a[i] * b[i]) * 0.5 + (-a[i]) * (-b[i]);
  }
}

static void shapes2d(void)
{
  int j, i;
#pragma acc parallel loop gang copyin(mtx) copyout(mo) private(i)
  for (j = 0; j < M; j++) {
#pragma acc loop vector
    for (i = 0; i < N; i++) {
      mo[j][i] = mtx[j][2 * i] * mtx[j][i * 2] + mtx[j][2 * i + 1] - mtx[j][1 + i * 2] * mtx[j][2 * i];
    }
  }
}

int main(void)
{
  int i, j;
  for (i = 0; i < N + 1; i++)
    a[i] = lcg() - 0.5;
  for (i = 0; i < N; i++) {
    b[i] = lcg() * 2.0;
    idx[i] = (int)(lcg_u() % (unsigned int)N);
    nn[i] = (int)(lcg_u() % 50000u) - 25000;
  }
  for (j = 0; j < M; j++)
    for (i = 0; i < 2 * N; i++)
      mtx[j][i] = lcg();
  shapes(2);
  shapes2d();
  dump("o1", o1, N);
  dump("o2", o2, N);
  dump("o3", o3, N);
  dump("o4", o4, N);
  dump("mo", mo, (long)(sizeof mo / sizeof(double)));
  return 0;
}
