// case unbraced:
//   an unbraced body on a line of its own gets braces at the body's indent; accsat prints x*x
//   + x*x as one fma (x*x) + x*x, cost equal to cse's shared product
// input (from line 5):
//   #pragma acc parallel loop
//     for (i = 0; i < n; i++)
//       c[i] = a[i] * a[i] + a[i] * a[i];
//   }
// ---- cse: loads 1 ops 2 fma 0 temporaries 2
{
      double _v0 = a[i];
      double _v1 = _v0 * _v0;
      c[i] = _v1 + _v1;
    }
// ---- cse+bulk: same as cse
// ---- accsat: loads 1 ops 2 fma 1 temporaries 1
{
      double _v0 = a[i];
      c[i] = _v0 * _v0 + _v0 * _v0;
    }
