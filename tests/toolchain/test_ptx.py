"""accsat.toolchain.ptx: PTX entries mapped back to their directive lines."""

from __future__ import annotations

from accsat.toolchain.ptx import count_instructions, entry_locations, reached_lines

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
    from accsat.toolchain.ptx import block_threads, launch_dims

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


CALLS = """
.file 1 "k.c"
.file 2 "h.h"
.func (.param .f64 %value_out) leaf (.param .u64 %in_ar0);
.visible .func (.param .f64 %value_out) outer (.param .u64 %in_ar0)
{
.loc 1 8 3
call (%value_in),leaf,(%out_arg1);
.loc 2 3 1
}
.func (.param .f64 %value_out) leaf (.param .u64 %in_ar0)
{
.loc 1 5 9
ret;
}
.func unused (.param .u64 %in_ar0)
{
.loc 1 40 1
}
.entry main$_omp_fn$0 (.param .u64 %in_ar0)
{
.loc 1 13 1
call.uni (%value_in),outer,(%out_arg1);
.loc 1 15 1
}
.entry other$_omp_fn$1 (.param .u64 %in_ar0)
{
.loc 1 30 1
}
"""


def test_an_entry_reaches_the_lines_of_the_functions_it_calls():
    """What an entry's registers count: its lines, and those of every .func it calls,
    directly or not (a device function's registers are its callers'); not the others'."""
    reached = reached_lines(CALLS)
    assert reached["main$_omp_fn$0"] == {
        ("k.c", 13),
        ("k.c", 15),
        ("k.c", 8),
        ("k.c", 5),
        ("h.h", 3),
    }
    assert reached["other$_omp_fn$1"] == {("k.c", 30)}
