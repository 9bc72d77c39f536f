"""What every choice of a class contains (extract/needs.py), what it costs at least
(extract/regions.py), and the relaxation they tighten: checked against every acyclic
choice of small random e-graphs, and on a sum grouped every way."""

from __future__ import annotations

import itertools
import random
import time

import pytest
from egraphs import attr_cost, graph, node

from accsat.egraph.graph import ENode
from accsat.extract import ExtractConfig, dag_cost, extract, ilp
from accsat.extract.dag import chosen_classes, find_cycles
from accsat.extract.local import improve
from accsat.extract.needs import Needs
from accsat.extract.regions import Regions


def random_egraph(seed: int, classes: int = 7) -> dict[int, list[ENode]]:
    """Classes 0..n-1, a leaf in the last two, nodes with one or two children each,
    mostly to higher classes (a DAG) and sometimes back (cycles)."""
    rng = random.Random(seed)
    out: dict[int, list[ENode]] = {}
    for c in range(classes):
        ns = []
        for i in range(rng.randint(1, 3)):
            if c >= classes - 2 or rng.random() < 0.15:
                ns.append(node(rng.choice((1, 5, 20)), tag=f"{c}.{i}"))
                continue
            kids = [
                rng.randrange(c + 1, classes) if rng.random() < 0.85 else rng.randrange(classes)
                for _ in range(rng.randint(1, 2))
            ]
            ns.append(node(rng.choice((1, 10, 30)), *kids, tag=f"{c}.{i}"))
        out[c] = list(dict.fromkeys(ns))
    return out


def acyclic_choices(classes: dict[int, list[ENode]], root: int):
    """Every acyclic choice from ``root`` (brute force: the e-graphs are small)."""
    keys = sorted(classes)
    for pick in itertools.product(*(classes[c] for c in keys)):
        choice = dict(zip(keys, pick, strict=True))
        if not find_cycles(choice, [root]):
            yield {c: choice[c] for c in chosen_classes(choice, [root])}


@pytest.mark.parametrize("seed", range(40))
def test_needed_classes_are_in_every_choice_and_bounds_below_every_cost(seed):
    classes = random_egraph(seed)
    needs, regions = Needs(classes), Regions(classes, attr_cost)
    for root in classes:
        choices = list(acyclic_choices(classes, root))
        if not choices:
            continue
        for choice in choices:
            assert set(needs.of(root)) <= set(choice) - {root}
            assert regions.lower[root] <= dag_cost(choice, [root], attr_cost) + 1e-9
        in_all = set.intersection(*(set(ch) - {root} for ch in choices))
        assert set(needs.of(root)) == in_all  # and nothing less: the fixed point is exact


def grouped_sum(leaves: int) -> tuple[dict[int, list[ENode]], int]:
    """A sum of ``leaves`` loads (cost 100 each) with every grouping of every sub-sum
    (as associativity and commutativity make it): classes are the sub-sums."""
    ids: dict[frozenset[int], int] = {}
    classes: dict[int, list[ENode]] = {}
    for size in range(1, leaves + 1):
        for part in itertools.combinations(range(leaves), size):
            ids[frozenset(part)] = len(ids)
    for part, c in ids.items():
        if len(part) == 1:
            classes[c] = [node(100, tag=f"load{min(part)}")]
            continue
        members = sorted(part)
        ns = []
        for k in range(1, len(members)):
            for left in itertools.combinations(members, k):
                rest = part - set(left)
                ns.append(node(10, ids[frozenset(left)], ids[frozenset(rest)]))
        classes[c] = ns
    return classes, ids[frozenset(range(leaves))]


def test_the_relaxation_pays_every_load_of_a_sum_grouped_every_way():
    """Without the rows of needed classes the LP picks many groupings at a fraction and
    pays each load under them at that fraction (issue 36: 530 of a stencil's 1,212)."""
    classes, root = grouped_sum(5)
    form = ilp.Formulation(classes, [root], attr_cost)
    bound, _ = ilp.HighsEngine(form).relax(time.perf_counter() + 30)
    assert bound >= 5 * 100 + 10 - 1e-6  # the loads in full, and the root's addition
    form.bound_roots()  # each root's region pays its bound: the four additions
    bound, _ = ilp.HighsEngine(form).relax(time.perf_counter() + 30)
    assert bound == pytest.approx(5 * 100 + 4 * 10)


def test_a_sum_grouped_every_way_is_proven_at_the_root():
    classes, root = grouped_sum(6)
    res = extract(graph(classes), [root], attr_cost, ExtractConfig(gap=0.0))
    assert res.cost == 6 * 100 + 5 * 10 and res.status == "optimal"


def test_local_search_shares_what_takes_two_switches():
    """Two statements each computing its own part of x (A, B) where both could use one
    shared part S: either switch alone costs the same (S instead of A), the second then
    pays (horner: x * x shared, 371 -> 351)."""
    classes = {
        0: [node(10, 2, tag="r1"), node(10, 4, tag="r1 via S")],
        1: [node(10, 3, tag="r2"), node(10, 4, tag="r2 via S")],
        2: [node(10, 5, tag="A")],
        3: [node(10, 5, tag="B")],
        4: [node(10, 5, tag="S")],
        5: [node(100, tag="x")],
    }
    start = {c: classes[c][0] for c in classes}
    assert dag_cost(start, [0, 1], attr_cost) == 140
    better = improve(start, [0, 1], classes, attr_cost, {}, time.perf_counter() + 30)
    assert dag_cost(better, [0, 1], attr_cost) == 130


def test_a_relaxation_that_keeps_to_the_region_rows_is_not_solved_again(monkeypatch):
    """A sum of two loads: the relaxation without the region rows is already the optimum
    (its solution keeps to them), so the rows are added for the search but the LP is not
    solved again; on a sum grouped every way its solution breaks them (and is). The
    best known choice is made dear, so that no round ends the relaxation."""
    solved: list[int] = []
    relax = ilp.HighsEngine.relax

    def counted(self, deadline):
        solved.append(len(self.form.rows))
        return relax(self, deadline)

    monkeypatch.setattr(ilp.HighsEngine, "relax", counted)
    monkeypatch.setattr(ilp, "_start_from", lambda *args: None)
    for leaves, resolved in ((2, False), (5, True)):
        classes, root = grouped_sum(leaves)
        form = ilp.Formulation(classes, [root], attr_cost)
        rows = len(form.rows)
        out = ilp.IlpOutcome({}, 1e9, False, False, 0, 0)
        solved.clear()
        assert not ilp._relaxed(ilp.HighsEngine(form), out, 0.0, time.perf_counter() + 30, {})
        assert len(form.rows) > rows  # the region rows, for the search
        assert len(solved) == (2 if resolved else 1), leaves


def test_rows_a_solution_keeps_to_and_rows_it_breaks():
    rows = [({0: 1.0, 1: 1.0}, 1.0, 1.0), ({1: 2.0}, -ilp.math.inf, 1.0)]
    assert not ilp._violated(rows, [0.5, 0.5])
    assert ilp._violated(rows, [0.2, 0.6])  # 2 * 0.6 > 1
    assert ilp._violated(rows, [1.0])  # a column the solution does not have
