// model: acc
// regression: a location promoted in two inner loops one after the other (ssa/promote.py:
// stored on every iteration of the first, which runs; stored under an if in the second)
// is printed with one write-back, after the second loop (`double _vp1 = _vp0; for ...
// k0_a0[i] = _vp1;`), but the extracted program has a store between the loops too: the
// load of a place that may alias it after the loops (`++k0_a0[15]`) reads memory version
// e5 in the extracted program and e4 in the re-read, and every variant keeps the kernel
// as written ("internal: the printed C does not re-read as the extracted program: body,
// statement 5 (Store), value 3: Add(Load[[] e4](Sym[k0_a0 k0_a0.0], TCons(15 (int),
// TNil)), 1.0 (double)) is not the extracted Add(Load[[] e5]..."). The printed C is
// right (the first write-back is dead): a false alarm of verify/reread.py, which matches
// memory versions by number, against a printer that leaves out a dead write-back.
// Present on main a9dfc87; found by benchmarks/fuzz.py --seed 37000000 --batch 1 (seed
// 37000660, no helper in it), shrunk by hand.
// fixed: on main by 35ed98c (MemoryLog.retract: a dead store before a promoted loop is
// taken back from the memory log, later events numbered as in the printed text).
// status: fixed
#include <stdio.h>
double k0_a0[32];
static void kern(int n, int k0)
{
#pragma acc parallel loop
  for (int i = 0; i < n; i++) {
    double t1 = 7.0;
    for (int m2 = 0; m2 < 2; m2++)
    {
      k0_a0[i] += t1;
    }
    for (int m3 = 0; m3 < k0; m3++) {
      double t4 = t1 + k0_a0[i];
      if (t4 > 1.0) k0_a0[i] = k0_a0[i] * 0.5 + t4;
    }
    ++k0_a0[15];
  }
}

int main(void)
{
  for (int i = 0; i < 32; i++)
    k0_a0[i] = 0.125 * i - 1.0;
  kern(16, 2);
  for (int i = 0; i < 32; i++)
    printf("%a\n", k0_a0[i]);
  return 0;
}
