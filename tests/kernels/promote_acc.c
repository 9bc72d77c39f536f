// shapes: values carried across inner sequential loops (register promotion): gemm with C[i][j] *= beta before the k loop, a restrict-pointer sum, a max under an if (flagged store), a zero-trip loop after a load, a do-while, a read-only load hoisted; and shapes that must not be promoted: aliasing pointer parameters called with overlapping arrays, C[i][k] beside C[i][j], a store only under an if; model: OpenACC
// model: acc
#include <stdio.h>
#include <string.h>

#define NI 24
#define NJ 20
#define NK 16

double A[NI][NK], B[NK][NJ], C[NI][NJ], D[NI][NJ], M[NI], Z[NI], S[NI], T[NI], R[NI];
double buf[NI * NK + NI];
int n[NI];

static void dump(const char *name, const double *p, long count)
{
  long q;
  for (q = 0; q < count; q++)
    printf("%s %ld %a\n", name, q, p[q]);
}

static void gemm(double alpha, double beta)
{
  int i, j, k;
#pragma acc parallel loop collapse(2) copyin(A, B) copy(C)
  for (i = 0; i < NI; i++)
    for (j = 0; j < NJ; j++) {
      C[i][j] *= beta;
      for (k = 0; k < NK; k++)
        C[i][j] += alpha * A[i][k] * B[k][j];
    }
}

static void rowsum(double *restrict out, const double *restrict in, int m)
{
  int i, k;
#pragma acc parallel loop copyin(in[0:NI*NK]) copyout(out[0:NI])
  for (i = 0; i < NI; i++) {
    out[i] = 0.5;
    for (k = 0; k < m; k++)
      out[i] += in[i * m + k];
  }
}

static void rowsum_alias(double *out, const double *in, int m)
{
  int i, k;
#pragma acc parallel loop
  for (i = 0; i < NI; i++) {
    out[i] = 0.25;
    for (k = 0; k < m; k++)
      out[i] += in[i * m + k];
  }
}

static void rowmax(void)
{
  int i, k;
#pragma acc parallel loop copyin(A) copy(M)
  for (i = 0; i < NI; i++) {
    for (k = 0; k < NK; k++)
      if (A[i][k] > M[i])
        M[i] = A[i][k];
  }
}

static void zero_trip(void)
{
  int i, k;
#pragma acc parallel loop copyin(A, n) copy(Z)
  for (i = 0; i < NI; i++) {
    double z0 = Z[i];
    for (k = 0; k < n[i]; k++)
      if (A[i][k] > z0 + 0.25)
        Z[i] = A[i][k] - z0;
  }
}

static void cond_only(void)
{
  int i, k;
#pragma acc parallel loop copyin(A, n) copy(S)
  for (i = 0; i < NI; i++) {
    for (k = 0; k < n[i]; k++)
      if (A[i][k] > 0.5)
        S[i] += A[i][k];
  }
}

static void other_index(void)
{
  int i, j, k;
#pragma acc parallel loop collapse(2) copyin(B) copy(D)
  for (i = 0; i < NI; i++)
    for (j = 0; j < NJ; j++) {
      D[i][j] = 1.0;
      for (k = 0; k < NK; k++)
        D[i][j] += D[i][k % NJ] * B[k][j];
    }
}

static void damp(void)
{
  int i;
#pragma acc parallel loop copyin(A, n) copy(T)
  for (i = 0; i < NI; i++) {
    int k = 0;
    do {
      T[i] = T[i] * 0.5 + A[i][k];
      k++;
    } while (k < n[i]);
  }
}

static void scaled(void)
{
  int i, k;
#pragma acc parallel loop copyin(A, M) copyout(R)
  for (i = 0; i < NI; i++) {
    double s = 0.0;
    for (k = 0; k < NK; k++)
      s += A[i][k] * M[i];
    R[i] = s;
  }
}

int main(void)
{
  int i, j;
  for (i = 0; i < NI; i++) {
    for (j = 0; j < NK; j++)
      A[i][j] = (double)((i * j + 1) % 7) / 7.0;
    for (j = 0; j < NJ; j++)
      C[i][j] = D[i][j] = (double)(i + j) / 3.0;
    M[i] = (i % 3) * 0.4;
    Z[i] = (i % 4) * 0.3;
    S[i] = T[i] = 1.0 / (i + 1);
    n[i] = i % 5 == 0 ? 0 : 1 + i % NK;
  }
  for (i = 0; i < NK; i++)
    for (j = 0; j < NJ; j++)
      B[i][j] = (double)((i * (j + 1)) % 5) / 5.0;
  for (i = 0; i < NI * NK + NI; i++)
    buf[i] = (double)(i % 11) / 11.0;
  gemm(1.5, 1.2);
  rowsum(buf + NI * NK, buf, NK);
  dump("rowsum", buf + NI * NK, NI);
  rowsum_alias(buf + 3, buf, 2); /* out[i] is in[i * 2 + k] for some later i */
  dump("alias", buf, NI * NK + NI);
  rowmax();
  zero_trip();
  cond_only();
  other_index();
  damp();
  scaled();
  dump("C", &C[0][0], NI * NJ);
  dump("D", &D[0][0], NI * NJ);
  dump("M", M, NI);
  dump("Z", Z, NI);
  dump("S", S, NI);
  dump("T", T, NI);
  dump("R", R, NI);
  return 0;
}
