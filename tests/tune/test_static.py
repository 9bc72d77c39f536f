"""accsat.tune.static: the choice from device code figures (``accsat tune --static``)."""

from __future__ import annotations

import pytest

from accsat.tune.choose import NOT_REWRITTEN
from accsat.tune.static import (
    LOSES,
    NO_FIGURES,
    NO_SAVING,
    View,
    choices,
    choose_static,
    listed,
    static_rows,
    totals,
    views,
)

KEY = ("x_solve.c", 421, "0a76")


def view(loads: int, registers: int, instructions: int = 100, spill: int = 0, block=None, name="e"):
    return View("acc parallel loop", {name: (registers, block)}, loads, instructions, spill)


ORIG_40 = view(396, 40)  # x_solve.c:421 as written: 40 registers, 75 % at 128 threads


def test_the_fewest_loads_within_the_occupancy_of_the_code_as_written_win():
    by = {
        "orig": ORIG_40,
        "cse": view(66, 134),  # every load shared: 18.75 %: out
        "cse@keep": view(312, 40),  # within the step: chosen
        "accsat@keep": view(330, 40),
    }
    c = choose_static(KEY, by)
    assert (c.config, c.kept) == ("cse@keep", "")
    assert c.kernel == "x_solve.c:421" and "loads 396 -> 312" in c.reason


def test_a_rewrite_within_the_same_step_is_not_a_loss():
    # 40 -> 48 registers at 128 threads: 75 % -> 62.5 %, a loss; 33 -> 40: 75 % -> 75 %
    assert view(10, 48).loses_to(ORIG_40)
    assert not view(10, 40).loses_to(view(20, 33))
    assert choose_static(KEY, {"orig": view(20, 33), "cse": view(10, 40)}).config == "cse"


def test_the_kernels_own_block_size_counts_too():
    # 64 threads a block: 56 -> 64 registers keeps 128 threads' 50 % yet loses a step at 64
    orig, cse = view(20, 56, block=64), view(10, 64, block=64)
    assert cse.loses_to(orig)
    assert choose_static(KEY, {"orig": orig, "cse": cse}).kept == LOSES


@pytest.mark.parametrize(
    "variant, config, kept",
    [
        (view(396, 40), "orig", NOT_REWRITTEN),  # the same figures
        (view(396, 40, instructions=90), "cse", ""),  # as many loads, fewer instructions
        (view(396, 40, instructions=110), "orig", NO_SAVING),
        (view(300, 40, spill=8), "orig", LOSES),  # spills where orig did not
        (view(300, 40, name="other"), "orig", LOSES),  # an entry orig lacks: not judged
    ],
)
def test_a_change_must_pay_and_must_not_spill(variant, config, kept):
    c = choose_static(KEY, {"orig": ORIG_40, "cse": variant})
    assert (c.config, c.kept) == (config, kept)


def test_ties_go_to_fewer_instructions_then_registers_then_the_order_given():
    by = {
        "orig": ORIG_40,
        "accsat": view(300, 36, instructions=90),
        "cse": view(300, 32, instructions=90),
        "cse+sat": view(300, 32, instructions=90),
    }
    assert choose_static(KEY, by).config == "cse"
    by["cse+bulk"] = view(300, 40, instructions=80)
    assert choose_static(KEY, by).config == "cse+bulk"


def test_views_sum_a_constructs_entries_and_skip_what_ptxas_did_not_count():
    row = {"file": "a.c", "line": 5, "hash": "h", "construct": "acc kernels", "spill": 0}
    rows = [
        {**row, "entry": "f$0", "registers": 40, "block": None, "loads": 10, "instructions": 50},
        {**row, "entry": "f$1", "registers": 72, "block": 128, "loads": 5, "instructions": 20},
        {**row, "entry": "f$1", "registers": 72, "block": 128, "loads": 5, "instructions": 20},
        {**row, "line": 9, "entry": "f$2", "registers": None, "loads": 1},  # no ptxas count
        {"file": "a.c"},  # not a row
    ]
    got = views(rows)
    assert list(got) == [("a.c", 5, "h")]
    v = got[("a.c", 5, "h")]
    assert (v.loads, v.instructions, v.registers, len(v.entries)) == (15, 70, 72, 2)
    assert v.occupancy() == 0.438  # 72 registers at 128 threads, the worse entry


def test_tables_count_losses_against_orig():
    by_config = {
        "orig": {KEY: ORIG_40},
        "cse": {KEY: view(66, 134)},
        "cse@keep": {KEY: view(312, 40)},
    }
    chosen = choices(by_config, {})
    assert [c.config for c in chosen] == ["cse@keep"]
    assert [(t["config"], t["loads"], t["lost"]) for t in totals(by_config)] == [
        ("orig", 396, 0),
        ("cse", 66, 1),
        ("cse@keep", 312, 0),
    ]
    rows = static_rows(by_config, chosen)
    assert [(r["config"], r["chosen"], r["lost"]) for r in rows] == [
        ("orig", False, False),
        ("cse", False, True),
        ("cse@keep", True, False),
    ]
    assert rows[1]["occupancy_128"] == 0.188  # 134 registers: 3 blocks of 4 warps of 64


def test_a_construct_without_figures_keeps_orig_and_says_why():
    """A host construct (no device entry), a source that did not build alone: each in
    the database as orig, so that no construct is left to the default variant."""
    rows = [
        {"file": "k.c", "line": 3, "hash": "a", "construct": "acc parallel loop",
         "entry": "k$0", "registers": 40, "loads": 9, "instructions": 20, "spill": 0},
        {"file": "k.c", "line": 9, "hash": "b", "construct": "omp parallel for",
         "entry": None, "why": "no device code (a host construct)"},
        {"file": "k.c", "line": 12, "hash": "c", "construct": "acc kernels",
         "entry": "k$1", "registers": None},
    ]  # fmt: skip
    every = listed(rows)
    assert every[("k.c", 9, "b")] == ("omp parallel for", "no device code (a host construct)")
    assert every[("k.c", 12, "c")][1] == "ptxas gave no register count"
    assert every[("k.c", 3, "a")][1] == ""
    got = {c.line: c for c in choices({"orig": views(rows)}, every)}
    assert sorted(got) == [3, 9, 12]
    assert (got[9].config, got[9].kept, got[9].construct) == (
        "orig",
        NO_FIGURES,
        "omp parallel for",
    )
    assert got[12].reason == "ptxas gave no register count"
    assert got[3].kept == NOT_REWRITTEN  # only orig: nothing else compiles to other figures
