"""accsat.sweep.results: speedups, geometric means, the records' round trip."""

from __future__ import annotations

import json

import pytest

from accsat.sweep.cells import Cell
from accsat.sweep.results import OK, Result, geomean, speedups


def cell(bench="BT", variant="orig", size="S") -> Cell:
    return Cell("npb", bench, size, "gcc", "host", variant)


def test_speedups_prefer_rates_and_skip_failures():
    rs = [
        Result(cell(), OK, seconds=0.03, mops=1000.0),
        Result(cell(variant="cse"), OK, seconds=0.03, mops=1250.0),
        Result(cell(variant="accsat"), "verification failed"),
        Result(cell("SP"), OK, seconds=2.0),
        Result(cell("SP", "cse"), OK, seconds=1.0),
        Result(cell("LU", "cse"), OK, seconds=1.0),
    ]  # no orig: no speedup
    sp = speedups(rs)
    assert sp[cell(variant="cse")] == pytest.approx(1.25)  # Mop/s, not the rounded time
    assert sp[cell("SP", "cse")] == 2.0
    assert cell(variant="accsat") not in sp and cell("LU", "cse") not in sp
    assert geomean([1.25, 2.0]) == pytest.approx((1.25 * 2.0) ** 0.5)
    assert geomean([]) is None


def test_result_round_trip():
    r = Result(
        cell(variant="cse+sat"),
        OK,
        seconds=1.5,
        times=[1.5, 1.6],
        mops=3.0,
        kernels={"found": 3},
        extra={"load": [0.5, 0.7]},
    )
    back = Result.from_dict(json.loads(json.dumps(r.to_dict())))
    assert back == r
