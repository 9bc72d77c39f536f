"""Structured statements of a kernel body in SSA form.

The body keeps its control structure (blocks, ifs, inner loops); every value a
statement uses is a term id. ``pos`` numbers statements in program order
(pre-order), which the code generator uses to place temporaries.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..frontend.symbols import Symbol


@dataclass
class Assign:
    """``sym = value`` (a scalar variable; ``decl`` is e.g. "double t" when it is declared here)."""

    sym: Symbol
    value: int
    pos: int
    line: int
    decl: str | None = None


@dataclass
class Store:
    """``base<path> = value``: a store to memory through an access path."""

    template: str  # path components after the base: "[][]", "->x[]", ""
    base: int  # term of the base (array symbol or pointer value)
    indices: tuple[int, ...]  # one term per "[]" in the template
    value: int
    pos: int
    line: int


@dataclass
class Eval:
    """A call with side effects, in order; ``result`` is its CallRes term when used."""

    callee: str
    args: tuple[int, ...]
    result: int | None
    result_type: str
    pos: int
    line: int


@dataclass
class Verbatim:
    """Text printed as written: declarations without initialiser, pragmas, break..."""

    text: str
    pos: int
    line: int
    declares: Symbol | None = None


@dataclass
class Block:
    ctx: str
    stmts: list[Stmt] = field(default_factory=list)


@dataclass
class Braced:
    """A nested ``{ ... }`` block (it scopes the declarations inside it)."""

    block: Block
    pos: int
    line: int
    end: float = 0.0


@dataclass
class If:
    cond: int
    then: Block
    orelse: Block | None
    pos: int
    line: int
    end: float = 0.0  # position just after the whole statement
    phis: dict[Symbol, int] = field(default_factory=dict)  # values that differ by branch


@dataclass
class Loop:
    """An inner sequential loop; its header is printed as written."""

    header: str  # "for (m = 0; m < 5; m++)", "while (x > 0)", "do"
    trailer: str  # "while (x > 0);" for do-while, else ""
    body: Block
    pos: int
    line: int
    end: float = 0.0
    head_phis: dict[Symbol, int] = field(default_factory=dict)  # values at iteration start
    exit_phis: dict[Symbol, int] = field(default_factory=dict)  # values after the loop
    assigned: frozenset[Symbol] = frozenset()  # variables the loop (header or body) assigns


Stmt = Assign | Store | Eval | Verbatim | Braced | If | Loop


def walk(block: Block):
    """Every statement, pre-order, with the block that holds it."""
    for stmt in block.stmts:
        yield stmt, block
        if isinstance(stmt, If):
            yield from walk(stmt.then)
            if stmt.orelse is not None:
                yield from walk(stmt.orelse)
        elif isinstance(stmt, Loop):
            yield from walk(stmt.body)
        elif isinstance(stmt, Braced):
            yield from walk(stmt.block)
