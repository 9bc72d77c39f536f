// shapes: mixed float/double/int/long/unsigned/char/short/unsigned char arithmetic where the usual arithmetic conversions matter: float stays float (f*0.1f vs f*0.1, f*2.0f), float+int -> float, int/int division and % with negative operands, long products of ints that would overflow int, unsigned wrap-around and unsigned-vs-signed comparison, shifts, char/short promotion to int, conversions double->int, double->float, int->float, narrowing to unsigned char; acc parallel loop; model: OpenACC
// model: acc
// tolerance: rel=1e-5 abs=1e-6
#include <stdio.h>
#include <string.h>

#define N 120

float fa[N], fb[N], fo1[N], fo2[N], fo3[N];
double da[N], do1[N], do2[N];
int ia[N], ib[N], io1[N], io2[N], io3[N];
long lo1[N], lo2[N];
unsigned int ua[N], ub[N], uo1[N], uo2[N];
signed char ca[N];
short sa[N];
unsigned char uc[N], uco[N];
int cio[N], sio[N];

static unsigned int seed = 424242u;
static unsigned int lcg_u(void)
{
  seed = seed * 1664525u + 1013904223u;
  return seed;
}
static double lcg(void)
{
  return (double)(lcg_u() >> 8) * (1.0 / 16777216.0);
}

static void mixed(void)
{
  int i;
#pragma acc parallel loop
  for (i = 0; i < N; i++) {
    float x = fa[i] * 2.0f;
    double y = fa[i] * 0.1;                 /* double product */
    float z = fa[i] * fb[i] + fa[i] * 0.1f; /* float all the way */
    float w = fa[i] + ia[i];                /* int converted to float */
    fo1[i] = x + z;
    fo2[i] = (float)y - fa[i] * 0.1f;       /* float(double product) minus float product */
    fo3[i] = w * 0.5f + (float)ia[i] * fb[i];
    do1[i] = y + fa[i] * fb[i] + da[i] * fa[i];
    do2[i] = (double)(fa[i] * fb[i]) - (double)fa[i] * (double)fb[i];   /* rounding of a float product */
    io1[i] = ia[i] / 7 + ia[i] % 7 - (-ia[i]) % 5;   /* truncation toward zero */
    io2[i] = (int)(da[i] * 1000.0) + (int)fa[i] * 3 - (int)(-da[i] * 7.5);
    io3[i] = (ua[i] > (unsigned int)ib[i]) + (ib[i] < 0 ? 2 : 0) + ((unsigned int)ib[i] > ua[i] ? 4 : 0);
    lo1[i] = (long)ia[i] * ib[i] + (long)ib[i] * 3;       /* would overflow in int */
    lo2[i] = (long)ia[i] * (long)ia[i] - (long)(ua[i] >> 4) * 1000L;
    uo1[i] = ua[i] * 2654435761u + (ua[i] >> 3) - (ub[i] << 5);   /* wraps */
    uo2[i] = (ua[i] - ub[i]) ^ (ua[i] >> (ub[i] & 15u)) ^ (ub[i] << (ua[i] % 17u));
    cio[i] = ca[i] * ca[i] + ca[i] - 'A' + (ca[i] >> 2);      /* char promotes to int; >> of negative is implementation-defined (arithmetic in gcc) */
    sio[i] = sa[i] * sa[i] - sa[i] * 3 + (sa[i] / 10) * (sa[i] % 10);
    uco[i] = (unsigned char)(uc[i] + 200) + (unsigned char)(uc[i] * 3u);   /* narrowing wraps mod 256 */
  }
}

int main(void)
{
  int i;
  for (i = 0; i < N; i++) {
    fa[i] = (float)(lcg() * 8.0 - 4.0);
    fb[i] = (float)(lcg() + 0.5);
    da[i] = lcg() * 2.0 - 1.0;
    ia[i] = (int)(lcg_u() % 2000001u) - 1000000;
    ib[i] = (int)(lcg_u() % 200001u) - 100000;
    ua[i] = lcg_u();
    ub[i] = lcg_u();
    ca[i] = (signed char)((int)(lcg_u() % 201u) - 100);
    sa[i] = (short)((int)(lcg_u() % 60001u) - 30000);
    uc[i] = (unsigned char)(lcg_u() % 256u);
  }
  mixed();
  for (i = 0; i < N; i++) {
    printf("f %d %a %a %a\n", i, (double)fo1[i], (double)fo2[i], (double)fo3[i]);
    printf("d %d %a %a\n", i, do1[i], do2[i]);
    printf("i %d %d %d %d %d %d\n", i, io1[i], io2[i], io3[i], cio[i], sio[i]);
    printf("l %d %ld %ld\n", i, lo1[i], lo2[i]);
    printf("u %d %u %u %u\n", i, uo1[i], uo2[i], (unsigned int)uco[i]);
  }
  return 0;
}
