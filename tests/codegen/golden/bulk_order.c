// case bulk_order:
//   bulk load hoists a load to the first point its inputs exist when that moves it above a
//   store (b[i], used before any store, stays), loads at one point sorted by array and index;
//   e[i + 1] moves above the store to e[i] (no overlap), p[i] may not move above any store (p
//   may point anywhere); index arithmetic (i + 1) is never a temporary
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
// ---- cse: loads 8 ops 11 fma 0 temporaries 0
{
    c[i] = b[i] * s;
    d[i] = a[i + 1] * s + e[i];
    t = a[i] + b[i + 1];
    e[i] = t;
    d[i + 1] = e[i + 1] + p[i] + a[i + 2];
  }
// ---- cse+bulk: loads 8 ops 11 fma 0 temporaries 6
{
    double _v0 = a[i];
    double _v1 = a[i + 1];
    double _v2 = a[i + 2];
    double _v3 = b[i + 1];
    double _v4 = e[i];
    double _v5 = e[i + 1];
    c[i] = b[i] * s;
    d[i] = _v1 * s + _v4;
    t = _v0 + _v3;
    e[i] = t;
    d[i + 1] = _v5 + p[i] + _v2;
  }
// ---- accsat: loads 8 ops 10 fma 1 temporaries 6
{
    double _v0 = a[i];
    double _v1 = a[i + 1];
    double _v2 = a[i + 2];
    double _v3 = b[i + 1];
    double _v4 = e[i];
    double _v5 = e[i + 1];
    c[i] = b[i] * s;
    d[i] = _v4 + s * _v1;
    t = _v0 + _v3;
    e[i] = t;
    d[i + 1] = _v5 + p[i] + _v2;
  }
