"""What any choice of a class must cost at least, sharing inside it counted once.

The cost of a term's sub-DAG is at least its node's cost plus its children's, less
what two children may both contain: every class below both, at the dearest of its
nodes. The children's own bounds come from the same rule, iterated up from zero
(every iterate is a valid bound: the rule only rises with its inputs).

This is the bound the ILP's relaxation lacks on sums: grouped many ways at once
(extract/needs.py), a sum of 8 weighted loads got its loads paid in full but its
additions at a fraction. The cost of a root's region (the classes below it) must
reach the root's bound, whatever the fractions: the root LP of 8-term weighted
stencils and dot products then closes to within 1 % of the optimum (was 3-8 %).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from accsat.egraph.graph import ENode
from accsat.extract.dag import CostFn

SWEEPS = 40  # bound sweeps at most (stopping early keeps a valid, weaker bound)


class Regions:
    """Per class of ``nodes``: the classes below it (any node, any depth) and a lower
    bound of the cost of any acyclic choice of it, itself included."""

    def __init__(self, nodes: Mapping[int, Sequence[ENode]], cost: CostFn):
        self.classes = sorted(nodes)
        self.bit = {c: 1 << i for i, c in enumerate(self.classes)}
        self._below = self._reach(nodes)
        self.lower = self._bounds(nodes, cost)

    def below(self, c: int) -> list[int]:
        bits, out = self._below[c], []
        while bits:
            low = bits & -bits
            out.append(self.classes[low.bit_length() - 1])
            bits ^= low
        return out

    def _reach(self, nodes: Mapping[int, Sequence[ENode]]) -> dict[int, int]:
        # sweeps in id order, which mostly puts a class after the classes below it
        # (egglog numbers a term's arguments first): two or three sweeps on NPB's
        below = dict.fromkeys(nodes, 0)
        kids = {c: {k for n in nodes[c] for k in n.children} for c in self.classes}
        changed = True
        while changed:
            changed = False
            for c in self.classes:
                value = 0
                for k in kids[c]:
                    value |= self.bit[k] | below[k]
                if value != below[c]:
                    below[c] = value
                    changed = True
        return below

    def _bounds(self, nodes: Mapping[int, Sequence[ENode]], cost: CostFn) -> dict[int, float]:
        # what two children may share, priced with bit counts per cost (few distinct costs)
        by_cost: dict[float, int] = {}
        for c, ns in nodes.items():
            dearest = max(cost(n) for n in ns)
            if dearest > 0:
                by_cost[dearest] = by_cost.get(dearest, 0) | self.bit[c]

        def price(bits: int) -> float:
            return sum(w * (bits & mask).bit_count() for w, mask in by_cost.items())

        shapes: dict[int, list[tuple[float, tuple[int, ...], float]]] = {}
        users: dict[int, set[int]] = {c: set() for c in nodes}
        for c, ns in nodes.items():
            shapes[c] = []
            for n in ns:
                kids = tuple(dict.fromkeys(n.children))
                spans = [self.bit[k] | self._below[k] for k in kids]
                shared = sum(
                    price(spans[i] & spans[j])
                    for i in range(len(kids))
                    for j in range(i + 1, len(kids))
                )
                shapes[c].append((cost(n), kids, shared))
                for k in kids:
                    users[k].add(c)
        lower = dict.fromkeys(nodes, 0.0)
        todo = set(nodes)
        for _ in range(SWEEPS):
            new = {c: min(_bound(shape, lower) for shape in shapes[c]) for c in todo}
            changed = [c for c, v in new.items() if v > lower[c] + 1e-9]
            if not changed:
                break
            lower.update((c, new[c]) for c in changed)
            todo = {u for c in changed for u in users[c]}
        return lower


def _bound(shape: tuple[float, tuple[int, ...], float], lower: Mapping[int, float]) -> float:
    own, kids, shared = shape
    if not kids:
        return own
    deepest = max(lower[k] for k in kids)
    return own + max(deepest, sum(lower[k] for k in kids) - shared)
