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
