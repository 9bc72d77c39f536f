"""Optimal DAG extraction as an integer linear program (PuLP, HiGHS or CBC).

Binary x[n] per node, activity a[c] per class: roots active; an active class
chooses exactly one node (sum x = a); a chosen node activates its children,
written per class and child class as sum(x[n] of c's nodes using d) <= a[d]
(valid because c chooses one node, and a tighter relaxation than one row per
node: measured root bound 1155 vs 1089, proofs on 7 of 8 small cyclic
e-graphs in 10 s vs 5); minimise the cost of the chosen nodes, so a class
shared by several parents is paid once.

Cycles are excluded lazily: solve, look for cycles among the chosen nodes, cut
them off and solve again (NOTES.md: the big-M level formulation found nothing
in 60 s on a 9.5k-node e-graph).  The cut for a cycle c1 -> c2 -> ... -> ck
sums every node of ci that has c(i+1) as a child, so it also forbids the same
cycle through other nodes.  2-cycles are cut up front: they are common (x = -(-x))
and cheap to enumerate.

Variables are shared where the problem forces equality: a class with one node
uses its activity as the node's variable; a non-root class with a single parent
node is active exactly when that node is chosen (nothing else needs it, and an
idle active class only adds cost).
"""

from __future__ import annotations

import contextlib
import logging
import os
import sys
import time
import warnings
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

import highspy
import numpy as np
import pulp

from accsat.egraph.graph import ENode, reach
from accsat.extract.dag import Choice, CostFn, chosen_classes, dag_cost, find_cycles, repair

SOLVERS = ("highs", "cbc")
log = logging.getLogger(__name__)
Key = tuple[int, ENode]
Activity = pulp.LpVariable | int  # 1 for a root


@dataclass
class IlpOutcome:
    choice: dict[int, ENode]  # best acyclic choice known (the start if the ILP found nothing better)
    cost: float
    proven: bool  # the solver proved it optimal
    from_ilp: bool  # the ILP (or a repair of its answer) produced it
    rounds: int
    cuts: int


class Formulation:
    """The PuLP problem over pruned candidate nodes, with cycle cuts added later."""

    def __init__(self, nodes: dict[int, list[ENode]], roots: list[int], cost: CostFn):
        self.nodes, self.roots = nodes, set(roots)
        self.prob = pulp.LpProblem("extract", pulp.LpMinimize)
        self.parents: dict[int, set[Key]] = {c: set() for c in nodes}
        for c, ns in nodes.items():
            for n in ns:
                for ch in n.children:
                    self.parents[ch].add((c, n))
        self._act: dict[int, Activity] = {}
        self._x: dict[Key, pulp.LpVariable] = {}
        self._resolving: set[int] = set()
        self.cuts = 0
        self._constrain(cost)
        self._cut_two_cycles()

    # -- variables, shared where equality is forced ---------------------------------------
    def activity(self, c: int) -> Activity:
        if c not in self._act:
            if c in self.roots:
                act: Activity = 1
            elif len(self.parents[c]) == 1 and c not in self._resolving:
                self._resolving.add(c)  # a ring of single parents must not recurse forever
                act = self.x(*next(iter(self.parents[c])))
                self._resolving.discard(c)
            else:
                act = self._binary(f"a{c}")
            self._act.setdefault(c, act)
        return self._act[c]

    def x(self, c: int, n: ENode) -> pulp.LpVariable:
        key = (c, n)
        if key not in self._x:
            act = self.activity(c) if len(self.nodes[c]) == 1 and c not in self._resolving else None
            if isinstance(act, pulp.LpVariable):
                self._x.setdefault(key, act)
            else:
                low = 1 if isinstance(act, int) else 0  # the only node of a root
                self._x.setdefault(key, self._binary(f"x{len(self._x)}", low))
        return self._x[key]

    def _binary(self, name: str, low: int = 0) -> pulp.LpVariable:
        # Not LpBinary: PuLP resets its lower bound to 0, and a root's only node is fixed at 1.
        return self.prob.add_variable(name, lowBound=low, upBound=1, cat=pulp.LpInteger)

    # -- constraints ------------------------------------------------------------------------
    def _constrain(self, cost: CostFn) -> None:
        prob = self.prob
        prob += pulp.lpSum(cost(n) * self.x(c, n) for c, ns in self.nodes.items() for n in ns)
        for c, ns in self.nodes.items():
            if len(ns) > 1 or not self._same(self.x(c, ns[0]), self.activity(c)):
                prob += pulp.lpSum(self.x(c, n) for n in ns) == self.activity(c)
            # One row per (class, child class), summing the class's nodes that
            # use the child: tighter than a row per node since at most one of
            # them is chosen, and fewer rows.
            users: dict[int, list[pulp.LpVariable]] = {}
            for n in ns:
                for ch in set(n.children):
                    users.setdefault(ch, []).append(self.x(c, n))
            for ch, xs in users.items():
                act = self.activity(ch)
                if not isinstance(act, int) and not (len(xs) == 1 and xs[0] is act):
                    prob += pulp.lpSum(xs) <= act

    @staticmethod
    def _same(var: pulp.LpVariable, act: Activity) -> bool:
        return var is act or (isinstance(act, int) and var.lowBound == 1)

    def _cut_two_cycles(self) -> None:
        for c, ns in self.nodes.items():
            for d in {ch for n in ns for ch in n.children}:
                if c < d and any(c in m.children for m in self.nodes[d]):
                    self.add_cut([c, d])

    def add_cut(self, cycle: list[int]) -> None:
        """At most len-1 of the cycle's edges: ci -> c(i+1) through any node of ci."""
        edges = [(c, cycle[(i + 1) % len(cycle)]) for i, c in enumerate(cycle)]
        self.prob += pulp.lpSum(self.x(c, n) for c, nxt in edges
                                for n in self.nodes[c] if nxt in n.children) <= len(cycle) - 1
        self.cuts += 1

    # -- solutions --------------------------------------------------------------------------
    def set_start(self, choice: Choice) -> None:
        for var in self.prob.variables():
            var.setInitialValue(0, check=False)
        for c in chosen_classes(choice, self.roots):
            act = self.activity(c)
            if not isinstance(act, int):
                act.setInitialValue(1, check=False)
            self.x(c, choice[c]).setInitialValue(1, check=False)

    def read(self) -> dict[int, ENode] | None:
        """The solver's choice from the roots; None if a needed class chose nothing."""
        choice: dict[int, ENode] = {}
        # reach() asks for a class's successors only after it was yielded: chosen by then
        for c in reach(self.roots, lambda c: choice[c].children):
            node = max(self.nodes[c], key=lambda n: self.x(c, n).varValue or 0.0)
            if (self.x(c, node).varValue or 0.0) < 0.5:
                return None
            choice[c] = node
        return choice


class WarmHiGHS(pulp.HiGHS):
    """PuLP 3.3's HiGHS interface ignores initial values: hand them to setSolution.
    The time limit is set here, from ``deadline``, so that building the model
    counts against the budget."""

    deadline = 0.0
    stall: float | None = None  # stop when the incumbent has not improved for this long
    proven = False

    def callSolver(self, lp: pulp.LpProblem) -> None:
        left = max(self.deadline - time.perf_counter(), 0.01)
        lp.solverModel.setOptionValue("time_limit", left)
        if self.stall is not None:
            self._stop_on_stall(lp.solverModel, self.stall)
        cols = lp.variables()
        values = np.zeros(len(cols))
        for var in cols:
            values[var.index] = var.varValue or 0.0
        lp.solverModel.setSolution(len(cols), np.arange(len(cols), dtype=np.int32), values)
        lp.solverModel.run()
        self.proven = lp.solverModel.getModelStatus() == highspy.HighsModelStatus.kOptimal


    @staticmethod
    def _stop_on_stall(model, stall: float) -> None:
        """Proving optimality on a large e-graph can take far longer than finding the
        optimum (NPB's LU: best found in 3 s, unproven at 30 s); stop the search
        once the incumbent has not improved for ``stall`` seconds."""
        last = [time.perf_counter()]

        def improved(event) -> None:
            last[0] = time.perf_counter()

        def interrupt(event) -> None:
            if time.perf_counter() - last[0] > stall:
                event.interrupt()

        model.cbMipImprovingSolution.subscribe(improved)
        model.cbMipInterrupt.subscribe(interrupt)


@contextlib.contextmanager
def _stdout_silenced() -> Iterator[None]:
    """File descriptor 1 pointed at /dev/null while the solver runs.

    highspy 1.16 prints a licence banner from C on stdout when a model is made,
    before any option can silence it; ``accsat rewrite f.c > out.c`` must get C only."""
    if sys.stdout is not None:
        with contextlib.suppress(Exception):
            sys.stdout.flush()
    try:
        saved: int | None = os.dup(1)
    except OSError:  # no stdout at all: nothing to protect
        saved = None
    if saved is None:
        yield
        return
    try:
        with open(os.devnull, "wb") as null:
            os.dup2(null.fileno(), 1)
        yield
    finally:
        os.dup2(saved, 1)
        os.close(saved)


def run_solver(prob: pulp.LpProblem, solver: str, deadline: float,
               stall: float | None = None) -> tuple[bool, bool]:
    """(has a solution, proven optimal).  Proof comes from the solver's own
    status: PuLP labels a time-limited incumbent "Optimal" too."""
    seconds = max(deadline - time.perf_counter(), 0.01)
    # One thread: accsat may run beside a compiler on a small machine, and both
    # solvers' branch and bound is essentially serial.  Gap 0: "optimal" means optimal.
    if solver == "highs":
        engine = WarmHiGHS(msg=False, threads=1, gapRel=0.0)
        engine.deadline = deadline
        engine.stall = stall
    elif solver == "cbc":
        with warnings.catch_warnings():
            # PuLP 3.3 deprecates its bundled CBC for 4.0 (pinned <4); it is the CBC we have.
            warnings.simplefilter("ignore", DeprecationWarning)
            engine = pulp.PULP_CBC_CMD(msg=False, timeLimit=seconds, warmStart=True, threads=1,
                                       gapRel=0.0)
    else:
        raise ValueError(f"unknown ILP solver {solver!r}; choose one of {', '.join(SOLVERS)}")
    try:
        with _stdout_silenced():
            prob.solve(engine)
    except (pulp.PulpSolverError, OSError):  # e.g. CBC's binary missing or not runnable
        return False, False
    found = prob.sol_status in (pulp.LpSolutionOptimal, pulp.LpSolutionIntegerFeasible)
    proven = engine.proven if solver == "highs" else prob.sol_status == pulp.LpSolutionOptimal
    return found, found and proven


def solve(nodes: dict[int, list[ENode]], roots: list[int], cost: CostFn, start: Choice,
          deadline: float, solver: str = "highs", stall: float | None = None) -> IlpOutcome:
    """Best acyclic choice the ILP finds before ``deadline`` (time.perf_counter()),
    never worse than ``start``."""
    form = Formulation(nodes, roots, cost)
    best, best_cost = dict(start), dag_cost(start, roots, cost)
    out = IlpOutcome(best, best_cost, proven=False, from_ilp=False, rounds=0, cuts=0)
    while deadline - time.perf_counter() > 0.05:
        form.set_start(out.choice)
        found, proven = run_solver(form.prob, solver, deadline, stall)
        out.rounds += 1
        choice = form.read() if found else None
        if choice is None:
            break
        cycles = find_cycles(choice, roots)
        log.debug("ILP round %d (%s): cost %g, proven %s, %d cycles, %.2f s left", out.rounds,
                  solver, dag_cost(choice, roots, cost), proven, len(cycles),
                  deadline - time.perf_counter())
        if not cycles:
            _offer(out, choice, roots, cost)
            # Cuts only remove cyclic points, so an acyclic optimum is the true one.
            out.proven = proven and dag_cost(choice, roots, cost) <= out.cost + 1e-6
            break
        _cut(form, cycles)
        fixed = repair(choice, out.choice, nodes, roots, cost)
        if fixed is not None:
            _offer(out, fixed, roots, cost)
        if not proven:  # out of time with a cyclic incumbent
            break
    out.cuts = form.cuts
    return out


def _cut(form: Formulation, cycles: Iterable[list[int]]) -> None:
    for cycle in {tuple(_rotate(c)) for c in cycles}:
        form.add_cut(list(cycle))


def _rotate(cycle: list[int]) -> list[int]:
    """Same cycle, same list: start at the smallest class id."""
    i = cycle.index(min(cycle))
    return cycle[i:] + cycle[:i]


def _offer(out: IlpOutcome, choice: dict[int, ENode], roots: list[int], cost: CostFn) -> None:
    value = dag_cost(choice, roots, cost)
    if value <= out.cost + 1e-6:
        out.choice, out.cost, out.from_ilp = choice, value, True
