// case unbraced_same_line:
//   an unbraced body on the for's line
// input (from line 5):
//   #pragma acc parallel loop
//     for (i = 0; i < n; i++) c[i] = (a[i] + 1.0) * (a[i] + 1.0);
//   }
// ---- cse: loads 1 ops 2 fma 0 temporaries 1
{
    double _v0 = a[i] + 1.0;
    c[i] = _v0 * _v0;
  }
// ---- cse+bulk: same as cse
// ---- accsat: same as cse
