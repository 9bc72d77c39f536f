// case line_directives:
//   case if_else with line_directives='dir with space/my "k".c'
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
// ---- cse+bulk: loads 4 ops 4 fma 0 temporaries 5
{
#line 12 "dir with space/my \"k\".c"
    double _v0 = a[i];
    double _v1 = b[i];
    if (_v0 > 0.0) {
#line 13 "dir with space/my \"k\".c"
      double _v2 = b[i];
      double _v3 = _v0 * _v2;
      c[i] = _v3 + _v3;
#line 14 "dir with space/my \"k\".c"
      t = _v2;
    } else {
#line 16 "dir with space/my \"k\".c"
      double _v4 = b[i];
      c[i] = 0.0;
#line 17 "dir with space/my \"k\".c"
      t = -_v4;
    }
#line 19 "dir with space/my \"k\".c"
    d[i] = t * _v1;
  }
