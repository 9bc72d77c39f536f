/* xslookup: cross-section lookups in the shape of Monte Carlo transport proxies (accsat's
 * own test program).  Each lookup draws an energy and a material, finds the energy in every
 * nuclide's grid of the material by binary search and interpolates five cross sections
 * there, once from an array of structs and once from a struct of arrays; the macroscopic
 * cross sections are weighted by the nuclides' concentrations.  The hot arithmetic is in
 * the `acc routine seq` functions the loop calls.  Prints a checksum (hex floats). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#define NUCLIDES 14
#define POINTS 240
#define MATERIALS 5
#define MAX_NUCS 8
#define LOOKUPS 12000
#define NXS 5
#define SEED 0x2545F4914F6CDD1DULL

typedef struct {
  double energy;
  double xs[NXS]; /* total, elastic, absorption, fission, nu-fission */
} GridPoint;

typedef struct {
  double *energy; /* [NUCLIDES * POINTS] */
  double *xs;     /* [NUCLIDES * POINTS * NXS] */
} GridSoA;

typedef struct {
  int num_nucs[MATERIALS];
  int nucs[MATERIALS * MAX_NUCS];
  double concs[MATERIALS * MAX_NUCS];
} Materials;

#pragma acc routine seq
#pragma omp declare target
static uint64_t lcg_skip(uint64_t seed, uint64_t n)
{
  const uint64_t a = 6364136223846793005ULL, c = 1442695040888963407ULL;
  uint64_t a_new = 1, c_new = 0, a_pow = a, c_pow = c;
  while (n > 0) {
    if (n & 1) {
      a_new *= a_pow;
      c_new = c_new * a_pow + c_pow;
    }
    c_pow = (a_pow + 1) * c_pow;
    a_pow *= a_pow;
    n >>= 1;
  }
  return a_new * seed + c_new;
}

#pragma acc routine seq
static double next_double(uint64_t *seed)
{
  *seed = 6364136223846793005ULL * *seed + 1442695040888963407ULL;
  return (double)(*seed >> 11) * 0x1.0p-53;
}

#pragma acc routine seq
static int pick_material(uint64_t *seed)
{
  double r = next_double(seed);
  if (r < 0.40) return 0;
  if (r < 0.62) return 1;
  if (r < 0.80) return 2;
  if (r < 0.93) return 3;
  return 4;
}

#pragma acc routine seq
static int search_aos(int n, double e, const GridPoint *grid)
{
  int lo = 0, hi = n - 1;
  while (hi - lo > 1) {
    int mid = lo + (hi - lo) / 2;
    if (grid[mid].energy > e)
      hi = mid;
    else
      lo = mid;
  }
  return lo;
}

#pragma acc routine seq
static int search_soa(int n, double e, const double *restrict egrid)
{
  int lo = 0, hi = n - 1;
  while (hi - lo > 1) {
    int mid = lo + (hi - lo) / 2;
    if (egrid[mid] > e)
      hi = mid;
    else
      lo = mid;
  }
  return lo;
}

/* the five cross sections at e, between the grid points lo and lo + 1 */
#pragma acc routine seq
static void interpolate_aos(const GridPoint *lo, double e, double *micro)
{
  const GridPoint *hi = lo + 1;
  double f = (hi->energy - e) / (hi->energy - lo->energy);
  micro[0] = hi->xs[0] - f * (hi->xs[0] - lo->xs[0]);
  micro[1] = hi->xs[1] - f * (hi->xs[1] - lo->xs[1]);
  micro[2] = hi->xs[2] - f * (hi->xs[2] - lo->xs[2]);
  micro[3] = hi->xs[3] - f * (hi->xs[3] - lo->xs[3]);
  micro[4] = hi->xs[4] - f * (hi->xs[4] - lo->xs[4]);
}

#pragma acc routine seq
static void interpolate_soa(const double *restrict egrid, const double *restrict xs, int idx,
                            double e, double *restrict micro)
{
  double f = (egrid[idx + 1] - e) / (egrid[idx + 1] - egrid[idx]);
  for (int k = 0; k < NXS; k++)
    micro[k] = xs[(idx + 1) * NXS + k] - f * (xs[(idx + 1) * NXS + k] - xs[idx * NXS + k]);
}

#pragma acc routine seq
static void macro_aos(double e, int mat, const Materials *m, const GridPoint *grid,
                      double *macro)
{
  for (int k = 0; k < NXS; k++)
    macro[k] = 0.0;
  for (int j = 0; j < m->num_nucs[mat]; j++) {
    double micro[NXS];
    const GridPoint *g = grid + m->nucs[mat * MAX_NUCS + j] * POINTS;
    int idx = search_aos(POINTS, e, g);
    interpolate_aos(g + idx, e, micro);
    for (int k = 0; k < NXS; k++)
      macro[k] += micro[k] * m->concs[mat * MAX_NUCS + j];
  }
}

#pragma acc routine seq
static void macro_soa(double e, int mat, const Materials *m, const double *egrid,
                      const double *xs, double *macro)
{
  for (int k = 0; k < NXS; k++)
    macro[k] = 0.0;
  for (int j = 0; j < m->num_nucs[mat]; j++) {
    double micro[NXS];
    int nuc = m->nucs[mat * MAX_NUCS + j];
    int idx = search_soa(POINTS, e, egrid + nuc * POINTS);
    interpolate_soa(egrid + nuc * POINTS, xs + nuc * POINTS * NXS, idx, e, micro);
    double conc = m->concs[mat * MAX_NUCS + j];
    macro[0] += micro[0] * conc;
    macro[1] += micro[1] * conc;
    macro[2] += micro[2] * conc;
    macro[3] += micro[3] * conc;
    macro[4] += micro[4] * conc;
  }
}
#pragma omp end declare target

static void build(GridPoint *aos, GridSoA soa, Materials *m)
{
  uint64_t seed = 42;
  for (int n = 0; n < NUCLIDES; n++) {
    double e = 0.0;
    for (int p = 0; p < POINTS; p++) {
      e += 0.5 + next_double(&seed);
      GridPoint *g = &aos[n * POINTS + p];
      g->energy = e;
      soa.energy[n * POINTS + p] = e;
      for (int k = 0; k < NXS; k++) {
        g->xs[k] = next_double(&seed) * (k + 1);
        soa.xs[(n * POINTS + p) * NXS + k] = g->xs[k];
      }
    }
    for (int p = 0; p < POINTS; p++) { /* energies in [0, 1] */
      aos[n * POINTS + p].energy /= e;
      soa.energy[n * POINTS + p] /= e;
    }
  }
  for (int i = 0; i < MATERIALS; i++) {
    m->num_nucs[i] = 3 + i;
    for (int j = 0; j < MAX_NUCS; j++) {
      m->nucs[i * MAX_NUCS + j] = (i * 5 + j * 3) % NUCLIDES;
      m->concs[i * MAX_NUCS + j] = 0.1 + next_double(&seed);
    }
  }
}

int main(void)
{
  GridPoint *aos = malloc(sizeof(GridPoint) * NUCLIDES * POINTS);
  GridSoA soa = {.energy = malloc(sizeof(double) * NUCLIDES * POINTS),
                 .xs = malloc(sizeof(double) * NUCLIDES * POINTS * NXS)};
  double *egrid = soa.energy, *xs = soa.xs;
  Materials mats;
  double *result = malloc(sizeof(double) * LOOKUPS);
  int *largest = malloc(sizeof(int) * LOOKUPS);
  build(aos, soa, &mats);
  Materials *m = &mats;

#pragma acc parallel loop copyin(aos[0:NUCLIDES * POINTS], egrid[0:NUCLIDES * POINTS], \
    xs[0:NUCLIDES * POINTS * NXS], m[0:1]) copyout(result[0:LOOKUPS], largest[0:LOOKUPS])
#pragma omp target teams distribute parallel for map(to: aos[0:NUCLIDES * POINTS], \
    egrid[0:NUCLIDES * POINTS], xs[0:NUCLIDES * POINTS * NXS], m[0:1]) \
    map(from: result[0:LOOKUPS], largest[0:LOOKUPS])
  for (int i = 0; i < LOOKUPS; i++) {
    uint64_t seed = lcg_skip(SEED, 2 * (uint64_t)i);
    double e = next_double(&seed);
    int mat = pick_material(&seed);
    double a[NXS] = {0};
    double s[NXS];
    macro_aos(e, mat, m, aos, a);
    macro_soa(e, mat, m, egrid, xs, s);
    int best = 0;
    for (int k = 1; k < NXS; k++)
      if (a[k] > a[best])
        best = k;
    largest[i] = best;
    result[i] = a[0] + 2.0 * a[1] + 3.0 * a[2] + 4.0 * a[3] + 5.0 * a[4] + (s[0] - a[0]) +
                (s[4] - a[4]);
  }

  double sum = 0.0;
  long votes = 0;
  for (int i = 0; i < LOOKUPS; i++) {
    sum += result[i];
    votes += largest[i] * (i % 7 + 1);
  }
  printf("checksum %a votes %ld\n", sum, votes);
  free(aos);
  free(soa.energy);
  free(soa.xs);
  free(result);
  free(largest);
  return 0;
}
