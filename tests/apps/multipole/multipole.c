/* multipole: cross sections from resonance poles, in the shape of multipole proxy apps
 * (accsat's own test program).  Structs by value and struct locals: the input deck is
 * passed by value, each pole and window is copied into a local (`Pole p = poles[k];`),
 * complex numbers are a struct with multiply/add helpers that return structs, the sums
 * are initialised local arrays (`double v[4] = {0};`) and some values designated
 * initialisers.  Prints a checksum (hex floats). */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#define NUCLIDES 10
#define POLES 96
#define WINDOWS 12
#define MATERIALS 4
#define MAX_NUCS 6
#define LOOKUPS 6000
#define NL 4

typedef struct {
  double r, i;
} Complex;

typedef struct {
  Complex ea;           /* the pole */
  Complex rt, ra, rf;   /* residues: total, absorption, fission */
  int l;                /* angular momentum channel */
} Pole;

typedef struct {
  int start, end; /* poles [start, end) */
  double t, a, f; /* background fit */
} Window;

typedef struct {
  int n_poles;
  int n_windows;
  double spacing;
  double temperature;
} Input;

#pragma acc routine seq
#pragma omp declare target
static inline Complex c_add(Complex a, Complex b)
{
  Complex c = {.r = a.r + b.r, .i = a.i + b.i};
  return c;
}

#pragma acc routine seq
static inline Complex c_mul(Complex a, Complex b)
{
  Complex c = {a.r * b.r - a.i * b.i, a.r * b.i + a.i * b.r};
  return c;
}

#pragma acc routine seq
static inline Complex c_inv(Complex z)
{
  double d = z.r * z.r + z.i * z.i;
  Complex c = {.r = z.r / d, .i = -z.i / d};
  return c;
}

/* a rational approximation of the Faddeeva function's shape (not the real one) */
#pragma acc routine seq
static Complex fast_w(Complex z)
{
  Complex one = {.r = 1.0, .i = 0.0};
  Complex z2 = c_mul(z, z);
  Complex num = c_add(one, c_mul(z2, (Complex){0.25, 0.0}));
  Complex den = c_add(one, c_mul(z2, (Complex){0.5, 0.125}));
  return c_mul(num, c_inv(den));
}

#pragma acc routine seq
static void phases(double e, int n, Complex *out)
{
  for (int l = 0; l < n; l++) {
    double phi = (l + 1) * 0.1 * sqrt(e);
    out[l].r = cos(2.0 * phi);
    out[l].i = -sin(2.0 * phi);
  }
}

#pragma acc routine seq
static void pole_sigmas(double e, int nuc, Input in, const Pole *poles,
                        const Window *windows, double sigma[3])
{
  double v[3] = {0};
  Complex factor[NL];
  double sqrt_e = sqrt(e);
  int w = (int)(sqrt_e / in.spacing);
  if (w >= in.n_windows)
    w = in.n_windows - 1;
  Window win = windows[nuc * in.n_windows + w];
  v[0] = win.t * e + win.a * sqrt_e + win.f;
  v[1] = win.a * e + win.f * sqrt_e;
  phases(e, NL, factor);
  for (int k = win.start; k < win.end; k++) {
    Pole p = poles[nuc * in.n_poles + k];
    Complex z = {sqrt_e - p.ea.r, -p.ea.i};
    Complex psi = in.temperature > 0.0 ? fast_w(z) : c_inv(z);
    Complex t = c_mul(c_mul(psi, p.rt), factor[p.l]);
    v[0] += t.r;
    v[1] += c_mul(psi, p.ra).r;
    v[2] += c_mul(psi, p.rf).r + p.rf.i * psi.i;
  }
  sigma[0] = v[0];
  sigma[1] = v[1];
  sigma[2] = v[2];
}
#pragma omp end declare target

static double next_double(uint64_t *seed)
{
  *seed = 6364136223846793005ULL * *seed + 1442695040888963407ULL;
  return (double)(*seed >> 11) * 0x1.0p-53;
}

int main(void)
{
  Input in = {.n_poles = POLES, .n_windows = WINDOWS, .spacing = 1.0 / WINDOWS,
              .temperature = 0.0};
  Pole *poles = malloc(sizeof(Pole) * NUCLIDES * POLES);
  Window *windows = malloc(sizeof(Window) * NUCLIDES * WINDOWS);
  int nucs[MATERIALS * MAX_NUCS];
  double concs[MATERIALS * MAX_NUCS];
  double *hot = malloc(sizeof(double) * LOOKUPS);
  double *cold = malloc(sizeof(double) * LOOKUPS);
  uint64_t seed = 7;
  for (int n = 0; n < NUCLIDES * POLES; n++) {
    Pole p = {.ea = {next_double(&seed), 0.01 + 0.1 * next_double(&seed)},
              .rt = {next_double(&seed), next_double(&seed)},
              .ra = {next_double(&seed), next_double(&seed)},
              .rf = {next_double(&seed), next_double(&seed)},
              .l = n % NL};
    poles[n] = p;
  }
  for (int n = 0; n < NUCLIDES; n++)
    for (int w = 0; w < WINDOWS; w++) {
      Window *win = &windows[n * WINDOWS + w];
      win->start = w * POLES / WINDOWS;
      win->end = (w + 1) * POLES / WINDOWS + (w + 1 < WINDOWS ? 2 : 0);
      win->t = next_double(&seed);
      win->a = next_double(&seed);
      win->f = next_double(&seed);
    }
  for (int j = 0; j < MATERIALS * MAX_NUCS; j++) {
    nucs[j] = (j * 7) % NUCLIDES;
    concs[j] = 0.5 + next_double(&seed);
  }

  for (int pass = 0; pass < 2; pass++) {
    double *out = pass ? hot : cold;
    in.temperature = pass;
#pragma acc parallel loop copyin(poles[0:NUCLIDES * POLES], windows[0:NUCLIDES * WINDOWS], \
    nucs, concs) copyout(out[0:LOOKUPS])
#pragma omp target teams distribute parallel for map(to: poles[0:NUCLIDES * POLES], \
    windows[0:NUCLIDES * WINDOWS], nucs, concs) map(from: out[0:LOOKUPS])
    for (int i = 0; i < LOOKUPS; i++) {
      double e = (i + 0.5) / LOOKUPS;
      int mat = i % MATERIALS;
      double macro[3] = {0};
      for (int j = 0; j < MAX_NUCS; j++) {
        double micro[3];
        pole_sigmas(e, nucs[mat * MAX_NUCS + j], in, poles, windows, micro);
        double c = concs[mat * MAX_NUCS + j];
        macro[0] += micro[0] * c;
        macro[1] += micro[1] * c;
        macro[2] += micro[2] * c;
      }
      out[i] = macro[0] - 0.5 * macro[1] + 0.25 * macro[2];
    }
  }

  double sum_cold = 0.0, sum_hot = 0.0;
  for (int i = 0; i < LOOKUPS; i++) {
    sum_cold += cold[i];
    sum_hot += hot[i];
  }
  printf("checksum %a %a\n", sum_cold, sum_hot);
  free(poles);
  free(windows);
  free(hot);
  free(cold);
  return 0;
}
