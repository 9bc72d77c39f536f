"""accsat on the real NPB-ACC sources (skipped unless NPB_ROOT is set).

NPB_ROOT must hold built benchmarks: each one's npbparams.h comes from its
Makefile's config step (see the README).
"""

import os
from pathlib import Path

import pytest

from accsat.frontend.preprocess import PreprocessOptions
from accsat.options import Options
from accsat.pipeline import rewrite_file
from accsat.report import NO_GAIN
from npb_harness.tree import NPB_BENCHMARKS, source_dir

ROOT = os.environ.get("NPB_ROOT")
pytestmark = [pytest.mark.npb, pytest.mark.skipif(not ROOT, reason="NPB_ROOT is not set")]


@pytest.mark.parametrize("bench", NPB_BENCHMARKS)
def test_every_file_rewrites_and_most_kernels_do(bench):
    """Most kernels are rewritten or left as written because a rewrite would not pay
    (``no gain``); none is left for any other reason but EP's address-taken one."""
    if not (Path(ROOT) / bench).is_dir():
        pytest.skip(f"{ROOT}/{bench} missing")
    folder = source_dir(Path(ROOT) / bench)
    if not (folder / "npbparams.h").exists():
        pytest.skip(f"{folder}/npbparams.h missing: build the benchmark once first")
    opts = Options(variant="cse", preprocess=PreprocessOptions((f"-I{folder.parent / 'common'}",)))
    found = handled = 0
    for f in sorted(folder.glob("*.c")):
        result = rewrite_file(f, opts)
        found += len(result.kernels)
        handled += sum(k.status == "rewritten" or k.reason == NO_GAIN for k in result.kernels)
        for k in result.kernels:
            if k.status == "rewritten":
                assert k.cost["extracted"] <= k.cost["greedy"] + 1e-6 <= k.cost["original"] + 2e-6
                assert k.loads["after"] <= k.loads["before"]
    assert found > 0
    assert handled >= 0.9 * found if bench != "EP" else handled >= found - 1
