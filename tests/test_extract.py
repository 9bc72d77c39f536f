"""Extraction: greedy DAG, ILP with lazy cycle cuts, cost models."""

from __future__ import annotations

import itertools
import time

import pytest
from egraphs import attr_cost, graph, node
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from accsat.egraph.graph import EGraph, ENode
from accsat.errors import AccsatError
from accsat.extract import (
    CostModel,
    ExtractConfig,
    chosen_classes,
    dag_cost,
    extract,
    find_cycles,
    ilp,
    load_cost_model,
)
from accsat.extract.dag import repair
from accsat.extract.greedy import Unextractable, greedy_dag


def check(g: EGraph, roots: list[int], res) -> None:
    """Invariants of every answer."""
    assert not find_cycles(res.choice, roots)
    assert set(chosen_classes(res.choice, roots)) == set(res.choice)
    assert all(res.choice[c] in g.classes[c] for c in res.choice)
    assert res.cost == pytest.approx(dag_cost(res.choice, roots, attr_cost))
    assert res.cost <= res.greedy_cost + 1e-9
    assert res.status in ("optimal", "feasible", "greedy")


# Root 0 = R(X, Y); X and Y can each be a leaf (35) or an op (10) on a shared S (40).
# Tree-optimal: 10 + 35 + 35 = 80.  Sharing S: 10 + 10 + 10 + 40 = 70.  Greedy
# judges X and Y one at a time (10 + 40 > 35), so it misses the sharing.
SHARING = {
    0: [node(10, 1, 2)],
    1: [node(35, tag="x"), node(10, 3)],
    2: [node(35, tag="y"), node(10, 3, tag="y")],
    3: [node(40)],
}


@pytest.mark.parametrize("solver", ["highs", "cbc"])
def test_sharing_beats_tree_optimal_and_greedy(solver):
    g = graph(SHARING)
    res = extract(g, [0], attr_cost, ExtractConfig(solver=solver))
    check(g, [0], res)
    assert res.greedy_cost == 80
    assert res.cost == 70
    assert res.status == "optimal"
    assert res.solver == solver


def test_greedy_only():
    g = graph(SHARING)
    res = extract(g, [0], attr_cost, ExtractConfig(use_ilp=False))
    check(g, [0], res)
    assert (res.cost, res.status, res.solver) == (80, "greedy", "none")


def test_greedy_counts_sharing_inside_one_subdag():
    # R(X, X'): both children may use S; greedy-dag sees S once within R's sub-DAG.
    g = graph({0: [node(1, 1, 2), node(100)], 1: [node(1, 3)], 2: [node(1, 3)], 3: [node(60)]})
    choice = greedy_dag(g, [0], attr_cost)
    assert dag_cost(choice, [0], attr_cost) == 63


@pytest.mark.parametrize("solver", ["highs", "cbc"])
def test_two_cycle_is_cut(solver):
    # A = f(B); B = g(A) (cheap) or a leaf (dear): choosing g would close a cycle.
    g = graph({0: [node(10, 1)], 1: [node(1, 0, tag="g"), node(5)]})
    res = extract(g, [0], attr_cost, ExtractConfig(solver=solver))
    check(g, [0], res)
    assert res.cost == 15
    assert res.status == "optimal"


@pytest.mark.parametrize("solver", ["highs", "cbc"])
def test_longer_cycle_is_cut_lazily(solver):
    # A -> B -> C -> A through cheap nodes; each class also has a dear way out.
    g = graph({0: [node(1, 1), node(50)], 1: [node(1, 2), node(50)], 2: [node(1, 0), node(20)]})
    res = extract(g, [0], attr_cost, ExtractConfig(solver=solver))
    check(g, [0], res)
    assert res.cost == 22
    assert res.status == "optimal"


@pytest.mark.parametrize("solver", ["highs", "cbc"])
def test_lazy_cuts_without_pruning(solver, monkeypatch):
    # The same ring straight to the ILP (pruning would drop the back edge by
    # its bound): the first solution is the ring, a cut, then the optimum. (Without
    # the relaxation first, whose start local search mends to the optimum.)
    monkeypatch.setattr(ilp.HighsEngine, "relax", lambda self, deadline: None)
    g = graph({0: [node(1, 1), node(50)], 1: [node(1, 2), node(50)], 2: [node(1, 0), node(20)]})
    start = {0: node(50)}
    deadline = time.perf_counter() + 30
    out = ilp.solve(g.classes, [0], attr_cost, start, deadline, solver)
    assert (out.cost, out.proven, out.from_ilp) == (22, True, True)
    assert out.rounds == 2 and out.cuts == 1
    assert not find_cycles(out.choice, [0])


def test_unextractable_root():
    with pytest.raises(Unextractable):
        extract(graph({0: [node(1, 1)], 1: [node(1, 0)]}), [0], attr_cost)


def test_no_time_for_the_ilp():
    res = extract(graph(SHARING), [0], attr_cost, ExtractConfig(time_limit=0))
    assert (res.cost, res.status, res.solver) == (80, "greedy", "none")


def test_repair_breaks_a_cyclic_proposal():
    g = graph({0: [node(1, 1)], 1: [node(1, 2), node(9)], 2: [node(1, 0), node(9, tag="z")]})
    ring = {0: g.classes[0][0], 1: g.classes[1][0], 2: g.classes[2][0]}
    fixed = repair(ring, {}, g.classes, [0], attr_cost)
    assert fixed is not None and not find_cycles(fixed, [0])
    assert fixed[0] is ring[0] and fixed[1] is ring[1]  # only the edge closing the ring goes
    assert dag_cost(fixed, [0], attr_cost) == 11


def test_no_roots():
    res = extract(graph(SHARING), [], attr_cost)
    assert (res.choice, res.cost, res.status) == ({}, 0, "greedy")


def test_self_loop_never_chosen():
    g = graph({0: [node(0, 0, 1), node(7)], 1: [node(1)]})
    res = extract(g, [0], attr_cost)
    check(g, [0], res)
    assert res.cost == 7


def test_no_stdout(capfd):
    extract(graph(SHARING), [0], attr_cost, ExtractConfig(solver="highs"))
    extract(graph(SHARING), [0], attr_cost, ExtractConfig(solver="cbc"))
    assert capfd.readouterr().out == ""


def test_unknown_solver():
    with pytest.raises(ValueError, match="gurobi"):
        extract(graph(SHARING), [0], attr_cost, ExtractConfig(solver="gurobi"))


# -- random e-graphs ------------------------------------------------------------------------


@st.composite
def egraphs(draw, cyclic: bool):
    """Classes 0..n-1; acyclic nodes point only at higher classes, the last
    class has a leaf, so every class has a finite term; cyclic ones add nodes
    pointing anywhere (self-loops included)."""
    n = draw(st.integers(1, 9))
    classes: dict[int, list[ENode]] = {c: [] for c in range(n)}
    for c in range(n):
        for i in range(draw(st.integers(1, 3))):
            higher = list(range(c + 1, n))
            kids = draw(st.lists(st.sampled_from(higher), max_size=3)) if higher else []
            classes[c].append(node(draw(st.integers(0, 20)), *kids, tag=str(i)))
        if cyclic and draw(st.booleans()):
            kids = draw(st.lists(st.integers(0, n - 1), min_size=1, max_size=3))
            classes[c].append(node(draw(st.integers(0, 5)), *kids, tag="back"))
    roots = draw(st.lists(st.integers(0, n - 1), min_size=1, max_size=3))
    return graph(classes), roots


def brute_force(g: EGraph, roots: list[int]) -> float | None:
    """Cheapest acyclic choice by enumeration; None when there are too many."""
    classes = sorted(g.reachable(roots))
    combos = 1
    for c in classes:
        combos *= len(g.classes[c])
    if combos > 50_000:
        return None
    best = None
    for picks in itertools.product(*(g.classes[c] for c in classes)):
        choice = dict(zip(classes, picks, strict=True))
        if not find_cycles(choice, roots):
            value = dag_cost(choice, roots, attr_cost)
            best = value if best is None else min(best, value)
    return best


@pytest.mark.parametrize("cyclic", [False, True])
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_random_egraphs(cyclic, data):
    g, roots = data.draw(egraphs(cyclic))
    res = extract(g, roots, attr_cost, ExtractConfig(time_limit=10))
    check(g, roots, res)
    greedy = greedy_dag(g, roots, attr_cost)
    assert not find_cycles(greedy, roots)
    assert dag_cost(greedy, roots, attr_cost) == res.greedy_cost
    assert res.status == "optimal"  # tiny problems: the proof is quick
    best = brute_force(g, roots)
    if best is not None:
        assert res.cost == pytest.approx(best)


# -- cost models -----------------------------------------------------------------------------


def test_paper_cost_model():
    model = load_cost_model("paper")
    costs = {
        op: model.cost(ENode(op, "double"))
        for op in (
            "Const",
            "Sym",
            "Var",
            "Phi",
            "CallRes",
            "Add",
            "Fma",
            "Select",
            "Load",
            "Div",
            "Mod",
            "Call",
            "TNil",
            "TCons",
        )
    }
    assert costs == {
        "Const": 0,
        "Sym": 0,
        "Var": 1,
        "Phi": 1,
        "CallRes": 1,
        "Add": 10,
        "Fma": 10,
        "Select": 10,
        "Load": 100,
        "Div": 100,
        "Mod": 100,
        "Call": 100,
        "TNil": 0,
        "TCons": 0,
    }


def test_cost_model_from_path(tmp_path):
    path = tmp_path / "mine.toml"
    path.write_text('name = "mine"\ndefault = 3\n[ops]\nLoad = 7.5\n')
    model = load_cost_model(str(path))
    assert (model.name, model.cost(ENode("Load", "")), model.cost(ENode("Add", ""))) == (
        "mine",
        7.5,
        3,
    )
    res = extract(graph(SHARING), [0], model, ExtractConfig(use_ilp=False))
    assert res.cost == 9  # root and two leaves at the default cost


@pytest.mark.parametrize(
    "text, message",
    [
        ("default = ", "bad TOML"),
        ("default = -1", "non-negative"),
        ('[ops]\nAdd = "ten"', "must be a number"),
        ("speed = 3", "unknown cost model keys"),
    ],
)
def test_bad_cost_model(tmp_path, text, message):
    path = tmp_path / "bad.toml"
    path.write_text(text)
    with pytest.raises(AccsatError, match=message):
        load_cost_model(str(path))


def test_missing_cost_model():
    with pytest.raises(AccsatError, match="not found"):
        load_cost_model("no_such_model")


def test_cost_model_is_callable():
    model = CostModel("m", default=2.0, ops={"Var": 1.0})
    assert model(ENode("Var", "int")) == 1.0 and model(ENode("Shl", "int")) == 2.0
