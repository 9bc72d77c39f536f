// shapes: struct members in OpenMP loops: s->a[i] / s->b[i] through a struct pointer, p.x / p.y of a struct passed by value, arrays of structs pts[i].x, pts[i].v[m], nested member access s->cfg.scale, *(p+i) pointer syntax and *(p+i+1); omp parallel for and omp simd; model: OpenMP
// model: omp
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>

#define N 128

struct config { double scale; double shift; int stride; };
struct fields { double *a; double *b; double *out; int n; struct config cfg; };
struct vec2 { double x, y; };
struct particle { double x, y, vx, vy; double v[3]; float mass; };

static unsigned int seed = 5150u;
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

static void struct_ptr_kernel(struct fields *s)
{
#pragma omp parallel for
  for (int i = 0; i < s->n; i++) {
    s->out[i] = s->a[i] * s->cfg.scale + s->b[i] * s->a[i] + s->cfg.shift;
    s->b[i] = s->b[i] * s->cfg.scale - s->a[i];
    s->out[i] = s->out[i] + s->b[i] * s->cfg.shift;
  }
}

static void by_value_kernel(int n, struct vec2 p, const double *q, double *r)
{
#pragma omp parallel for
  for (int i = 0; i < n; i++) {
    r[i] = p.x * q[i] * q[i] + p.y * q[i] + p.x * p.y;
  }
}

static void particles_kernel(int n, struct particle *pts, double dt, double *energy)
{
#pragma omp parallel for
  for (int i = 0; i < n; i++) {
    pts[i].x = pts[i].x + dt * pts[i].vx;
    pts[i].y = pts[i].y + dt * pts[i].vy;
    pts[i].vx = pts[i].vx - dt * pts[i].x * pts[i].v[0];
    pts[i].vy = pts[i].vy - dt * pts[i].y * pts[i].v[1];
    pts[i].v[2] = pts[i].v[0] * pts[i].v[1] + pts[i].v[2];
    energy[i] = 0.5 * (double)pts[i].mass * (pts[i].vx * pts[i].vx + pts[i].vy * pts[i].vy) + pts[i].v[2];
  }
}

static void ptr_arith_kernel(int n, const double *p, double *q)
{
#pragma omp parallel for simd
  for (int i = 0; i < n - 1; i++) {
    *(q + i) = *(p + i) * *(p + i) + *(p + i + 1) * p[i] - *(p + (i + 1)) * 0.5;
  }
}

int main(void)
{
  struct fields f;
  struct vec2 v2;
  struct particle *pts;
  double *r, *energy, *pq, *qq;
  int i;
  f.n = N;
  f.a = malloc(N * sizeof(double));
  f.b = malloc(N * sizeof(double));
  f.out = malloc(N * sizeof(double));
  f.cfg.scale = 1.5; f.cfg.shift = -0.25; f.cfg.stride = 1;
  r = malloc(N * sizeof(double));
  energy = malloc(N * sizeof(double));
  pq = malloc(N * sizeof(double));
  qq = calloc(N, sizeof(double));
  pts = malloc(N * sizeof *pts);
  if (!f.a || !f.b || !f.out || !r || !energy || !pq || !qq || !pts)
    return 1;
  for (i = 0; i < N; i++) {
    f.a[i] = lcg();
    f.b[i] = lcg() - 0.5;
    pq[i] = lcg() * 3.0;
    pts[i].x = lcg(); pts[i].y = lcg(); pts[i].vx = lcg() - 0.5; pts[i].vy = lcg() - 0.5;
    pts[i].v[0] = lcg(); pts[i].v[1] = lcg(); pts[i].v[2] = lcg();
    pts[i].mass = (float)(1.0 + lcg());
  }
  v2.x = 0.75; v2.y = -1.125;
  struct_ptr_kernel(&f);
  by_value_kernel(N, v2, f.a, r);
  particles_kernel(N, pts, 0.01, energy);
  ptr_arith_kernel(N, pq, qq);
  dump("out", f.out, N);
  dump("b", f.b, N);
  dump("r", r, N);
  dump("energy", energy, N);
  dump("qq", qq, N);
  for (i = 0; i < N; i++)
    printf("pt %d %a %a %a %a %a %a %a\n", i, pts[i].x, pts[i].y, pts[i].vx, pts[i].vy, pts[i].v[0], pts[i].v[1], pts[i].v[2]);
  free(f.a); free(f.b); free(f.out); free(r); free(energy); free(pq); free(qq); free(pts);
  return 0;
}
