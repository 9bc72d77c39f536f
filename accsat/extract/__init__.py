"""Extraction: pick one e-node per e-class so that the program is cheapest.

Greedy DAG extraction first (fast, always acyclic), then an ILP warm-started
from it within a wall-clock budget; the ILP's answer is used only when it is
acyclic and no dearer than greedy's.
"""

from __future__ import annotations

import functools
import time
from collections.abc import Callable
from dataclasses import dataclass

from accsat.egraph.graph import EGraph, ENode
from accsat.extract import ilp, prune
from accsat.extract.costs import CostModel, load_cost_model
from accsat.extract.dag import chosen_classes, dag_cost, find_cycles, is_acyclic
from accsat.extract.greedy import Unextractable, greedy_choices
from accsat.extract.needs import Needs
from accsat.options import ExtractConfig

__all__ = [
    "CostModel",
    "ExtractConfig",
    "Extraction",
    "Unextractable",
    "chosen_classes",
    "dag_cost",
    "extract",
    "find_cycles",
    "is_acyclic",
    "load_cost_model",
]


@dataclass
class Extraction:
    choice: dict[
        int, ENode
    ]  # chosen node for every class reachable from the roots via chosen nodes
    cost: float  # DAG cost of the choice (each chosen class paid once)
    greedy_cost: float
    status: str  # "optimal" | "feasible" | "greedy"
    seconds: float
    solver: str  # "highs" | "cbc" | "none"
    # How the ILP ended: "optimal" (its choice, cheaper than greedy's, proven optimal),
    # "greedy-optimal" (no choice is cheaper than greedy's: proven), "gap" (within the
    # relative gap of its bound), "stalled", "time-limit", "failed", or "off" (not run:
    # ILP off, no root, no time).
    ilp: str = "off"


def extract(
    egraph: EGraph,
    roots: list[int],
    cost: CostModel | Callable[[ENode], float],
    config: ExtractConfig = ExtractConfig(),
) -> Extraction:
    """Cheapest acyclic choice found within ``config.time_limit`` seconds (all stages);
    the ILP (``config.use_ilp``) also stops within the relative ``config.gap`` of its
    bound and after ``config.stall`` seconds without a better choice.

    status: "optimal" when the solver proved it (greedy's choice included),
    "feasible" for an ILP answer without proof, "greedy" when the greedy choice
    stands unproven (ILP off, out of time, stopped, failed).  Raises
    Unextractable when a root has no acyclic term.
    """
    start = time.perf_counter()
    if config.solver not in ilp.SOLVERS:
        raise ValueError(
            f"unknown ILP solver {config.solver!r}; choose one of {', '.join(ilp.SOLVERS)}"
        )
    # Every stage asks for the same nodes' costs again (greedy, pruning, the ILP's
    # columns, each repair): computed once per node (on_constants looks at children).
    cost_fn = functools.cache(cost.cost if isinstance(cost, CostModel) else cost)
    roots = list(dict.fromkeys(roots))
    every = greedy_choices(egraph, roots, cost_fn)
    missing = [r for r in roots if r not in every]
    if missing:
        raise Unextractable(f"e-classes {missing} have no acyclic term")
    greedy = {c: every[c] for c in chosen_classes(every, roots)}
    greedy_cost = dag_cost(greedy, roots, cost_fn)
    result = Extraction(greedy, greedy_cost, greedy_cost, "greedy", 0.0, "none")
    if config.use_ilp and roots:
        _improve(
            result,
            egraph,
            roots,
            cost_fn,
            every,
            start + config.time_limit,
            config.solver,
            config.stall,
            config.gap,
        )
    result.seconds = time.perf_counter() - start
    return result


def _improve(
    result: Extraction,
    egraph: EGraph,
    roots: list[int],
    cost: Callable[[ENode], float],
    every: dict[int, ENode],
    deadline: float,
    solver: str,
    stall: float | None = None,
    gap: float = 0.0,
) -> None:
    """``every``: greedy's node of every class (local search brings classes in with it)."""
    pruned = prune.candidates(egraph, roots, cost, result.greedy_cost)
    # Greedy's choice in terms of the surviving nodes: a dominated node gives
    # way to its dominator, which costs no more and has fewer children.
    start = {c: pruned.better.get((c, n), n) for c, n in result.choice.items()}
    start = {c: start[c] for c in chosen_classes(start, roots)}
    fallback = {c: pruned.better.get((c, n), n) for c, n in every.items() if c in pruned.nodes}
    floor = _floor(pruned.nodes, roots, cost)
    if ilp.closed(floor, result.greedy_cost, gap):  # no solver needed, not even loaded
        proven = floor >= result.greedy_cost - ilp.MARGIN
        result.status, result.ilp = ("optimal", "greedy-optimal") if proven else ("greedy", "gap")
        return
    out = ilp.solve(pruned.nodes, roots, cost, start, deadline, solver, stall, gap, fallback)
    if out.rounds:
        result.solver = solver
        cheaper = out.cost < result.greedy_cost - ilp.MARGIN
        result.ilp = ("optimal" if cheaper else "greedy-optimal") if out.proven else out.stop
    if out.proven:
        result.status = "optimal"
    elif out.from_ilp and out.cost <= result.greedy_cost:
        result.status = "feasible"
    if result.status != "greedy":
        result.choice, result.cost = out.choice, out.cost


def _floor(
    nodes: dict[int, list[ENode]], roots: list[int], cost: Callable[[ENode], float]
) -> float:
    """A lower bound of every choice's cost: the classes every term of a root contains,
    and the roots, each at its cheapest node (a kernel of loads and a few operations,
    each needed, is proven so without a solver)."""
    needs = Needs(nodes)
    classes = set(roots).union(*(needs.of(r) for r in roots))
    return sum(min(cost(n) for n in nodes[c]) for c in classes)
