"""Reading the results of ``accsat advise`` in tests (imported by name: tests/advise
is on ``sys.path`` while its tests run)."""

from __future__ import annotations

from accsat.advise.files import FileAdvice


def rows(kernel, stage: str = "written") -> list[tuple]:
    """(access text, load/store, class, stride, lines per warp) per access, in order."""
    return [
        (r.array + r.index, r.kind, r.cls, r.thread_stride, r.lines_per_warp)
        for r in kernel.stages[stage].accesses
    ]


def kernel_at(found: FileAdvice, function: str):
    (k,) = [k for k in found.kernels if k.function == function]
    return k
