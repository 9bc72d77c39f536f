// case as_written:
//   statements whose computation did not change print as written (macro, comments, unbraced
//   branch, loop header with its macro bound, literal 2); changed ones keep their comments,
//   their declared type (real) and their compound assignment (+=)
// input (from line 9):
//   #pragma acc parallel loop
//     for (i = 0; i < n; i++) {
//       /* the square */
//       c[i] = SQ(a[i]);   // macro
//       if (a[i] > 0.0)
//         d[i] = b[i] * 2;
//       else {
//         d[i] = 0;  /* zero */
//       }
//       for (m = 0; m < NC; m++)
//         c[i] += b[i] * 0.5;
//       real w = a[i] * s + a[i] * s;
//       d[i] += w;
//     }
//   }
// ---- cse: loads 5 ops 7 fma 0 temporaries 2
{
    real _v0 = a[i];
    /* the square */
    c[i] = _v0 * _v0;   // macro
    if (_v0 > 0.0)
      d[i] = b[i] * 2;
    else {
      d[i] = 0;  /* zero */
    }
    for (m = 0; m < NC; m++)
      c[i] += b[i] * 0.5;
    real _v1 = _v0 * s;
    real w = _v1 + _v1;
    d[i] += w;
  }
// ---- cse+bulk: loads 5 ops 7 fma 0 temporaries 3
{
    real _v0 = a[i];
    /* the square */
    c[i] = _v0 * _v0;   // macro
    if (_v0 > 0.0)
      d[i] = b[i] * 2;
    else {
      d[i] = 0;  /* zero */
    }
    real _v1 = d[i];
    for (m = 0; m < NC; m++)
      c[i] += b[i] * 0.5;
    real _v2 = _v0 * s;
    real w = _v2 + _v2;
    d[i] = _v1 + w;
  }
// ---- accsat: loads 5 ops 7 fma 3 temporaries 3
{
    real _v0 = a[i];
    /* the square */
    c[i] = _v0 * _v0;   // macro
    if (_v0 > 0.0)
      d[i] = b[i] * 2;
    else {
      d[i] = 0;  /* zero */
    }
    real _v1 = d[i];
    for (m = 0; m < NC; m++)
      c[i] += b[i] * 0.5;
    real _v2 = _v0 * s;
    real w = _v2 + _v2;
    d[i] = _v1 + s * _v0 + s * _v0;
  }
