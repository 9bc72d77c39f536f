/* kernels: 2 -- conditional compilation in a body, the address of a local */
#define N 4096
double a[N], b[N];
double next_random(unsigned *seed);

void portable(int n)
{
#pragma acc parallel loop
  for (int i = 0; i < n; i++) {
    double t = a[i] * a[i] + a[i];
#ifdef USE_FMA
    b[i] = a[i] * a[i] + a[i] * b[i];
#else
    b[i] = a[i] * b[i] + a[i] * a[i];
#endif
    b[i] = b[i] * t + t * t;
  }
}

void monte_carlo(int n)
{
#pragma omp parallel for
  for (int i = 0; i < n; i++) {
    unsigned seed = i * 2654435761u;
    double x = next_random(&seed);
    b[i] = x * a[i] + a[i] * a[i];
  }
}
