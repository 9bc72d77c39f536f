/* kernels: 2 -- data and standalone directives make no kernel; loop seq is not one */
#define N 4096
double a[N], b[N], c[N];

void data_regions(int n)
{
#pragma omp target data map(to: a[0:n]) map(from: b[0:n])
  for (int i = 0; i < n; i++)
    c[i] = a[i] * a[i] + a[i] * b[i];  /* host code: never touched */
#pragma acc update self(a[0:n])
  for (int i = 0; i < n; i++)
    c[i] = a[i] * b[i] + a[i] * a[i];  /* host code */
#pragma acc parallel loop
  for (int i = 0; i < n; i++)
    b[i] = a[i] * a[i] + a[i] * c[i];
}

void sequential_inner(int n)
{
#pragma acc parallel loop
  for (int i = 0; i < n; i++) {
#pragma acc loop seq
    for (int j = 0; j < 4; j++)
      c[i] = c[i] + a[i] * a[i] + a[i] * b[j];
  }
}
