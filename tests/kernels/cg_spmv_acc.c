// shapes: CG-style sparse matrix-vector product in CSR form: acc parallel loop gang over rows + acc loop vector reduction(+:sum) over the row, sum += a[k]*p[colidx[k]] (indirect indexing); rowstr[j]/rowstr[j+1] bounds loaded in the outer body; dot products with acc parallel loop reduction(+:rho); axpy-style updates z[j] = z[j] + alpha*p[j] and r[j] = r[j] - alpha*q[j]; a scatter-free gather x[perm[i]]; model: OpenACC
// model: acc
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NROW 80
#define PER_ROW 7

static unsigned int seed = 1234567u;
static unsigned int lcg_u(void)
{
  seed = seed * 1664525u + 1013904223u;
  return seed >> 8;
}
static double lcg(void)
{
  return (double)lcg_u() * (1.0 / 16777216.0);
}

static void dump(const char *name, const void *p, long n)
{
  const unsigned char *b = (const unsigned char *)p;
  double v;
  long q;
  for (q = 0; q < n; q++) {
    memcpy(&v, b + q * (long)sizeof v, sizeof v);
    printf("%s %ld %a\n", name, q, v);
  }
}

static void spmv(int n, const int *rowstr, const int *colidx, const double *a, const double *p, double *q)
{
  int j, k;
  int nnz = rowstr[n];
#pragma acc parallel loop gang copyin(rowstr[0:n+1], colidx[0:nnz], a[0:nnz], p[0:n]) copyout(q[0:n]) private(k)
  for (j = 0; j < n; j++) {
    double sum = 0.0;
    int lo = rowstr[j], hi = rowstr[j + 1];
#pragma acc loop vector reduction(+:sum)
    for (k = lo; k < hi; k++) {
      sum = sum + a[k] * p[colidx[k]];
    }
    q[j] = sum;
  }
}

static double dot(int n, const double *x, const double *y)
{
  double rho = 0.0;
  int j;
#pragma acc parallel loop reduction(+:rho) copyin(x[0:n], y[0:n])
  for (j = 0; j < n; j++)
    rho = rho + x[j] * y[j];
  return rho;
}

static void update(int n, double alpha, const double *p, const double *q, double *z, double *r, const int *perm, double *g)
{
  int j;
#pragma acc parallel loop copyin(p[0:n], q[0:n], perm[0:n]) copy(z[0:n], r[0:n]) copyout(g[0:n])
  for (j = 0; j < n; j++) {
    z[j] = z[j] + alpha * p[j];
    r[j] = r[j] - alpha * q[j];
    g[j] = p[perm[j]] * r[j] + q[perm[j]] * z[j] - p[perm[j]] * q[perm[j]];
  }
}

int main(void)
{
  int n = NROW, j, k, t;
  int *rowstr = malloc((NROW + 1) * sizeof(int));
  int *colidx = malloc(NROW * PER_ROW * sizeof(int));
  int *perm = malloc(NROW * sizeof(int));
  double *a = malloc(NROW * PER_ROW * sizeof(double));
  double *p = malloc(NROW * sizeof(double)), *q = malloc(NROW * sizeof(double));
  double *z = malloc(NROW * sizeof(double)), *r = malloc(NROW * sizeof(double)), *g = malloc(NROW * sizeof(double));
  double rho, alpha;
  if (!rowstr || !colidx || !perm || !a || !p || !q || !z || !r || !g)
    return 1;
  k = 0;
  for (j = 0; j < n; j++) {
    int len = 1 + (int)(lcg_u() % PER_ROW);
    rowstr[j] = k;
    colidx[k] = j;                 /* diagonal first */
    a[k] = 4.0 + lcg();
    k++;
    for (t = 1; t < len; t++) {
      colidx[k] = (int)(lcg_u() % (unsigned int)n);
      a[k] = lcg() - 0.5;
      k++;
    }
  }
  rowstr[n] = k;
  for (j = 0; j < n; j++) {
    p[j] = lcg();
    z[j] = 0.0;
    r[j] = lcg();
    perm[j] = (j * 7 + 3) % n;
  }
  spmv(n, rowstr, colidx, a, p, q);
  rho = dot(n, r, r);
  alpha = rho / dot(n, p, q);
  update(n, alpha, p, q, z, r, perm, g);
  printf("rho %a\n", rho);
  printf("alpha %a\n", alpha);
  dump("q", q, n);
  dump("z", z, n);
  dump("r", r, n);
  dump("g", g, n);
  free(rowstr); free(colidx); free(perm); free(a); free(p); free(q); free(z); free(r); free(g);
  return 0;
}
