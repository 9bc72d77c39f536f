// case calls:
//   impure calls first, each once, in order, their results in temporaries; sqrt(a[i]) after
//   g() computed once, but computed again after the second g(), which may change a
// input (from line 10):
//   #pragma acc parallel loop
//     for (i = 0; i < n; i++) {
//       c[i] = sqrt(a[i]) * sqrt(a[i]) + g(a[i]);
//       d[i] = g(b[i]) + sqrt(a[i]);
//     }
//   }
// ---- cse: loads 4 ops 3 fma 0 temporaries 2
{
    double _v0 = g(a[i]);
    double _v1 = sqrt(a[i]);
    c[i] = _v1 * _v1 + _v0;
    d[i] = g(b[i]) + sqrt(a[i]);
  }
// ---- cse+bulk: loads 4 ops 3 fma 0 temporaries 3
{
    double _v0 = g(a[i]);
    double _v1 = b[i];
    double _v2 = sqrt(a[i]);
    c[i] = _v2 * _v2 + _v0;
    d[i] = g(_v1) + sqrt(a[i]);
  }
// ---- accsat: loads 4 ops 2 fma 1 temporaries 3
{
    double _v0 = g(a[i]);
    double _v1 = b[i];
    double _v2 = sqrt(a[i]);
    c[i] = _v0 + _v2 * _v2;
    d[i] = g(_v1) + sqrt(a[i]);
  }
