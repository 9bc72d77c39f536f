"""``accsat advise`` over NPB-ACC (skipped unless NPB_ROOT is set): every benchmark's
kernels analysed; the counts the harness prints add up."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from accsat.advise.files import AdviseOptions
from npb_harness.advise import advise_benchmark, configure, summary

ROOT = os.environ.get("NPB_ROOT")
pytestmark = [pytest.mark.npb, pytest.mark.skipif(not ROOT, reason="NPB_ROOT is not set")]


@pytest.mark.parametrize("bench", ["CG", "MG"])
def test_benchmark_is_advised(tmp_path, bench):
    src = configure(Path(ROOT), bench, "S", tmp_path)
    result = advise_benchmark(src, bench, AdviseOptions(pressure=False))
    assert result.files and not result.errors
    (written, rewritten) = summary([result])
    analysed = written["kernels"] - written.get("not_analysed", 0)
    assert analysed >= 0.9 * written["kernels"] > 0
    accesses = sum(
        written[c] for c in ("uniform", "coalesced", "strided", "uncoalesced", "unknown")
    )
    assert accesses > 0
    # accsat's rewrite never loads more than the code as written
    assert (
        sum(rewritten[c] for c in ("uniform", "coalesced", "strided", "uncoalesced", "unknown"))
        <= accesses
    )
