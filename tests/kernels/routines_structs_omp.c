// shapes: function units (issue 37) with aggregates: omp declare target helpers taking structs by pointer (one copied to a local) and returning a scalar, with initialised local arrays ({0}, {1, 2}), designated struct initialisers (.w = ...), a struct local copied from an array element and assigned to another, a nested struct copy, a struct local initialised by a list of loaded values, early returns; omp target teams distribute parallel for; model: OpenMP
// model: omp
#include <stdio.h>

#define N 80

typedef struct { double x, y; } vec2;
typedef struct { vec2 c; double w[3]; int tag; } cell;

cell cells[N];
vec2 pts[N];
double coef[N], res[N];

static unsigned int seed = 1618033u;
static double lcg(void)
{
  seed = seed * 1664525u + 1013904223u;
  return (double)(seed >> 8) * (1.0 / 16777216.0) - 0.25;
}

#pragma omp declare target
static double dot(const vec2 *u, const vec2 *v)
{
  vec2 a = *u;
  return a.x * v->x + a.y * v->y + u->x * v->y;
}

static double weights(const double *x, int k)
{
  double w[4] = {0};
  double s[3] = {1.0, 2.0};
  w[1] = x[k];
  w[3] = x[k] * x[k];
  if (w[1] < 0.0)
    return w[0] + w[1] * s[0] + w[3] * s[2];
  return w[1] * s[1] + w[3] + w[2] + x[k];
}

static double cellsum(const cell *cs, int k)
{
  cell here = cs[k];
  cell other;
  other = here;
  vec2 d = {.y = 0.5};
  d.x = other.c.x;
  if (here.tag > 2)
    return here.c.x * here.w[0] + d.x * d.y + cs[k].c.x * cs[k].w[0];
  return other.w[1] + here.w[2] * d.y + cs[k].w[1] + here.c.y;
}

#pragma omp end declare target

void run(int n)
{
#pragma omp target teams distribute parallel for map(tofrom: res[0:N]) map(to: pts[0:N], coef[0:N], cells[0:N])
  for (int i = 0; i < n; i++) {
    vec2 p = pts[i];
    vec2 q = {p.x * coef[i], p.y * coef[i]};
    res[i] = dot(&p, &q) + weights(coef, i) + cellsum(cells, i) + pts[i].x * pts[i].y + p.x * p.y;
  }
}

int main(void)
{
  for (int i = 0; i < N; i++) {
    pts[i].x = lcg();
    pts[i].y = lcg();
    coef[i] = lcg();
    cells[i].c.x = lcg();
    cells[i].c.y = lcg();
    for (int m = 0; m < 3; m++)
      cells[i].w[m] = lcg();
    cells[i].tag = i % 5;
  }
  run(N);
  for (int i = 0; i < N; i++)
    printf("res %d %a\n", i, res[i]);
  return 0;
}
