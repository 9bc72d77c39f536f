"""Values carried across inner sequential loops (register promotion, scalar replacement).

When the SSA builder meets an inner loop, a memory location with a loop-invariant
address that the loop accesses, spelled one way and aliased by nothing else the loop
touches, is carried in a variable: the loop is lowered as

    T v = L;  for (...) { ... v ... }  L = v;      (or ``if (f) L = v;``, see below)

an AST-to-AST rewrite of the loop before it is lowered, so the rest of the builder
(memory versions, phis, forwarding) sees an ordinary program. The rules (which
accesses may alias, when the load before and the store after may be done) are in
docs/rewrites.md, "Values carried across inner loops".

The new statements are new parser nodes that ``codegen.layout`` never matched with
the user's text, so ``codegen.keep`` cannot print them, nor the loop around them,
as written; only the loop's header keeps its text (its origin is the user's loop).
"""

from __future__ import annotations

import copy
import dataclasses
from collections.abc import Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING

from pycparser import c_ast, c_generator

from ..errors import Unsupported
from ..frontend import ctypes as ct
from ..frontend import directives
from ..frontend.source_map import SourceMap
from ..frontend.symbols import eval_const
from ..ssa.memory import ANYWHERE, Access, Region
from .cnodes import assignment_targets, may_jump_out, root_name, walk

if TYPE_CHECKING:
    from .statements import SSABuilder

_GEN = c_generator.CGenerator()
_LOOPS = (c_ast.For, c_ast.While, c_ast.DoWhile)
_SIMPLE_OPS = ("-", "+", "~", "!")


def name_prefix(source: SourceMap, temps: str) -> str:
    """A prefix no identifier of the file starts with (and none of the printer's
    temporaries, ``temps`` and digits): the promoted variables are it and a number."""
    idents = {t.text for t in source.tokens if t.kind == "ident"}
    prefix = temps + "p"
    while any(name.startswith(prefix) for name in idents):
        prefix += "_"
    return prefix


def count(ssa, prefix: str) -> int:
    """Locations promoted in a kernel: the variables declared with ``prefix`` and a number."""
    from . import ir

    return sum(
        1
        for stmt, _ in ir.walk(ssa.body)
        if isinstance(stmt, ir.Assign)
        and stmt.decl is not None
        and stmt.sym.name.startswith(prefix)
        and stmt.sym.name[len(prefix) :].isdigit()
    )


@dataclass
class _Location:
    node: c_ast.Node  # its first occurrence in the loop, as written
    text: str
    ctype: ct.CType
    region: Region
    stored: bool = False


@dataclass
class Rewrite:
    """A loop with its locations carried: what to lower before it, it, what after."""

    loop: c_ast.Node  # the user's
    new: c_ast.Node
    before: list[c_ast.Node]
    after: list[c_ast.Node]


def lower(b: SSABuilder, loop: c_ast.Node) -> bool:
    """Lower ``loop`` with its promotable locations carried in variables; False (and
    nothing lowered) when it has none."""
    rewrite = prepare(b, loop)
    if rewrite is None:
        return False
    lower_before(b, rewrite)
    lower_rest(b, rewrite)
    return True


def prepare(b: SSABuilder, loop: c_ast.Node) -> Rewrite | None:
    """The rewrite of ``loop`` (None: nothing to carry); lower it with ``lower_before``
    (a pragma before the loop may come between) and ``lower_rest``."""
    if b.promote is None or not isinstance(loop, _LOOPS):
        return None
    try:
        plan = _plan(b, loop)
    except Unsupported:
        return None  # the builder says why when it lowers the loop as written
    if not plan:
        return None
    before, after, names = [], [], {}
    coord = loop.coord
    for loc in plan:
        names[loc.text] = name = f"{b.promote}{b.promoted}"
        before.append(_decl(name, _type_names(b, loc.ctype), copy.deepcopy(loc.node), coord))
        if loc.stored:
            after.append(
                c_ast.Assignment("=", copy.deepcopy(loc.node), c_ast.ID(name, coord), coord)
            )
        b.promoted += 1
    new = copy.copy(loop)
    new.stmt = _substitute(loop.stmt, names)
    _drop_dead_store(b, [loc for loc in plan if loc.stored])
    return Rewrite(loop, new, before, after)


def _drop_dead_store(b: SSABuilder, stored: list[_Location]) -> None:
    """The store of the statement just before the loop, ``L = e;``, to a location the
    loop carries and stores back after it: dead (the variable starts from ``e``, which
    it reads forwarded, and nothing reads ``L`` until the store after the loop writes
    it again, whatever the loop does), so it is not lowered: ``T v = e; loop; L = v;``
    is printed, not ``L = e; T v = e; loop; L = v;``. Its memory event is taken back
    (MemoryLog.retract: the re-read of the printed text has none), ``L`` reading ``e`` up
    to the loop; a load it ended (``L`` read in ``e``) lives on to the variable's
    declaration, where ``e`` is computed, and the next event that may alias it ends it."""
    from . import ir

    if not b.block.stmts or not isinstance(b.block.stmts[-1], ir.Store):
        return
    last = b.block.stmts[-1]
    origin = b.origins.get(last.pos)
    node = origin.node if origin is not None else None
    if (
        isinstance(node, c_ast.Assignment)
        and node.op == "="
        and any(_GEN.visit(node.lvalue) == loc.text for loc in stored)
        and sum(1 for s in b.block.stmts if b.origins.get(s.pos) is origin) == 1
        and b.mem.head is not None
        and b.mem.events[b.mem.head].pos == last.pos
    ):
        b.block.stmts.pop()
        b.mem.retract()
        b.stored.pop(last.pos, None)
        for info in (*b.leaves.values(), *b.stored.values()):
            if info.kill == last.pos:
                info.kill = None


def lower_before(b: SSABuilder, rewrite: Rewrite) -> None:
    for node in rewrite.before:
        _lower_one(b, node, node)


def lower_rest(b: SSABuilder, rewrite: Rewrite) -> None:
    _lower_one(b, rewrite.new, rewrite.loop)  # the user's loop: its header prints as written
    for node in rewrite.after:
        _lower_one(b, node, node)


def _lower_one(b: SSABuilder, node: c_ast.Node, origin: c_ast.Node) -> None:
    first, cost, since = len(b.block.stmts), b.stats.cost, len(b.spelled)
    b.statement(node)
    b.note_origin(origin, first, b.head_costs.get(id(node), b.stats.cost - cost), since)


# -- which locations ---------------------------------------------------------------------
def _plan(b: SSABuilder, loop: c_ast.Node) -> list[_Location]:
    """The locations to carry."""
    if any(not _pure_call(b, n) for n in walk(loop) if isinstance(n, c_ast.FuncCall)):
        return []
    if any(_atomic(n) for n in walk(loop) if isinstance(n, c_ast.Pragma)):
        return []  # an atomic or critical statement reads and writes memory as a call does
    variant = _variant_names(loop)
    local = _local_decls(loop)
    headers = [p for n in walk(loop) if isinstance(n, _LOOPS) for p in _header_parts(n)]
    header_texts = {_GEN.visit(e) for h in headers for e, _ in _paths(h)}
    locs: dict[str, _Location] = {}
    accesses: list[tuple[c_ast.Node, bool, Region]] = []
    for e, stored in _paths(loop):
        if not _in_memory(b, e, local):
            continue
        region = _region(b, e, local)
        accesses.append((e, stored, region))
        text = _GEN.visit(e)
        if text not in locs and text not in header_texts:
            ctype = _invariant_type(b, e, variant)
            if ctype is not None:
                locs[text] = _Location(e, text, ctype, region)
        if text in locs and stored:
            locs[text].stored = True
    taken = [
        _region(b, n.expr, local)
        for n in walk(loop)
        if isinstance(n, c_ast.UnaryOp) and n.op == "&"
    ]
    stores = any(stored for _, stored, _ in accesses)
    out = []
    for loc in locs.values():
        if not (loc.stored or stores) or not _alone(loc, accesses, taken):
            continue  # a loop that stores nothing: the compiler hoists its loads itself
        if not loc.stored and _named(loc.node):
            # a variable the loop only reads (``n``, ``s.len``): no store it does may
            # reach it, which the compiler sees as well, and keeps it in a register
            continue
        if _writes_nothing_new(b, loop, loc):
            out.append(loc)
    return out


def _named(node: c_ast.Node) -> bool:
    """A variable by its name, or a member of one (not an element, not through ``->``)."""
    while isinstance(node, c_ast.StructRef) and node.type == ".":
        node = node.name
    return isinstance(node, c_ast.ID)


def _alone(loc: _Location, accesses, taken: list[Region]) -> bool:
    """Nothing else the loop accesses may be ``loc`` (a store, or when ``loc`` is stored
    in the loop, a load too), and nothing takes an address that may point to it."""
    if any(r.may_alias(loc.region) for r in taken):
        return False
    for e, stored, region in accesses:
        if _GEN.visit(e) == loc.text:
            continue
        if (stored or loc.stored) and region.may_alias(loc.region):
            return False
    return True


def _writes_nothing_new(b: SSABuilder, loop: c_ast.Node, loc: _Location) -> bool:
    """The load before the loop touches no memory the original does not, and the store
    after it (when ``loc`` is stored) writes a location the original surely writes.

    A location the original stores on some paths only is not carried: a store after
    the loop guarded by a flag would avoid adding a data race, but is not built."""
    access = _access(b, loc.node)
    if access is None:
        return False
    prior = {
        s.kind for s in b.sites if s.ctx in set(b.ancestors(b.ctx)) and s.access.same_place(access)
    }
    first_load, first_store = False, False
    if _runs_once(b, loop):
        first_load, first_store = _first_iteration(loop.stmt, loc.text)
    if not (prior or first_load) or prior and not loc.stored:
        return False  # a load after an access before the loop: memory versions reuse it
    return not loc.stored or "store" in prior or first_store


def _access(b: SSABuilder, node: c_ast.Node) -> Access | None:
    """Where ``node`` points at the loop's entry (the builder's terms, no cost counted)."""
    saved = dataclasses.replace(b.stats)
    try:
        addr = b.designate(b.typed(node))
    except Unsupported:
        return None
    finally:
        b.stats = saved
    return None if addr is None else b.access(addr)


def _invariant_type(b: SSABuilder, e: c_ast.Node, variant: set[str]) -> ct.CType | None:
    """The arithmetic type of ``e`` when it is ``x`` or ``x[...]...[...]`` with a
    loop-invariant address: ``x`` an object, or a pointer variable the loop does not
    assign; subscripts of variables the loop does not assign, constants and arithmetic
    (no load, no call); no load on the way (each ``[]`` but the first on an array)."""
    subs = []
    while isinstance(e, c_ast.ArrayRef):
        subs.append(e.subscript)
        e = e.name
    if not isinstance(e, c_ast.ID) or e.name in variant:
        return None
    sym = b.scope.lookup(e.name)
    if sym is None or sym.volatile or sym.kind in ("enum", "func"):
        return None
    t = sym.type
    if b.is_register(sym):
        if not subs or not isinstance(t, ct.Pointer):
            return None
        t = ct.Array(t.to, None)  # its first subscript reads no memory either
    for sub in reversed(subs):
        if not isinstance(t, ct.Array) or not _invariant_index(b, sub, variant):
            return None
        t = t.of
    return t if ct.is_arithmetic(t) else None


def _invariant_index(b: SSABuilder, e: c_ast.Node, variant: set[str]) -> bool:
    if isinstance(e, c_ast.Constant):
        return True
    if isinstance(e, c_ast.ID):
        sym = b.scope.lookup(e.name)
        return (
            e.name not in variant
            and sym is not None
            and (sym.kind == "enum" or b.is_register(sym) and ct.is_integer(sym.type))
        )
    if isinstance(e, c_ast.BinaryOp) and e.op not in ("&&", "||"):
        return _invariant_index(b, e.left, variant) and _invariant_index(b, e.right, variant)
    if isinstance(e, c_ast.UnaryOp) and e.op in _SIMPLE_OPS:
        return _invariant_index(b, e.expr, variant)
    if isinstance(e, c_ast.Cast):
        return _invariant_index(b, e.expr, variant)
    return False


def _in_memory(b: SSABuilder, e: c_ast.Node, local: dict[str, str]) -> bool:
    """Is the path a memory access (not a variable, a constant or a function)?"""
    if not isinstance(e, c_ast.ID):
        return True
    if e.name in local:
        return local[e.name] == "object"
    sym = b.scope.lookup(e.name)
    return sym is not None and sym.kind not in ("enum", "func") and not b.is_register(sym)


def _region(b: SSABuilder, e: c_ast.Node, local: dict[str, str]) -> Region:
    """What ``e`` may point into; names declared in the loop are not in scope yet:
    a loop-local array is an object of its own, a loop-local pointer may point anywhere."""

    root = root_name(e)
    if root in local:
        return Region("sym", f"{root}.loop") if local[root] == "object" else ANYWHERE
    region = b.region_of(e) if root is not None else None
    if region is not None and region.kind == "sym" and not _pointer_free(b, root):
        # region_of names the variable's own storage: a path through a pointer it holds
        # (a global `float *gp`, `ptrs[0][k]`, `s.p[k]`) may point anywhere
        return ANYWHERE
    return ANYWHERE if region is None else region


def _pointer_free(b: SSABuilder, root: str | None) -> bool:
    """``root`` is a scalar or an array of scalars: no path through it leaves it."""
    sym = b.scope.lookup(root) if root is not None else None
    t = getattr(sym, "type", None)
    while isinstance(t, ct.Array):
        t = t.of
    return isinstance(t, ct.Scalar)


def _atomic(pragma: c_ast.Pragma) -> bool:
    directive = directives.parse(pragma.string)
    return directive.words == ("atomic",) or directive.is_critical


def _pure_call(b: SSABuilder, call: c_ast.FuncCall) -> bool:
    return isinstance(call.name, c_ast.ID) and b.is_pure(call.name.name)


# -- when the load before and the store after are safe ---------------------------------
def _runs_once(b: SSABuilder, loop: c_ast.Node) -> bool:
    """Does the loop surely run its body at least once (a do-while; a for loop from
    a constant to a constant bound it satisfies)?"""
    if isinstance(loop, c_ast.DoWhile):
        return True
    if not isinstance(loop, c_ast.For) or not isinstance(loop.cond, c_ast.BinaryOp):
        return False
    var, start = _start(b, loop.init)
    cond = loop.cond
    if var is None or start is None:
        return False
    ops = {"<": int.__lt__, "<=": int.__le__, ">": int.__gt__, ">=": int.__ge__, "!=": int.__ne__}
    if cond.op not in ops or not isinstance(cond.left, c_ast.ID) or cond.left.name != var:
        return False
    bound = eval_const(cond.right, b.scope, b.symbols.types)
    return bound is not None and 0 <= bound < 2**31 and ops[cond.op](start, bound)


def _start(b: SSABuilder, init: c_ast.Node | None) -> tuple[str | None, int | None]:
    """``k`` and its start value of ``k = c`` / ``int k = c`` (int-sized k, 0 <= c < 2^31)."""
    if isinstance(init, c_ast.Assignment) and init.op == "=" and isinstance(init.lvalue, c_ast.ID):
        sym = b.scope.lookup(init.lvalue.name)
        name, t, value = init.lvalue.name, sym.type if sym else None, init.rvalue
    elif isinstance(init, c_ast.DeclList) and len(init.decls) == 1 and init.decls[0].init:
        d = init.decls[0]
        try:
            t = b.symbols.types.read(d.type, b.scope)
        except Unsupported:
            return None, None
        name, value = d.name, d.init
    else:
        return None, None
    if t is None or not ct.is_integer(t) or (ct.sizeof(t) or 0) < 4:
        return None, None
    start = eval_const(value, b.scope, b.symbols.types)
    return (name, start) if start is not None and 0 <= start < 2**31 else (None, None)


def _first_iteration(body: c_ast.Node, text: str) -> tuple[bool, bool]:
    """Whether every run of ``body`` loads or stores the location spelled ``text``,
    and whether it surely stores it: the statements of its top level up to the first
    that may break or continue, their operands evaluated on every path."""

    accessed = stored = False
    for item in _top_level(body):
        for e, st in _paths(item, unguarded=True):
            if _GEN.visit(e) == text:
                accessed, stored = True, stored or st
        if may_jump_out(item):
            break
    return accessed, stored


def _top_level(node: c_ast.Node) -> Iterator[c_ast.Node]:
    """The parts of a block evaluated whenever it runs (an if: its condition; a loop:
    what its header evaluates first), in order."""
    items = node.block_items or [] if isinstance(node, c_ast.Compound) else [node]
    for item in items:
        if isinstance(item, c_ast.Compound):
            yield from _top_level(item)
        elif isinstance(item, (c_ast.If, c_ast.While)):
            yield item.cond
            if _jumps(item):
                return
        elif isinstance(item, c_ast.For):
            yield from (p for p in (item.init, item.cond) if p is not None)
        elif isinstance(item, (c_ast.DoWhile, c_ast.Switch, c_ast.Break, c_ast.Continue)):
            return
        elif not isinstance(item, c_ast.Pragma):
            yield item


def _jumps(item: c_ast.Node) -> bool:

    return may_jump_out(item)


# -- syntax ----------------------------------------------------------------------------
def _paths(node: c_ast.Node | None, unguarded: bool = False) -> Iterator[tuple[c_ast.Node, bool]]:
    """The memory access paths in ``node`` (outermost only: ``a[i][j]``, not ``a[i]``
    in it; any name, the caller tells variables apart), each with whether it is
    stored to. ``unguarded``: not those in operands only some paths evaluate."""
    if node is None:
        return
    targets = {id(t) for t in assignment_targets(node)}

    def visit(n: c_ast.Node) -> Iterator[tuple[c_ast.Node, bool]]:
        if isinstance(n, c_ast.ID):
            yield n, id(n) in targets
        elif isinstance(n, (c_ast.ArrayRef, c_ast.StructRef)) or (
            isinstance(n, c_ast.UnaryOp) and n.op == "*"
        ):
            yield n, id(n) in targets
            yield from inside(n)
        elif isinstance(n, c_ast.UnaryOp) and n.op == "sizeof":
            return
        elif isinstance(n, c_ast.FuncCall):
            if n.args is not None:
                yield from visit(n.args)
        elif unguarded and isinstance(n, c_ast.BinaryOp) and n.op in ("&&", "||"):
            yield from visit(n.left)
        elif unguarded and isinstance(n, c_ast.TernaryOp):
            yield from visit(n.cond)
        elif isinstance(n, (c_ast.For, c_ast.While, c_ast.DoWhile, c_ast.If)) and unguarded:
            return
        else:
            for child in n:
                yield from visit(child)

    def inside(n: c_ast.Node) -> Iterator[tuple[c_ast.Node, bool]]:
        while True:
            if isinstance(n, c_ast.ArrayRef):
                yield from visit(n.subscript)
                n = n.name
            elif isinstance(n, c_ast.StructRef) and n.type == ".":
                n = n.name
            elif isinstance(n, c_ast.ID):
                return
            else:  # '->', '*', or an expression giving the pointer
                yield from visit(
                    n.name
                    if isinstance(n, c_ast.StructRef)
                    else n.expr
                    if isinstance(n, c_ast.UnaryOp)
                    else n
                )
                return

    yield from visit(node)


def _variant_names(loop: c_ast.Node) -> set[str]:
    """Names the loop assigns or declares."""
    names = {t.name for t in assignment_targets(loop) if isinstance(t, c_ast.ID)}
    return names | set(_local_decls(loop))


def _local_decls(loop: c_ast.Node) -> dict[str, str]:
    """Names declared in the loop -> "pointer", "scalar" (variables) or "object"."""
    out = {}
    for n in walk(loop):
        if isinstance(n, c_ast.Decl) and n.name is not None:
            t = n.type
            out[n.name] = (
                "pointer"
                if isinstance(t, c_ast.PtrDecl)
                else "scalar"
                if isinstance(t, c_ast.TypeDecl) and isinstance(t.type, c_ast.IdentifierType)
                else "object"
            )
    return out


def _header_parts(loop: c_ast.Node) -> list[c_ast.Node]:
    parts = [loop.init, loop.cond, loop.next] if isinstance(loop, c_ast.For) else [loop.cond]
    return [p for p in parts if p is not None]


# -- the rewrite -----------------------------------------------------------------------
def _substitute(node: c_ast.Node, names: dict[str, str]) -> c_ast.Node:
    """``node`` with every access path spelled as a key of ``names`` replaced by that
    variable; nodes on the way copied, the rest shared with the user's tree."""
    if isinstance(node, (c_ast.ID, c_ast.ArrayRef)):
        name = names.get(_GEN.visit(node))
        if name is not None:
            return c_ast.ID(name, node.coord)
    changed = {}
    for attr in node.__slots__:
        if (
            attr in ("coord", "__weakref__")
            or isinstance(node, c_ast.StructRef)
            and attr == "field"
        ):
            continue
        value = getattr(node, attr)
        if isinstance(value, c_ast.Node):
            new = _substitute(value, names)
            if new is not value:
                changed[attr] = new
        elif isinstance(value, list) and any(isinstance(v, c_ast.Node) for v in value):
            items = [_substitute(v, names) if isinstance(v, c_ast.Node) else v for v in value]
            if any(a is not b for a, b in zip(items, value, strict=True)):
                changed[attr] = items
    if not changed:
        return node
    out = copy.copy(node)
    for attr, value in changed.items():
        setattr(out, attr, value)
    return out


def _type_names(b: SSABuilder, t: ct.CType) -> list[str]:
    """The type's name as the user spelled it (a typedef) where that name still means
    it here, else its C spelling."""
    spelled = getattr(t, "spelled", "")
    if spelled and b.scope.lookup(spelled) is None and b.scope.typedef(spelled) == t:
        return [spelled]
    return ct.spell(t).split()


def _decl(name: str, type_names: list[str], init: c_ast.Node, coord) -> c_ast.Decl:
    tdecl = c_ast.TypeDecl(name, [], None, c_ast.IdentifierType(type_names, coord), coord)
    return c_ast.Decl(name, [], [], [], [], tdecl, init, None, coord)
