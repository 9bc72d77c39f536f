/* limiter: a limited advection-diffusion step on a 2-D grid (accsat's own test program).
 * The arithmetic is in helpers inside `omp declare target` (and `acc routine seq`) that
 * return values, some with early returns; the compute construct (`omp target teams
 * distribute parallel for collapse(2)`) calls them with loads it repeats.  Prints a
 * checksum (hex floats). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#define N 96
#define STEPS 12
#define AT(u, i, j) (u)[(i) * N + (j)]

#pragma omp declare target
#pragma acc routine seq
static double minmod(double a, double b)
{
  if (a * b <= 0.0)
    return 0.0;
  return fabs(a) < fabs(b) ? a : b;
}

#pragma acc routine seq
static double conductivity(double t)
{
  if (t < 0.0)
    return 0.05;
  return 0.05 + 0.02 * t * t / (1.0 + t * t);
}

/* the upwind flux through the face between cells (minus, plus) with a limited slope */
#pragma acc routine seq
static double face_flux(double vel, double um, double u0, double up, double upp)
{
  if (vel >= 0.0)
    return vel * (u0 + 0.5 * minmod(u0 - um, up - u0));
  return vel * (up - 0.5 * minmod(up - u0, upp - up));
}

#pragma acc routine seq
static double laplacian(const double *u, int i, int j, double h2)
{
  return (AT(u, i - 1, j) + AT(u, i + 1, j) + AT(u, i, j - 1) + AT(u, i, j + 1) -
          4.0 * AT(u, i, j)) / h2;
}
#pragma omp end declare target

static void step(const double *restrict u, double *restrict v, double vx, double vy, double dt,
                 double h)
{
  double h2 = h * h;
#pragma omp target teams distribute parallel for collapse(2) map(to: u[0:N * N]) \
    map(tofrom: v[0:N * N])
#pragma acc parallel loop collapse(2) copyin(u[0:N * N]) copy(v[0:N * N])
  for (int i = 2; i < N - 2; i++)
    for (int j = 2; j < N - 2; j++) {
      double fx_out = face_flux(vx, AT(u, i - 1, j), AT(u, i, j), AT(u, i + 1, j), AT(u, i + 2, j));
      double fx_in = face_flux(vx, AT(u, i - 2, j), AT(u, i - 1, j), AT(u, i, j), AT(u, i + 1, j));
      double fy_out = face_flux(vy, AT(u, i, j - 1), AT(u, i, j), AT(u, i, j + 1), AT(u, i, j + 2));
      double fy_in = face_flux(vy, AT(u, i, j - 2), AT(u, i, j - 1), AT(u, i, j), AT(u, i, j + 1));
      double k = conductivity(AT(u, i, j));
      AT(v, i, j) = AT(u, i, j) - dt / h * (fx_out - fx_in + fy_out - fy_in) +
                    dt * k * laplacian(u, i, j, h2);
    }
}

int main(void)
{
  double *u = malloc(sizeof(double) * N * N), *v = malloc(sizeof(double) * N * N);
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++) {
      double x = (i - N / 3) / (double)N, y = (j - N / 2) / (double)N;
      AT(u, i, j) = exp(-40.0 * (x * x + y * y)) + ((i / 8 + j / 8) % 2 ? 0.25 : -0.125);
      AT(v, i, j) = AT(u, i, j);
    }
  for (int s = 0; s < STEPS; s++) {
    step(u, v, 0.8, -0.35, 0.0002, 1.0 / N);
    double *t = u;
    u = v;
    v = t;
  }
  double sum = 0.0, peak = 0.0;
  for (int k = 0; k < N * N; k++) {
    sum += u[k] * (k % 3 + 1);
    if (u[k] > peak)
      peak = u[k];
  }
  printf("checksum %a peak %a\n", sum, peak);
  free(u);
  free(v);
  return 0;
}
