"""Shrinking the e-graph before it becomes an ILP.

Every step keeps at least one optimal acyclic choice:
- only classes reachable from the roots matter;
- a node that has its own class as a child can never be in an acyclic choice;
- a node with a child class that has no finite term cannot be chosen;
- a node is dominated by another node of its class that costs no more and
  whose children are a subset of its children (swapping removes edges, so it
  closes no cycle and activates no new class);
- a node whose cheapest possible sub-DAG costs more than a known solution
  (the greedy one) cannot be in an optimal choice.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cache

from accsat.egraph.graph import EGraph, ENode, all_children, reach
from accsat.extract.dag import CostFn


@dataclass
class Pruned:
    """Candidate nodes per class; ``better[n]`` replaces a dropped dominated node."""

    nodes: dict[int, list[ENode]]
    better: dict[tuple[int, ENode], ENode] = field(default_factory=dict)

    @property
    def node_count(self) -> int:
        return sum(len(ns) for ns in self.nodes.values())


def candidates(egraph: EGraph, roots: list[int], cost: CostFn, bound: float) -> Pruned:
    """Candidates for the ILP, given ``bound``, the cost of a known solution."""
    cost = cache(cost)  # the bounds ask for the same nodes' costs sweep after sweep
    live = egraph.reachable(roots)
    nodes = {c: [n for n in egraph.classes[c] if c not in n.children] for c in live}
    better: dict[tuple[int, ENode], ENode] = {}
    for c in nodes:
        nodes[c] = _undominated(c, nodes[c], cost, better)
    while True:
        size = sum(len(ns) for ns in nodes.values())
        nodes = _extractable(nodes)
        cheapest = {c: min(map(cost, ns)) for c, ns in nodes.items()}
        shapes = _shapes(nodes, cost, cheapest)
        lb = _lower_bounds(shapes)
        nodes = {
            c: [
                n
                for n, shape in zip(ns, shapes[c], strict=True)
                if _node_bound(shape, lb) <= bound + 1e-6
            ]
            for c, ns in nodes.items()
        }
        nodes = _reachable(nodes, roots)
        if sum(len(ns) for ns in nodes.values()) == size:
            return Pruned(nodes, better)


def _undominated(
    cls: int, nodes: list[ENode], cost: CostFn, better: dict[tuple[int, ENode], ENode]
) -> list[ENode]:
    # Cheaper and smaller first, so a dominating node is always seen first.
    order = sorted(nodes, key=lambda n: (cost(n), len(set(n.children))))
    kept: list[tuple[ENode, frozenset[int]]] = []
    for node in order:
        kids = frozenset(node.children)
        winner = next((k for k, ks in kept if ks <= kids), None)
        if winner is None:
            kept.append((node, kids))
        else:
            better[(cls, node)] = winner
    return [k for k, _ in kept]


def _extractable(nodes: dict[int, list[ENode]]) -> dict[int, list[ENode]]:
    """Keep nodes whose children all have a finite term (least fixed point)."""
    ok: set[int] = set()
    changed = True
    while changed:
        changed = False
        for c, ns in nodes.items():
            if c not in ok and any(all(ch in ok for ch in n.children) for n in ns):
                ok.add(c)
                changed = True
    return {
        c: [n for n in ns if all(ch in ok for ch in n.children)]
        for c, ns in nodes.items()
        if c in ok
    }


# A node as the bounds see it: its cost, its distinct child classes, and its cost
# plus the cheapest node of each of them (a floor that does not change between sweeps).
Shape = tuple[float, tuple[int, ...], float]


def _shapes(
    nodes: dict[int, list[ENode]], cost: CostFn, cheapest: dict[int, float]
) -> dict[int, list[Shape]]:
    out: dict[int, list[Shape]] = {}
    for c, ns in nodes.items():
        out[c] = []
        for n in ns:
            kids = tuple(set(n.children))
            out[c].append((cost(n), kids, cost(n) + sum(cheapest[k] for k in kids)))
    return out


def _lower_bounds(shapes: dict[int, list[Shape]], sweeps: int = 30) -> dict[int, float]:
    """Lower bound of the DAG cost of each class, iterated up from zero
    (every iterate is a valid bound, so stopping early is safe).  A sweep computes
    again only the classes with a child whose bound the last sweep changed: the
    others would get the same value."""
    lb = dict.fromkeys(shapes, 0.0)
    users: dict[int, set[int]] = {c: set() for c in shapes}
    for c, ns in shapes.items():
        for _, kids, _ in ns:
            for k in kids:
                users[k].add(c)
    todo = set(shapes)
    for _ in range(sweeps):
        new = {c: min(_node_bound(shape, lb) for shape in shapes[c]) for c in todo}
        changed = [c for c, value in new.items() if value != lb[c]]
        if not changed:
            break
        lb.update((c, new[c]) for c in changed)
        todo = {u for c in changed for u in users[c]}
    return lb


def _node_bound(shape: Shape, lb: dict[int, float]) -> float:
    """The sub-DAG holds the node, each child's sub-DAG (they may overlap, hence
    the max) and each distinct child class once (hence the sum of minima)."""
    own, kids, floor = shape
    if not kids:
        return own
    return max(own + max(lb[k] for k in kids), floor)


def _reachable(nodes: dict[int, list[ENode]], roots: list[int]) -> dict[int, list[ENode]]:
    seen = set(reach(roots, lambda c: all_children(nodes[c])))
    return {c: nodes[c] for c in seen}
