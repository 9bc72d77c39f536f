"""egglog must hash-cons faithfully: a term built from given arguments keeps them.

egglog 13.1 and 13.2 break this (a constructor row gets a wrong argument when
many list terms share arguments), which would make accsat print wrong array
indices. accsat pins 13.0 and also checks every e-graph it reads
(``classes_of_terms``); this test guards the pin.
"""

import random

import pytest

from accsat.egraph.saturate import _Session

SCHEMA = "(datatype Term (Const String String) (TNil) (TCons Term Term))"


@pytest.mark.parametrize("seed", range(12))
def test_lists_keep_their_arguments(seed):
    rng = random.Random(seed)
    s = _Session()
    s.run(SCHEMA)
    names = [f"$c{i}" for i in range(6)]
    lines = [f'(let $c{i} (Const "int" "{i}"))' for i in range(6)] + ["(let $n (TNil))"]
    lists, defs = ["$n"], {}
    for i in range(300):
        head, tail = rng.choice(names + lists[:5]), rng.choice(lists)
        lines.append(f"(let $l{i} (TCons {head} {tail}))")
        lists.append(f"$l{i}")
        defs[f"$l{i}"] = (head, tail)
    s.run("\n".join(lines))
    for name, (head, tail) in defs.items():
        s.run(f"(check (= {name} (TCons {head} {tail})))")
