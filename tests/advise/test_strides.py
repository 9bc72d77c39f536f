"""Strides off byte-offset polynomials, and the class and lines of a stride."""

from __future__ import annotations

import pytest

from accsat.advise.strides import Stride, classify, lines_per_warp, stride_along

IX, N, IDX = 1, 2, 3  # term ids: the index, a run-time value, a load computed from the index


def along(poly: dict) -> Stride | None:
    return stride_along(tuple(sorted(poly.items())), IX, lambda t: t == IDX)


def test_constant_runtime_and_non_affine_strides():
    assert along({(): 16, (IX,): 8, (N,): 64}) == Stride(8, False)
    assert along({(IX, N): 8}) == Stride(0, True)
    assert along({(IX, IX): 8}) is None  # i * i
    assert along({(IDX,): 8}) is None  # a[idx[i]]
    assert along({(N,): 8}) == Stride(0, False)
    assert stride_along(None, IX, lambda t: False) is None


@pytest.mark.parametrize(
    "stride,step,size,expected",
    [
        (Stride(0, False), 1, 8, ("uniform", 0, 1)),
        (Stride(8, False), 1, 8, ("coalesced", 1, 2)),
        (Stride(4, False), -1, 4, ("coalesced", -1, 1)),
        (Stride(16, False), 1, 8, ("strided", 2, 4)),
        (Stride(120, False), 1, 8, ("strided", 15, 30)),
        (Stride(128, False), 1, 8, ("uncoalesced", 16, 32)),  # |k| x size = 128 B: uncoalesced
        (Stride(8, False), 16, 8, ("uncoalesced", 16, 32)),  # the loop's step counts
        (Stride(0, True), 1, 8, ("uncoalesced", None, 32)),
        (Stride(8, False), None, 8, ("uncoalesced", None, 32)),  # a run-time loop step
        (Stride(12, False), 1, 8, ("strided", 1.5, 3)),
        (None, 1, 8, ("unknown", None, None)),
    ],
)
def test_classify(stride, step, size, expected):
    assert classify(stride, step, size) == expected


def test_lines_per_warp():
    assert lines_per_warp(4, 4) == 1
    assert lines_per_warp(8, 8) == 2
    assert lines_per_warp(-8, 8) == 2
    assert lines_per_warp(64, 8) == 16
    assert lines_per_warp(1000, 8) == 32
