"""The one reachability walk (accsat.egraph.graph.reach) and its users."""

from __future__ import annotations

from accsat.egraph.graph import EGraph, ENode, reach
from accsat.extract.dag import chosen_classes, reaches


def _graph() -> EGraph:
    """1 -> {2 | 3}; 2 -> 4; 3 -> 1 (a cycle through the other node);
    4 -> 4 (a self-loop) | leaf; 5 is unreachable from 1."""
    g = EGraph()
    g.add(1, ENode("Add", "double", (), (2, 2)))
    g.add(1, ENode("Neg", "double", (), (3,)))
    g.add(2, ENode("Neg", "double", (), (4,)))
    g.add(3, ENode("Neg", "double", (), (1,)))
    g.add(4, ENode("Fabs", "double", (), (4,)))
    g.add(4, ENode("Const", "double", ("1.0",)))
    g.add(5, ENode("Neg", "double", (), (1,)))
    return g


def test_reachable_through_all_nodes():
    g = _graph()
    assert g.reachable([1]) == {1, 2, 3, 4}
    assert g.reachable([4]) == {4}
    assert g.reachable([5]) == {1, 2, 3, 4, 5}
    assert g.reachable([]) == set()


def test_cycle_from_any_member():
    g = _graph()
    assert g.reachable([3]) == {1, 2, 3, 4}


def test_through_chosen_nodes_only():
    g = _graph()
    choice = {c: nodes[0] for c, nodes in g.classes.items()}  # 1 picks Add: 3 is not reached
    assert chosen_classes(choice, [1]) == {1, 2, 4}
    assert reaches(choice, [2], 4)
    assert not reaches(choice, [2], 1)
    assert not reaches({1: choice[1]}, [1], 4)  # 2 has no choice yet: a dead end


def test_reach_yields_each_once_and_stops_early():
    succ = {1: [2, 3], 2: [1, 3], 3: [3]}
    visited: list[int] = []

    def successors(i: int) -> list[int]:
        visited.append(i)
        return succ[i]

    assert sorted(reach([1, 1], successors)) == [1, 2, 3]
    visited.clear()
    assert 1 in reach([1], successors)
    assert visited == []  # found at the root, nothing expanded
