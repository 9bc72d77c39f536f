"""Find the kernels: the bodies of the innermost parallel loops.

A loop is *marked* when a loop directive applies to it (``acc loop`` without
``seq``, ``acc parallel loop``, ``omp for``/``simd``/``distribute``...), and
through ``collapse(n)`` the n-1 loops nested right inside it too. A kernel is
the body of a marked loop with no marked loop inside it; inside a compute
region (``acc parallel``/``kernels``, ``omp parallel``/``target``) whose nest
has no marked loop at all, the innermost loop of the nest, unless a directive
keeps that loop sequential (``acc loop seq``). Which directives are compute
constructs is ``directives``' table: a data construct (``omp target data``,
``acc data``), a data movement or a standalone directive opens no region.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from pycparser import c_ast

from ..report import LOOP_BODY
from . import ctypes as ct
from . import directives, units
from .attributes import Attributes
from .depth import too_deep
from .directives import Directive
from .preprocess import marker_file
from .source_map import BodySpan, SourceMap
from .symbols import FileSymbols, Scope, Symbol


@dataclass
class Kernel:
    """A rewrite unit: one innermost parallel loop, as found in the parsed file, or a
    function the device runs (``units.py``: ``loop`` is then its definition)."""

    loop: c_ast.For | c_ast.FuncDef
    scope: Scope  # names visible at the start of the body
    function: str
    construct: str  # the directive that made it a kernel, e.g. "acc loop vector"
    line: int  # line of the ``for`` in the user's file
    span: BodySpan | str  # where the body is in the user's text, or why it is not mapped
    address_taken: frozenset[str] = frozenset()  # names whose address the function takes
    enclosing_directives: tuple[Directive, ...] = ()
    column: int = 0  # of the ``for`` on ``line``, as gcc counts (SourceMap.for_column)
    kind: str = LOOP_BODY  # or ROUTINE, CALLEE: a function's body (report.py)
    returns: ct.CType | None = None  # a function unit's return type (``return`` allowed)
    # (file, line) the compiler names the loop's line by, where the file's own #line
    # directives name another (load.py); None: the file's own name and ``line``
    named: tuple[str, int] | None = None
    # the header whose text holds the unit (as cpp names it: frontend/headers.py); "": the
    # file's own
    header: str = ""

    @property
    def body(self) -> c_ast.Node:
        """The statement rewritten: the loop's body, or the function's."""
        return self.loop.body if isinstance(self.loop, c_ast.FuncDef) else self.loop.stmt


@dataclass
class _Loop:
    node: c_ast.Node
    directive: Directive | None
    marked: bool
    in_region: bool
    region: Directive | None
    scope: Scope | None
    parent: _Loop | None
    children: list[_Loop] = field(default_factory=list)
    sequential: bool = False  # under ``acc loop seq``: never an innermost parallel loop

    def has_marked_below(self) -> bool:
        return any(c.marked or c.has_marked_below() for c in self.children)

    def has_loop_below(self) -> bool:
        return bool(self.children)


class _Finder:
    def __init__(self, symbols: FileSymbols, main_file: str):
        self.symbols = symbols
        self.main_file = main_file
        self.roots: list[_Loop] = []
        self.function = ""
        self.address_taken: frozenset[str] = frozenset()
        self.kernels: list[tuple[_Loop, str, str, frozenset[str]]] = []
        self.fors_by_line: dict[tuple[str, int], list[c_ast.For]] = {}
        self.calls: set[str] = set()  # the functions the file's functions call, by name

    # -- file and function level -------------------------------------------------
    def file(self, ast: c_ast.FileAST) -> None:
        for ext in ast.ext:
            if isinstance(ext, c_ast.FuncDef):
                self.funcdef(ext)
            elif isinstance(ext, (c_ast.Decl, c_ast.Typedef)):
                self.symbols.declare(ext, self.symbols.scope, "global")

    def funcdef(self, fn: c_ast.FuncDef) -> None:
        decl, params = _signature(fn)
        self.symbols.declare(decl, self.symbols.scope, "func")
        self.function = fn.decl.name
        taken, calls = _body_names(fn.body)
        self.address_taken = frozenset(taken)
        self.calls |= calls
        scope = self.symbols.scope.child()
        for p in params:
            self.symbols.declare(p, scope, "param")
        self.symbols.functions[fn.decl.name] = (fn, scope)
        roots: list[_Loop] = []
        self.stmt(fn.body, scope, None, roots, in_region=False, region=None, collapse_left=0)
        self.collect(roots)

    # -- statements ---------------------------------------------------------------
    def stmt(self, node, scope, parent, siblings, in_region, region, collapse_left, pragma=None):
        if node is None:
            return
        if isinstance(node, c_ast.Compound):
            self.block(node, scope.child(), parent, siblings, in_region, region, collapse_left)
        elif isinstance(node, c_ast.For):
            self.for_loop(node, scope, parent, siblings, in_region, region, collapse_left, pragma)
        elif isinstance(node, (c_ast.While, c_ast.DoWhile)):
            loop = _Loop(node, None, False, in_region, region, None, parent)
            siblings.append(loop)
            self.stmt(node.stmt, scope, loop, loop.children, in_region, region, 0)
        elif isinstance(node, c_ast.If):
            self.stmt(node.iftrue, scope, parent, siblings, in_region, region, 0)
            self.stmt(node.iffalse, scope, parent, siblings, in_region, region, 0)
        elif isinstance(node, (c_ast.Switch, c_ast.Case, c_ast.Default, c_ast.Label)):
            body = getattr(node, "stmt", None)
            stmts = getattr(node, "stmts", None)
            self.stmt(body, scope, parent, siblings, in_region, region, 0)
            for s in stmts or ():
                self.stmt(s, scope, parent, siblings, in_region, region, 0)

    def block(self, node, scope, parent, siblings, in_region, region, collapse_left):
        items = node.block_items or []
        single = sum(not isinstance(i, c_ast.Pragma) for i in items) == 1
        pending: Directive | None = None
        for item in items:
            if isinstance(item, c_ast.Pragma):
                pending = directives.parse(item.string)
                continue
            if isinstance(item, (c_ast.Decl, c_ast.Typedef)):
                self.symbols.declare(item, scope, "local")
                pending = None
                continue
            opens_region = pending is not None and pending.is_region
            self.stmt(
                item,
                scope,
                parent,
                siblings,
                in_region or opens_region,
                pending if opens_region else region,
                collapse_left if single else 0,
                pending,
            )
            pending = None

    def for_loop(self, node, scope, parent, siblings, in_region, region, collapse_left, pragma):
        self.fors_by_line.setdefault((_file(node), _line(node)), []).append(node)
        if pragma is not None and pragma.is_region and not pragma.is_loop:
            in_region, region = True, pragma
        marked = (pragma is not None and pragma.is_loop) or collapse_left > 0
        if pragma is not None and pragma.is_loop:
            below = pragma.collapse - 1
        else:
            below = collapse_left - 1 if collapse_left > 0 else 0
        inner = scope.child()
        if isinstance(node.init, c_ast.DeclList):
            for d in node.init.decls:
                self.symbols.declare(d, inner, "local")
        directive = pragma if (pragma is not None and pragma.is_loop) else None
        if directive is None and collapse_left > 0 and parent is not None:
            directive = parent.directive
        loop = _Loop(
            node,
            directive,
            marked,
            in_region,
            region,
            inner.snapshot(),
            parent,
            sequential=pragma is not None and pragma.is_sequential_loop,
        )
        siblings.append(loop)
        self.stmt(node.stmt, inner, loop, loop.children, in_region, region, below)

    # -- choosing the kernels -------------------------------------------------------
    def collect(self, roots: list[_Loop]) -> None:
        for loop in _walk(roots):
            if not isinstance(loop.node, c_ast.For):
                continue
            if loop.marked and not loop.has_marked_below():
                self.kernels.append(
                    (loop, _construct(loop.directive), self.function, self.address_taken)
                )
            elif (
                not loop.marked
                and not loop.sequential
                and loop.in_region
                and not loop.has_loop_below()
                and not _nest_has_marked(loop)
            ):
                self.kernels.append(
                    (loop, _construct(loop.region), self.function, self.address_taken)
                )


def _signature(fn: c_ast.FuncDef) -> tuple[c_ast.Decl, list[c_ast.Decl]]:
    """The function's declaration and its parameters' declarations. A K&R definition
    (``double f(x, n) double *x; int n; {...}``) declares an unprototyped function
    (``double f()``), its parameters by the declarations before its body, an
    undeclared one as ``int``."""
    ftype = fn.decl.type
    args = ftype.args.params if isinstance(ftype, c_ast.FuncDecl) and ftype.args else []
    if fn.param_decls is None and not any(isinstance(p, c_ast.ID) for p in args):
        return fn.decl, [p for p in args if isinstance(p, c_ast.Decl) and p.name]
    declared = {d.name: d for d in fn.param_decls or () if isinstance(d, c_ast.Decl)}
    params = [declared.get(p.name) or _implicit_int(p) for p in args if isinstance(p, c_ast.ID)]
    unprototyped = c_ast.FuncDecl(None, ftype.type, ftype.coord)
    decl = c_ast.Decl(
        fn.decl.name,
        fn.decl.quals,
        fn.decl.align,
        fn.decl.storage,
        fn.decl.funcspec,
        unprototyped,
        None,
        None,
        fn.decl.coord,
    )
    return decl, params


def _implicit_int(param: c_ast.ID) -> c_ast.Decl:
    int_type = c_ast.TypeDecl(param.name, [], None, c_ast.IdentifierType(["int"]), param.coord)
    return c_ast.Decl(param.name, [], [], [], [], int_type, None, None, param.coord)


def _walk(loops: list[_Loop]):
    for loop in loops:
        yield loop
        yield from _walk(loop.children)


def _nest_has_marked(loop: _Loop) -> bool:
    top = loop
    while top.parent is not None and top.parent.in_region:
        top = top.parent
    return top.marked or top.has_marked_below()


def _construct(d: Directive | None) -> str:
    if d is None:
        return "region"
    return " ".join((d.model,) + d.words + tuple(k for k, v in d.clauses.items() if not v))


def _line(node: c_ast.Node) -> int:
    return node.coord.line if node.coord else 0


def _file(node: c_ast.Node) -> str:
    return marker_file(node.coord.file) if node.coord and node.coord.file else ""


def _address_taken(body: c_ast.Node) -> set[str]:
    """Names whose address ``&`` takes somewhere in ``body`` (``_body_names``)."""
    return _body_names(body)[0]


def _body_names(body: c_ast.Node) -> tuple[set[str], set[str]]:
    """Names whose address ``&`` takes somewhere in ``body``, and the functions it calls
    by name (iterative: an expression may be thousands of terms deep). Taken: ``&x``,
    ``&s.f``, ``&a[i]`` of an array ``a``; not the pointer of ``&p[i]`` or ``&p->f``,
    whose address stays untaken (an array or a struct lives in memory anyway)."""
    names: set[str] = set()
    calls: set[str] = set()
    stack = [body]
    while stack:
        node = stack.pop()
        if isinstance(node, c_ast.UnaryOp) and node.op == "&":
            target = node.expr
            while isinstance(target, c_ast.StructRef) and target.type == ".":
                target = target.name
            if isinstance(target, c_ast.ID):
                names.add(target.name)
        elif isinstance(node, c_ast.FuncCall) and isinstance(node.name, c_ast.ID):
            calls.add(node.name.name)
        stack.extend(child for _, child in node.children())
    return names, calls


def find_kernels(
    ast: c_ast.FileAST,
    source: SourceMap,
    main_file: str,
    attributes: Attributes | None = None,
    headers: Mapping[str, SourceMap] | None = None,
    named: frozenset[str] = frozenset(),
) -> tuple[list[Kernel], FileSymbols]:
    """All kernels of the file, in source order, each mapped to the user's text; then
    those of ``headers`` (name as cpp names it -> the map of its text), each kernel's
    ``header`` its name (``attributes``: the file's GNU attributes, which some types
    need). ``named``: the files the text's own ``#line`` directives name (accsat's
    output read again): their loops are the file's, left unmapped."""
    headers = headers or {}
    symbols = FileSymbols(attributes)
    finder = _Finder(symbols, main_file)
    finder.file(ast)
    kernels: list[Kernel] = []
    for loop, construct, function, taken in finder.kernels:
        node = loop.node
        line = _line(node)
        file = _file(node)
        text = source if file == main_file else headers.get(file)
        if text is None and file not in named:
            continue  # a loop in another header: not the user's file to rewrite
        on_line = sorted(finder.fors_by_line.get((file, line), []), key=lambda f: f.coord.column)
        nth = next(i for i, f in enumerate(on_line) if f is node)
        span: BodySpan | str = "named by a #line directive"
        if text is not None:
            span = text.loop_body(line, nth, len(on_line))
        if not isinstance(span, str):
            span = too_deep(node) or span  # deeper than our recursive stages go safely
        assert loop.scope is not None
        column = text.for_column(line, nth, len(on_line)) if text is not None else 0
        kernels.append(
            Kernel(node, loop.scope, function, construct, line, span, taken, column=column)
        )
        if file != main_file and file in headers:
            kernels[-1].header = file
    with_kernels = {k.function for k in kernels}
    if finder.calls & set(symbols.functions) or units.marked_functions(ast):
        # (else no function of the file is called or marked: none is a unit, and a file
        # without callees pays for no search)
        kernels += _function_units(ast, symbols, source, main_file, with_kernels, headers)
    kernels.sort(
        key=lambda k: (k.header != "", k.header, k.line, k.loop.coord.column if k.loop.coord else 0)
    )
    return kernels, symbols


def _function_units(
    ast: c_ast.FileAST,
    symbols: FileSymbols,
    source: SourceMap,
    main_file: str,
    with_kernels,
    headers: Mapping[str, SourceMap],
) -> list[Kernel]:
    """The functions of the file the device runs, each a unit (units.py); those defined
    in ``headers`` too."""
    called: set[str] = set()
    for fn, _scope in symbols.functions.values():
        called |= units.region_calls(fn.body)
    out = []
    found = units.function_units(ast, symbols, set(with_kernels), called)
    for name, (kind, construct) in found.items():
        fn, scope = symbols.functions[name]
        file = _file(fn)
        text = source if file == main_file else headers.get(file)
        if text is None:
            continue  # defined in another header
        span = units.body_span(text, fn)
        if not isinstance(span, str):
            span = too_deep(fn.body) or span
        out.append(
            Kernel(
                fn,
                scope,
                name,
                construct,
                _line(fn.decl),
                span,
                frozenset(_address_taken(fn.body)),
                kind=kind,
                returns=units.returns(symbols, name),
                column=fn.decl.coord.column if fn.decl.coord else 0,
                header=file if file != main_file else "",
            )
        )
    return out


__all__ = ["Kernel", "find_kernels", "Symbol"]
