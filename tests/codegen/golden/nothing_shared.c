// case nothing_shared:
//   nothing to share: cse prints the body as written; bulk load still moves the loads
// input (from line 10):
//   #pragma acc parallel loop
//     for (i = 0; i < n; i++) {
//       c[i] = a[i] + b[i];
//       d[i] = a[i + 1] * s;
//     }
//   }
// ---- cse: loads 3 ops 3 fma 0 temporaries 0
{
    c[i] = a[i] + b[i];
    d[i] = a[i + 1] * s;
  }
// ---- cse+bulk: loads 3 ops 3 fma 0 temporaries 3
{
    double _v0 = a[i];
    double _v1 = a[i + 1];
    double _v2 = b[i];
    c[i] = _v0 + _v2;
    d[i] = _v1 * s;
  }
// ---- accsat: same as cse+bulk
