/* sweep: source iterations of a discrete-ordinates sweep (accsat's own test program).
 * The kernels are in sweep.h: this file holds no directive. Prints a checksum. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "sweep.h"

#define ITERATIONS 4

static double next_double(uint64_t *seed)
{
  *seed = 6364136223846793005ULL * *seed + 1442695040888963407ULL;
  return (double)(*seed >> 11) * 0x1.0p-53;
}

int main(void)
{
  Grid grid = {.nx = 24, .ny = 20, .ng = 16, .na = 12, .dx = 0.5, .dy = 0.25};
  const int cells = grid.nx * grid.ny, ng = grid.ng, na = grid.na;
  double *mu = malloc(sizeof(double) * na), *eta = malloc(sizeof(double) * na);
  double *w = malloc(sizeof(double) * na);
  double *q = malloc(sizeof(double) * cells * ng), *sig = malloc(sizeof(double) * cells * ng);
  double *scatter = malloc(sizeof(double) * cells * ng);
  double *ext = malloc(sizeof(double) * cells * ng), *phi = malloc(sizeof(double) * cells * ng);
  double *face_x = malloc(sizeof(double) * na * grid.ny * ng);
  double *face_y = malloc(sizeof(double) * na * grid.nx * ng);
  double *psi = malloc(sizeof(double) * na * cells * ng);
  uint64_t seed = 11;
  for (int a = 0; a < na; a++) {
    mu[a] = 0.1 + 0.8 * next_double(&seed);
    eta[a] = 0.1 + 0.8 * next_double(&seed);
    w[a] = 1.0 / na;
  }
  for (int k = 0; k < cells * ng; k++) {
    sig[k] = 0.5 + next_double(&seed);
    scatter[k] = 0.4 * sig[k] * next_double(&seed);
    ext[k] = next_double(&seed);
    q[k] = ext[k];
  }
  double trace = 0.0;
  for (int it = 0; it < ITERATIONS; it++) {
    for (int k = 0; k < na * grid.ny * ng; k++)
      face_x[k] = 0.0;
    for (int k = 0; k < na * grid.nx * ng; k++)
      face_y[k] = 0.0;
    sweep(&grid, mu, eta, q, sig, face_x, face_y, psi);
    moments(&grid, w, psi, scatter, ext, phi, q);
    trace += phi[(it * 37) % (cells * ng)];
  }
  double sum = 0.0;
  for (int k = 0; k < cells * ng; k++)
    sum += phi[k] * (k % 5 + 1);
  printf("checksum %a trace %a\n", sum, trace);
  free(mu);
  free(eta);
  free(w);
  free(q);
  free(sig);
  free(scatter);
  free(ext);
  free(phi);
  free(face_x);
  free(face_y);
  free(psi);
  return 0;
}
