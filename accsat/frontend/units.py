"""Functions as rewrite units (issue 37): where real applications keep their work.

A function the device runs is rewritten like a loop body, its whole body the unit:
one marked ``#pragma acc routine`` (any level; before its definition or a prototype,
or naming it: ``routine(f)``), one inside ``#pragma omp declare target`` ... ``end
declare target`` (or named by ``declare target(f)`` / ``to(f)`` / ``enter(f)``), and
one the file calls from a compute construct or from such a function, as compilers
take it for an implicit routine. Its parameters are its inputs (pointer parameters
may alias each other, unless ``restrict`` says not), a ``return`` its output. A
function with a kernel of its own (a ``routine vector`` with ``acc loop`` inside)
is rewritten by its kernels, not as a whole; ``main`` never is.
"""

from __future__ import annotations

import re

from pycparser import c_ast

from ..report import CALLEE, ROUTINE
from . import ctypes as ct
from . import directives
from .source_map import SourceMap
from .symbols import FileSymbols

_NAMES = re.compile(r"[A-Za-z_][A-Za-z_0-9]*")


def marked_functions(ast: c_ast.FileAST) -> dict[str, str]:
    """Function name -> the directive that makes it a device function ("acc routine
    seq", "omp declare target")."""
    out: dict[str, str] = {}
    pending: str | None = None  # a routine directive waiting for its function
    inside = 0  # depth of omp declare target ... end declare target
    for ext in ast.ext:
        if isinstance(ext, c_ast.Pragma):
            d = directives.parse(ext.string)
            text = _construct(d)
            if d.model == "acc" and d.words == ("routine",):
                if d.argument:
                    for name in _NAMES.findall(d.argument):
                        out.setdefault(name, text)
                else:
                    pending = text
            elif d.model == "omp" and d.words[-2:] == ("declare", "target"):
                named = d.argument or "".join(d.clauses.get(c, "") for c in ("to", "enter"))
                if d.words[0] == "end":
                    inside = max(0, inside - 1)
                elif named:
                    for name in _NAMES.findall(named):
                        out.setdefault(name, "omp declare target")
                else:
                    inside += 1
            continue
        name = _function_name(ext)
        if name is None:
            continue
        if pending is not None:
            out.setdefault(name, pending)
            pending = None
        elif inside:
            out.setdefault(name, "omp declare target")
    return out


def function_units(
    ast: c_ast.FileAST,
    symbols: FileSymbols,
    with_kernels: set[str],
    region_calls: set[str],
) -> dict[str, tuple[str, str]]:
    """Name -> (kind, construct) of every function of the file that is a unit: marked
    ones, and those called from a compute construct (``region_calls``) or from a unit,
    less ``main`` and those with kernels of their own (``with_kernels``)."""
    marked = marked_functions(ast)
    defined = set(symbols.functions)
    units: dict[str, tuple[str, str]] = {
        name: (ROUTINE, how) for name, how in marked.items() if name in defined
    }
    todo = [n for n in region_calls if n in defined] + list(units)
    callers: dict[str, str] = {n: "a compute construct" for n in region_calls}
    while todo:
        name = todo.pop()
        units.setdefault(name, (CALLEE, f"called from {callers.get(name, 'a compute construct')}"))
        for callee in _calls(symbols.functions[name][0].body):
            if callee in defined and callee not in units and callee not in todo:
                callers[callee] = name
                todo.append(callee)
    return {
        name: unit for name, unit in units.items() if name != "main" and name not in with_kernels
    }


def region_calls(body: c_ast.Node) -> set[str]:
    """Names a function's compute constructs call (the statement after each
    ``parallel``/``kernels``/``target`` directive and the directives after it, such as
    ``acc loop``); one walk of the body."""
    out: set[str] = set()
    stack: list[tuple[c_ast.Node, bool]] = [(body, False)]
    while stack:
        node, inside = stack.pop()
        if inside and (name := _called(node)) is not None:
            out.add(name)
        regions: set[int] = set()
        if not inside and isinstance(node, c_ast.Compound):
            items = node.block_items or []
            for k, pragma in enumerate(items):
                if isinstance(pragma, c_ast.Pragma) and directives.parse(pragma.string).is_region:
                    stmt = next(
                        (s for s in items[k + 1 :] if not isinstance(s, c_ast.Pragma)), None
                    )
                    regions.add(id(stmt))
        stack.extend((child, inside or id(child) in regions) for _, child in node.children())
    return out


def returns(symbols: FileSymbols, name: str) -> ct.CType:
    sym = symbols.scope.lookup(name)
    return sym.type.ret if sym is not None and isinstance(sym.type, ct.Func) else ct.INT


def body_span(source: SourceMap, fn: c_ast.FuncDef):
    """Where the function's body is in the user's text (a reason string if not found)."""
    coord = fn.decl.coord
    if coord is None:
        return "no line for the function"
    return source.function_body(fn.decl.name, coord.line)


def _calls(node: c_ast.Node) -> set[str]:
    out = set()
    stack = [node]
    while stack:
        n = stack.pop()
        if (name := _called(n)) is not None:
            out.add(name)
        stack.extend(child for _, child in n.children())
    return out


def _called(node: c_ast.Node) -> str | None:
    """The function a call names (None: not a call, or a call through a pointer)."""
    if isinstance(node, c_ast.FuncCall) and isinstance(node.name, c_ast.ID):
        return node.name.name
    return None


def _function_name(ext: c_ast.Node) -> str | None:
    if isinstance(ext, c_ast.FuncDef):
        return ext.decl.name
    if isinstance(ext, c_ast.Decl) and isinstance(ext.type, c_ast.FuncDecl):
        return ext.name
    return None


def _construct(d: directives.Directive) -> str:
    return " ".join((d.model, *d.words, *(k for k, v in d.clauses.items() if not v)))
