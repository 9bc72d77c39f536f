"""Arrays and structs as the scalars they hold: an initialised local aggregate
(``double v[5] = {0};``, ``Pole p = poles[k];``, designated initialisers) and a struct
assignment (``a = b;``) become one store per scalar, each an ordinary store of the SSA
(issue 37), so that a later load of ``v[2]`` or ``p.e`` takes the value stored and a
copy's loads are shared with the same loads elsewhere.

The statement stays one statement for the printer (its origin): printed as written
when nothing in it changed, else as the declaration and the stores. Where C leaves
something out (an element not initialised is zero) the store of the zero is explicit.
"""

from __future__ import annotations

from pycparser import c_ast

from ..errors import Opaque, Unsupported
from ..frontend import ctypes as ct
from ..frontend.literals import parse_int
from ..frontend.symbols import Scope, Symbol
from .cnodes import INCDEC, walk

MAX_SCALARS = 64  # more, and a changed declaration would print as a wall of stores

Path = tuple[tuple[str, object], ...]  # ("[]", k) or (".", member), outermost first
Leaf = tuple[c_ast.Node, c_ast.Node]  # (the scalar as an lvalue, its value)


def initialised(sym: Symbol, init: c_ast.Node, tags: dict[str, ct.Struct]) -> list[Leaf]:
    """The stores that initialise the local aggregate ``sym`` with ``init``."""
    t = sym.type
    coord = init.coord
    if isinstance(init, c_ast.InitList):
        values: dict[Path, c_ast.Node] = {}
        _fill(t, init, (), values, tags)
        return [
            (_access(sym.name, path, coord), values.get(path) or _zero(t, path, coord))
            for path in _scalars(t, (), tags)
        ]
    if isinstance(t, ct.Struct):
        return _copy(c_ast.ID(sym.name, coord), init, t, tags)
    if isinstance(init, c_ast.Constant) and init.type == "string":
        raise Unsupported("a char array initialised by a string literal")
    raise Unsupported("an array initialised by something that is not a list of values")


def copied(
    node: c_ast.Assignment, typer, scope: Scope, tags: dict[str, ct.Struct]
) -> list[Leaf] | None:
    """The stores of a struct assignment ``a = b`` (None: ``node`` assigns no struct)."""
    if (
        node.op != "="
        or isinstance(node.lvalue, c_ast.ID)
        and scope.lookup(node.lvalue.name) is None
    ):
        return None
    try:
        target = typer.expr(node.lvalue, scope)
    except Unsupported:
        return None
    if not isinstance(target.ctype, ct.Struct):
        return None
    return _copy(node.lvalue, node.rvalue, target.ctype, tags)


def _copy(target: c_ast.Node, source: c_ast.Node, t: ct.Struct, tags: dict) -> list[Leaf]:
    """``target = source`` for structs, scalar by scalar. The source must name memory
    without side effects or calls (it is read once per scalar)."""
    if not _plain_lvalue(source):
        raise Opaque("a struct copied from something that is not a variable or memory")
    return [(_extend(target, path), _extend(source, path)) for path in _scalars(t, (), tags)]


def _plain_lvalue(node: c_ast.Node) -> bool:
    if not isinstance(node, (c_ast.ID, c_ast.ArrayRef, c_ast.StructRef, c_ast.UnaryOp)):
        return False
    if isinstance(node, c_ast.UnaryOp) and node.op != "*":
        return False
    return not any(
        isinstance(n, (c_ast.FuncCall, c_ast.Assignment))
        or isinstance(n, c_ast.UnaryOp)
        and n.op in INCDEC
        for n in walk(node)
    )


def _scalars(t: ct.CType, path: Path, tags: dict[str, ct.Struct]) -> list[Path]:
    """The paths of every scalar inside a value of type ``t``, in memory order."""
    out: list[Path] = []
    _collect(t, path, tags, out)
    return out


def _collect(t: ct.CType, path: Path, tags: dict[str, ct.Struct], out: list[Path]) -> None:
    if ct.is_arithmetic(t) or isinstance(t, ct.Pointer):
        out.append(path)
    elif isinstance(t, ct.Array) and t.size is not None:
        for k in range(t.size):
            _collect(t.of, (*path, ("[]", k)), tags, out)
    elif isinstance(t, ct.Struct) and not t.is_union:
        st = t if t.fields is not None else tags.get(t.tag, t)
        for f in st.fields or ():
            if not f.name:
                continue
            if f.bitfield:
                raise Unsupported(f"a struct with the bit-field '{f.name}' copied or initialised")
            _collect(f.type, (*path, (".", f.name)), tags, out)
        if st.fields is None:
            raise Unsupported(f"an incomplete {t} copied or initialised")
    else:
        raise Unsupported(f"a value of type {t} copied or initialised")
    if len(out) > MAX_SCALARS:
        raise Unsupported(f"an aggregate of more than {MAX_SCALARS} scalars initialised or copied")


def _fill(
    t: ct.CType,
    init: c_ast.InitList,
    path: Path,
    values: dict[Path, c_ast.Node],
    tags: dict[str, ct.Struct],
) -> None:
    """The values an initialiser list (with designators, fully braced) gives the scalars
    of a ``t`` at ``path``."""
    if isinstance(t, ct.Array):
        members: list[tuple[object, ct.CType]] = [(k, t.of) for k in range(t.size or 0)]
    elif isinstance(t, ct.Struct) and not t.is_union:
        st = t if t.fields is not None else tags.get(t.tag, t)
        members = [(f.name, f.type) for f in st.fields or () if f.name]
    else:
        raise Unsupported(f"an initialiser list for a value of type {t}")
    at = 0
    given: set[int] = set()
    for item in init.exprs:
        if isinstance(item, c_ast.NamedInitializer):
            if len(item.name) != 1:
                raise Unsupported("a designated initialiser of several designators")
            at = _designated(item.name[0], members)
            item = item.expr
        if at >= len(members):
            raise Unsupported("an initialiser list longer than its array or struct")
        if at in given:  # C overrides the whole member (gcc zeroes a braced one's rest)
            raise Unsupported("an initialiser list that initialises a member twice")
        given.add(at)
        key, mt = members[at]
        step = ("[]", key) if isinstance(t, ct.Array) else (".", key)
        here = (*path, step)
        if isinstance(item, c_ast.InitList):
            _fill(mt, item, here, values, tags)
        elif ct.is_arithmetic(mt) or isinstance(mt, ct.Pointer):
            values[here] = item
        else:
            raise Unsupported("an initialiser list that leaves out the braces of a member")
        at += 1


def _designated(designator: c_ast.Node, members: list[tuple[object, ct.CType]]) -> int:
    if isinstance(designator, c_ast.ArrayDesignator):  # ``[2] =`` (pycparser >= 3.12)
        designator = designator.expr
    if isinstance(designator, c_ast.ID):
        for k, (name, _) in enumerate(members):
            if name == designator.name:
                return k
    if isinstance(designator, c_ast.Constant) and designator.type == "int":
        return parse_int(designator.value)[0]
    raise Unsupported("a designator accsat cannot read")


def _access(name: str, path: Path, coord) -> c_ast.Node:
    return _extend(c_ast.ID(name, coord), path)


def _extend(node: c_ast.Node, path: Path) -> c_ast.Node:
    """``node`` followed by ``path``: ``v`` and (("[]", 2),) is ``v[2]``."""
    coord = node.coord
    for step, key in path:
        if step == "[]":
            node = c_ast.ArrayRef(node, c_ast.Constant("int", str(key), coord), coord)
        else:
            node = c_ast.StructRef(node, ".", c_ast.ID(str(key), coord), coord)
    return node


def _zero(t: ct.CType, path: Path, coord) -> c_ast.Node:
    """The zero C gives a scalar an initialiser leaves out, spelled for its type."""
    for step, key in path:
        if step == "[]" and isinstance(t, ct.Array):
            t = t.of
        elif isinstance(t, ct.Struct):
            t = next(f.type for f in t.fields or () if f.name == key)
    if ct.is_float(t):
        return c_ast.Constant("double", "0.0", coord)
    return c_ast.Constant("int", "0", coord)
