"""How extraction scales: greedy DAG vs ILP (HiGHS, CBC) on ~10k-node e-graphs.

Builds a random straight-line kernel of 30-80 statements with shared
subexpressions, saturates it in egglog (low-level bindings) with commutativity,
associativity and FMA rules until about 10,000 e-nodes, converts the e-graph to
accsat's plain data and times each extractor.

    python benchmarks/extract_scale.py [--seeds 3] [--time-limit 30] [--target 10000] [--cyclic]
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections.abc import Iterator
from pathlib import Path

from egglog.bindings import EGraph as EggGraph

# Runnable from a source tree where accsat is not installed.
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from accsat.egraph.graph import EGraph, ENode  # noqa: E402
from accsat.extract import ExtractConfig, extract  # noqa: E402
from accsat.extract.costs import load_cost_model  # noqa: E402

SCHEMA = """
(datatype Term
  (Const String String) (Var String String)
  (Add String Term Term) (Mul String Term Term) (Sub String Term Term)
  (Fma String Term Term Term) (Neg String Term))
"""

# Fma t a b c means a + b*c.  Neg-Neg can close a cycle (x = -(-x)).
RULES = """
(rewrite (Add t a b) (Add t b a))
(rewrite (Mul t a b) (Mul t b a))
(rewrite (Add t (Add t a b) c) (Add t a (Add t b c)))
(rewrite (Mul t (Mul t a b) c) (Mul t a (Mul t b c)))
(rewrite (Add t a (Mul t b c)) (Fma t a b c))
(rewrite (Sub t a (Mul t b c)) (Fma t a (Neg t b) c))
(rewrite (Sub t (Mul t b c) a) (Fma t (Neg t a) b c))
(rewrite (Neg t (Neg t a)) a)
"""

# --cyclic: sign rules; with Neg-Neg they close many 2-cycles (x = -(-x),
# a*b = -((-a)*b)), the shape identity rules give the real rule set.
SIGN_RULES = """
(rewrite (Sub t a b) (Add t a (Neg t b)))
(rewrite (Add t a (Neg t b)) (Sub t a b))
(rewrite (Neg t (Mul t a b)) (Mul t (Neg t a) b))
(rewrite (Mul t (Neg t a) b) (Neg t (Mul t a b)))
(rewrite (Neg t (Add t a b)) (Add t (Neg t a) (Neg t b)))
(rewrite (Neg t (Sub t a b)) (Sub t b a))
"""

OPS = ("Add", "Add", "Mul", "Mul", "Sub")


def random_kernel(n_stmts: int, seed: int) -> str:
    """Let-bound statements; later ones reuse earlier results and subterms."""
    rng = random.Random(seed)
    pool: list[str] = []  # subterms to share

    def leaf() -> str:
        r = rng.random()
        if r < 0.55:
            return f'(Var "double" "x{rng.randrange(12)}")'
        if r < 0.7:
            return f'(Const "double" "{rng.choice(["0.5", "2.0", "3.0"])}")'
        return rng.choice(pool) if pool else leaf()

    def expr(depth: int) -> str:
        if depth == 0 or rng.random() < 0.2:
            return leaf()
        if rng.random() < 0.1:
            return f'(Neg "double" {expr(depth - 1)})'
        term = f'({rng.choice(OPS)} "double" {expr(depth - 1)} {expr(depth - 1)})'
        if rng.random() < 0.3:
            pool.append(term)
        return term

    lines = []
    for i in range(n_stmts):
        lines.append(f"(let $t{i} {expr(rng.randint(2, 4))})")
        pool.append(f"$t{i}")
    return "\n".join(lines)


def saturate(program: str, target: int, cyclic: bool = False) -> tuple[EggGraph, int]:
    """Run one iteration at a time until the e-graph holds about ``target``
    nodes: stop at the first iteration reaching it, or undo one that
    overshoots past 1.6x (growth is ~3x per iteration here)."""
    egg = EggGraph()
    rules = RULES + (SIGN_RULES if cyclic else "")
    egg.run_program(*egg.parse_program(SCHEMA + rules + program))
    iters, size = 0, _size(egg)
    while size < target and iters < 10:
        egg.run_program(*egg.parse_program("(push) (run 1)"))
        grown = _size(egg)
        if grown > 1.6 * target or grown == size:
            egg.run_program(*egg.parse_program("(pop)"))
            break
        iters, size = iters + 1, grown
    return egg, iters


def _size(egg: EggGraph) -> int:
    if hasattr(egg, "freeze"):
        frozen = egg.freeze()
        return sum(len(f.rows) for f in frozen.functions.values() if not f.is_let_binding)
    return sum(1 for _ in _serialized_nodes(egg))


def to_plain(egg: EggGraph) -> tuple[EGraph, list[int]]:
    """egglog's e-graph -> accsat's plain e-graph; roots are the let-bound statements."""
    ids: dict[object, int] = {}  # egglog class -> class id

    def cls(key: object) -> int:
        return ids.setdefault(key, len(ids))

    graph = EGraph()
    rows, lets = _rows(egg) if hasattr(egg, "freeze") else _rows_serialized(egg)
    for out, op, strs, kids in rows:
        graph.add(cls(out), ENode(op, strs[0], tuple(strs[1:]), tuple(cls(k) for k in kids)))
    return graph, [cls(k) for k in lets]


Row = tuple[object, str, list[str], list[object]]  # class, op, String arguments, Term arguments


def _rows(egg: EggGraph) -> tuple[list[Row], list[object]]:
    """egglog 13.2: read the function tables with freeze()."""
    rows: list[Row] = []
    lets: list[object] = []
    for name, fn in sorted(egg.freeze().functions.items()):
        for row in fn.rows:
            if fn.is_let_binding:
                lets.append(row.output)
                continue
            args = list(zip(row.inputs, fn.input_sorts, strict=True))
            strs = [egg.value_to_string(v) for v, sort in args if sort == "String"]
            rows.append((row.output, name, strs, [v for v, sort in args if sort == "Term"]))
    return rows, lets


def _serialized_nodes(egg: EggGraph) -> Iterator[tuple[str, dict]]:
    data = json.loads(egg.serialize([]).to_json())
    for key, node in data["nodes"].items():
        if not key.startswith("primitive-"):
            yield key, node


def _rows_serialized(egg: EggGraph) -> tuple[list[Row], list[object]]:
    """egglog 13.0 has no freeze(): go through the egraph-serialize JSON."""
    data = json.loads(egg.serialize([]).to_json())
    nodes = data["nodes"]
    rows: list[Row] = []
    for key, node in nodes.items():
        if key.startswith("primitive-"):
            continue
        kids = [nodes[k] for k in node["children"]]
        strs = [json.loads(k["op"]) for k in kids if k["eclass"].startswith("String-")]
        terms = [k["eclass"] for k in kids if not k["eclass"].startswith("String-")]
        rows.append((node["eclass"], node["op"], strs, terms))
    lets = [c for c, d in data["class_data"].items() if "let" in d]
    return rows, lets


def run(seed: int, target: int, time_limit: float, cyclic: bool) -> dict[str, float]:
    """One kernel: print and return each extractor's cost relative to greedy."""
    stmts = random.Random(seed).randint(30, 80)
    start = time.perf_counter()
    egg, iters = saturate(random_kernel(stmts, seed), target, cyclic)
    graph, roots = to_plain(egg)
    print(
        f"\nseed {seed}: {stmts} statements, {iters} iterations, {graph.node_count} nodes, "
        f"{len(graph.classes)} classes, {len(set(roots))} roots "
        f"(saturated in {time.perf_counter() - start:.1f} s)",
        flush=True,
    )
    model = load_cost_model("paper")
    base = extract(graph, roots, model, ExtractConfig(use_ilp=False))
    print(f"  greedy     cost {base.cost:7.0f}  {base.seconds:6.2f} s", flush=True)
    ratios = {}
    for solver in ("highs", "cbc"):
        res = extract(graph, roots, model, ExtractConfig(time_limit=time_limit, solver=solver))
        ratios[solver] = res.cost / base.cost
        print(
            f"  ilp {solver:<6} cost {res.cost:7.0f}  {res.seconds:6.2f} s  "
            f"ratio {ratios[solver]:.3f}  {res.status}",
            flush=True,
        )
    return ratios


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seeds", type=int, default=3, help="kernels to try (default 3)")
    ap.add_argument("--target", type=int, default=10_000, help="e-nodes to grow to")
    ap.add_argument("--time-limit", type=float, default=30.0, help="seconds per ILP extraction")
    ap.add_argument("--cyclic", action="store_true", help="add sign rules that make cycles")
    args = ap.parse_args()
    results = [run(seed, args.target, args.time_limit, args.cyclic) for seed in range(args.seeds)]
    print()
    for solver in ("highs", "cbc"):
        mean = sum(r[solver] for r in results) / len(results)
        print(f"mean ILP/greedy cost ratio, {solver}: {mean:.3f}")


if __name__ == "__main__":
    main()
