/* kernels: 3 -- short-circuit chains and conditional loads */
#define N 4096
double a[N], b[N], c[N], d[N];
int p[N], q[N], r[N];

void chain(int n)
{
#pragma acc parallel loop
  for (int i = 0; i < n; i++) {
    if (p[i] != 6 || q[i] != 7 || r[i] != 8)
      d[i] = a[i] * a[i] + a[i] * b[i];
  }
}

void select_loads(int n)
{
#pragma acc parallel loop
  for (int i = 0; i < n; i++)
    d[i] = p[i] > 0 ? a[i] * b[i] + a[i] : b[i] * c[i] + b[i];
}

void guarded(int n)
{
#pragma omp parallel for
  for (int i = 1; i < n; i++) {
    if (p[i] > 0 && a[p[i] % N] > 0.5)
      d[i] = a[i] * a[i] + a[i - 1] * a[i];
  }
}
