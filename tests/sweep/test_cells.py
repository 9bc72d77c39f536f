"""accsat.sweep.cells: the grid, cell keys, lists and configs."""

from __future__ import annotations

import pytest

from accsat.options import CONFIGS, ORIG
from accsat.sweep.cells import Cell, check_variants, grid, split_list


def test_grid_adds_orig_and_keeps_a_benchmarks_variants_together():
    cells = grid("npb", ["BT", "SP"], ["S"], ["gcc"], ["host"], ["cse"])
    assert [c.variant for c in cells] == [ORIG, "cse", ORIG, "cse"]
    assert cells[1].key == "BT.S.gcc.host.cse" and cells[1].baseline() == cells[0]


def test_keys_are_file_names_and_lists_drop_blanks_and_repeats():
    assert split_list(" BT, SP,,BT ") == ["BT", "SP"]
    assert (
        Cell("spec", "303.ostencil", "test", "gcc=x/y", "host", ORIG).key
        == "303.ostencil.test.gcc_x_y.host.orig"
    )


def test_every_config_is_accepted_and_nothing_else():
    check_variants(list(CONFIGS))
    with pytest.raises(ValueError, match=r"fast.*one of orig, cse"):
        check_variants(["cse", "fast"])
