// case identities:
//   integer identities and constant sub-products fold in every variant (index arithmetic
//   included), x * 1.0 and x / 1.0 too; x + 0.0 and x * 0.0 stay (not exact in IEEE
//   arithmetic)
// input (from line 10):
//   #pragma acc parallel loop
//     for (i = 0; i < n; i++) {
//       ix[i] = ix[i + 32 * 2 - 64] * 1 + (j - j) + n * 0;
//       c[i] = a[i] * 1.0 + b[i] / 1.0 + (s + 0.0) + a[i] * 0.0;
//     }
//   }
// ---- cse: loads 3 ops 5 fma 0 temporaries 1
{
    ix[i] = ix[i];
    double _v0 = a[i];
    c[i] = _v0 + b[i] + (s + 0.0) + _v0 * 0.0;
  }
// ---- cse+bulk: loads 3 ops 5 fma 0 temporaries 2
{
    double _v0 = a[i];
    double _v1 = b[i];
    ix[i] = ix[i];
    c[i] = _v0 + _v1 + (s + 0.0) + _v0 * 0.0;
  }
// ---- accsat: same as cse+bulk
