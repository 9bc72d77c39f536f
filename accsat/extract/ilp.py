"""Optimal DAG extraction as an integer linear program (HiGHS through highspy, or CBC).

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

The best choice known (greedy's, to begin with) is not handed to HiGHS as a
start: HiGHS 1.16 with presolve misjudges the objective of a user solution
(NPB's BT z_solve: a start costing 17073 taken for 15453) and stops at once,
claiming optimality for the start while 15463 exists.  It is given as a cutoff
instead (``objective_bound``): HiGHS looks only for cheaper choices, and when
it proves there is none (infeasible under the cutoff) the known choice is
optimal.  The search also stops at the relative ``gap`` and when its best has
not improved for ``stall`` seconds, so no kernel pays seconds for nothing.
The model is built as arrays and passed to highspy in one call (PuLP spent
more time building it than HiGHS solving it); CBC gets it through PuLP.
"""

from __future__ import annotations

import contextlib
import logging
import math
import os
import signal
import sys
import threading
import time
import warnings
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from accsat.egraph.graph import ENode, reach
from accsat.extract import local
from accsat.extract.dag import Choice, CostFn, chosen_classes, dag_cost, find_cycles, repair
from accsat.extract.needs import Needs
from accsat.extract.regions import Regions

SOLVERS = ("highs", "cbc")
log = logging.getLogger(__name__)
Key = tuple[int, ENode]
ROOT = -1  # the activity of a root: the constant 1, not a column
# Cheaper by at least this much to count as better (the cutoff, and _offer); below the
# tie-break of costs.preferring, above floating-point noise on sums of costs.
MARGIN = 1e-6
# Why the search ended (IlpOutcome.stop): proven optimal; within the relative gap of
# its bound; no better choice for ``stall`` seconds; at the deadline; the solver failed.
STOPS = ("optimal", "gap", "stalled", "time-limit", "failed")


@dataclass
class IlpOutcome:
    choice: dict[
        int, ENode
    ]  # best acyclic choice known (the start if the ILP found nothing better)
    cost: float
    proven: bool  # the solver proved it optimal
    from_ilp: bool  # the ILP (or a repair of its answer) produced it
    rounds: int
    cuts: int
    stop: str = "time-limit"  # one of STOPS (no round: no time for one)


Row = tuple[dict[int, float], float, float]  # {column: coefficient}, lower, upper bound


class Formulation:
    """The 0-1 program over pruned candidate nodes, as arrays: a column per variable
    (cost, lower bound), rows of {column: coefficient} with their bounds; cycle cuts
    are rows added later."""

    def __init__(self, nodes: dict[int, list[ENode]], roots: list[int], cost: CostFn):
        self.nodes, self.roots, self.cost = nodes, set(roots), cost
        self.costs: list[float] = []
        self.lower: list[float] = []
        self.rows: list[Row] = []
        self.parents: dict[int, set[Key]] = {c: set() for c in nodes}
        for c, ns in nodes.items():
            for n in ns:
                for ch in n.children:
                    self.parents[ch].add((c, n))
        self._act: dict[int, int] = {}
        self._x: dict[Key, int] = {}
        self._resolving: set[int] = set()
        self.cuts = 0
        self._constrain(cost)
        self._cut_two_cycles()

    # -- variables, shared where equality is forced ---------------------------------------
    def activity(self, c: int) -> int:
        """The column of class ``c``'s activity, or ROOT."""
        if c not in self._act:
            if c in self.roots:
                act = ROOT
            elif len(self.parents[c]) == 1 and c not in self._resolving:
                self._resolving.add(c)  # a ring of single parents must not recurse forever
                act = self.x(*next(iter(self.parents[c])))
                self._resolving.discard(c)
            else:
                act = self._binary()
            self._act.setdefault(c, act)
        return self._act[c]

    def x(self, c: int, n: ENode) -> int:
        key = (c, n)
        if key not in self._x:
            act = self.activity(c) if len(self.nodes[c]) == 1 and c not in self._resolving else None
            if act is not None and act != ROOT:
                self._x.setdefault(key, act)
            else:  # the only node of a root is fixed at 1
                self._x.setdefault(key, self._binary(1.0 if act == ROOT else 0.0))
        return self._x[key]

    def _binary(self, low: float = 0.0) -> int:
        self.costs.append(0.0)
        self.lower.append(low)
        return len(self.costs) - 1

    def _row(self, terms: Iterable[tuple[int, float]], low: float, high: float) -> None:
        coefs: dict[int, float] = {}
        for col, coef in terms:  # a column may come twice (shared variables)
            coefs[col] = coefs.get(col, 0.0) + coef
        self.rows.append(({c: v for c, v in coefs.items() if v}, low, high))

    # -- constraints ------------------------------------------------------------------------
    def _constrain(self, cost: CostFn) -> None:
        needs = Needs(self.nodes)
        for c, ns in self.nodes.items():
            for n in ns:
                self.costs[self.x(c, n)] += cost(n)
        for c, ns in self.nodes.items():
            act = self.activity(c)
            if len(ns) > 1 or not self._same(self.x(c, ns[0]), act):
                xs = [(self.x(c, n), 1.0) for n in ns]
                if act == ROOT:
                    self._row(xs, 1.0, 1.0)
                else:
                    self._row([*xs, (act, -1.0)], 0.0, 0.0)
            # One row per (class, class below it), summing the class's nodes whose
            # every term contains it (a child, or a class the child needs): tighter
            # than a row per node since at most one of them is chosen, and fewer rows;
            # without the classes below the children the relaxation pays a fraction
            # of each load under a sum it groups many ways at once (extract/needs.py).
            for ch, xs_ in self._users(c, ns, needs).items():
                act_ch = self.activity(ch)
                if act_ch != ROOT and not (len(xs_) == 1 and xs_[0] == act_ch):
                    self._row([*((x, 1.0) for x in xs_), (act_ch, -1.0)], -math.inf, 0.0)

    def bound_roots(self) -> None:
        """The nodes chosen in a root's region (the classes below it) cost at least the
        root's bound (extract/regions.py): the relaxation cannot pay a sum's additions
        at the fractions it spreads over its groupings. Rows added to the model only
        where the relaxation without them was not tight enough (one per root, dense)."""
        cost = self.cost
        regions = Regions(self.nodes, cost)
        for r in sorted(self.roots):
            low = regions.lower[r] - MARGIN
            if low > 0:
                terms = [
                    (self.x(c, n), cost(n))
                    for c in (r, *regions.below(r))
                    for n in self.nodes[c]
                    if cost(n)
                ]
                self._row(terms, low, math.inf)

    def _users(self, c: int, ns: list[ENode], needs: Needs) -> dict[int, list[int]]:
        """Class below ``c`` -> the columns of ``c``'s nodes whose every term contains
        it, where that row says more than the others: not when the same nodes all need
        a class ``k`` that needs it (``sum x <= a[k] <= a[d]`` holds already).

        The classes below are grouped by the nodes that need them (sets of bits,
        split node by node), so that each group is looked at once."""
        bits = [needs.node(n) or 0 for n in ns]
        everything = 0
        for b in bits:
            everything |= b
        blocks = [(0, everything)]  # (nodes needing them, as bits; the classes, as bits)
        for i, b in enumerate(bits):
            split = []
            for users, group in blocks:
                inside, outside = group & b, group & ~b
                if inside:
                    split.append((users | 1 << i, inside))
                if outside:
                    split.append((users, outside))
            blocks = split
        out: dict[int, list[int]] = {}
        for users, group in blocks:
            chosen = [i for i in range(len(ns)) if users >> i & 1]
            shared = everything
            for i in chosen:
                shared &= bits[i]
            group &= ~needs.below_any(shared)
            if group:
                cols = [self.x(c, ns[i]) for i in chosen]
                for d in needs.members(group):
                    out[d] = cols
        return out

    def _same(self, col: int, act: int) -> bool:
        return col == act or (act == ROOT and self.lower[col] == 1.0)

    def _cut_two_cycles(self) -> None:
        for c, ns in self.nodes.items():
            for d in {ch for n in ns for ch in n.children}:
                if c < d and any(c in m.children for m in self.nodes[d]):
                    self.add_cut([c, d])

    def add_cut(self, cycle: list[int]) -> None:
        """At most len-1 of the cycle's edges: ci -> c(i+1) through any node of ci."""
        edges = [(c, cycle[(i + 1) % len(cycle)]) for i, c in enumerate(cycle)]
        self._row(
            ((self.x(c, n), 1.0) for c, nxt in edges for n in self.nodes[c] if nxt in n.children),
            -math.inf,
            len(cycle) - 1.0,
        )
        self.cuts += 1

    # -- solutions --------------------------------------------------------------------------
    def start(self, choice: Choice) -> list[float]:
        """The column values of ``choice`` (a warm start)."""
        values = [0.0] * len(self.costs)
        for c in chosen_classes(choice, self.roots):
            act = self.activity(c)
            if act != ROOT:
                values[act] = 1.0
            values[self.x(c, choice[c])] = 1.0
        return values

    def chosen(self, values) -> dict[int, ENode]:
        """Each class's node of the largest value, where the solution activates it."""
        out = {}
        for c, ns in self.nodes.items():
            node = max(ns, key=lambda n: values[self.x(c, n)])
            if values[self.x(c, node)] > MARGIN:
                out[c] = node
        return out

    def read(self, values, least: float = 0.5) -> dict[int, ENode] | None:
        """The solver's choice from the roots: each class's node of the largest value;
        None if a needed class has none of at least ``least``. (A choice read from a
        fractional solution may be cyclic.)"""
        choice: dict[int, ENode] = {}
        # reach() asks for a class's successors only after it was yielded: chosen by then
        for c in reach(self.roots, lambda c: choice[c].children):
            node = max(self.nodes[c], key=lambda n: values[self.x(c, n)])
            if values[self.x(c, node)] < least:
                return None
            choice[c] = node
        return choice


@dataclass
class Round:
    """One solve: the column values of the solver's best (None: it has none) and why
    it stopped (STOPS, or "none-better": nothing beats the cutoff, which is proof)."""

    values: list[float] | None
    stop: str


class HighsEngine:
    """The formulation in one highspy model; cuts are rows added to it between rounds."""

    def __init__(self, form: Formulation):
        from accsat import numeric  # (first: highspy imports numpy)

        numeric.load_numpy()
        import highspy  # here, not at the top: most kernels never need a solver
        import numpy as np

        self.form = form
        with _stdout_silenced():  # the licence banner is printed when the model is made
            self.h = highspy.Highs()
        # One thread: accsat may run beside a compiler on a small machine, and branch and
        # bound is essentially serial.  Gap 0 unless asked: "optimal" means optimal.  No
        # feasibility jump: it looks for a first solution, and the search starts with a
        # known one as its cutoff (the families benchmark's 21 searches 0.43 -> 0.30 s,
        # the same costs).
        for name, value in (
            ("output_flag", False),
            ("threads", 1),
            ("mip_abs_gap", 0.0),
            ("mip_heuristic_run_feasibility_jump", False),
        ):
            self.h.setOptionValue(name, value)
        n = len(form.costs)
        lp = highspy.HighsLp()
        lp.num_col_ = n
        lp.col_cost_ = np.array(form.costs)
        lp.col_lower_ = np.array(form.lower)
        lp.col_upper_ = np.ones(n)
        lp.integrality_ = [highspy.HighsVarType.kInteger] * n
        self.h.passModel(lp)
        self.passed = 0
        self._add_rows()

    def _add_rows(self) -> None:
        import numpy as np

        rows = self.form.rows[self.passed :]
        if not rows:
            return
        starts: list[int] = [0]
        index: list[int] = []
        value: list[float] = []
        for coefs, _, _ in rows:
            index += coefs.keys()
            value += coefs.values()
            starts.append(len(index))
        self.h.addRows(
            len(rows),
            np.array([lo for _, lo, _ in rows]),
            np.array([hi for _, _, hi in rows]),
            len(index),
            np.array(starts[:-1], dtype=np.int32),
            np.array(index, dtype=np.int32),
            np.array(value, dtype=np.float64),
        )
        self.passed = len(self.form.rows)

    def relax(self, deadline: float) -> tuple[float, list[float]] | None:
        """The LP relaxation's bound and solution (None: not solved in time). The rows
        of extract/needs.py make it tight on most kernels: on NPB's BT x_solve.c:720
        (3,560 columns) it is the optimum, 15% below greedy's choice, in 0.06 s."""
        import highspy
        import numpy as np

        self._add_rows()
        h, n = self.h, len(self.form.costs)
        cols = np.arange(n, dtype=np.int32)
        h.changeColsIntegrality(n, cols, np.full(n, highspy.HighsVarType.kContinuous))
        h.setOptionValue("time_limit", max(deadline - time.perf_counter(), 0.01))
        # these LPs are solved faster as they are than presolved: the 148 relaxations of
        # the families benchmark 0.29 -> 0.15 s, NPB's BT x_solve.c's 0.088 -> 0.045 s
        h.setOptionValue("presolve", "off")
        try:
            self.run_model()
            if h.getModelStatus() != highspy.HighsModelStatus.kOptimal:
                return None
            return h.getInfo().objective_function_value, list(h.getSolution().col_value)
        finally:  # (which forgets the solution)
            h.changeColsIntegrality(n, cols, np.full(n, highspy.HighsVarType.kInteger))

    def solve(self, best: float, deadline: float, stall: float | None, gap: float) -> Round:
        import highspy

        self._add_rows()
        h = self.h
        h.setOptionValue("presolve", "choose")  # (the relaxation's off)
        h.setOptionValue("time_limit", max(deadline - time.perf_counter(), 0.01))
        h.setOptionValue("mip_rel_gap", gap)
        h.setOptionValue("objective_bound", best - MARGIN)
        stalled = _stop_on_stall(h, stall) if stall is not None else [False]
        within = _stop_within(h, best, gap)
        try:
            self.run_model()
        finally:  # this round's callbacks only
            for callback in (h.cbMipInterrupt, h.cbSimplexInterrupt, h.cbMipImprovingSolution):
                callback.clear()
        status, info = h.getModelStatus(), h.getInfo()
        S = highspy.HighsModelStatus
        values = list(h.getSolution().col_value) if info.primal_solution_status == 2 else None
        if status in (S.kInfeasible, S.kObjectiveBound) and values is None:
            return Round(None, "none-better")
        # its bound reached the cutoff: no choice beats ``best``, whatever its own
        # incumbent (one a heuristic found may be worse: HiGHS then reports a gap)
        reached = math.isfinite(info.mip_dual_bound) and info.mip_dual_bound >= best - 2 * MARGIN
        proof = _proof(values, info.objective_function_value, best)
        if status == S.kOptimal:
            return proof if reached else Round(values, "gap" if info.mip_gap > 1e-9 else "optimal")
        if status == S.kTimeLimit:
            return Round(values, "time-limit")
        if status == S.kInterrupt and within[0]:
            return proof if reached else Round(values, "gap")
        if status == S.kInterrupt and stalled[0]:
            return Round(values, "stalled")
        return Round(values, "failed")

    def run_model(self) -> None:
        """HiGHS at work: Ctrl-C waits for it to return (and stops it at a callback)."""
        with _stdout_silenced(), _ctrl_c_deferred() as hit:
            _stop_on_ctrl_c(self.h, hit)
            self.h.run()


def _proof(values: list[float] | None, objective: float, best: float) -> Round:
    """A search that proved no choice cheaper than ``best``: its incumbent where it is
    as good (an equal choice), else none ("none-better": ``best`` is optimal)."""
    if values is not None and objective <= best + MARGIN:
        return Round(values, "optimal")
    return Round(None, "none-better")


# At the root node, where these searches mostly end, HiGHS separates cuts for as long as
# they raise its bound at all: on NPB's LU blts.c:103 the bound closed 0.15 % of its gap
# in a second, on MG's mg.c:1187 nothing, and both then stalled anyway (2.0 and 1.7 s in
# all). There the search also stops once, for ROOT_QUIET of the stall, it has found no
# better choice and its bound has closed less than BOUND_STEP of the gap.  The root LP's
# bound (the first) starts no quiet time, unlike a bound that closes the gap, so rounds
# of cuts after it that move nothing count at once (mg.c:1187: stopped after the first
# such round, 0.65 s, not the second, 1.3 s); at least ROOT_SEEN of the stall after it,
# so one callback straight after another is no round of cuts.
ROOT_QUIET = 0.3
BOUND_STEP = 0.01
ROOT_SEEN = 0.1


def _stop_within(model, best: float, gap: float) -> list[bool]:
    """Stop once HiGHS's bound shows that no choice beats ``best`` (the cutoff, which is
    no solution of HiGHS's own: its gap stays unknown until it finds one) by more than
    ``gap``. The flag says it did."""
    stopped = [False]

    def progress(event) -> None:
        low = event.data_out.mip_dual_bound
        if math.isfinite(low) and closed(low, best, gap):
            stopped[0] = True
            event.interrupt()

    model.cbMipInterrupt.subscribe(progress)
    return stopped


def _stop_on_stall(model, stall: float) -> list[bool]:
    """Proving optimality on a large e-graph can take far longer than finding the
    optimum (NPB's LU: best found in 3 s, unproven at 30 s); stop the search
    once its best has not improved for ``stall`` seconds (at the root: see
    ROOT_QUIET).  The flag says it did.

    Seconds of this process's CPU time, not of the clock: on a loaded machine
    (``make -jN``, other jobs) HiGHS gets as much search as on a quiet one, so the
    code does not depend on the load (measured: with the clock, LU's jacld and jacu
    stopped at greedy's cost, 10 % above the optimum, while other work ran).
    HiGHS reports no simplex iterations here to count instead, and these
    searches mostly end at the root node."""
    last, stopped = [time.process_time()], [False]
    # the bound when it last closed BOUND_STEP of the gap, and when (None: the root LP's)
    bound: list[float | None] = [None, None]
    seen: list[float] = []  # when the first finite bound came

    def improved(event) -> None:
        last[0] = time.process_time()

    def progress(event) -> None:
        out = event.data_out
        low, high = out.mip_dual_bound, out.mip_primal_bound
        now = time.process_time()
        if math.isfinite(low) and math.isfinite(high):
            if bound[0] is None:
                bound[0] = low
                seen.append(now)
            elif low - bound[0] > BOUND_STEP * (high - low):
                bound[0], bound[1] = low, now
        quiet_root = (
            out.mip_node_count == 0
            and bool(seen)
            and now - seen[0] > ROOT_SEEN * stall
            and now - max(last[0], bound[1] if bound[1] is not None else last[0])
            > ROOT_QUIET * stall
        )
        if now - last[0] > stall or quiet_root:
            stopped[0] = True
            event.interrupt()

    model.cbMipImprovingSolution.subscribe(improved)
    model.cbMipInterrupt.subscribe(progress)  # HiGHS calls it between rounds of cuts
    return stopped


class CbcEngine:
    """The formulation through PuLP to its bundled CBC, warm-started from the best known."""

    def __init__(self, form: Formulation):
        self.form = form

    def solve(self, best_choice: Choice, deadline: float, gap: float) -> Round:
        import pulp

        form = self.form
        prob = pulp.LpProblem("extract", pulp.LpMinimize)
        cols = [
            prob.add_variable(f"x{i}", lowBound=low, upBound=1, cat=pulp.LpInteger)
            for i, low in enumerate(form.lower)
        ]
        prob += pulp.lpSum(c * v for c, v in zip(form.costs, cols, strict=True) if c)
        for coefs, low, high in form.rows:
            expr = pulp.LpAffineExpression([(cols[i], v) for i, v in coefs.items()])
            if low == high:
                prob += expr == low
            else:
                prob += expr <= high
        for col, value in zip(cols, form.start(best_choice), strict=True):
            col.setInitialValue(value, check=False)
        with warnings.catch_warnings():
            # PuLP 3.3 deprecates its bundled CBC for 4.0 (pinned <4); it is the CBC we have.
            warnings.simplefilter("ignore", DeprecationWarning)
            engine = pulp.PULP_CBC_CMD(
                msg=False,
                timeLimit=max(deadline - time.perf_counter(), 0.01),
                warmStart=True,
                threads=1,
                gapRel=gap,
            )
        try:
            with _stdout_silenced():
                prob.solve(engine)
        except (pulp.PulpSolverError, OSError):  # e.g. CBC's binary missing or not runnable
            return Round(None, "failed")
        if prob.sol_status not in (pulp.LpSolutionOptimal, pulp.LpSolutionIntegerFeasible):
            return Round(None, "failed")
        values = [col.varValue or 0.0 for col in cols]
        return Round(
            values, "optimal" if prob.sol_status == pulp.LpSolutionOptimal else "time-limit"
        )


@contextlib.contextmanager
def _ctrl_c_deferred() -> Iterator[list[int]]:
    """Ctrl-C while HiGHS runs is recorded, and raised again once the solve has returned.

    A KeyboardInterrupt raised inside a highspy callback is lost in HiGHS's C++ (the solve
    just ends and the caller goes on: ``rewrite -o`` wrote its file) or comes back as
    another error. Only the main thread can handle signals; an ignored SIGINT stays so."""
    hit: list[int] = []
    previous = signal.getsignal(signal.SIGINT)
    if threading.current_thread() is not threading.main_thread() or previous in (
        signal.SIG_IGN,
        None,
    ):
        yield hit
        return
    signal.signal(signal.SIGINT, lambda signum, _frame: hit.append(signum))
    try:
        yield hit
    finally:
        signal.signal(signal.SIGINT, previous)
        if hit:  # to whatever handled it before: Python's default raises KeyboardInterrupt
            signal.raise_signal(signal.SIGINT)


def _stop_on_ctrl_c(model, hit: list[int]) -> None:
    """Stop the solve at its next callback once Ctrl-C was recorded."""

    def interrupt(event) -> None:
        if hit:
            event.interrupt()

    model.cbMipInterrupt.subscribe(interrupt)
    model.cbSimplexInterrupt.subscribe(interrupt)


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


def solve(
    nodes: dict[int, list[ENode]],
    roots: list[int],
    cost: CostFn,
    start: Choice,
    deadline: float,
    solver: str = "highs",
    stall: float | None = None,
    gap: float = 0.0,
    fallback: Choice | None = None,
) -> IlpOutcome:
    """Best acyclic choice the ILP finds before ``deadline`` (time.perf_counter()),
    never worse than ``start``; it stops early at the relative ``gap`` and after
    ``stall`` seconds without a better choice. ``fallback``: a node for classes the
    local search brings in where the relaxation chose none (greedy's)."""
    if solver not in SOLVERS:
        raise ValueError(f"unknown ILP solver {solver!r}; choose one of {', '.join(SOLVERS)}")
    form = Formulation(nodes, roots, cost)
    best, best_cost = dict(start), dag_cost(start, roots, cost)
    out = IlpOutcome(best, best_cost, proven=False, from_ilp=False, rounds=0, cuts=0)
    engine = HighsEngine(form) if solver == "highs" else CbcEngine(form)
    if (
        isinstance(engine, HighsEngine)
        and deadline - time.perf_counter() > 0.05
        and _relaxed(engine, out, gap, deadline, fallback or {})
    ):
        out.cuts = form.cuts
        return out
    while deadline - time.perf_counter() > 0.05:
        if isinstance(engine, HighsEngine):
            step = engine.solve(out.cost, deadline, stall, gap)
        else:
            step = engine.solve(out.choice, deadline, gap)
        out.rounds += 1
        out.stop = step.stop
        if step.stop == "none-better":  # proof that the best known is optimal
            out.proven, out.stop = True, "optimal"
            break
        choice = form.read(step.values) if step.values is not None else None
        if choice is None:
            break
        cycles = find_cycles(choice, roots)
        log.debug(
            "ILP round %d (%s): cost %g, %s, %d cycles, %.2f s left",
            out.rounds,
            solver,
            dag_cost(choice, roots, cost),
            step.stop,
            len(cycles),
            deadline - time.perf_counter(),
        )
        if not cycles:
            _offer(out, choice, roots, cost)
            # Cuts only remove cyclic points, so an acyclic optimum is the true one.
            out.proven = (
                step.stop == "optimal" and dag_cost(choice, roots, cost) <= out.cost + MARGIN
            )
            break
        _cut(form, cycles)
        fixed = repair(choice, out.choice, nodes, roots, cost)
        if fixed is not None:
            _offer(out, fixed, roots, cost)
        if step.stop not in ("optimal", "gap"):  # stopped with a cyclic incumbent
            break
    out.cuts = form.cuts
    return out


def _relaxed(
    engine: HighsEngine, out: IlpOutcome, gap: float, deadline: float, fallback: Choice
) -> bool:
    """Solve the LP relaxation first. Its solution, read as a choice (cycles repaired)
    and improved by local search (extract/local.py), is the start of the search; its
    bound may already show that no choice is cheaper than the best known by more than
    ``gap`` (then the search need not start: True). When it does not, the roots'
    region rows are added and the relaxation solved again, where its solution breaks
    one of them (else the bound stands: jacobian kernels of extract_families.py)."""
    form = engine.form
    values: list[float] = []
    for tighter in (False, True):
        if tighter:
            known = len(form.rows)
            form.bound_roots()
            if not _violated(form.rows[known:], values):  # the same bound, solved again
                return False
        relaxed = engine.relax(deadline)
        if relaxed is None:
            return False
        bound, values = relaxed
        out.rounds += 1
        _start_from(form, values, out, fallback, deadline)
        if bound >= out.cost - MARGIN:
            out.proven, out.stop = True, "optimal"
            return True
        if closed(bound, out.cost, gap):
            out.stop = "gap"
            return True
    return False


def _violated(rows: list[Row], values: list[float]) -> bool:
    """Whether ``values`` (a relaxation's solution) break one of ``rows``: where they do
    not, the relaxation with the rows has the same optimum (these values are feasible)."""
    for coefs, low, high in rows:
        if any(col >= len(values) for col in coefs):  # (a column made since)
            return True
        total = sum(v * values[col] for col, v in coefs.items())
        slack = 1e-7 * max(1.0, abs(total))
        if total < low - slack or total > high + slack:
            return True
    return False


def _start_from(
    form: Formulation, values: list[float], out: IlpOutcome, fallback: Choice, deadline: float
) -> None:
    """Offer the relaxation's choice, repaired and improved by local search."""
    roots = list(form.roots)
    rounded = form.read(values, least=0.0) or {}
    fixed = repair(rounded, out.choice, form.nodes, roots, form.cost)
    start = out.choice
    if fixed is not None and dag_cost(fixed, roots, form.cost) < out.cost - MARGIN:
        start = fixed
    bring = {**fallback, **form.chosen(values)}
    better = local.improve(start, roots, form.nodes, form.cost, bring, deadline)
    if dag_cost(better, roots, form.cost) < out.cost - MARGIN:
        _offer(out, better, roots, form.cost)


def closed(bound: float, best: float, gap: float) -> bool:
    """Whether no choice can be cheaper than ``best`` by more than ``gap`` (relative)."""
    return best - bound <= max(gap * best, MARGIN)


def _cut(form: Formulation, cycles: Iterable[list[int]]) -> None:
    for cycle in {tuple(_rotate(c)) for c in cycles}:
        form.add_cut(list(cycle))


def _rotate(cycle: list[int]) -> list[int]:
    """Same cycle, same list: start at the smallest class id."""
    i = cycle.index(min(cycle))
    return cycle[i:] + cycle[:i]


def _offer(out: IlpOutcome, choice: dict[int, ENode], roots: list[int], cost: CostFn) -> None:
    value = dag_cost(choice, roots, cost)
    if value <= out.cost + MARGIN:
        out.choice, out.cost, out.from_ilp = choice, value, True
