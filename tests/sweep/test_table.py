"""accsat.sweep.table: the table at the end of a sweep."""

from __future__ import annotations

from accsat.sweep.cells import Cell
from accsat.sweep.results import OK, Result
from accsat.sweep.table import speedup_table


def cell(variant="orig") -> Cell:
    return Cell("npb", "BT", "S", "gcc", "host", variant)


def test_table_adds_cpu_blocks_when_the_machine_was_shared():
    rs = [
        Result(cell(), OK, seconds=2.0, mops=10.0, cpu_seconds=1.0, extra={"load": [0.1]}),
        Result(cell("cse"), OK, seconds=1.0, mops=20.0, cpu_seconds=0.8, extra={"load": [0.2]}),
    ]
    quiet = speedup_table(rs)
    assert "2.000" in quiet and "CPU" not in quiet
    rs[1].extra["load"] = [999.0]
    busy = speedup_table(rs)
    assert "process CPU seconds" in busy and "1.250" in busy  # 1.0 / 0.8
    assert "other work shared the machine" in busy
