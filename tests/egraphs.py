"""Small e-graphs for the extraction tests: a node's cost is written in it."""

from __future__ import annotations

from accsat.egraph.graph import EGraph, ENode


def node(cost: float, *children: int, tag: str = "") -> ENode:
    """A node whose cost is written in it (see ``attr_cost``)."""
    return ENode("N", "", (str(cost), tag), tuple(children))


def attr_cost(n: ENode) -> float:
    return float(n.attrs[0])


def graph(classes: dict[int, list[ENode]]) -> EGraph:
    g = EGraph()
    for cls, nodes in classes.items():
        for n in nodes:
            g.add(cls, n)
    return g
