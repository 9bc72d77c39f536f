// model: acc
// regression: a compound assignment computed in a wider type than its target's (float t;
// t *= double_value; an unsigned target with a long operand; any to a char, short, narrow
// mode typedef or _Bool) is typed by accsat's typer with the operation's type: the
// compiler's type check (verify/typecheck.py) asserts `t *= a[i]` is a double, gcc says
// float, and every variant keeps the kernel as written ("internal: gcc gives 't *= a[i]'
// the type float where accsat's model says double"). frontend/typed.py t_Assignment gives
// the operation `binary(op, Current, rhs, node)` the assignment's own node, so the SSA
// records the operation's type for the written expression (ssa/expressions.py rvalue,
// written_types). Found by benchmarks/fuzz.py --seed 35000000 (seeds 35000002,
// 35000016, 35000036: float struct member -= double, char -= unsigned, mode HI -=
// unsigned), present on main f7328b6. The generator writes `t = t * (x)` instead while
// "compound" is in gen.KNOWN_BUGS.
// fixed: a compound assignment (and ++/--) builds its operation untyped by its node; the
// assignment's node keeps the target's type (frontend/typed.py).
// status: fixed
// finding: typecheck
#include <stdio.h>
double a[32], b[32];
float f[32];
unsigned char c[32];
static void kern(int n)
{
#pragma acc parallel loop
  for (int i = 0; i < n; i++) {
    float t = b[i] * 2.0f;
    t *= a[i];
    c[i] -= a[i] > 0.5 ? 3u : 1u;
    f[i] += a[i] * b[i + 1];
    b[i] = t + a[i] * t;
  }
}

int main(void)
{
  for (int i = 0; i < 32; i++) {
    a[i] = 0.125 * i;
    b[i] = 1.0 - 0.0625 * i;
    f[i] = 0.5f * i;
    c[i] = (unsigned char)(7 * i);
  }
  kern(16);
  for (int i = 0; i < 32; i++)
    printf("%a %a %a %d\n", a[i], b[i], (double)f[i], c[i]);
  return 0;
}
