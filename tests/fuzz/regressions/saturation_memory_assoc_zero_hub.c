// model: acc
// regression: saturation memory is not bounded by the limits: `eu[ix[i]] *= 0u * 2 * 3`
// makes `accsat rewrite` abort ("memory allocation of N bytes failed") in every variant,
// with a few hundred e-nodes. x * 0 = 0 (rules/identities.egg, ident-int) puts every
// product with the zero's class into that class; ASSOC-CONST then pairs every constant
// multiplied into it with every other one, each iteration (1,190 answered WantAssoc
// after 8 iterations for cse, 215 and 2,594 e-nodes for accsat before the run that takes
// gigabytes). Found by benchmarks/fuzz.py --seed 9900000 (batch 195, seed 9901955: a
// batch killed twice); present on c346163 too. Fixed: the x * 0 rules subsume the product
// they absorb and run to saturation before every iteration (`first` in rules/rules.toml),
// so no other rule matches a product with the zero; ASSOC-CONST also skips a class
// that is its own operand (x * k1 = x), whose combined constant is no new term.
// status: fixed
// memory: 2048
// variant: accsat
unsigned eu[64];
int ix[64];

void k(int n)
{
  int i;
#pragma acc parallel loop
  for (i = 0; i < n; i++) {
    eu[ix[i]] *= ((0u) * 2 * 3);
  }
}
