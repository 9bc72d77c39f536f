/* kernels: 1 -- CRLF line ends */
#define N 4096
double a[N], b[N];
void k(int n)
{
#pragma acc parallel loop
  for (int i = 0; i < n; i++)
    b[i] = a[i] * a[i] + a[i] * b[i];
}
