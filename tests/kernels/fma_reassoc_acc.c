// shapes: expressions where FMA contraction and reassociation matter: a*b + c*d + e, x - y*z, y*z - x, -(a*b) + c, a*b - c*d, long sums of products (8-term dot product written out, Horner polynomial, a 3x3 determinant), the same product appearing in several statements, constants folded across statements (2.0*x*0.5), (a+b)+c vs a+(b+c) spelled differently in two statements; acc parallel loop over double arrays; model: OpenACC
// model: acc
#include <stdio.h>
#include <string.h>

#define N 128

double a[N], b[N], c[N], d[N], e[N];
double o1[N], o2[N], o3[N], o4[N], o5[N], o6[N], o7[N], o8[N];
double w[8];

static unsigned int seed = 1729u;
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

static void fma_shapes(void)
{
  int i;
#pragma acc parallel loop copyin(a, b, c, d, e, w) copyout(o1, o2, o3, o4, o5, o6, o7, o8)
  for (i = 0; i < N; i++) {
    double x = a[i] * 1.1 + 0.3;
    double y = b[i] * 0.7 - 0.2;
    double z = c[i] / 3.0;
    o1[i] = a[i] * b[i] + c[i] * d[i] + e[i];
    o2[i] = x - y * z;
    o3[i] = y * z - x;
    o4[i] = -(a[i] * b[i]) + c[i] + a[i] * b[i] * e[i];
    o5[i] = a[i] * b[i] - c[i] * d[i];
    o6[i] = w[0] * a[i] + w[1] * b[i] + w[2] * c[i] + w[3] * d[i] +
            w[4] * e[i] + w[5] * x + w[6] * y + w[7] * z;
    /* Horner and its expanded form */
    o7[i] = ((((w[4] * x + w[3]) * x + w[2]) * x + w[1]) * x + w[0]) -
            (w[0] + w[1] * x + w[2] * x * x + w[3] * x * x * x + w[4] * x * x * x * x) * 0.5;
    /* determinant of [[a b c][d e x][y z 1]] */
    o8[i] = a[i] * (e[i] * 1.0 - x * z) - b[i] * (d[i] * 1.0 - x * y) + c[i] * (d[i] * z - e[i] * y);
    o1[i] = o1[i] + (a[i] + b[i]) + c[i] - (a[i] + (b[i] + c[i])) * 0.25 + 2.0 * x * 0.5;
    o5[i] = o5[i] * (a[i] * b[i]) + (c[i] * d[i]) * o5[i];
  }
}

int main(void)
{
  int i;
  for (i = 0; i < N; i++) {
    a[i] = lcg() * 2.0 - 1.0;
    b[i] = lcg() * 2.0 - 1.0;
    c[i] = lcg() * 2.0 - 1.0;
    d[i] = lcg() * 2.0 - 1.0;
    e[i] = lcg() * 2.0 - 1.0;
  }
  for (i = 0; i < 8; i++)
    w[i] = lcg() / 7.0;
  fma_shapes();
  dump("o1", o1, N);
  dump("o2", o2, N);
  dump("o3", o3, N);
  dump("o4", o4, N);
  dump("o5", o5, N);
  dump("o6", o6, N);
  dump("o7", o7, N);
  dump("o8", o8, N);
  return 0;
}
