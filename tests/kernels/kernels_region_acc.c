// shapes: acc kernels region with NO loop directives containing two loop nests (2-D and 3-D; the innermost loop of each nest is the one rewritten) plus a plain statement between them; innermost loops whose body is a single unbraced statement (in the kernels region and under acc parallel loop); acc loop seq inner loop under acc parallel loop gang vector; acc kernels loop directive form; model: OpenACC
// model: acc
#include <stdio.h>
#include <string.h>

#define NX 14
#define NY 11
#define NZ 5

double p[NY][NX], q[NY][NX], s3[NZ][NY][NX], t3[NZ][NY][NX], col[NX], lin[NX * NY];
double scal;

static unsigned int seed = 600613u;
static double lcg(void)
{
  seed = seed * 1664525u + 1013904223u;
  return (double)(seed >> 8) * (1.0 / 16777216.0);
}

static void dump(const char *name, const void *pp, long n)
{
  const unsigned char *bb = (const unsigned char *)pp;
  double v;
  long z;
  for (z = 0; z < n; z++) {
    memcpy(&v, bb + z * (long)sizeof v, sizeof v);
    printf("%s %ld %a\n", name, z, v);
  }
}

static void region(void)
{
  int i, j, k;
#pragma acc kernels copyin(p, s3) copyout(q, t3) copy(scal)
  {
    for (j = 0; j < NY; j++)
      for (i = 0; i < NX; i++)
        q[j][i] = p[j][i] * p[j][i] + p[j][NX - 1 - i] * 0.5 - p[j][i] * scal;
    scal = scal * 2.0;
    for (k = 0; k < NZ; k++) {
      for (j = 0; j < NY; j++) {
        for (i = 0; i < NX; i++) {
          t3[k][j][i] = s3[k][j][i] * scal + s3[k][j][i] * s3[k][j][i];
          t3[k][j][i] = t3[k][j][i] - s3[NZ - 1 - k][j][i] * s3[k][j][i];
        }
      }
    }
  }
}

static void seq_inner(void)
{
  int i, j;
#pragma acc parallel loop gang vector copyin(p) copyout(col) private(j)
  for (i = 0; i < NX; i++) {
    double acc = 0.0;
#pragma acc loop seq
    for (j = 0; j < NY; j++)
      acc = acc * 0.75 + p[j][i] * p[j][i];
    col[i] = acc + p[0][i];
  }
}

static void kernels_loop(void)
{
  int i;
#pragma acc kernels loop independent copyin(p) copyout(lin)
  for (i = 0; i < NX * NY; i++)
    lin[i] = p[i / NX][i % NX] * 3.0 - p[i / NX][i % NX] * p[i / NX][i % NX];
}

int main(void)
{
  int i, j, k;
  for (j = 0; j < NY; j++)
    for (i = 0; i < NX; i++)
      p[j][i] = lcg() - 0.5;
  for (k = 0; k < NZ; k++)
    for (j = 0; j < NY; j++)
      for (i = 0; i < NX; i++)
        s3[k][j][i] = lcg();
  scal = 0.3;
  region();
  seq_inner();
  kernels_loop();
  printf("scal %a\n", scal);
  dump("q", q, (long)(sizeof q / sizeof(double)));
  dump("t3", t3, (long)(sizeof t3 / sizeof(double)));
  dump("col", col, NX);
  dump("lin", lin, NX * NY);
  return 0;
}
