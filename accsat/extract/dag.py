"""Questions about a choice (one e-node per e-class): what it reaches, its cost, its cycles."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping

from accsat.egraph.graph import ENode, reach

Choice = Mapping[int, ENode]
CostFn = Callable[[ENode], float]


def chosen_classes(choice: Choice, roots: Iterable[int]) -> set[int]:
    """Classes reachable from ``roots`` through the chosen nodes (KeyError if one has no choice)."""
    return set(reach(roots, lambda cls: choice[cls].children))


def dag_cost(choice: Choice, roots: Iterable[int], cost: CostFn) -> float:
    """Cost of the extracted program: every reachable chosen class paid once."""
    return sum(cost(choice[cls]) for cls in chosen_classes(choice, roots))


def reaches(choice: Choice, starts: Iterable[int], target: int) -> bool:
    """Whether ``target`` is reachable from ``starts`` through chosen nodes.

    Classes without a choice yet are dead ends (greedy asks this mid-way).
    """

    def successors(cls: int) -> tuple[int, ...]:
        node = choice.get(cls)
        return node.children if node is not None else ()

    return target in reach(starts, successors)  # stops at the first sight of target


def find_cycles(choice: Choice, roots: Iterable[int]) -> list[list[int]]:
    """Some cycles (as class lists, each class pointing at the next) among the
    classes reachable from ``roots``; empty when the choice is a DAG.

    Iterative DFS; every back edge gives one cycle, so one pass reports several
    disjoint or overlapping cycles, which lets the ILP cut many at once.
    """
    cycles: list[list[int]] = []
    state: dict[int, int] = {}  # 1 = on the DFS path, 2 = finished
    for root in roots:
        if root in state:
            continue
        path: list[int] = [root]
        pos = {root: 0}
        iters = [iter(choice[root].children)]
        state[root] = 1
        while iters:
            child = next(iters[-1], None)
            if child is None:
                iters.pop()
                done = path.pop()
                del pos[done]
                state[done] = 2
            elif state.get(child) == 1:
                cycles.append(path[pos[child] :])
            elif child not in state:
                state[child] = 1
                pos[child] = len(path)
                path.append(child)
                iters.append(iter(choice[child].children))
    return cycles


def is_acyclic(choice: Choice, roots: Iterable[int]) -> bool:
    return not find_cycles(choice, roots)


def repair(
    proposal: Choice,
    fallback: Choice,
    classes: Mapping[int, list[ENode]],
    roots: Iterable[int],
    cost: CostFn,
) -> dict[int, ENode] | None:
    """An acyclic choice close to ``proposal`` (which may be cyclic or partial).

    Depth-first from the roots; at each class take the first of: the proposed
    node, the fallback node, the other nodes by cost, whose children are not on
    the current path.  A finished class's sub-DAG holds only finished classes,
    so only edges back into the path can close a cycle.  None if some class has
    no such node.
    """
    choice: dict[int, ENode] = {}
    on_path: set[int] = set()
    for root in roots:
        if root not in choice and not _repair_from(
            root, proposal, fallback, classes, cost, choice, on_path
        ):
            return None
    return choice


def _repair_from(
    root: int,
    proposal: Choice,
    fallback: Choice,
    classes: Mapping[int, list[ENode]],
    cost: CostFn,
    choice: dict[int, ENode],
    on_path: set[int],
) -> bool:
    def enter(cls: int) -> bool:
        on_path.add(cls)  # before picking: a self-loop is an edge into the path too
        options = [proposal.get(cls), fallback.get(cls), *sorted(classes[cls], key=cost)]
        node = next((n for n in options if n is not None and on_path.isdisjoint(n.children)), None)
        if node is None:
            return False
        choice[cls] = node
        stack.append((cls, list(node.children)))
        return True

    stack: list[tuple[int, list[int]]] = []
    if not enter(root):
        return False
    while stack:
        cls, todo = stack[-1]
        while todo and todo[-1] in choice:
            todo.pop()
        if not todo:
            stack.pop()
            on_path.discard(cls)
        elif not enter(todo.pop()):
            return False
    return True
