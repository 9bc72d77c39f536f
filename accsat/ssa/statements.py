"""Lowering a kernel body's statements: blocks, ifs with phis, inner loops.

``build_ssa`` is the pass: (kernel, file symbols) -> SSAKernel, or Unsupported
with the reason and line when the body uses something accsat does not model.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Iterable

from pycparser import c_ast, c_generator

from ..errors import Opaque, Unsupported
from ..frontend import conditional, directives
from ..frontend import ctypes as ct
from ..frontend import typed as tx
from ..frontend.conditional import BEGIN, END, Group
from ..frontend.kernels import Kernel
from ..frontend.source_map import tokenize
from ..frontend.symbols import FileSymbols, Symbol, type_names
from ..mathfuncs import PURE_MATH
from . import aggregate, ir, promote
from .cnodes import INCDEC, assignment_targets, calls, may_jump_out, root_name, walk
from .expressions import ExpressionBuilder, VarLV
from .memory import ANYWHERE, Region
from .state import Origin, SSAKernel

_GEN = c_generator.CGenerator()
_JUMPS = frozenset(("break", "continue", "return", "goto"))


class SSABuilder(ExpressionBuilder):
    def __init__(
        self,
        kernel: Kernel,
        symbols: FileSymbols,
        op_cost: Callable[[str, str], float],
        defined_functions: frozenset[str],
        promote: str | None = None,
    ):
        super().__init__(kernel, symbols, op_cost, defined_functions)
        self.typer = tx.Typer(symbols.types)
        self.calls = {}
        self.targets, self.olds, self.ready = [], [], {}
        self.addr_roots = {}
        self.wrapped_places = {}  # expressions.scaled: one term per wrapping subscript value
        self.assigned_names = _assigned_names(kernel.body)
        self.promote = promote  # names' prefix of values carried across inner loops (promote.py)
        self.promoted = 0
        self.atomic: c_ast.Pragma | None = None  # an atomic directive, for the statement after
        self.loop_depth = 0  # inner loops around the statement being lowered
        self.returning = kernel.returns is not None  # a function: a return jumps out too

    def build(self) -> SSAKernel:
        body = self.kernel.body
        items = (body.block_items or []) if isinstance(body, c_ast.Compound) else [body]
        self.statements(items)
        roots = _roots(self.block)
        return SSAKernel(
            self.terms,
            self.block,
            self.ctx_parent,
            self.inline_ctxs,
            self.leaves,
            self.assigns,
            self.loops,
            self.stats,
            roots,
            self.names,
            self.sites,
            self.origins,
            self.stored,
            self.mem.events,
            type_names(self.kernel.scope, self.symbols),
            self.written_types,
            self.kernel.returns,
        )

    # -- statements ----------------------------------------------------------------------------
    def statements(self, items: list[c_ast.Node]) -> None:
        items = self.grouped(items)
        pending = None  # a loop's promotion begun before the pragma above it
        last = items[-1] if items else None
        if isinstance(last, c_ast.Pragma) and directives.parse(last.string).atomic_kind:
            raise Unsupported("'#pragma ... atomic' with no statement after it")
        for k, item in enumerate(items):
            first, cost, since = len(self.block.stmts), self.stats.cost, len(self.spelled)
            try:
                if pending is not None and pending.loop is item:
                    promote.lower_rest(self, pending)  # notes its statements' origins
                    promoted = True
                else:
                    promoted = promote.lower(self, item)
                if not promoted:
                    if _applies_to_next(item) and k + 1 < len(items):
                        pending = promote.prepare(self, items[k + 1])
                        if pending is not None:  # what goes before the loop, before its pragma
                            promote.lower_before(self, pending)
                            first, cost = len(self.block.stmts), self.stats.cost
                            since = len(self.spelled)
                    self.statement(item)
            except Unsupported as exc:
                if exc.line is None and item.coord is not None:
                    exc.line = item.coord.line
                raise
            if not promoted:
                self.note_origin(
                    item, first, self.head_costs.get(id(item), self.stats.cost - cost), since
                )
            rest = items[k + 1 :]
            jumps = (c_ast.Break, c_ast.Continue, c_ast.Return)
            if rest and not isinstance(item, jumps) and may_jump_out(item, self.returning):
                # What follows runs only on the paths that did not break or continue:
                # a block of its own, so nothing in it is computed before the jump.
                first = len(self.block.stmts)
                self.braced(c_ast.Compound(rest, item.coord), after_jump=True)
                self.note_origin(None, first, 0.0, synthetic=True)
                return

    def grouped(self, items: list[c_ast.Node]) -> list[c_ast.Node]:
        """``items`` with the statements of each conditional-compilation group (between
        its marker statements, frontend/conditional.py) as one ``Group`` node."""
        out: list[c_ast.Node] = []
        k = 0
        while k < len(items):
            mark = conditional.marker(items[k])
            if mark is None:
                out.append(items[k])
                k += 1
                continue
            span = self.kernel.span
            if mark[0] == BEGIN and not isinstance(span, str) and span.groups[mark[1]].directive:
                after = k + 1  # a group of directives: the pragmas of its branch, if any
                while after < len(items) and _within(items[after], span.groups[mark[1]]):
                    after += 1
                out.append(Group(mark[1], items[k + 1 : after], items[k].coord, directive=True))
                k = after
                continue
            end = next(
                (
                    j
                    for j in range(k + 1, len(items))
                    if conditional.marker(items[j]) == (END, mark[1])
                ),
                None,
            )
            if mark[0] != BEGIN or end is None:
                raise Unsupported("a conditional group that is not whole statements of one block")
            out.append(Group(mark[1], items[k + 1 : end], items[k].coord))
            k = end + 1
        return out

    def st_Group(self, node: Group) -> None:
        """A conditional-compilation group: printed exactly as written, all its branches,
        and ordered like a call (it may read and write any location). A variable any
        branch assigns has a new value after it."""
        span = self.kernel.span
        assert not isinstance(span, str)
        group = span.groups[node.index]
        if group.directive:  # kept right before the statement it applies to
            self.emit(ir.Verbatim(group.text, self.next_pos(), group.first_line, as_written=True))
            return
        tokens = tokenize(group.text)
        # a variable any branch declares is the group's own: no statement after it may
        # name one (which variable the name meant would depend on the flags)
        for item in node.items:
            if isinstance(item, c_ast.Decl) and item.name is None:
                raise Unsupported("a type declared inside a conditional group")
        used = conditional.declared_names(tokens, self.is_type) & group.after
        if used:
            raise Unsupported(
                f"'{min(used)}', declared in a conditional group, named after it: which "
                "variable it is would depend on the flags"
            )
        jumps = {t.text for t in tokens if t.kind == "ident"} & _JUMPS  # in any branch
        if jumps:
            raise Unsupported(f"'{min(jumps)}' inside a conditional group")
        for name in conditional.address_taken(tokens):
            sym = self.scope.lookup(name)
            if sym is not None and self.is_register(sym):
                raise Unsupported(f"the address of '{name}' taken inside a conditional group")
        # what the parsed branch assigns (through macros too), and what any branch's
        # text may assign (a macro's arguments count)
        names = _assigned_names(c_ast.Compound(node.items)) | conditional.assigned_names(
            tokens, self.is_function
        )
        pos = self.next_pos()
        self.memory_event("call", pos)
        phis = self.assigned_here(names, pos)
        self.emit(ir.Verbatim(group.text, pos, group.first_line, phis=phis, as_written=True))

    def is_type(self, name: str) -> bool:
        return self.scope.typedef(name) is not None

    def is_function(self, name: str) -> bool:
        sym = self.scope.lookup(name)
        return sym is not None and (sym.kind == "func" or isinstance(sym.type, ct.Func))

    def assigned_here(self, names: Iterable[str], pos: int) -> dict[Symbol, int]:
        """New values at ``pos`` of the variables named (a statement printed as written
        assigns them): each a leaf of its own from there on."""
        phis = {}
        for name in sorted(names):
            sym = self.scope.lookup(name)
            if sym is not None and self.is_register(sym):
                phis[sym] = self.env[sym] = self.phi(sym, f"g{pos}", pos, self.ctx)
                self.record_assign(sym, pos)
        return phis

    def note_origin(
        self,
        node: c_ast.Node | None,
        first: int,
        cost: float,
        since: int | None = None,
        synthetic: bool = False,
    ) -> None:
        """``since``: where the statement's constants as written begin in ``spelled``
        (those of a nested statement are its own: taken, they are left as None)."""
        spelled: tuple = ()
        if since is not None:
            spelled = tuple(s for s in self.spelled[since:] if s is not None)
            self.spelled[since:] = [None] * (len(self.spelled) - since)
        origin = Origin(node, cost, synthetic, spelled)
        for stmt in self.block.stmts[first:]:
            self.origins[stmt.pos] = origin

    def braced(self, node: c_ast.Compound, after_jump: bool = False) -> None:
        self.head_costs[id(node)] = 0.0
        pos = self.next_pos()
        block = self.sub_block(node)
        line = node.coord.line if node.coord else self.line
        self.emit(ir.Braced(block, pos, line, self.last_pos + 0.5, after_jump))

    def statement(self, node: c_ast.Node) -> None:
        if self.atomic is not None:
            directive, self.atomic = directives.parse(self.atomic.string), None
            if directive.is_critical:
                self.critical_statement(node)
            else:
                self.atomic_statement(node, directive.atomic_kind)
            return
        kind = type(node).__name__
        method = getattr(self, "st_" + kind, None)
        try:
            if method is not None:
                method(node)
            elif kind in ("Goto", "Label", "Switch", "Case", "Default"):
                raise Unsupported(f"'{kind.lower()}' statement in the loop body")
            else:  # an expression evaluated for its side effects
                e = self.typed(node)
                self.calls_first(e)
                self.rvalue(e)
        except Opaque:
            # a value accsat does not model, met before anything of the statement was
            # lowered (the typer says so): the statement kept as written
            if isinstance(node, (c_ast.If, c_ast.For, c_ast.While, c_ast.DoWhile, c_ast.Compound)):
                raise
            self.opaque_statement(node)

    def opaque_statement(self, node: c_ast.Node) -> None:
        """A simple statement with a value accsat does not model (a struct returned by a
        call...), printed as written, ordered against the memory it may write (its targets
        in memory, what the functions it calls write: frontend/effects.py), the
        variables it assigns (and declares) given new values after it."""
        declared = self.scope.names.get(node.name) if isinstance(node, c_ast.Decl) else None
        regions: set[Region] | None = set()
        for target in assignment_targets(node):
            if isinstance(target, c_ast.ID):
                sym = self.scope.lookup(target.name)
                if sym is not None and self.is_register(sym):
                    continue
            region = self.region_of(target)
            regions = None if region is None or regions is None else regions | {region}
        if declared is not None and not self.is_register(declared):
            regions = None if regions is None else regions | {self.object_region(declared)}
        for call in calls(node):
            name = call.name.name if isinstance(call.name, c_ast.ID) else None
            written = self.call_regions(call, name) if name is not None else None
            regions = None if written is None or regions is None else regions | written
        pos = self.next_pos()
        if regions is None:
            self.memory_event("call", pos)
        elif regions:
            self.memory_event("summary", pos, regions=frozenset(regions))
        names = _assigned_names(node) | ({declared.name} if declared is not None else set())
        line = node.coord.line if node.coord else self.line
        if isinstance(node, c_ast.Decl):
            assert declared is not None
            text = _decl_text(node, declared, with_init=True) + ";"
        else:
            text = _GEN.visit(node) + ";"
        self.emit(
            ir.Verbatim(text.strip(), pos, line, declared, phis=self.assigned_here(names, pos))
        )

    def st_Return(self, node: c_ast.Return) -> None:
        """``return e;`` of a function unit: the value, converted to the function's type,
        is its output; what follows a return on some path runs only on the others
        (``statements``: a block of its own, as after a break)."""
        returns = self.kernel.returns
        if returns is None:
            raise Unsupported("'return' statement in the loop body")
        if isinstance(returns, ct.Struct):
            raise Opaque(f"a {returns} returned")
        if self.loop_depth:
            raise Unsupported("a 'return' inside a loop of the function")
        value = None
        if node.expr is not None:
            e = self.typed(node.expr)
            if not isinstance(returns, ct.Void):
                e = tx.convert(e, returns)
            self.calls_first(e)
            value = self.rvalue(e)
        line = node.coord.line if node.coord else self.line
        self.emit(ir.Return(value, self.next_pos(), line))

    def st_Assignment(self, node: c_ast.Assignment) -> None:
        leaves = aggregate.copied(node, self.typer, self.scope, self.symbols.tags)
        if leaves is not None:  # a struct assigned: each scalar of it copied
            self.copy_leaves(leaves, node)
            return
        e = self.typed(node)
        self.calls_first(e)
        assert isinstance(e, tx.Assign)
        self.lower_assign(e)

    def st_UnaryOp(self, node: c_ast.UnaryOp) -> None:
        e = self.typed(node)
        self.calls_first(e)
        if isinstance(e, tx.Assign):
            self.lower_assign(e)
        else:
            self.rvalue(e)

    def st_FuncCall(self, node: c_ast.FuncCall) -> None:
        # a call with effects is emitted there; a pure one has none
        self.calls_first(self.typed(node))

    def st_ExprList(self, node: c_ast.ExprList) -> None:
        for e in node.exprs:
            self.statement(e)

    def st_Cast(self, node: c_ast.Cast) -> None:
        self.statement(node.expr)

    def st_EmptyStatement(self, node: c_ast.Node) -> None:
        pass

    def st_Break(self, node: c_ast.Node) -> None:
        self.verbatim("break;", node)

    def st_Continue(self, node: c_ast.Node) -> None:
        self.verbatim("continue;", node)

    def st_Pragma(self, node: c_ast.Pragma) -> None:
        directive = directives.parse(node.string)
        if directive.blocks_rewrite:
            raise Unsupported(f"'#pragma {directive.text}' inside the loop body")
        self.verbatim("#pragma " + node.string, node)
        if directive.atomic_kind or directive.is_critical:
            self.atomic = node  # the statement after it is kept as written

    def only_atomic(self, name: str) -> bool:
        """Whether the variable ``name`` appears in the kernel's body only inside atomic
        statements (a sum or count the threads share: ``t += x``, ``t = t + x``; those
        print as written, so no value of it is kept here that could be stale)."""
        body = self.kernel.body

        def uses(node: c_ast.Node) -> int:
            return sum(isinstance(n, c_ast.ID) and n.name == name for n in walk(node))

        return sum(uses(s) for s in _atomic_statements(body)) == uses(body)

    def atomic_statement(self, node: c_ast.Node, kind: str) -> None:
        """The statement of an atomic update or write (``h[k] += w;``, ``x[i]++;``), read
        (``v = h[k];``) or capture (``v = c[b]++;``, ``{ v = c[b]; c[b] += w; }``):
        printed as written, right after its directive, ordered against every load and
        store like a call (it may read and write any location). Its own operands are
        not shared with the rest of the body: another thread may change them in between.
        A read or capture gives its variable ``v`` a new value."""
        found = _atomic_parts(node, kind)
        if found is None:
            raise Unsupported(f"atomic {kind} statement of a form accsat does not know")
        statements, captured = found
        for part, target in statements:
            if isinstance(target, c_ast.ID) and not self.only_atomic(target.name):
                raise Unsupported(
                    f"atomic update of the variable '{target.name}', which the body also "
                    "reads or assigns elsewhere"
                )
            inner = [n for n in walk(part) if n is not part and n is not target]
            if any(isinstance(n, c_ast.Assignment) or _incdec(n) for n in inner):
                raise Unsupported("atomic statement with another side effect")
            for call in (n for n in inner if isinstance(n, c_ast.FuncCall)):
                name, _ = self.typer.callee(call, self.scope)
                if not self.is_pure(name):
                    raise Unsupported(f"atomic statement that calls '{name}'")
        self.kept_statement(node, captured)

    def critical_statement(self, node: c_ast.Node) -> None:
        """The statement of ``omp critical``: printed as written, ordered like a call, and
        the variables it assigns given new values after it."""
        if may_jump_out(node) or isinstance(node, (c_ast.Break, c_ast.Continue)):
            raise Unsupported("'break' or 'continue' inside a critical construct")
        if any(isinstance(n, (c_ast.Return, c_ast.Goto, c_ast.Label)) for n in walk(node)):
            raise Unsupported("'return' or 'goto' inside a critical construct")
        if any(conditional.marker(n) is not None for n in walk(node)):
            raise Unsupported("a conditional group inside a critical construct")
        self.kept_statement(node, _assigned_names(node))

    def kept_statement(self, node: c_ast.Node, assigned: Iterable[str]) -> None:
        """``node`` printed as written, ordered like a call, the variables ``assigned``
        given new values after it (an atomic or critical statement)."""
        pos = self.next_pos()
        self.memory_event("call", pos)
        line = node.coord.line if node.coord else self.line
        text = _GEN.visit(node) if isinstance(node, c_ast.Compound) else _GEN.visit(node) + ";"
        self.emit(ir.Verbatim(text.strip(), pos, line, phis=self.assigned_here(assigned, pos)))

    def verbatim(self, text: str, node: c_ast.Node, declares: Symbol | None = None) -> None:
        line = node.coord.line if node.coord else self.line
        self.emit(ir.Verbatim(text, self.next_pos(), line, declares))

    def st_Decl(self, node: c_ast.Decl) -> None:
        if node.name is None:
            raise Unsupported("type declaration inside the loop body")
        if set(node.storage or ()) & {"static", "extern", "register"}:
            raise Unsupported(f"'{' '.join(node.storage)}' declaration inside the loop body")
        self.declare_local(node)
        sym = self.scope.names[node.name]
        why = ct.unmodelled(sym.type)
        if why and node.init is not None:
            raise Unsupported(f"'{node.name}' is declared with {why}")
        text = _decl_text(node, sym)
        if not self.is_register(sym):
            if node.init is None:
                self.verbatim(text + ";", node, sym)
                return
            if not (ct.is_arithmetic(sym.type) or isinstance(sym.type, ct.Pointer)):
                # an array or struct: declared, then each scalar in it stored (aggregate.py)
                leaves = aggregate.initialised(sym, node.init, self.symbols.tags)
                typed = self.typed_leaves(leaves)  # before anything is emitted (errors.Opaque)
                self.verbatim(text + ";", node, sym)
                self.store_leaves(typed, node)
                return
            # a scalar whose address is taken: declared, then its initial value stored
            init = tx.convert(self.typed(node.init), sym.type)
            self.calls_first(init)
            value = self.rvalue(init)
            self.verbatim(text + ";", node, sym)
            target = c_ast.ID(node.name, node.coord)
            store = c_ast.Assignment("=", target, node.init, node.coord)
            self.assign(self.lvalue(self.typed(target)), value, store)
        elif node.init is None:
            self.verbatim(text + ";", node, sym)
        elif isinstance(node.init, c_ast.InitList):
            raise Unsupported("initialiser list inside the loop body")
        else:
            init = tx.convert(self.typed(node.init), sym.type)
            self.calls_first(init)
            value = self.rvalue(init)
            self.assign(VarLV(sym), value, node, decl=text)

    def typed_leaves(self, leaves: list[tuple[c_ast.Node, c_ast.Node]]):
        """Each (target, value) of an aggregate's initialisation or copy, its value typed."""
        return [(target, self.typed(value)) for target, value in leaves]

    def copy_leaves(self, leaves: list[tuple[c_ast.Node, c_ast.Node]], node: c_ast.Node) -> None:
        self.store_leaves(self.typed_leaves(leaves), node)

    def store_leaves(self, typed: list[tuple[c_ast.Node, tx.TExpr]], node: c_ast.Node) -> None:
        """Each (target, typed value) as a store, one after the other, as separate
        assignments would (a copy onto an overlapping object is undefined in C but for
        the object itself, which this copies scalar by scalar onto itself)."""
        for target, e in typed:
            self.calls_first(e)
            lv = self.lvalue(self.typed(target))
            self.assign(lv, self.rvalue(e), c_ast.Assignment("=", target, target, node.coord))

    def declare_local(self, node: c_ast.Decl) -> Symbol:
        hidden = self.scope.lookup(node.name)
        # a function's name may be taken (C then cannot call it there), not a math
        # function's, which a rewrite may print a call of
        if hidden is not None and hidden.kind == "func" and node.name in PURE_MATH:
            raise Unsupported(f"declaration of '{node.name}' hides the math function")
        if hidden is not None and hidden.kind != "func":
            raise Unsupported(f"declaration of '{node.name}' hides another variable")
        sym = self.symbols.declare(node, self.scope, "local")
        assert sym is not None
        self.body_symbols.add(id(sym))
        self.decl_pos[id(sym)] = float(self.last_pos) + 0.5
        self.decl_ctx[id(sym)] = self.ctx
        self.names.add(node.name)
        return sym

    def st_Typedef(self, node: c_ast.Node) -> None:
        raise Unsupported("typedef inside the loop body")

    # -- blocks --------------------------------------------------------------------------
    def sub_block(self, node: c_ast.Node | None, ctx: str | None = None) -> ir.Block:
        saved = self.block, self.scope, self.ctx
        self.ctx = ctx or self.new_ctx()
        self.block = ir.Block(self.ctx)
        self.scope = self.scope.child()
        try:
            if isinstance(node, c_ast.Compound):
                self.statements(node.block_items or [])
            elif node is not None:
                self.statements([node])
            for sym in list(self.env):
                if self.scope.names.get(sym.name) is sym:
                    del self.env[sym]  # out of scope after the block
            return self.block
        finally:
            self.block, self.scope, self.ctx = saved

    def st_Compound(self, node: c_ast.Compound) -> None:
        self.braced(node)

    def st_If(self, node: c_ast.If) -> None:
        typed_cond = self.typed(node.cond)
        self.calls_first(typed_cond)
        cost = self.stats.cost
        cond = self.rvalue(typed_cond)
        self.head_costs[id(node)] = self.stats.cost - cost
        pos = self.next_pos()
        env0, head0 = dict(self.env), self.mem.head
        then = self.sub_block(node.iftrue)
        env_then, head_then = self.env, self.mem.head
        self.env, self.mem.head = dict(env0), head0
        orelse = self.sub_block(node.iffalse) if node.iffalse is not None else None
        env_else, head_else = self.env, self.mem.head
        end = self.last_pos + 0.5
        self.mem.head = head_then
        events = self.mem.since(head0)
        self.mem.head = head_else
        events += self.mem.since(head0)
        self.mem.head = head0
        if events:
            accesses, regions, everything = self.mem.summarize(events)
            self.memory_event(
                "summary", end, accesses=accesses, regions=regions, everything=everything
            )
        self.env = dict(env0)
        phis: dict[Symbol, int] = {}
        merged: dict[Symbol, int] = {}
        for sym in set(env_then) | set(env_else):
            a = env_then[sym] if sym in env_then else self.entry_value(sym)  # ids can be 0
            b = env_else[sym] if sym in env_else else self.entry_value(sym)
            if a == b:  # equal on both paths (an arm may assign the value it had)
                self.env[sym] = merged[sym] = a
            else:
                phis[sym] = self.env[sym] = self.phi(sym, f"i{pos}", end, self.ctx)
        line = node.coord.line if node.coord else self.line
        self.emit(ir.If(cond, then, orelse, pos, line, end, phis, merged))

    # -- inner loops -----------------------------------------------------------------------
    def st_For(self, node: c_ast.For) -> None:
        parts = [_GEN.visit(p) if p is not None else "" for p in (node.init, node.cond, node.next)]
        self.loop(
            node, f"for ({parts[0]}; {parts[1]}; {parts[2]})", "", [node.init, node.cond, node.next]
        )

    def st_While(self, node: c_ast.While) -> None:
        self.loop(node, f"while ({_GEN.visit(node.cond)})", "", [node.cond])

    def st_DoWhile(self, node: c_ast.DoWhile) -> None:
        self.loop(node, "do", f"while ({_GEN.visit(node.cond)});", [node.cond])

    def loop(self, node: c_ast.Node, header: str, trailer: str, header_parts: list) -> None:
        self.head_costs[id(node)] = 0.0  # the header is printed as written
        declared = (
            {d.name for d in node.init.decls}
            if isinstance(node, c_ast.For) and isinstance(node.init, c_ast.DeclList)
            else set()
        )
        for part in header_parts:
            if part is not None:
                self.check_header(part, declared)
        assigned = self.loop_assigned(node)
        regions, everything = self.loop_stores(node)
        pos = self.next_pos()
        head0 = self.mem.head
        saved_scope = self.scope
        self.scope = self.scope.child()
        local: list[Symbol] = []
        if isinstance(node, c_ast.For) and isinstance(node.init, c_ast.DeclList):
            local = [self.declare_local(d) for d in node.init.decls]
        self.memory_event("summary", pos, regions=frozenset(regions), everything=everything)
        head_loop = self.mem.head
        env0 = dict(self.env)
        body_ctx = self.new_ctx()
        head_phis = {}
        for sym in list(assigned) + local:
            head_phis[sym] = self.env[sym] = self.phi(sym, f"h{pos}", pos, body_ctx)
        self.loop_depth += 1
        try:
            body = self.sub_block(node.stmt, body_ctx)
        finally:
            self.loop_depth -= 1
        end = self.last_pos + 0.5
        accesses, regions2, everything2 = self.mem.summarize(self.mem.since(head_loop))
        self.mem.head = head0
        self.memory_event(
            "summary",
            end,
            accesses=accesses,
            regions=regions2,
            everything=everything or everything2,
        )
        self.env = env0
        exit_phis = {}
        for sym in assigned:
            exit_phis[sym] = self.env[sym] = self.phi(sym, f"x{pos}", end, self.ctx)
        self.scope = saved_scope
        line = node.coord.line if node.coord else self.line
        stmt = ir.Loop(
            header,
            trailer,
            body,
            pos,
            line,
            end,
            head_phis,
            exit_phis,
            frozenset(assigned) | frozenset(local),
        )
        self.loops.append(stmt)
        self.emit(stmt)

    def check_header(self, node: c_ast.Node, declared: set[str]) -> None:
        """Loop headers are printed as written: only their loop variables (``declared``:
        those the header declares) may change."""
        for target in assignment_targets(node):
            if not isinstance(target, c_ast.ID):
                raise Unsupported("loop header stores to memory")
            if target.name in declared:
                continue
            sym = self.scope.lookup(target.name)
            if sym is not None and not self.is_register(sym):
                where = (
                    f"'{sym.name}', whose address the function takes"
                    if sym.kind in ("local", "param")
                    else f"the {'static' if sym.kind == 'static' else 'global'} '{sym.name}'"
                )
                raise Unsupported(f"loop header assigns a variable in memory ({where})")

    def loop_assigned(self, node: c_ast.Node) -> list[Symbol]:
        """Variables visible here that the loop (header or body) assigns."""
        out: list[Symbol] = []
        names = [t.name for t in assignment_targets(node) if isinstance(t, c_ast.ID)]
        names += sorted(self.group_assigned(node))
        for name in names:
            sym = self.scope.lookup(name)
            if sym is not None and sym not in out and self.is_register(sym):
                out.append(sym)
        return out

    def group_assigned(self, node: c_ast.Node) -> set[str]:
        """Names any branch of a conditional group inside ``node`` may assign (those of
        the branches the flags leave out too)."""
        span = self.kernel.span
        names: set[str] = set()
        for n in walk(node):
            mark = conditional.marker(n)
            if mark is not None and mark[0] == BEGIN and not isinstance(span, str):
                tokens = tokenize(span.groups[mark[1]].text)
                names |= conditional.assigned_names(tokens, self.is_function)
        return names

    def loop_stores(self, node: c_ast.Node) -> tuple[set[Region], bool]:
        """Regions the loop may store to, and whether it calls a function with effects.
        An object the loop declares is a new one each iteration, which nothing outside
        the loop reaches: stores to it are none of the loop's."""
        regions: set[Region] = set()
        inside = {n.name for n in walk(node) if isinstance(n, c_ast.Decl) and n.name}
        for target in assignment_targets(node):
            if isinstance(target, c_ast.ID):
                sym = self.scope.lookup(target.name)
                if sym is None or self.is_register(sym):
                    continue
            if root_name(target) in inside and self.scope.lookup(root_name(target) or "") is None:
                continue
            region = self.region_of(target)
            if region is None:
                return regions, True
            regions.add(region)
        for call in calls(node):
            name = call.name.name if isinstance(call.name, c_ast.ID) else None
            written = self.call_regions(call, name) if name is not None else None
            if written is None:
                return regions, True
            regions |= written
        return regions, False

    def call_regions(self, call: c_ast.FuncCall, name: str) -> set[Region] | None:
        """The regions a call may write, by its callee's summary (frontend/effects.py);
        None: anywhere."""
        if self.is_pure(name):
            return set()
        effects = self.symbols.effects(name) if name in self.defined_functions else None
        if effects is None or effects.writes.anywhere:
            return None
        out = {self.global_region(g) for g in effects.writes.globals}
        args = call.args.exprs if call.args is not None else []
        for k in effects.writes.params:
            arg = args[k] if k < len(args) else None
            while isinstance(arg, c_ast.UnaryOp) and arg.op == "&":
                arg = arg.expr
            region = self.region_of(arg) if arg is not None else None
            if region is None:
                return None
            out.add(region)
        return out

    def region_of(self, target: c_ast.Node) -> Region | None:
        root = root_name(target)
        sym = self.scope.lookup(root) if root else None
        if sym is None:
            return None
        if not self.is_register(sym):
            return self.object_region(sym)
        ptype = sym.type
        if (
            getattr(ptype, "restrict", False)
            and sym.name not in self.assigned_names
            and sym.kind in ("param", "local")
            and id(sym) not in self.body_symbols
        ):
            return Region("restrict", self.symkey(sym))
        return ANYWHERE


def _atomic_target(node: c_ast.Node) -> c_ast.Node | None:
    """The location an atomic statement updates or writes (``x op= e``, ``x = e``,
    ``x++``...); None for any other statement."""
    if isinstance(node, c_ast.Assignment):
        return node.lvalue
    if _incdec(node):
        return node.expr
    return None


def _atomic_parts(
    node: c_ast.Node, kind: str
) -> tuple[list[tuple[c_ast.Node, c_ast.Node | None]], set[str]] | None:
    """The expressions an atomic statement is made of, each with the location it
    updates (None: read only), and the variables a read or capture assigns (``v`` of
    ``v = x;``, ``v = x++;``, ``v = x op= e;``, or ``{ v = x; x op= e; }``); None for a
    form accsat does not know."""
    parts = node.block_items or [] if isinstance(node, c_ast.Compound) else [node]
    if not parts or len(parts) > (2 if kind == "capture" else 1):
        return None
    out: list[tuple[c_ast.Node, c_ast.Node | None]] = []
    captured: set[str] = set()
    for part in parts:
        if (
            kind in ("read", "capture")
            and isinstance(part, c_ast.Assignment)
            and part.op == "="
            and _capture_value(part.rvalue)
        ):
            out += [(part.rvalue, _atomic_target(part.rvalue)), (part.lvalue, None)]
            if isinstance(part.lvalue, c_ast.ID):
                captured.add(part.lvalue.name)
            continue
        target = _atomic_target(part)
        if target is None:
            return None
        out.append((part, target))
    return out, captured


def _capture_value(expr: c_ast.Node) -> bool:
    """What ``v = ...`` reads atomically: ``x``, ``x++``, ``--x``, ``x op= e``."""
    location = (c_ast.ID, c_ast.ArrayRef, c_ast.StructRef)
    return (
        isinstance(expr, location)
        or isinstance(expr, c_ast.UnaryOp)
        and expr.op == "*"
        or _incdec(expr)
        or isinstance(expr, c_ast.Assignment)
    )


def _atomic_statements(body: c_ast.Node) -> list[c_ast.Node]:
    """The statements right after an atomic update or write directive in ``body``."""
    out = []
    for n in walk(body):
        items = (n.block_items or []) if isinstance(n, c_ast.Compound) else []
        out += [
            stmt
            for pragma, stmt in zip(items, items[1:], strict=False)
            if isinstance(pragma, c_ast.Pragma) and directives.parse(pragma.string).atomic_kind
        ]
    return out


def _incdec(node: c_ast.Node) -> bool:
    return isinstance(node, c_ast.UnaryOp) and node.op in INCDEC


def _decl_text(node: c_ast.Decl, sym: Symbol, with_init: bool = False) -> str:
    """The declaration without its initialiser (or with it), its GNU attributes (which the
    parser never saw: frontend/attributes.py) after the declarator, where C allows them."""
    bare = copy.copy(node)
    bare.init = None
    if not with_init and isinstance(node.type, c_ast.ArrayDecl) and node.type.dim is None:
        # ``double z[] = {a, b};`` without its list: the length the list gave it
        if not isinstance(sym.type, ct.Array) or sym.type.size is None:
            raise Unsupported(f"the array '{node.name}' declared without its length")
        bare.type = copy.copy(node.type)
        bare.type.dim = c_ast.Constant("int", str(sym.type.size), node.coord)
    attrs = "".join(f" {a}" for a in sym.attributes)
    init = f" = {_GEN.visit(node.init)}" if with_init and node.init is not None else ""
    return _GEN.visit(bare) + attrs + init


def _assigned_names(body: c_ast.Node) -> set[str]:
    return {t.name for t in assignment_targets(body) if isinstance(t, c_ast.ID)}


def _roots(block: ir.Block) -> list[int]:
    roots: list[int] = []
    for stmt, _ in ir.walk(block):
        roots.extend(ir.uses(stmt))
    return roots


def build_ssa(
    kernel: Kernel,
    symbols: FileSymbols,
    op_cost: Callable[[str, str], float],
    defined_functions: frozenset[str] = frozenset(),
    promote: str | None = None,
) -> SSAKernel:
    """``promote``: carry values across inner loops in variables named it and a number
    (``promote.py``; None: lower the body as written)."""
    builder = SSABuilder(kernel, symbols, op_cost, defined_functions, promote)
    ssa = builder.build()
    if builder.promoted:  # the statistics are of the body as written
        ssa.stats = SSABuilder(kernel, symbols, op_cost, defined_functions).build().stats
    return ssa


def _applies_to_next(item: c_ast.Node) -> bool:
    """A ``#pragma``, or a conditional group of them: it applies to the statement after."""
    return isinstance(item, c_ast.Pragma) or (isinstance(item, Group) and item.directive)


def _within(item: c_ast.Node, group: conditional.GroupSpan) -> bool:
    """A pragma the group's text holds (of the branch the flags select: the body read
    again has other lines, so its text says)."""
    return isinstance(item, c_ast.Pragma) and conditional.holds_pragma(group, item.string)
