// shapes: an innermost acc parallel loop body containing #pragma acc atomic update statements (integer histogram, and a double accumulated from exactly representable values so any order gives the same bits) next to ordinary repeated loads x[i] that accsat may CSE around; the atomic statements themselves must stay as written; model: OpenACC
// model: acc
#include <stdio.h>
#include <string.h>

#define N 200
#define NBIN 16

double x[N], y[N];
int hist[NBIN];
double binsum[NBIN];

static unsigned int seed = 909u;
static unsigned int lcg_u(void)
{
  seed = seed * 1664525u + 1013904223u;
  return seed;
}

static void histo(void)
{
  int i;
#pragma acc parallel loop copyin(x) copy(hist, binsum, y)
  for (i = 0; i < N; i++) {
    int bin = (int)(x[i] * NBIN);
    double w = x[i] * 4.0 + y[i];       /* multiples of 1/256: exact */
    if (bin > NBIN - 1)
      bin = NBIN - 1;
#pragma acc atomic update
    hist[bin] += 1;
#pragma acc atomic update
    binsum[bin] += w * 0.5;
    y[i] = w * x[i] + x[i];
  }
}

int main(void)
{
  int i;
  for (i = 0; i < N; i++) {
    x[i] = (double)(lcg_u() >> 24) / 256.0;
    y[i] = (double)((lcg_u() >> 24) % 64u) / 256.0;
  }
  histo();
  for (i = 0; i < NBIN; i++)
    printf("bin %d %d %a\n", i, hist[i], binsum[i]);
  for (i = 0; i < N; i++)
    printf("y %d %a\n", i, y[i]);
  return 0;
}
