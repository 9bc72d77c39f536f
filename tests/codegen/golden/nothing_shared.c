// case nothing_shared:
//   nothing to share: cse prints the body as written; bulk load moves a[i + 1] above the store
//   to c[i], the statement that did not change is printed as written
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
// ---- cse+bulk: loads 3 ops 3 fma 0 temporaries 1
{
    double _v0 = a[i + 1];
    c[i] = a[i] + b[i];
    d[i] = _v0 * s;
  }
// ---- accsat: same as cse+bulk
