"""Greedy's cycle check searches from both ends: it must answer exactly as dag.reaches."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from accsat.egraph.graph import ENode
from accsat.extract.dag import reaches
from accsat.extract.greedy import _Chosen


def node(tag: int, *children: int) -> ENode:
    return ENode("N", "", (str(tag),), tuple(children))


@st.composite
def choice_histories(draw):
    """Choices made one after another (a class may change its node, cycles allowed),
    then a question: starts and a target."""
    n = draw(st.integers(1, 12))
    history = draw(
        st.lists(
            st.tuples(st.integers(0, n - 1), st.lists(st.integers(0, n - 1), max_size=4)),
            max_size=30,
        )
    )
    starts = draw(st.lists(st.integers(0, n - 1), max_size=4))
    return history, starts, draw(st.integers(0, n - 1))


@settings(max_examples=300, deadline=None)
@given(choice_histories())
def test_two_sided_search_answers_as_the_walk_down(case):
    history, starts, target = case
    chosen = _Chosen()
    for i, (cls, kids) in enumerate(history):
        chosen.choose(cls, node(i, *kids))
        assert chosen.reaches(starts, target) == reaches(chosen.choice, starts, target)


def test_a_replaced_node_no_longer_leads_up():
    chosen = _Chosen()
    chosen.choose(0, node(0, 1))
    chosen.choose(1, node(1, 2))
    assert chosen.reaches([0], 2)
    chosen.choose(1, node(2))  # 1 drops its child 2
    assert not chosen.reaches([0], 2)
    assert chosen.parents[2] == set()
