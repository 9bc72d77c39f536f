"""Greedy DAG extraction (extraction-gym's "greedy-dag").

Every class keeps the node whose sub-DAG (the union of its children's sub-DAGs,
a shared class counted once) is cheapest, recomputed from a worklist until no
class improves.  The sub-DAGs are snapshots (class -> cost of its node when the
snapshot was taken), which makes one evaluation a few dict merges; because a
snapshot can go stale, every *change* of a class's choice is also checked
against the current choices so that the result is never cyclic.
"""

from __future__ import annotations

import math
from collections import deque

from accsat.egraph.graph import EGraph, ENode
from accsat.extract.dag import CostFn, chosen_classes, reaches


class Unextractable(ValueError):
    """A root has no finite (acyclic) term in the e-graph."""


def greedy_dag(egraph: EGraph, roots: list[int], cost: CostFn) -> dict[int, ENode]:
    """Chosen node for every class reachable from ``roots`` through chosen nodes."""
    classes = egraph.reachable(roots)
    items = [(cls, node, cost(node)) for cls in classes for node in egraph.classes[cls]]
    users: dict[int, list[int]] = {cls: [] for cls in classes}  # class -> indices of parent nodes
    for i, (_, node, _) in enumerate(items):
        for child in set(node.children):
            users[child].append(i)

    best: dict[int, float] = {}
    snapshot: dict[int, dict[int, float]] = {}
    choice: dict[int, ENode] = {}
    queue = deque(i for i, (_, node, _) in enumerate(items) if not node.children)
    queued = set(queue)
    while queue:
        i = queue.popleft()
        queued.discard(i)
        cls, node, own = items[i]
        merged = _merge(node, snapshot, cls)
        if merged is None:
            continue
        total = own + sum(merged.values())
        if total >= best.get(cls, math.inf) - 1e-9:
            continue
        # First choice of a class: nothing can point at it yet, always safe.
        if cls in choice and reaches(choice, node.children, cls):
            continue
        merged[cls] = own
        snapshot[cls], best[cls], choice[cls] = merged, total, node
        for j in users[cls]:
            if j not in queued:
                queued.add(j)
                queue.append(j)

    missing = [r for r in roots if r not in choice]
    if missing:
        raise Unextractable(f"e-classes {missing} have no acyclic term")
    return {cls: choice[cls] for cls in chosen_classes(choice, roots)}


def _merge(node: ENode, snapshot: dict[int, dict[int, float]], cls: int) -> dict[int, float] | None:
    """Union of the children's sub-DAGs, or None when a child has none yet or
    the union contains ``cls`` itself (choosing the node would close a cycle)."""
    merged: dict[int, float] = {}
    for child in node.children:
        sub = snapshot.get(child)
        if sub is None:
            return None
        merged.update(sub)
    return None if cls in merged else merged
