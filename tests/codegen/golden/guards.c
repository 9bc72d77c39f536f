// case guards:
//   an integer division in a ?: branch may trap: it stays in the branch, printed twice (no
//   temporary inside an expression); a double division is computed once and t is read inside
//   the && operand
// input (from line 10):
//   #pragma acc parallel loop
//     for (i = 0; i < n; i++) {
//       c[i] = ix[i] != 0 ? (double)(100 / ix[i]) + 100 / ix[i] : 0.0;
//       t = s / a[i];
//       d[i] = a[i] != 0.0 && s / a[i] > b[i];
//       e[i] = t;
//     }
//   }
// ---- cse: loads 3 ops 4 fma 0 temporaries 2
{
    int _v0 = ix[i];
    c[i] = _v0 != 0 ? 100 / _v0 + (double)(100 / _v0) : 0.0;
    double _v1 = a[i];
    t = s / _v1;
    d[i] = _v1 != 0.0 && t > b[i];
    e[i] = t;
  }
// ---- cse+bulk: loads 3 ops 4 fma 0 temporaries 2
{
    double _v0 = a[i];
    int _v1 = ix[i];
    c[i] = _v1 != 0 ? 100 / _v1 + (double)(100 / _v1) : 0.0;
    t = s / _v0;
    d[i] = _v0 != 0.0 && t > b[i];
    e[i] = t;
  }
// ---- accsat: same as cse+bulk
