// case inner_loop:
//   an inner sequential loop printed with its header as written, u += kept; m[j][i] shared
//   inside the loop body; a[i] is loaded in the body each iteration (a load pinned to the loop
//   body); bulk load moves nothing above a store
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
      u += _v0 * (a[i] * s) + _v0;
    }
    c[i] = u * (a[i] * s);
  }
// ---- cse+bulk: same as cse
// ---- accsat: loads 3 ops 5 fma 1 temporaries 1
{
    u = 0.0;
    for (j = 0; j < 8; j++) {
      double _v0 = m[j][i];
      u += _v0 + a[i] * s * _v0;
    }
    c[i] = u * (a[i] * s);
  }
