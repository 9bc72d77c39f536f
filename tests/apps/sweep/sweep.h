/* sweep.h: a discrete-ordinates sweep whose kernels live in this header (accsat's own
 * test program, with sweep.c).  Every angle sweeps the 2-D grid from its lower left
 * corner; each cell solves all energy groups at once (`acc routine vector`), each group
 * by the diamond difference (`acc routine seq`).  The scalar flux sums the angles. */
#ifndef SWEEP_H
#define SWEEP_H

typedef struct {
  int nx, ny; /* cells */
  int ng;     /* energy groups */
  int na;     /* angles */
  double dx, dy;
} Grid;

#pragma acc routine seq
static inline double diamond(double q, double sig, double cx, double cy, double in_x,
                             double in_y)
{
  return (q + cx * in_x + cy * in_y) / (sig + cx + cy);
}

/* one cell, every group: the cell's flux from its incoming faces, which become the
 * outgoing ones */
#pragma acc routine vector
static inline void cell_groups(int ng, double cx, double cy, const double *restrict q,
                               const double *restrict sig, double *restrict in_x,
                               double *restrict in_y, double *restrict psi)
{
#pragma acc loop vector
  for (int g = 0; g < ng; g++) {
    double p = diamond(q[g], sig[g], cx, cy, in_x[g], in_y[g]);
    psi[g] = p;
    in_x[g] = 2.0 * p - in_x[g];
    in_y[g] = 2.0 * p - in_y[g];
    if (in_x[g] < 0.0)
      in_x[g] = 0.0;
    if (in_y[g] < 0.0)
      in_y[g] = 0.0;
  }
}

/* psi[a][cell][g] for every angle; face_x[a][j][g], face_y[a][i][g] the incoming faces */
static inline void sweep(const Grid *grid, const double *mu, const double *eta,
                         const double *q, const double *sig, double *face_x, double *face_y,
                         double *psi)
{
  const int nx = grid->nx, ny = grid->ny, ng = grid->ng, na = grid->na;
  const double dx = grid->dx, dy = grid->dy;
#pragma acc parallel loop gang vector_length(32) copyin(mu[0:na], eta[0:na], \
    q[0:nx * ny * ng], sig[0:nx * ny * ng]) copy(face_x[0:na * ny * ng], \
    face_y[0:na * nx * ng]) copyout(psi[0:na * nx * ny * ng])
  for (int a = 0; a < na; a++) {
    double cx = 2.0 * mu[a] / dx, cy = 2.0 * eta[a] / dy;
    double *fx = face_x + a * ny * ng;
    double *fy = face_y + a * nx * ng;
    for (int j = 0; j < ny; j++)
      for (int i = 0; i < nx; i++)
        cell_groups(ng, cx, cy, q + (j * nx + i) * ng, sig + (j * nx + i) * ng, fx + j * ng,
                    fy + i * ng, psi + ((a * ny + j) * nx + i) * ng);
  }
}

/* the scalar flux, and the next source from it */
static inline void moments(const Grid *grid, const double *w, const double *psi,
                           const double *scatter, const double *ext, double *phi, double *q)
{
  const int cells = grid->nx * grid->ny, ng = grid->ng, na = grid->na;
#pragma acc parallel loop collapse(2) copyin(w[0:na], psi[0:na * cells * ng], \
    scatter[0:cells * ng], ext[0:cells * ng]) copyout(phi[0:cells * ng], q[0:cells * ng])
  for (int c = 0; c < cells; c++)
    for (int g = 0; g < ng; g++) {
      double s = 0.0;
      for (int a = 0; a < na; a++)
        s += w[a] * psi[(a * cells + c) * ng + g];
      phi[c * ng + g] = s;
      q[c * ng + g] = scatter[c * ng + g] * s + ext[c * ng + g] +
                      (g > 0 ? 0.1 * scatter[c * ng + g] * psi[c * ng + g - 1] : 0.0);
    }
}

#endif
