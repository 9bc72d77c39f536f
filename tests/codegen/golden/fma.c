// case fma:
//   accsat's rules (commutativity) find s + b[i] * a[i] == a[i] * b[i] + s: one temporary (an
//   fma); cse shares only the loads
// input (from line 10):
//   #pragma acc parallel loop
//     for (i = 0; i < n; i++) {
//       c[i] = a[i] * b[i] + s;
//       d[i] = s + b[i] * a[i];
//     }
//   }
// ---- cse: loads 2 ops 4 fma 0 temporaries 2
{
    double _v0 = b[i];
    double _v1 = a[i];
    c[i] = _v1 * _v0 + s;
    d[i] = s + _v0 * _v1;
  }
// ---- cse+bulk: loads 2 ops 4 fma 0 temporaries 2
{
    double _v0 = a[i];
    double _v1 = b[i];
    c[i] = _v0 * _v1 + s;
    d[i] = s + _v1 * _v0;
  }
// ---- accsat: loads 2 ops 1 fma 1 temporaries 1
{
    double _v0 = s + b[i] * a[i];
    c[i] = _v0;
    d[i] = _v0;
  }
