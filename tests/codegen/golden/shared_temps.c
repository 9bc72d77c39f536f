// case shared_temps:
//   a value used three times goes to one temporary, before its first use
// input (from line 10):
//   #pragma acc parallel loop
//     for (i = 0; i < n; i++) {
//       c[i] = (a[i] + b[i]) * (a[i] + b[i]);
//       d[i] = s * (a[i] + b[i]) + a[i];
//     }
//   }
// ---- cse: loads 2 ops 4 fma 0 temporaries 2
{
    double _v0 = a[i];
    double _v1 = _v0 + b[i];
    c[i] = _v1 * _v1;
    d[i] = s * _v1 + _v0;
  }
// ---- cse+bulk: same as cse
// ---- accsat: loads 2 ops 3 fma 1 temporaries 2
{
    double _v0 = a[i];
    double _v1 = _v0 + b[i];
    c[i] = _v1 * _v1;
    d[i] = _v0 + _v1 * s;
  }
