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
#line 19 "dir with space/my \"k\".c"
    double _v1 = b[i];
#line 12 "dir with space/my \"k\".c"
    if (_v0 > 0.0) {
      double _v2 = b[i];
#line 13 "dir with space/my \"k\".c"
      double _v3 = _v0 * _v2;
#line 13 "dir with space/my \"k\".c"
      c[i] = _v3 + _v3;
      t = _v2;
    } else {
#line 17 "dir with space/my \"k\".c"
      double _v4 = b[i];
#line 16 "dir with space/my \"k\".c"
      c[i] = 0.0;
      t = -_v4;
    }
    d[i] = t * _v1;
  }
