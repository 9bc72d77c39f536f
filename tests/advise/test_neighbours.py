"""Neighbour groups: which loads group, their offsets, and the sharing arithmetic."""

from __future__ import annotations

from dataclasses import dataclass

from accsat.advise.neighbours import find_groups
from accsat.ssa.memory import Access, Region

IX, J = 1, 2  # term ids of two indices
U = Region("sym", "u.0")


@dataclass
class L:
    address: Access
    spelled: int | None = None


def load(const: int, per_j: int = 0, region: Region = U, spelled=None) -> L:
    poly = {(IX,): 8}
    if const:
        poly[()] = const
    if per_j:
        poly[(J,)] = per_j
    return L(Access.make(region, 7, poly, 8, "double"), spelled)


def groups(loads, step=1, along="thread", stores=()):
    return find_groups(loads, lambda ld: 8, step, along, "i", list(stores), lambda ld: ld.spelled)


def test_three_point_group_and_its_halo():
    (g,) = groups([load(-8, spelled=-1), load(0, spelled=0), load(8, spelled=1), load(0)])
    assert g.offsets == [-1, 0, 1] and g.loads == 4
    assert (g.loads_shared, g.halo) == (round(34 / 32, 3), 2)
    # without a spelling, offsets count from the first load's
    (g,) = groups([load(-8), load(0), load(8)])
    assert g.offsets == [0, 1, 2]


def test_different_arrays_rows_and_far_offsets_do_not_group():
    other = Region("sym", "v.1")
    assert groups([load(0), load(8, region=other)]) == []
    assert groups([load(0, per_j=512), load(8)]) == []  # a[j][i] and a[i+1]: not one row
    assert groups([load(0), load(8 * 40)]) == []  # 40 lanes apart: beyond the warp


def test_rows_apart_by_spelling_do_not_group():
    # v[j+1][i] is 13 elements after v[j][i]: as many lanes, but the subscripts say it is
    # another row, which the lanes of this row never load
    assert groups([load(0, spelled=0), load(8 * 13, spelled=0)]) == []
    (g,) = groups([load(8 * 13 - 8, spelled=-1), load(8 * 13, spelled=0)])
    assert g.offsets == [-1, 0]


def test_other_elements_of_the_same_lane_do_not_group():
    # lanes 2 elements apart (i += 2): a[i] and a[i+1] are never another lane's
    assert groups([load(0), load(8)], step=2) == []


def test_loop_group_loads_only_the_new_offset():
    (g,) = groups([load(-8), load(0), load(8)], along="loop")
    assert (g.loads, g.loads_shared, g.halo) == (3, 1.0, 2)
    # a[m], a[m+2]: a[m+2] loaded now is a[m] two iterations later (two registers kept)
    (g,) = groups([load(0), load(16)], along="loop")
    assert (g.loads_shared, g.halo, g.span) == (1.0, 1, 2)
    (g,) = groups([load(0), load(-8)], step=-1, along="loop")  # m--: a[m-1] is next
    assert (g.loads_shared, g.halo, g.span) == (1.0, 1, 1)


def test_stores_to_the_group_are_flagged():
    (g,) = groups([load(-8), load(0)], stores=[load(0)])
    assert g.stored
    (g,) = groups([load(-8), load(0)], stores=[load(0, region=Region("sym", "w.2"))])
    assert not g.stored
