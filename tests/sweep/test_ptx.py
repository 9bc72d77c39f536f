"""accsat.sweep.ptx: PTX entries mapped back to their directive lines."""

from __future__ import annotations

from accsat.sweep.ptx import count_instructions, entry_locations

PTX = """
.file 1 "<dummy>"
.entry f$_omp_fn$0 (.param .u64 %in_ar0);
.file 2 "relax.c"
.file 3 "inline.h"
.entry f$_omp_fn$0 (.param .u64 %in_ar0)
{
.loc 2 12 9
ld.global.f64 %r1, [%r2];
.loc 3 3 1
fma.rn.f64 %r3, %r1, %r1, %r1;
.loc 2 14 3
.loc 2 10 9
ret;
}
.entry g$_omp_fn$0 (.param .u64 %in_ar0)
{
ret;
}
"""


def test_ptx_entries_map_to_their_directive_line():
    locs = entry_locations(PTX)
    f = locs["f$_omp_fn$0"]
    # the file most .loc lines name; the region's exit .loc is the directive
    assert (f.file, f.line, f.first, f.last) == ("relax.c", 10, 10, 14)
    assert "g$_omp_fn$0" not in locs  # no .loc: compiled without -g


def test_instructions_are_counted_per_entry():
    f = count_instructions(PTX)["f$_omp_fn$0"]
    assert (f.loads, f.fma, f.instructions) == (1, 1, 3)


def test_launch_dimensions_give_the_block_size(tmp_path):
    from accsat.sweep.ptx import block_threads, launch_dims

    raw = tmp_path / "bt.xnvptx-none.mkoffload"
    raw.write_bytes(PTX.encode() + b"\0")
    (tmp_path / "bt.xnvptx-none.mkoffload.s").write_text(
        '//:FUNC_MAP "f$_omp_fn$0", 0, 0x4, 0x20\n//:FUNC_MAP "g$_omp_fn$0", 0, 0, 0x20\n'
    )
    dims = launch_dims(raw)
    assert dims == {"f$_omp_fn$0": (0, 4, 32), "g$_omp_fn$0": (0, 0, 32)}
    # workers x vector length; workers chosen at run time: unknown
    assert [block_threads(dims.get(n)) for n in ("f$_omp_fn$0", "g$_omp_fn$0", "h")] == [
        128,
        None,
        None,
    ]


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
