// case mixed_types:
//   temporaries declared with the value's type (float, double, int)
// input (from line 10):
//   #pragma acc parallel loop
//     for (i = 0; i < n; i++) {
//       f[i] = q * f[i] * (q * f[i]);
//       c[i] = (double)(ix[i] / 3) + (double)(ix[i] / 3) * s;
//     }
//   }
// ---- cse: loads 2 ops 5 fma 0 temporaries 2
{
    float _v0 = q * f[i];
    f[i] = _v0 * _v0;
    int _v1 = ix[i] / 3;
    c[i] = _v1 + _v1 * s;
  }
// ---- cse+bulk: loads 2 ops 5 fma 0 temporaries 3
{
    int _v0 = ix[i];
    float _v1 = q * f[i];
    f[i] = _v1 * _v1;
    int _v2 = _v0 / 3;
    c[i] = _v2 + _v2 * s;
  }
// ---- accsat: same as cse+bulk
