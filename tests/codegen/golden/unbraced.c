// case unbraced:
//   an unbraced body on a line of its own gets braces at the body's indent; accsat prints what
//   cse prints (an fma alone does not pay: a + b * c is an add and a multiply in C)
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
// ---- accsat: same as cse
