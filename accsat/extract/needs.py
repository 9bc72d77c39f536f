"""Which classes every term of a class contains: what any choice of it must pay for.

A class ``d`` is *needed* by a class ``c`` when every finite term of ``c`` (every way
to extract it, whatever nodes the classes below choose) contains ``d``: the loads of a
sum are needed by it however the sum is grouped, its partial sums are not.  Then an
acyclic choice that extracts ``c`` pays for ``d`` too.  The ILP's relaxation says so
(extract/ilp.py): without it, a class that chooses among many groupings at a fraction
each activates the loads below each grouping at that fraction only, and the root LP
of an 8-term weighted stencil priced 530 of its 1,212 (1,138 with it).

Computed as the greatest fixed point of
    needs(c) = AND over nodes n of c of  OR over children k of n of ({k} | needs(k))
from "everything" down: every iterate holds what all terms up to some height contain,
so the limit is exactly what all finite terms contain. Sets are Python ints (a bit
per class).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Mapping, Sequence

from accsat.egraph.graph import ENode


class Needs:
    """Needed classes of every class and node of ``nodes`` (children outside it: none)."""

    def __init__(self, nodes: Mapping[int, Sequence[ENode]]):
        # by id, so that a class's bit is mostly above those of the classes below it
        # (egglog numbers a term's arguments first): ``below_any`` walks down from the top
        self.classes = sorted(nodes)
        self.bit = {c: 1 << i for i, c in enumerate(self.classes)}
        self._of: dict[int, int | None] = dict.fromkeys(nodes)  # None: everything (yet)
        parents: dict[int, set[int]] = {c: set() for c in nodes}
        for c, ns in nodes.items():
            for n in ns:
                for k in n.children:
                    if k in parents:
                        parents[k].add(c)
        todo = deque(nodes)
        queued = set(nodes)
        while todo:
            c = todo.popleft()
            queued.discard(c)
            value = self._class_value(c, nodes[c])
            if value is not None and value != self._of[c]:
                self._of[c] = value
                for p in parents[c]:
                    if p not in queued:
                        queued.add(p)
                        todo.append(p)

    def _class_value(self, c: int, ns: Sequence[ENode]) -> int | None:
        value: int | None = None
        for n in ns:
            mine = self.node(n)
            if mine is not None:
                value = mine if value is None else value & mine
        return None if value is None else value & ~self.bit[c]

    def node(self, n: ENode) -> int | None:
        """The classes every term through ``n`` contains below it (None: ``n`` has no
        finite term yet)."""
        out = 0
        for k in n.children:
            below = self._of.get(k, 0)
            if below is None:
                return None
            out |= self.bit.get(k, 0) | below
        return out

    def below_any(self, classes: int) -> int:
        """The classes some class of ``classes`` (bits) needs. What a class needs, the
        classes it needs need too: a class found there adds nothing, so from the
        highest bit down only the classes no other one of them needs are looked at."""
        out, left = 0, classes
        while left:
            top = 1 << (left.bit_length() - 1)
            below = self._of[self.classes[top.bit_length() - 1]] or 0
            out |= below
            left &= ~(below | top)
        return out

    def of(self, c: int) -> list[int]:
        """The classes every term of ``c`` contains (``c`` aside)."""
        return self.members(self._of.get(c) or 0)

    def members(self, bits: int) -> list[int]:
        out = []
        while bits:
            low = bits & -bits
            out.append(self.classes[low.bit_length() - 1])
            bits ^= low
        return out
