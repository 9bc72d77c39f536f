"""Where things are in a kernel body: blocks, insertion points, who holds a value.

Positions are the statements' program-order numbers (``pos``). A temporary
goes *before* statement j of a block: position ``pos(j) - 0.25``.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..frontend.conditional import only_directives
from ..frontend.source_map import tokenize
from ..frontend.symbols import Symbol
from ..ssa import ir
from ..ssa.state import SSAKernel


@dataclass(frozen=True)
class Point:
    """Just before statement ``index`` of block ``ctx`` (index == len: at its end)."""

    ctx: str
    index: int


@dataclass(frozen=True)
class Use:
    """A place where a value is evaluated: program position and enclosing block."""

    pos: float
    ctx: str


@dataclass(frozen=True)
class Holder:
    """Variable ``sym`` holds the value from position ``pos`` on, within block ``ctx``."""

    sym: Symbol
    pos: float
    ctx: str


@dataclass
class BlockInfo:
    block: ir.Block
    parent: str | None  # enclosing block ctx
    end: float  # position after its last statement
    stmt_ctx: dict[int, int] = field(default_factory=dict)  # id(stmt) -> index here


class Program:
    """Indexes of one SSA kernel body, shared by placement and printing."""

    def __init__(self, ssa: SSAKernel):
        self.ssa = ssa
        self.blocks: dict[str, BlockInfo] = {}
        self.block_of: dict[int, str] = {}  # id(stmt) -> ctx of the block holding it
        self._index(ssa.body, None)

    def _index(self, block: ir.Block, parent: str | None) -> float:
        info = BlockInfo(block, parent, 0.0)
        self.blocks[block.ctx] = info
        last = 0.0
        for i, stmt in enumerate(block.stmts):
            info.stmt_ctx[id(stmt)] = i
            self.block_of[id(stmt)] = block.ctx
            last = float(stmt.pos)
            for child in ir.children(stmt):
                last = max(last, self._index(child, block.ctx))
        info.end = last + 0.25
        if parent is None and not block.stmts:
            info.end = 0.5
        return info.end

    # -- context tree ---------------------------------------------------------------
    def parent(self, ctx: str) -> str | None:
        return self.ssa.ctx_parent.get(ctx)

    def is_within(self, inner: str, outer: str) -> bool:
        c: str | None = inner
        while c is not None:
            if c == outer:
                return True
            c = self.parent(c)
        return False

    def depth(self, ctx: str) -> int:
        d, c = 0, self.parent(ctx)
        while c is not None:
            d, c = d + 1, self.parent(c)
        return d

    def lca(self, ctxs: list[str]) -> str:
        chains = []
        for c in ctxs:
            chain = []
            x: str | None = c
            while x is not None:
                chain.append(x)
                x = self.parent(x)
            chains.append(chain[::-1])
        common = chains[0]
        for chain in chains[1:]:
            n = 0
            while n < len(common) and n < len(chain) and common[n] == chain[n]:
                n += 1
            common = common[:n]
        return common[-1]

    def is_block(self, ctx: str) -> bool:
        return ctx in self.blocks

    # -- points ----------------------------------------------------------------------------
    def point_pos(self, p: Point) -> float:
        info = self.blocks[p.ctx]
        if p.index < len(info.block.stmts):
            return info.block.stmts[p.index].pos - 0.25
        return info.end

    def point_before_use(self, ctx: str, use: Use) -> Point:
        """The point in block ``ctx`` just before the statement that contains ``use``."""
        info = self.blocks[ctx]
        for i, stmt in enumerate(info.block.stmts):
            if stmt.pos >= use.pos or _end(stmt) >= use.pos:
                return self._glued(ctx, i)
        return Point(ctx, len(info.block.stmts))

    def first_point_after(self, ctx: str, pos: float) -> Point:
        """The earliest point in block ``ctx`` after position ``pos``."""
        info = self.blocks[ctx]
        for i, stmt in enumerate(info.block.stmts):
            if stmt.pos - 0.25 > pos:
                return Point(ctx, i)
        return Point(ctx, len(info.block.stmts))

    def _glued(self, ctx: str, index: int) -> Point:
        """Never between a ``#pragma`` (or a conditional group of them) and the statement
        it applies to."""
        stmts = self.blocks[ctx].block.stmts
        while (
            index > 0
            and isinstance(prev := stmts[index - 1], ir.Verbatim)
            and (
                prev.text.startswith("#pragma")
                or prev.as_written
                and only_directives(tokenize(prev.text))
            )
        ):
            index -= 1
        return Point(ctx, index)

    # -- holders --------------------------------------------------------------------------
    def holds_at(self, h: Holder, use: Use) -> bool:
        """Does ``h.sym`` still hold its value where ``use`` evaluates?"""
        if not h.pos < use.pos or not self.is_within(use.ctx, h.ctx):
            return False
        for q in self.ssa.assigns.get(h.sym, ()):
            if h.pos < q < use.pos:
                return False
        for loop in self.ssa.loops:
            inside_use = loop.pos < use.pos < loop.end
            inside_def = loop.pos <= h.pos <= loop.end
            if inside_use and not inside_def and h.sym in loop.assigned:
                return False
        return True


def _end(stmt: ir.Stmt) -> float:
    return float(getattr(stmt, "end", 0.0) or stmt.pos)
