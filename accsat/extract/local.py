"""Local search on a choice: switch one class's node at a time while that lowers the
DAG cost (a class shared by several parents paid once, as always).

A switch takes out of the program the classes only the old node kept in use and
brings in what the new node needs, each class brought in taking its node from
``fallback``; it is kept when the program gets cheaper and stays acyclic. One switch
finds the sharing greedy misses where another statement already computes the shared
part (a product grouped as the other statement groups it), and mends what a rounded
LP solution got wrong.
"""

from __future__ import annotations

import time
from collections.abc import Iterable, Mapping

from accsat.egraph.graph import ENode
from accsat.extract.costs import MOST_TIE_BREAK
from accsat.extract.dag import Choice, CostFn

# a switch whose cost changes less than this costs nothing: only the tie-breaks of a few
# nodes (costs.preferring) differ
LEVEL = 10 * MOST_TIE_BREAK


class Program:
    """An acyclic choice from ``roots`` with a count of users per class in it (a root
    counts as a user), so that a switch finds at once the classes that leave and
    enter."""

    def __init__(self, choice: Choice, roots: Iterable[int], cost: CostFn):
        self.choice: dict[int, ENode] = {}
        self.users: dict[int, int] = {}
        self.cost = cost
        self.total = 0.0
        self.entered: list[int] = []
        for r in roots:
            self.users[r] = self.users.get(r, 0) + 1
        todo = list(self.users)
        while todo:
            c = todo.pop()
            if c not in self.choice:
                node = self.choice[c] = choice[c]
                self.total += cost(node)
                for k in set(node.children):
                    self.users[k] = self.users.get(k, 0) + 1
                    todo.append(k)

    def copy(self) -> Program:
        twin = Program.__new__(Program)
        twin.choice, twin.users = dict(self.choice), dict(self.users)
        twin.cost, twin.total, twin.entered = self.cost, self.total, []
        return twin

    def try_switch(
        self, c: int, node: ENode, fallback: Mapping[int, ENode], level: bool = False
    ) -> float | None:
        """Switch ``c`` to ``node`` if the program gets cheaper (``level``: or costs
        the same): the saving, or None (nothing changed) when it would not, when a class
        brought in has no node in ``fallback``, or when the program would be cyclic.
        ``entered``: the classes the last switch brought in."""
        old = self.choice[c]
        delta: dict[int, int] = {}  # change of users per class
        entering: dict[int, ENode] = {}
        change = self.cost(node) - self.cost(old)

        def users(k: int) -> int:
            return self.users.get(k, 0) + delta.get(k, 0)

        todo = list(set(node.children))
        while todo:  # what the new node needs
            k = todo.pop()
            if users(k) == 0 and k not in entering:
                brought = fallback.get(k)
                if brought is None:
                    return None
                entering[k] = brought
                change += self.cost(brought)
                todo.extend(set(brought.children))
            delta[k] = delta.get(k, 0) + 1
        todo = list(set(old.children))
        leaving: set[int] = set()
        while todo:  # what only the old node kept
            k = todo.pop()
            delta[k] = delta.get(k, 0) - 1
            if users(k) == 0:
                leaving.add(k)
                gone = entering.get(k) or self.choice[k]
                change -= self.cost(gone)
                todo.extend(set(gone.children))
        if change >= (LEVEL if level else -1e-9):
            return None
        if self._reaches(node.children, c, entering, leaving):
            return None
        self.choice[c] = node
        for k in leaving:
            self.choice.pop(k, None)
            entering.pop(k, None)
        self.choice.update(entering)
        self.entered = list(entering)
        for k, d in delta.items():
            self.users[k] = self.users.get(k, 0) + d
            if self.users[k] == 0:
                del self.users[k]
        self.total += change
        return -change

    def _reaches(
        self, starts: Iterable[int], target: int, entering: Mapping[int, ENode], leaving: set[int]
    ) -> bool:
        seen: set[int] = set()
        todo = list(starts)
        while todo:
            k = todo.pop()
            if k == target:
                return True
            if k in seen or k in leaving:
                continue
            seen.add(k)
            node = entering.get(k) or self.choice.get(k)
            if node is not None:
                todo.extend(node.children)
        return False


def improve(
    choice: Choice,
    roots: Iterable[int],
    classes: Mapping[int, list[ENode]],
    cost: CostFn,
    fallback: Mapping[int, ENode],
    deadline: float,
) -> dict[int, ENode]:
    """``choice`` (acyclic) after switches that lower its cost, until none does or the
    deadline (time.perf_counter()) passes; a class brought in takes its node from
    ``fallback`` or, without one there, from ``choice``.

    Sharing that takes two switches (one statement grouping a product as another one
    could, which costs nothing yet, then the other one using it) is found by trying
    each switch that costs nothing, followed by the switches to nodes over the classes
    it brought in; the pair is kept when it pays (horner: 371 -> 351, x * x shared)."""
    program = Program(choice, roots, cost)
    bring = {**choice, **fallback}
    users: dict[int, list[tuple[int, ENode]]] = {}  # class -> the nodes over it
    for c, ns in classes.items():
        for n in ns:
            for k in set(n.children):
                users.setdefault(k, []).append((c, n))
    _descend(program, classes, cost, bring, deadline)
    improved = True
    while improved and time.perf_counter() < deadline:
        improved = False
        for c in list(program.choice):
            for node in classes.get(c, ()):
                if c not in program.choice or node == program.choice[c]:
                    continue
                # worth a try only if a class it brings in could serve another class
                fresh = [k for k in node.children if k not in program.choice]
                if not any(
                    u != c and u in program.choice for k in fresh for u, _ in users.get(k, ())
                ):
                    continue
                trial = program.copy()
                if trial.try_switch(c, node, bring, level=True) is None:
                    continue
                follow = [u for k in trial.entered for u in users.get(k, ())]
                if _follow(trial, follow, bring) and trial.total < program.total - 1e-9:
                    program, improved = trial, True
                    bring[c] = node
                    _descend(program, classes, cost, bring, deadline)
            if time.perf_counter() > deadline:
                break
    return dict(program.choice)


def _descend(
    program: Program,
    classes: Mapping[int, list[ENode]],
    cost: CostFn,
    bring: dict[int, ENode],
    deadline: float,
) -> None:
    """Switches that lower the cost, each class's nodes cheapest first, until none."""
    improved = True
    while improved and time.perf_counter() < deadline:
        improved = False
        for c in list(program.choice):
            if c not in program.choice:
                continue
            current = program.choice[c]
            for node in sorted(classes.get(c, ()), key=cost):
                if node != current and program.try_switch(c, node, bring) is not None:
                    improved = True
                    bring[c] = node
                    break


def _follow(program: Program, moves: list[tuple[int, ENode]], bring: Mapping[int, ENode]) -> bool:
    """Make each of ``moves`` (class, node) that lowers the cost; whether one did."""
    made = False
    for c, node in moves:
        if c in program.choice and program.choice[c] != node:
            made = program.try_switch(c, node, bring) is not None or made
    return made
