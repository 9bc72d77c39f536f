/* kernels: 4 -- histogram and reduction shapes with atomics */
#define N 4096
#define BINS 64
double w[N], x[N], y[N], hist[BINS];
int bin[N];
long count[BINS];
double total;

void histogram(int n)
{
#pragma acc parallel loop
  for (int i = 0; i < n; i++) {
    double v = w[i] * x[i] + w[i] * w[i];
    y[i] = v * x[i] + w[i] * x[i];
#pragma acc atomic update
    hist[bin[i]] += v;
  }
}

void counts(int n)
{
#pragma omp parallel for
  for (int i = 0; i < n; i++) {
    y[i] = x[i] * x[i] + x[i] * w[i];
#pragma omp atomic
    count[bin[i] % BINS]++;
  }
}

void shared_sum(int n)
{
#pragma omp parallel for
  for (int i = 0; i < n; i++) {
#pragma omp atomic
    total += w[i] * x[i];
    y[i] = w[i] * x[i] + x[i] * x[i];
  }
}

void capture(int n)
{
#pragma omp parallel for
  for (int i = 0; i < n; i++) {
    long slot;
#pragma omp atomic capture
    slot = count[bin[i] % BINS]++;
    y[slot % N] = x[i] * x[i] + x[i] * w[i];
  }
}
