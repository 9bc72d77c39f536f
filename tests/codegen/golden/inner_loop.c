// case inner_loop:
//   an inner sequential loop printed with its header as written, u += as u = u + (...);
//   m[j][i] shared inside the loop body; a[i] is loaded in the body each iteration (a load
//   pinned to the loop body), even where bulk load put the a[i] after the loop before it
// input (from line 10):
//   #pragma acc parallel loop
//     for (i = 0; i < n; i++) {
//       u = 0.0;
//       for (j = 0; j < 8; j++) {
//         u += m[j][i] * (a[i] * s) + m[j][i];
//       }
//       c[i] = u * (a[i] * s);
//     }
//   }
// ---- cse: loads 3 ops 6 fma 0 temporaries 1
{
    u = 0.0;
    for (j = 0; j < 8; j++) {
      double _v0 = m[j][i];
      u = u + (_v0 * (a[i] * s) + _v0);
    }
    c[i] = u * (a[i] * s);
  }
// ---- cse+bulk: loads 3 ops 6 fma 0 temporaries 3
{
    double _v0 = a[i];
    u = 0.0;
    for (j = 0; j < 8; j++) {
      double _v1 = a[i];
      double _v2 = m[j][i];
      u = u + (_v2 * (_v1 * s) + _v2);
    }
    c[i] = u * (_v0 * s);
  }
// ---- accsat: loads 3 ops 5 fma 1 temporaries 3
{
    double _v0 = a[i];
    u = 0.0;
    for (j = 0; j < 8; j++) {
      double _v1 = a[i];
      double _v2 = m[j][i];
      u = u + (_v2 + _v1 * s * _v2);
    }
    c[i] = u * (_v0 * s);
  }
