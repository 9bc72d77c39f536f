// case declarations:
//   declarations stay where they were (with and without initialiser); cse reads the user's
//   variable w instead of recomputing a[i] * s; accsat fuses b[kk] + s * a[i] into an fma
//   instead (same cost as reading w, then one add)
// input (from line 10):
//   #pragma acc parallel loop
//     for (i = 0; i < n; i++) {
//       double w = a[i] * s;
//       double z;
//       int kk = ix[i];
//       z = a[i] * s + b[kk];
//       c[i] = z * w;
//     }
//   }
// ---- cse: loads 3 ops 3 fma 0 temporaries 0
{
    double w = a[i] * s;
    double z;
    int kk = ix[i];
    z = w + b[kk];
    c[i] = z * w;
  }
// ---- cse+bulk: same as cse
// ---- accsat: loads 3 ops 3 fma 1 temporaries 1
{
    double _v0 = a[i];
    double w = _v0 * s;
    double z;
    int kk = ix[i];
    z = b[kk] + s * _v0;
    c[i] = z * w;
  }
