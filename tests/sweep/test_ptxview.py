"""accsat.sweep.ptxview: occupancy drops and budgets per device entry."""

from __future__ import annotations


def test_occupancy_drops_against_orig_per_variant():
    from accsat.sweep.cells import Cell
    from accsat.sweep.ptxview import drops
    from accsat.sweep.results import OK, Result

    def result(variant, regs):
        entries = [
            {"entry": f"e{i}", "registers": r, "block": b}
            for i, (r, b) in enumerate(zip(regs, (128, 1024, None), strict=True))
        ]
        return Result(Cell("npb", "BT", "S", "gcc", "ptx", variant), OK, extra={"entries": entries})

    # e0: 40 -> 48 registers drops at 128 threads (75 % -> 62.5 %) and at its own 128;
    # e1: 32 -> 40 drops at 128 (100 % -> 75 %) and at 1024 threads (100 % -> 50 %);
    # e2: 64 -> 64 does not
    got = drops(
        [result("orig", (40, 32, 64)), result("cse", (48, 40, 64)), result("accsat", (40, 32, 64))]
    )
    assert got == {("BT", "S", "cse"): (2, 2), ("BT", "S", "accsat"): (0, 0)}


def test_an_entry_reports_the_budget_of_its_kernels():
    from accsat.sweep.ptxview import _budget

    kernels = [
        {"registers": {"setting": "keep", "bound": False, "before": 40, "after": 40}},
        {"registers": {"setting": "keep", "bound": True, "before": 134, "after": 40}},
        {"status": "unchanged"},
    ]
    assert _budget(kernels) == {
        "budget": "keep",
        "bound": True,
        "model_before": 134,
        "model_after": 40,
    }
    assert _budget([{"status": "rewritten"}])["budget"] is None  # no budget: any


def test_loads_against_registers_one_marker_per_budget(tmp_path):
    from accsat.sweep.cells import Cell
    from accsat.sweep.plot import loads_registers_png
    from accsat.sweep.ptxview import drops, registers_label, totals
    from accsat.sweep.results import OK, Result

    def result(variant, regs, loads, budget=None):
        entry = {
            "entry": "e0",
            "registers": regs,
            "block": 128,
            "spill_stores": 0,
            "spill_loads": 0,
            "loads": loads,
            "stores": 1,
            "fma": 0,
            "instructions": 10,
            "budget": budget,
        }
        return Result(Cell("npb", "BT", "S", "gcc", "ptx", variant), OK, extra={"entries": [entry]})

    any_ = [result("orig", 40, 100), result("cse", 48, 60)]
    keep = [result("orig", 40, 100), result("cse", 40, 80, budget="keep")]
    assert registers_label(any_) == "any" and registers_label(keep) == "keep"
    series = {registers_label(r): (totals(r), drops(r)) for r in (any_, keep)}
    assert series["any"][1] == {("BT", "S", "cse"): (1, 1)}  # 48 registers lose a step
    assert series["keep"][1] == {("BT", "S", "cse"): (0, 0)}
    assert loads_registers_png(series, tmp_path / "lr.png")
    assert (tmp_path / "lr.png").stat().st_size > 10_000
    assert not loads_registers_png({}, tmp_path / "none.png")
