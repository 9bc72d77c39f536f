"""Register pressure: the sm_80 occupancy estimate, entries to kernels, losses flagged."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from accsat.advise.pressure import entry_for, flag_losses, occupancy, unavailable


@pytest.mark.parametrize(
    "registers,block,expected",
    [
        (32, None, 1.0),  # 32 x 32 = 1024 registers a warp: 64 warps fit
        (64, None, 0.5),  # 2048 a warp: 32 warps
        (40, None, round(51 / 64, 3)),  # 1280 a warp (a multiple of 256): 51 warps
        (255, None, 0.125),  # 8192 a warp: 8 warps
        (16, 32, 0.5),  # one-warp blocks: at most 32 blocks
        (64, 512, 0.5),  # 16 warps a block, 2 blocks
        (72, 512, 0.25),  # 2304 a warp: 28 warps, 1 block of 16
    ],
)
def test_occupancy(registers, block, expected):
    assert occupancy(registers, block) == expected


def test_entry_for_takes_the_innermost_entry_holding_the_line():
    entries = [
        {
            "entry": "f$_omp_fn$0",
            "file": "/tmp/x/k.c",
            "first": 10,
            "last": 40,
            "registers": 30,
            "spill_bytes": 0,
            "occupancy": 1.0,
        },
        {
            "entry": "f$_omp_fn$1",
            "file": "/tmp/x/k.c",
            "first": 20,
            "last": 25,
            "registers": 80,
            "spill_bytes": 8,
            "occupancy": 0.375,
        },
        {
            "entry": "g$_omp_fn$0",
            "file": "/tmp/x/other.c",
            "first": 20,
            "last": 25,
            "registers": 8,
            "spill_bytes": 0,
            "occupancy": 1.0,
        },
    ]
    assert entry_for(entries, Path("k.c"), 22)["entry"] == "f$_omp_fn$1"
    assert entry_for(entries, Path("k.c"), 12)["entry"] == "f$_omp_fn$0"
    assert entry_for(entries, Path("k.c"), 50) is None


def test_losses_are_flagged_against_orig():
    rows = flag_losses(
        [
            {"variant": "orig", "registers": 40, "spill_bytes": 0, "occupancy": 0.797},
            {"variant": "cse", "registers": 40, "spill_bytes": 0, "occupancy": 0.797},
            {"variant": "accsat", "registers": 72, "spill_bytes": 0, "occupancy": 0.438},
            {"variant": "cse+bulk", "registers": 40, "spill_bytes": 16, "occupancy": 0.797},
        ]
    )
    assert [r["loses_occupancy"] for r in rows] == [False, False, True, True]


@pytest.mark.skipif(unavailable() is not None, reason="no gcc nvptx offload compiler")
def test_pressure_per_variant_with_gcc_offload(advise):
    found = advise(
        """
double a[1024], b[1024];
void f(void) {
  int i;
  #pragma acc parallel loop gang vector copyin(a) copyout(b)
  for (i = 1; i < 1023; i++) b[i] = a[i - 1] + a[i] + a[i + 1];
}
""",
        pressure=True,
    )
    (k,) = found.kernels
    assert [p["variant"] for p in k.pressure][0] == "orig"
    assert all(p["registers"] for p in k.pressure)


def test_unavailable_says_why(monkeypatch):
    monkeypatch.setattr(shutil, "which", lambda name: None)
    assert "not found" in unavailable()
