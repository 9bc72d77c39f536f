"""Occupancy on an A100 (sm_80) as limited by registers per thread.

Registers are allocated per warp in units of 256, a multiprocessor has 65,536
registers and 64 warp slots, a block of ``b`` threads takes ``ceil(b / 32)``
warps and at most 32 blocks fit:

    regs_per_warp = ceil(registers * 32 / 256) * 256
    warps_by_regs = floor(65536 / regs_per_warp)
    blocks        = min(32, floor(64 / wpb), floor(warps_by_regs / wpb))
    occupancy     = blocks * wpb / 64

with ``wpb`` the block's warps; without a block size, ``min(64, warps_by_regs) / 64``.
At 128 threads a block: <= 32 registers 100 %, 40 75 %, 48 62.5 %, 64 50 %, 128 25 %,
255 12.5 %. One home for the rule: ``accsat advise``, the static PTX view and the
register budget (codegen/budget.py) all use it.
"""

from __future__ import annotations

import math

REGISTERS_PER_SM = 65536
WARP_SLOTS = 64
MAX_BLOCKS = 32
ALLOCATION_UNIT = 256  # registers, per warp
MAX_REGISTERS = 255  # per thread
BLOCK_THREADS = 128  # the block size the register budget ``keep`` keeps the step at


def occupancy(registers: int, block_threads: int | None = None) -> float:
    """sm_80's occupancy as limited by registers (see the module's text)."""
    per_warp = math.ceil(max(registers, 1) * 32 / ALLOCATION_UNIT) * ALLOCATION_UNIT
    warps_by_regs = REGISTERS_PER_SM // per_warp
    if not block_threads:  # warp granularity: no block limit
        return round(min(WARP_SLOTS, warps_by_regs) / WARP_SLOTS, 3)
    wpb = math.ceil(block_threads / 32)
    blocks = min(MAX_BLOCKS, WARP_SLOTS // wpb, warps_by_regs // wpb)
    return round(blocks * wpb / WARP_SLOTS, 3)


def step_limit(registers: int, block_threads: int | None = None) -> int:
    """The most registers per thread with the occupancy ``registers`` gives."""
    here = occupancy(registers, block_threads)
    r = max(registers, 1)
    while r < MAX_REGISTERS and occupancy(r + 1, block_threads) >= here:
        r += 1
    return r


def lost(registers: int, before: int, block_threads: int | None = None) -> bool:
    """Whether ``registers`` give lower occupancy than ``before`` at 128 threads a block
    or at the kernel's own block size (where known): what ``keep`` and ``accsat tune
    --static`` never accept."""
    blocks = {BLOCK_THREADS, block_threads or BLOCK_THREADS}
    return any(occupancy(registers, b) < occupancy(before, b) for b in blocks)
