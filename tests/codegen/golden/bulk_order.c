// case bulk_order:
//   bulk load hoists each load to the first point its inputs exist, loads at one point sorted
//   by array and index (a[i + 1], b[i + 1] wait for the temporary i + 1); e[i + 1] moves above
//   the store to e[i] (no overlap), p[i] may not move above any store (p may point anywhere)
// input (from line 10):
//   #pragma acc parallel loop
//     for (i = 0; i < n; i++) {
//       c[i] = b[i] * s;
//       d[i] = a[i + 1] * s + e[i];
//       t = a[i] + b[i + 1];
//       e[i] = t;
//       d[i + 1] = e[i + 1] + p[i] + a[i + 2];
//     }
//   }
// ---- cse: loads 8 ops 8 fma 0 temporaries 1
{
    c[i] = b[i] * s;
    int _v0 = i + 1;
    d[i] = a[_v0] * s + e[i];
    t = a[i] + b[_v0];
    e[i] = t;
    d[_v0] = e[_v0] + p[i] + a[i + 2];
  }
// ---- cse+bulk: loads 8 ops 8 fma 0 temporaries 9
{
    double _v0 = a[i];
    double _v1 = a[i + 2];
    double _v2 = b[i];
    double _v3 = e[i];
    int _v4 = i + 1;
    double _v5 = a[_v4];
    double _v6 = b[_v4];
    double _v7 = e[_v4];
    c[i] = _v2 * s;
    d[i] = _v5 * s + _v3;
    t = _v0 + _v6;
    e[i] = t;
    double _v8 = p[i];
    d[_v4] = _v7 + _v8 + _v1;
  }
// ---- accsat: loads 8 ops 7 fma 1 temporaries 9
{
    double _v0 = a[i];
    double _v1 = a[i + 2];
    double _v2 = b[i];
    double _v3 = e[i];
    int _v4 = i + 1;
    double _v5 = a[_v4];
    double _v6 = b[_v4];
    double _v7 = e[_v4];
    c[i] = _v2 * s;
    d[i] = _v3 + s * _v5;
    t = _v0 + _v6;
    e[i] = t;
    double _v8 = p[i];
    d[_v4] = _v7 + (_v8 + _v1);
  }
