// case if_else:
//   a[i] is one temporary before the if, used in the condition and the then branch; a[i] *
//   b[i] shared inside the then branch; bulk load hoists the b[i] after the if above it, but
//   the branches load b[i] again (their loads are other terms, pinned to the branches)
// input (from line 10):
//   #pragma acc parallel loop
//     for (i = 0; i < n; i++) {
//       if (a[i] > 0.0) {
//         c[i] = a[i] * b[i] + a[i] * b[i];
//         t = b[i];
//       } else {
//         c[i] = 0.0;
//         t = -b[i];
//       }
//       d[i] = t * b[i];
//     }
//   }
// ---- cse: loads 4 ops 4 fma 0 temporaries 3
{
    double _v0 = a[i];
    if (_v0 > 0.0) {
      double _v1 = b[i];
      double _v2 = _v0 * _v1;
      c[i] = _v2 + _v2;
      t = _v1;
    } else {
      c[i] = 0.0;
      t = -b[i];
    }
    d[i] = t * b[i];
  }
// ---- cse+bulk: loads 4 ops 4 fma 0 temporaries 5
{
    double _v0 = a[i];
    double _v1 = b[i];
    if (_v0 > 0.0) {
      double _v2 = b[i];
      double _v3 = _v0 * _v2;
      c[i] = _v3 + _v3;
      t = _v2;
    } else {
      double _v4 = b[i];
      c[i] = 0.0;
      t = -_v4;
    }
    d[i] = t * _v1;
  }
// ---- accsat: same as cse+bulk
