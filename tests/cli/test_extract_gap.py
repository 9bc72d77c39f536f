"""``--extract-gap`` reaches every stop of the extraction (its floor, the relaxation's
bound, HiGHS's search: ``ilp.closed``); the default is 1 % (accsat.options: within the
cost model's own error, and seconds saved on NPB)."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from accsat.cli import main
from accsat.extract import ilp
from accsat.options import Options

from .conftest import KERNEL


@pytest.fixture
def gaps(monkeypatch) -> list[float]:
    """The gap of every question whether a bound is close enough."""
    seen: list[float] = []
    closed = ilp.closed

    def spy(bound, best, gap):
        seen.append(gap)
        return closed(bound, best, gap)

    monkeypatch.setattr(ilp, "closed", spy)
    return seen


@pytest.mark.parametrize(
    ("args", "expected"),
    [([], Options.extract_gap), (["--extract-gap", "0.05"], 0.05), (["--extract-gap", "0"], 0.0)],
)
def test_the_gap_reaches_the_solver(args, expected, gaps, cfile):
    res = CliRunner().invoke(main, ["rewrite", str(cfile(KERNEL)), *args])
    assert res.exit_code == 0, res.output
    assert gaps and set(gaps) == {expected}
