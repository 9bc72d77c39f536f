"""What a call of a function defined in the file may do to memory (issue 37).

A call the SSA knows nothing of reads and overwrites every location, so no load is
shared across it. For a function the translation unit defines, a conservative summary
says more: the memory it may read and write, as objects of the file (``globals``),
through which of its pointer parameters (``params``, by position: what the caller
passes there), or anywhere. A function that reads and writes no memory at all (its
locals apart) is *pure*: its result is a function of its arguments alone, and two
calls with the same arguments give the same value.

The summary is C's rules and nothing more: a pointer parameter the function never
assigns (nor takes the address of) points where the caller's argument points; a
local's memory is the call's own; a ``static`` local lives on between calls (a hidden
global); anything else a pointer may reach is *anywhere*. A call inside is its
callee's summary with the arguments put in place; a library function other than
C's pure math, anywhere. Recursion is solved by iterating to a fixpoint from "no
effect". ``verify/interp.py`` runs the defined functions themselves when it checks a
rewrite, so a summary that missed an effect shows there.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from pycparser import c_ast

from ..mathfuncs import PURE_MATH
from . import ctypes as ct

INCDEC = ("++", "--", "p++", "p--")


@dataclass(frozen=True)
class Access:
    """Memory a function may read or write."""

    anywhere: bool = False
    params: frozenset[int] = frozenset()  # through these pointer parameters
    globals: frozenset[str] = frozenset()  # these objects of the file (a static local: f.x)

    def __or__(self, other: Access) -> Access:
        return Access(
            self.anywhere or other.anywhere,
            self.params | other.params,
            self.globals | other.globals,
        )

    @property
    def none(self) -> bool:
        return not (self.anywhere or self.params or self.globals)


NOTHING = Access()
ANYWHERE = Access(anywhere=True)


@dataclass(frozen=True)
class Effects:
    reads: Access = NOTHING
    writes: Access = NOTHING

    @property
    def pure(self) -> bool:
        return self.reads.none and self.writes.none


UNKNOWN = Effects(ANYWHERE, ANYWHERE)


@dataclass
class _Function:
    node: c_ast.FuncDef
    params: list[str]  # names, by position
    pointer_params: set[str]  # those of pointer type the body never assigns
    locals: set[str]  # declared in the body (not static)
    statics: set[str]  # static locals
    arrays: set[str]  # the locals (static ones too) that are arrays: their name is their memory
    clash: bool  # a local named like a parameter or an object of the file


@dataclass
class Summaries:
    """The effects of every function the file defines (``of``)."""

    functions: dict[str, _Function] = field(default_factory=dict)
    file_objects: frozenset[str] = frozenset()
    file_arrays: frozenset[str] = frozenset()  # of those, the arrays (not pointers)
    done: dict[str, Effects] = field(default_factory=dict)

    def of(self, name: str) -> Effects | None:
        """The effects of a call of ``name`` (None: the file does not define it)."""
        if name not in self.functions:
            return None
        if not self.done:
            self._solve()
        return self.done.get(name, UNKNOWN)

    def _solve(self) -> None:
        current = {name: Effects() for name in self.functions}
        for _ in range(len(self.functions) + 2):  # monotone: at most one step per function
            new = {name: _effects(f, name, current, self) for name, f in self.functions.items()}
            if new == current:
                break
            current = new
        else:  # not settled (cannot happen, but never trust a summary that did not)
            current = dict.fromkeys(self.functions, UNKNOWN)
        self.done = current


def summaries(
    functions: dict[str, tuple[c_ast.FuncDef, object]], objects: Mapping[str, ct.CType]
) -> Summaries:
    """The summaries of ``functions`` (name -> definition, its scope), the file's objects
    being ``objects`` (variables of file scope and their types)."""
    out = Summaries(
        file_objects=frozenset(objects),
        file_arrays=frozenset(n for n, t in objects.items() if isinstance(t, ct.Array)),
    )
    for name, (node, scope) in functions.items():
        params = _param_names(node)
        declared, statics = _declared(node.body)
        assigned = _assigned_names(node.body) | _address_taken(node.body)
        types = getattr(scope, "names", {})
        pointers = {
            p
            for p in params
            if p in types and isinstance(types[p].type, ct.Pointer) and p not in assigned
        }
        out.functions[name] = _Function(
            node,
            params,
            pointers,
            declared,
            statics,
            _arrays(node.body),
            bool((declared | statics) & (set(params) | set(objects))),
        )
    return out


def _effects(f: _Function, name: str, known: dict[str, Effects], s: Summaries) -> Effects:
    if f.clash:
        return UNKNOWN
    reads, writes = NOTHING, NOTHING
    for node in _walk(f.node.body):
        if isinstance(node, c_ast.Assignment):
            writes |= _place(node.lvalue, f, name, s)
            if node.op != "=":
                reads |= _place(node.lvalue, f, name, s)
        elif isinstance(node, c_ast.UnaryOp) and node.op in INCDEC:
            writes |= _place(node.expr, f, name, s)
            reads |= _place(node.expr, f, name, s)
        elif isinstance(node, (c_ast.ArrayRef, c_ast.StructRef, c_ast.ID)) or (
            isinstance(node, c_ast.UnaryOp) and node.op == "*"
        ):
            reads |= _place(node, f, name, s)
        elif isinstance(node, c_ast.FuncCall):
            r, w = _call(node, f, name, known, s)
            reads, writes = reads | r, writes | w
    return Effects(reads, writes)


def _call(
    node: c_ast.FuncCall, f: _Function, name: str, known: dict[str, Effects], s: Summaries
) -> tuple[Access, Access]:
    if not isinstance(node.name, c_ast.ID):
        return ANYWHERE, ANYWHERE
    callee = node.name.name
    if callee in PURE_MATH and callee not in s.functions:
        return NOTHING, NOTHING
    if callee not in s.functions:
        return ANYWHERE, ANYWHERE
    effects = known.get(callee, UNKNOWN)
    args = node.args.exprs if node.args is not None else []
    return _bind(effects.reads, args, f, name, s), _bind(effects.writes, args, f, name, s)


def _bind(a: Access, args: list[c_ast.Node], f: _Function, name: str, s: Summaries) -> Access:
    """A callee's access in the caller's terms: its parameter k is where argument k points."""
    out = Access(a.anywhere, frozenset(), a.globals)
    for k in a.params:
        out |= _pointee(args[k], f, name, s) if k < len(args) else ANYWHERE
    return out


def _place(node: c_ast.Node, f: _Function, name: str, s: Summaries) -> Access:
    """The memory an lvalue (or a read of one) is in: nothing for a register local."""
    if isinstance(node, c_ast.ID):
        return _object(node.name, f, name, s)
    if isinstance(node, c_ast.ArrayRef):
        return _pointee(node.name, f, name, s)
    if isinstance(node, c_ast.StructRef):
        return (
            _pointee(node.name, f, name, s) if node.type == "->" else _place(node.name, f, name, s)
        )
    if isinstance(node, c_ast.UnaryOp) and node.op == "*":
        return _pointee(node.expr, f, name, s)
    return NOTHING  # not an lvalue: its parts are visited on their own


def _object(var: str, f: _Function, name: str, s: Summaries) -> Access:
    if var in f.locals or var in f.params:
        return NOTHING  # the call's own
    if var in f.statics:
        return Access(globals=frozenset((f"{name}.{var}",)))
    if var in s.file_objects:
        return Access(globals=frozenset((var,)))
    return NOTHING  # an enum constant, a function


def _pointee(node: c_ast.Node, f: _Function, name: str, s: Summaries) -> Access:
    """Where a pointer value (or an array used as one) may point."""
    while isinstance(node, c_ast.Cast) or (
        isinstance(node, c_ast.BinaryOp) and node.op in ("+", "-")
    ):
        if isinstance(node, c_ast.Cast):
            node = node.expr
        else:  # p + k points into what p points into (k + p too)
            left = _pointee(node.left, f, name, s)
            return left if not left.anywhere else _pointee(node.right, f, name, s)
    if isinstance(node, c_ast.ID):
        var = node.name
        if var in f.pointer_params:
            return Access(params=frozenset((f.params.index(var),)))
        if var in f.arrays:  # a local or static array: its own memory
            return _object(var, f, name, s)
        if var in s.file_arrays and var not in f.locals:
            return _object(var, f, name, s)
        return ANYWHERE  # a pointer variable: it may point anywhere
    if isinstance(node, c_ast.UnaryOp) and node.op == "&":
        return _place(node.expr, f, name, s)
    if isinstance(node, (c_ast.ArrayRef, c_ast.StructRef)):
        return ANYWHERE  # a pointer loaded from memory, or a row of an array
    return ANYWHERE


def _arrays(body: c_ast.Node) -> set[str]:
    """The body's local arrays (their name is their address: the call's own memory)."""
    out = set()
    for node in _walk(body):
        if isinstance(node, c_ast.Decl) and isinstance(node.type, c_ast.ArrayDecl):
            out.add(node.name)
    return out


def _param_names(fn: c_ast.FuncDef) -> list[str]:
    ftype = fn.decl.type
    args = ftype.args.params if isinstance(ftype, c_ast.FuncDecl) and ftype.args else []
    return [getattr(p, "name", None) or "" for p in args]


def _declared(body: c_ast.Node) -> tuple[set[str], set[str]]:
    plain: set[str] = set()
    statics: set[str] = set()
    for node in _walk(body):
        if isinstance(node, c_ast.Decl) and node.name and not isinstance(node.type, c_ast.FuncDecl):
            (statics if "static" in (node.storage or ()) else plain).add(node.name)
    return plain, statics


def _assigned_names(body: c_ast.Node) -> set[str]:
    out = set()
    for node in _walk(body):
        if isinstance(node, c_ast.Assignment) and isinstance(node.lvalue, c_ast.ID):
            out.add(node.lvalue.name)
        elif _incdec(node) and isinstance(node.expr, c_ast.ID):
            out.add(node.expr.name)
    return out


def _incdec(node: c_ast.Node) -> bool:
    return isinstance(node, c_ast.UnaryOp) and node.op in INCDEC


def _address_taken(body: c_ast.Node) -> set[str]:
    return {
        node.expr.name
        for node in _walk(body)
        if isinstance(node, c_ast.UnaryOp) and node.op == "&" and isinstance(node.expr, c_ast.ID)
    }


def _walk(node: c_ast.Node | None):
    stack = [node] if node is not None else []
    while stack:
        n = stack.pop()
        yield n
        stack.extend(child for _, child in n.children())
