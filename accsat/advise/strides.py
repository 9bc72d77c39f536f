"""Strides of addresses along a loop index, and the access classes they give.

An address is the SSA's byte-offset polynomial over term ids (``ssa/memory.py``).
Along an index term ``x`` (the thread index, or an inner loop's variable):

- every monomial without ``x`` and without any term that depends on ``x`` is
  the same for all values of ``x``;
- ``c * x`` contributes the constant stride ``c`` bytes;
- ``c * x * n`` contributes a stride known only at run time;
- anything else (``x * x``, a term computed from ``x``: ``idx[x]``, ``x / 2``)
  makes the address indirect or non-affine: no stride.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

from ..ssa import ir
from ..ssa.memory import Monomial
from ..ssa.state import SSAKernel

LINE_BYTES = 128
WARP = 32
CLASSES = ("uniform", "coalesced", "strided", "uncoalesced", "unknown")


@dataclass(frozen=True)
class Stride:
    """An address's change per unit of an index."""

    constant: int  # bytes, from the monomials c * x
    runtime: bool  # some monomial c * x * n: the stride is known only at run time


def stride_along(
    offset: tuple[tuple[Monomial, int], ...] | None,
    index: int | None,
    depends: Callable[[int], bool],
) -> Stride | None:
    """The stride of an address along term ``index`` (None: no stride, the address is
    indirect or not affine in it). ``depends(t)``: whether term ``t`` is computed from
    the index."""
    if offset is None:
        return None
    constant, runtime = 0, False
    for mono, coef in offset:
        hits = sum(t == index for t in mono)
        others = [t for t in mono if t != index]
        if any(depends(t) for t in others) or hits > 1:
            return None
        if hits == 1:
            if others:
                runtime = True
            else:
                constant += coef
    return Stride(constant, runtime)


def classify(
    stride: Stride | None, step: int | None, size: int
) -> tuple[str, float | None, int | None]:
    """Class, stride in elements and 128-byte lines per warp of 32 lanes, for an access
    of ``size`` bytes whose lanes are ``step`` index units apart (docs/advise.md)."""
    if stride is None:
        return "unknown", None, None
    if stride.runtime or (step is None and stride.constant):
        return "uncoalesced", None, WARP
    by = stride.constant * (step or 0)
    elements = by // size if by % size == 0 else round(by / size, 3)
    if by == 0:
        return "uniform", 0, 1
    if abs(by) == size:
        return "coalesced", elements, lines_per_warp(by, size)
    if abs(by) < LINE_BYTES:
        return "strided", elements, lines_per_warp(by, size)
    return "uncoalesced", elements, WARP


def lines_per_warp(stride_bytes: int, size: int) -> int:
    """Lines the 32 lanes touch when lane ``l`` reads ``size`` bytes at ``l * stride``,
    the first at the start of a line (one more where the base is not aligned)."""
    span = (WARP - 1) * abs(stride_bytes) + size
    return min(WARP, math.ceil(span / LINE_BYTES))


class Dependence:
    """Which terms of a kernel are computed from one index term.

    Through arguments directly; through phis by variable: a variable assigned a value
    that depends on the index (in any branch) makes its phis depend on it too, and so
    does an inner loop whose header starts its variable from such a value (``headers``:
    per ``id`` of an ``ir.Loop``, its variable and the names its initialisation reads).
    """

    def __init__(
        self,
        ssa: SSAKernel,
        index: int | None,
        index_name: str | None = None,
        headers: dict[int, tuple[str, frozenset[str]]] | None = None,
    ):
        self.ssa = ssa
        self.index = index
        self._memo: dict[int, bool] = {}
        self._phis: set[int] = set()
        assigns = [s for s, _ in ir.walk(ssa.body) if isinstance(s, ir.Assign)]
        for _ in range(len(assigns) + 2):  # until no new variable depends on the index
            dependent = {a.sym for a in assigns if self(a.value)}
            names = {s.name for s in dependent} | ({index_name} if index_name else set())
            for loop in ssa.loops:
                var, reads = (headers or {}).get(id(loop), ("", frozenset()))
                dependent |= {sym for sym in loop.head_phis if sym.name == var and reads & names}
            phis = {
                tid
                for tid, info in ssa.leaves.items()
                if info.holder in dependent and ssa.terms[tid].op == "Phi"
            }
            if phis <= self._phis:
                break
            self._phis |= phis
            self._memo.clear()

    def __call__(self, tid: int) -> bool:
        if self.index is None:
            return False
        stack = [tid]
        while stack:  # post-order without recursion: expressions can be deep
            t = stack[-1]
            if t in self._memo:
                stack.pop()
                continue
            term = self.ssa.terms[t]
            if t == self.index or t in self._phis or term.op == "CallRes":
                self._memo[t] = True  # a call's result: its arguments are not in the term
                stack.pop()
                continue
            todo = [a for a in term.args if a not in self._memo]
            if todo:
                stack.extend(todo)
                continue
            self._memo[t] = any(self._memo[a] for a in term.args)
            stack.pop()
        return self._memo[tid]
