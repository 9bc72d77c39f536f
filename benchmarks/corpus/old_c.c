/* kernels: 2 -- K&R definitions and GNU C elsewhere in the file */
#define N 4096
#define MAX(u, v) ({ __typeof__(u) _u = (u); __typeof__(v) _v = (v); _u > _v ? _u : _v; })
double a[N], b[N];

double scale(x, n)
double *x;
int n;
{
  return x[n - 1] * 2.0;
}

int biggest(const int *v, int n)
{
  int m = v[0];
  for (int i = 1; i < n; i++)
    m = MAX(m, v[i]);
  return m;
}

static inline void fence(void) { __asm__ __volatile__("" ::: "memory"); }

void kr_kernel(x, y, n)
double *x, *y;
int n;
{
  int i;
#pragma acc parallel loop
  for (i = 0; i < n; i++)
    y[i] = x[i] * x[i] + x[i] * y[i];
}

void kernel(int n)
{
#pragma omp parallel for
  for (int i = 0; i < n; i++)
    b[i] = a[i] * a[i] + a[i] * b[i];
}
