"""Structured statements of a kernel body in SSA form.

The body keeps its control structure (blocks, ifs, inner loops); every value a
statement uses is a term id. ``pos`` numbers statements in program order
(pre-order), which the code generator uses to place temporaries.

Each statement class declares, as data, what its fields are (pycparser's
``__slots__``/``children()`` style), so that walkers need not know the shapes:

    child_fields  fields holding a nested ``Block`` (or None)
    use_fields    fields holding term ids the statement evaluates (an id or a
                  tuple of ids), in evaluation order
    attr_fields   everything else: text, symbols, positions, and the terms the
                  statement defines (phis, call results) rather than uses

``children``, ``uses`` and ``walk`` below read these declarations.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field

from ..frontend.symbols import Symbol


@dataclass
class Assign:
    """``sym = value`` (a scalar variable; ``decl`` is e.g. "double t" when it is declared here)."""

    child_fields = ()
    use_fields = ("value",)
    attr_fields = ("sym", "pos", "line", "decl")

    sym: Symbol
    value: int
    pos: int
    line: int
    decl: str | None = None


@dataclass
class Store:
    """``base<path> = value``: a store to memory through an access path."""

    child_fields = ()
    use_fields = ("base", "indices", "value")
    attr_fields = ("template", "pos", "line")

    template: str  # path components after the base: "[][]", "->x[]", ""
    base: int  # term of the base (array symbol or pointer value)
    indices: tuple[int, ...]  # one term per "[]" in the template
    value: int
    pos: int
    line: int


@dataclass
class Eval:
    """A call with side effects, in order; ``result`` is its CallRes term when used."""

    child_fields = ()
    use_fields = ("args",)
    attr_fields = ("callee", "result", "result_type", "pos", "line")

    callee: str
    args: tuple[int, ...]
    result: int | None
    result_type: str
    pos: int
    line: int


@dataclass
class Verbatim:
    """Text printed as written: declarations without initialiser, pragmas, break...;
    a conditional-compilation group (``as_written``: its lines exactly, indentation
    included), with the values after it of the variables it may assign (``phis``)."""

    child_fields = ()
    use_fields = ()
    attr_fields = ("text", "pos", "line", "declares", "phis", "as_written")

    text: str
    pos: int
    line: int
    declares: Symbol | None = None
    phis: dict[Symbol, int] = field(default_factory=dict)
    as_written: bool = False


@dataclass
class Return:
    """``return value;`` of a function unit (``value`` None: ``return;``)."""

    child_fields = ()
    use_fields = ("value",)
    attr_fields = ("pos", "line")

    value: int | None
    pos: int
    line: int


@dataclass
class Block:
    ctx: str
    stmts: list[Stmt] = field(default_factory=list)


@dataclass
class Braced:
    """A nested ``{ ... }`` block (it scopes the declarations inside it)."""

    child_fields = ("block",)
    use_fields = ()
    attr_fields = ("pos", "line", "end", "after_jump")

    block: Block
    pos: int
    line: int
    end: float = 0.0
    # not the user's braces: the statements after one that may break or continue, which
    # run only where it did not (a control context of their own)
    after_jump: bool = False


@dataclass
class If:
    """``if (cond) then else orelse``; ``orelse`` is None without an else."""

    child_fields = ("then", "orelse")
    use_fields = ("cond",)
    attr_fields = ("pos", "line", "end", "phis", "merged")

    cond: int
    then: Block
    orelse: Block | None
    pos: int
    line: int
    end: float = 0.0  # position just after the whole statement
    phis: dict[Symbol, int] = field(default_factory=dict)  # values that differ by branch
    # variables a branch assigns that end with the same value on both paths (no phi)
    merged: dict[Symbol, int] = field(default_factory=dict)


@dataclass
class Loop:
    """An inner sequential loop; its header is printed as written."""

    child_fields = ("body",)
    use_fields = ()
    attr_fields = ("header", "trailer", "pos", "line", "end", "head_phis", "exit_phis", "assigned")

    header: str  # "for (m = 0; m < 5; m++)", "while (x > 0)", "do"
    trailer: str  # "while (x > 0);" for do-while, else ""
    body: Block
    pos: int
    line: int
    end: float = 0.0
    head_phis: dict[Symbol, int] = field(default_factory=dict)  # values at iteration start
    exit_phis: dict[Symbol, int] = field(default_factory=dict)  # values after the loop
    assigned: frozenset[Symbol] = frozenset()  # variables the loop (header or body) assigns


Stmt = Assign | Store | Eval | Verbatim | Braced | If | Loop | Return


def children(stmt: Stmt) -> list[Block]:
    """The blocks nested directly in a statement, in program order."""
    blocks = (getattr(stmt, name) for name in stmt.child_fields)
    return [b for b in blocks if b is not None]


def uses(stmt: Stmt) -> list[int]:
    """The term ids a statement itself evaluates (not those of nested blocks)."""
    ids: list[int] = []
    for name in stmt.use_fields:
        value = getattr(stmt, name)
        if isinstance(value, tuple):
            ids.extend(value)
        elif value is not None:  # a return without a value
            ids.append(value)
    return ids


def walk(block: Block) -> Iterator[tuple[Stmt, Block]]:
    """Every statement, pre-order, with the block that holds it."""
    for stmt in block.stmts:
        yield stmt, block
        for child in children(stmt):
            yield from walk(child)


def declared(stmt: Stmt) -> Symbol | None:
    """The variable ``stmt`` declares (``double t = ...;``, ``double t;``), if any."""
    if isinstance(stmt, Assign) and stmt.decl is not None:
        return stmt.sym
    if isinstance(stmt, Verbatim):
        return stmt.declares
    return None
