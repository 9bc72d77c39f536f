"""Greedy DAG extraction (extraction-gym's "greedy-dag").

Every class keeps the node whose sub-DAG (the union of its children's sub-DAGs,
a shared class counted once) is cheapest, recomputed from a worklist until no
class improves.  The sub-DAGs are snapshots (class -> cost of its node when the
snapshot was taken), which makes one evaluation a few dict merges; because a
snapshot can go stale, every *change* of a class's choice is also checked
against the current choices so that the result is never cyclic; that check
searches down from the new node and up from the class at once (``_Chosen``),
so it costs the smaller of the two sides, not the whole sub-DAG below a class
near the roots.
"""

from __future__ import annotations

import math
from collections import deque
from collections.abc import Iterable

from accsat.egraph.graph import EGraph, ENode
from accsat.extract.dag import CostFn, chosen_classes


class Unextractable(ValueError):
    """A root has no finite (acyclic) term in the e-graph."""


def greedy_dag(egraph: EGraph, roots: list[int], cost: CostFn) -> dict[int, ENode]:
    """Chosen node for every class reachable from ``roots`` through chosen nodes."""
    choice = greedy_choices(egraph, roots, cost)
    missing = [r for r in roots if r not in choice]
    if missing:
        raise Unextractable(f"e-classes {missing} have no acyclic term")
    return {cls: choice[cls] for cls in chosen_classes(choice, roots)}


def greedy_choices(egraph: EGraph, roots: list[int], cost: CostFn) -> dict[int, ENode]:
    """Greedy's node for every class below ``roots`` that has an acyclic term, whether
    the choice from the roots reaches it or not (a start for other choices)."""
    classes = egraph.reachable(roots)
    items = [(cls, node, cost(node)) for cls in classes for node in egraph.classes[cls]]
    users: dict[int, list[int]] = {cls: [] for cls in classes}  # class -> indices of parent nodes
    for i, (_, node, _) in enumerate(items):
        for child in set(node.children):
            users[child].append(i)

    best: dict[int, float] = {}
    snapshot: dict[int, dict[int, float]] = {}
    chosen = _Chosen()
    choice = chosen.choice
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
        if cls in choice and chosen.reaches(node.children, cls):
            continue
        merged[cls] = own
        snapshot[cls], best[cls] = merged, total
        chosen.choose(cls, node)
        for j in users[cls]:
            if j not in queued:
                queued.add(j)
                queue.append(j)

    return choice


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


class _Chosen:
    """The choice so far, with each class's chosen parents (classes whose chosen node
    has it as a child), so that reachability can be searched from both ends."""

    def __init__(self) -> None:
        self.choice: dict[int, ENode] = {}
        self.parents: dict[int, set[int]] = {}

    def choose(self, cls: int, node: ENode) -> None:
        old = self.choice.get(cls)
        if old is not None:
            for child in set(old.children):
                self.parents[child].discard(cls)
        self.choice[cls] = node
        for child in set(node.children):
            self.parents.setdefault(child, set()).add(cls)

    def reaches(self, starts: Iterable[int], target: int) -> bool:
        """Whether ``target`` is reachable from ``starts`` through chosen nodes
        (``dag.reaches``): one step down from the starts and one step up from the
        target in turn, until the two searches meet or one has nothing left.  A side
        that ends has seen everything on its side, and a class both sides reach is
        seen by the second at the moment it is added, so the answer is exact."""
        down, up = set(starts), {target}
        if target in down:
            return True
        down_todo, up_todo = list(down), [target]
        choice, parents = self.choice, self.parents
        while down_todo and up_todo:
            node = choice.get(down_todo.pop())
            for child in node.children if node is not None else ():
                if child not in down:
                    if child in up:
                        return True
                    down.add(child)
                    down_todo.append(child)
            for parent in parents.get(up_todo.pop(), ()):
                if parent not in up:
                    if parent in down:
                        return True
                    up.add(parent)
                    up_todo.append(parent)
        return False
