"""The printed C is the extracted program: re-read what was printed and match it.

After a file's kernels are printed, the rewritten text is preprocessed and parsed
again (the user's macros, typedef names and accsat's temporaries as the compiler
will see them), each rewritten kernel is lowered to SSA again, and its statements
are matched, in order, with the statements of the kernel as first lowered. Every
value a statement uses must denote the e-node the extraction chose for its
e-class (or, where a statement prints as the user wrote it, the user's own node
of that class), recursively:

- the same operation, C type and control context (a trapping operation is never
  evaluated outside the branch that guards it), the same access path and memory
  version (a load reads after the same stores), the same function;
- a leaf (variable, phi, array, call result) is the same name, and the keys of
  the two lowerings correspond one to one (alpha-renaming, never two for one);
- a constant has the same value and the same C type, however it is spelled
  (``(-2147483647 - 1)``, ``INT_MIN``, ``0x80000000u``);
- a fused multiply-add denotes what it prints as: ``a + b * c`` (or ``fma(b, c, a)``
  with ``--fma-call``); an integer subscript may read ``x + 0`` or ``1 * x`` as
  ``x`` (what accessor macros expand to, exact in integer arithmetic).

Temporaries (names with accsat's prefixes) are transparent: reading one is
reading the value it was given. ``Expected`` is plain data, so that a kernel
rewritten in another process can be checked where the file is put together.
"""

from __future__ import annotations

import math
import re
import struct
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field, replace
from fractions import Fraction
from pathlib import Path

from pycparser import c_ast

from ..codegen.printer import own_name
from ..codegen.splice import Replacement, splice
from ..egraph.graph import ENode
from ..errors import AccsatError
from ..frontend.conditional import marked_body
from ..frontend.fold import evaluate, scalar
from ..frontend.kernels import Kernel
from ..frontend.parse import parse_body
from ..frontend.preprocess import PreprocessOptions, preprocess_copy
from ..frontend.source_map import tokenize
from ..ops import FOLDABLE
from ..ssa import ir
from ..ssa.memory import Event, unchanged_between
from ..ssa.state import LeafInfo, SSAKernel
from ..ssa.terms import Constant, Term, TermTable, constant, literal_constant


@dataclass(frozen=True)
class Shape:
    """A statement reduced to what must match: its kind and attributes, the values
    it uses (e-classes on the expected side, term ids on the re-read side), the
    variables that get phis, and its nested blocks."""

    kind: str
    attrs: tuple[str, ...]
    uses: tuple[int, ...]
    # what the statement defines: (variable or "result", key of its Phi or CallRes leaf)
    defines: tuple[tuple[str, str], ...] = ()
    blocks: tuple[tuple[Shape, ...], ...] = ()
    contexts: tuple[str, ...] = ()  # of the blocks
    # variables an ``if`` assigns that are equal on both paths, so get no phi: (name, value)
    merged: tuple[tuple[str, int], ...] = ()


@dataclass(frozen=True)
class Expected:
    """What a rewritten kernel must denote."""

    body: tuple[Shape, ...]
    nodes: dict[int, tuple[ENode, ...]]  # class -> acceptable nodes, the extracted one first
    contexts: dict[str, str]  # control context -> the one it stands for (see _contexts)
    parents: dict[str, str | None]  # control context -> the one it is nested in
    inline: frozenset[str]  # the contexts of operands of && || ?: (ssa.state.BuilderState)
    temps: tuple[str, ...]  # accsat's own variables are one of these and a number
    placed: dict[int, str] = field(default_factory=dict)  # class -> context of its temporary
    events: tuple[str, ...] = ()  # the kinds of the memory events, in order (SSAKernel.events)


_ours = own_name


def _around(ctx: str | None, parents: dict[str, str | None]) -> Iterator[str]:
    """``ctx`` and the contexts it is nested in, innermost first: whenever it runs,
    they ran."""
    while ctx is not None:
        yield ctx
        ctx = parents.get(ctx)


class Mismatch(Exception):
    """The re-read program is not the extracted one (the message says where)."""


def expected(
    ssa: SSAKernel,
    class_of: dict[int, int],
    choice: dict[int, ENode],
    written: dict[int, list[ENode]],
    temps: tuple[str, ...],
    placed: dict[int, str] | None = None,
) -> Expected:
    """The expectation for a kernel printed from ``choice`` (``written``: the nodes as
    the user wrote them, by class, for statements printed as written; ``placed``: the
    context each temporary's class is computed in, codegen's ``Printed.placed``)."""
    body = tuple(_shapes(ssa.body, ssa.terms, lambda tid: class_of[tid], temps))
    nodes: dict[int, tuple[ENode, ...]] = {}
    todo = [u for s in _all(body) for u in s.uses] + sorted(placed or {})
    while todo:
        cls = todo.pop()
        if cls in nodes:
            continue
        alts = [choice[cls]] if cls in choice else []
        alts += [n for n in written.get(cls, ()) if n not in alts]
        nodes[cls] = tuple(alts)
        for n in alts:
            todo.extend(n.children)
    return Expected(
        body,
        nodes,
        _contexts(ssa),
        dict(ssa.ctx_parent),
        frozenset(ssa.inline_ctxs),
        temps,
        dict(placed or {}),
        tuple(e.kind for e in ssa.events),
    )


def match(exp: Expected, ssa: SSAKernel) -> None:
    """Raise ``Mismatch`` unless the re-read kernel ``ssa`` denotes ``exp``."""
    got = tuple(_shapes(ssa.body, ssa.terms, lambda tid: tid, exp.temps))
    m = _Matcher(
        exp,
        ssa.terms,
        _contexts(ssa),
        dict(ssa.ctx_parent),
        frozenset(ssa.inline_ctxs),
        ssa.events,
        ssa.leaves,
    )
    m.rename("@k0", "@k0")
    m.structure(exp.body, got, "body")
    m.block(exp.body, got, "body")


_BEGIN, _END = "__accsat_reread_", "__accsat_reread_end_"
_MARKER = re.compile(r'^# \d+ "', re.MULTILINE)


def expand_bodies(
    path: Path,
    text: str,
    bodies: dict[int, Replacement],
    options: PreprocessOptions,
    read: Callable[[str], str] | None = None,
) -> dict[int, str]:
    """Each new body (by kernel index) as the compiler will read it: the rewritten file
    preprocessed with the compilation's flags (one run, every body marked), each body cut
    out of the output. Outside the bodies the file is as written, so every name means in
    the re-read body what it means in the kernel as loaded. ``read``, if given,
    preprocesses the rewritten ``text`` (a header's, read through the file that includes
    it); else it is read as the file ``path``."""
    marked = [
        replace(r, text=f"{_BEGIN}{i} {marked_body(r.text, tokenize(r.text))} {_END}{i}")
        for i, r in bodies.items()
    ]
    new = splice(text, marked)
    pre = read(new) if read is not None else preprocess_copy(path, new, options)
    out = {}
    for i in bodies:
        begin, end = pre.find(f"{_BEGIN}{i} "), pre.find(f" {_END}{i}")
        if begin < 0 or end < begin:
            raise AccsatError(f"the preprocessor lost the body of kernel {i + 1}")
        body = pre[begin + len(f"{_BEGIN}{i} ") : end]
        out[i] = "\n".join(line for line in body.split("\n") if not _MARKER.match(line))
    return out


def with_body(kernel: Kernel, body_text: str) -> Kernel:
    """``kernel`` with the body ``body_text`` (preprocessed), read in the kernel's scope."""
    body = parse_body(body_text, kernel.scope)
    loop = kernel.loop
    if isinstance(loop, c_ast.FuncDef):  # a function unit: its body
        return replace(kernel, loop=c_ast.FuncDef(loop.decl, loop.param_decls, body, loop.coord))
    return replace(kernel, loop=c_ast.For(loop.init, loop.cond, loop.next, body, loop.coord))


def _guarding_block(ctx: str, inline: frozenset[str], parents: dict[str, str | None]) -> str | None:
    """The block context around the short-circuit operand ``ctx`` is in (None: in none)."""
    guarded = False
    c: str | None = ctx
    while c is not None and c in inline:
        guarded, c = True, parents.get(c)
    return c if guarded else None


def _contexts(ssa: SSAKernel) -> dict[str, str]:
    """Each control context -> itself, or for the block of a ``{ ... }`` (which runs
    whenever the block around it does) the context that block stands for."""
    braced = {
        stmt.block.ctx
        for stmt, _ in ir.walk(ssa.body)
        if isinstance(stmt, ir.Braced) and not stmt.after_jump
    }
    out: dict[str, str] = {}

    def canonical(ctx: str) -> str:
        if ctx not in out:
            parent = ssa.ctx_parent.get(ctx)
            out[ctx] = canonical(parent) if ctx in braced and parent is not None else ctx
        return out[ctx]

    for ctx in ssa.ctx_parent:
        canonical(ctx)
    return out


def _shapes(block: ir.Block, terms: TermTable, value, temps: tuple[str, ...]):
    for stmt in block.stmts:
        if isinstance(stmt, ir.Braced) and not stmt.after_jump:
            yield from _shapes(stmt.block, terms, value, temps)  # a block only scopes names
            continue
        shape = _shape(stmt, terms, value, temps)
        if shape is not None:
            yield shape


def _shape(stmt: ir.Stmt, terms: TermTable, value, temps: tuple[str, ...]) -> Shape | None:
    if isinstance(stmt, ir.Assign):
        if _ours(stmt.sym.name, temps):
            return None  # a temporary: transparent
        attrs: tuple[str, ...] = (stmt.sym.name,)
    elif isinstance(stmt, ir.Verbatim):
        if stmt.declares is not None and _ours(stmt.declares.name, temps):
            return None
        attrs = (_tokens(stmt.text),)
    elif isinstance(stmt, ir.Store):
        attrs = (stmt.template,)
    elif isinstance(stmt, ir.Eval):
        attrs = (stmt.callee,)
    elif isinstance(stmt, ir.Loop):
        attrs = (_tokens(stmt.header), _tokens(stmt.trailer))
    else:
        attrs = ()
    uses = tuple(value(u) for u in ir.uses(stmt))
    defines: dict[str, str] = {}
    if isinstance(stmt, ir.Eval) and stmt.result is not None:
        defines["result"] = terms[stmt.result].attrs[0]
    for name in ("phis", "head_phis", "exit_phis"):
        for sym, tid in getattr(stmt, name, {}).items():
            if not _ours(sym.name, temps):
                defines[f"{name}:{sym.name}"] = terms[tid].attrs[1]
    blocks = tuple(tuple(_shapes(b, terms, value, temps)) for b in ir.children(stmt))
    merged = getattr(stmt, "merged", {})
    return Shape(
        type(stmt).__name__,
        attrs,
        uses,
        tuple(sorted(defines.items())),
        blocks,
        tuple(b.ctx for b in ir.children(stmt)),
        tuple(sorted(_known(value, merged))),
    )


def _known(value, merged: dict) -> Iterator[tuple[str, int]]:
    """(phi name, value) of each merged variable whose value the side knows (the
    extraction has no class for a value no statement reads)."""
    for sym, tid in merged.items():
        try:
            yield f"phis:{sym.name}", value(tid)
        except KeyError:
            continue


_TOKEN = re.compile(
    r""""(?:\\.|[^"\\])*"|'(?:\\.|[^'\\])*'|[A-Za-z_0-9.]+|->|\+\+|--|<<=|>>=|<<|>>"""
    r"|<=|>=|==|!=|&&|\|\||[-+*/%&|^]=|\S"
)


def _tokens(text: str) -> str:
    """C text compared token by token (blanks between tokens do not count, inside a
    string they do, and ``a-- - b`` is not ``a - --b``)."""
    return " ".join(_TOKEN.findall(text))


def _all(shapes: tuple[Shape, ...]):
    for s in shapes:
        yield s
        for b in s.blocks:
            yield from _all(b)


@dataclass
class _Matcher:
    exp: Expected
    terms: TermTable
    contexts: dict[str, str]  # of the re-read kernel
    parents: dict[str, str | None]  # of the re-read kernel
    inline: frozenset[str]  # of the re-read kernel
    events: list[Event]  # of the re-read kernel
    leaves: dict[int, LeafInfo]  # of the re-read kernel
    keys: dict[str, str] = field(default_factory=dict)  # expected leaf key -> re-read key
    back: dict[str, str] = field(default_factory=dict)
    memo: dict[tuple[int, int], bool] = field(default_factory=dict)
    placed: dict[tuple[str, str, tuple[str, ...]], list[int]] | None = None
    phi_is: dict[str, int] = field(default_factory=dict)  # extracted phi key -> re-read value
    is_phi: dict[str, int] = field(default_factory=dict)  # re-read phi key -> extracted class

    def structure(self, want: tuple[Shape, ...], got: tuple[Shape, ...], where: str) -> None:
        """The same statements, and the contexts of their blocks paired, before any value
        is matched (an operation may only be where the extraction put it)."""
        if len(want) != len(got):
            raise Mismatch(f"{where}: {len(got)} statements re-read, {len(want)} extracted")
        for k, (w, g) in enumerate(zip(want, got, strict=True)):
            here = f"{where}, statement {k + 1} ({w.kind})"
            if (w.kind, w.attrs, len(w.uses), len(w.blocks)) != (
                g.kind,
                g.attrs,
                len(g.uses),
                len(g.blocks),
            ) or not self.same_defines(w, g):
                raise Mismatch(
                    f"{here}: re-read as {g.kind} {' '.join(g.attrs)} with "
                    f"{len(g.uses)} values, {len(g.blocks)} blocks, defining "
                    f"{', '.join(d for d, _ in g.defines) or 'nothing'}"
                )
            for b, (wb, gb) in enumerate(zip(w.blocks, g.blocks, strict=True)):
                if not self.same_context(w.contexts[b], g.contexts[b]):
                    raise Mismatch(f"{here} block {b + 1}: in another control context")
                self.structure(wb, gb, f"{here} block {b + 1}")

    def same_defines(self, w: Shape, g: Shape) -> bool:
        """The same variables get phis, except one whose paths end with equal values in
        one lowering (its arms were printed, or written, alike): there the phi of the
        other stands for that value (the arms themselves are matched as statements)."""
        mine, theirs = dict(w.defines), dict(g.defines)
        for name in mine.keys() - theirs.keys():
            value = dict(g.merged).get(name)
            if value is None:
                return False
            self.phi_is[mine[name]] = value
        for name in theirs.keys() - mine.keys():
            cls = dict(w.merged).get(name)
            if cls is None:
                return False
            self.is_phi[theirs[name]] = cls
        return True

    def same_context(self, want: str, got: str) -> bool:
        return self.rename(
            "@" + self.exp.contexts.get(want, want), "@" + self.contexts.get(got, got)
        )

    def same_type(self, got: str, want: str) -> bool:
        """C types equal; computed in the context the extraction put it in, or in one
        nested in it (``double@k3``: never evaluated where k3 does not run)."""
        g, _, gc = got.partition("@")
        w, _, wc = want.partition("@")
        if g != w or bool(gc) != bool(wc):
            return False
        if not gc or self.same_context(wc, gc):
            return True
        inside = self.back.get("@" + self.contexts.get(gc, gc))
        target = "@" + self.exp.contexts.get(wc, wc)
        if inside and any(
            "@" + self.exp.contexts.get(c, c) == target
            for c in _around(inside[1:], self.exp.parents)
        ):
            return True
        # or the re-read context is nested in the one paired with the extraction's (an
        # operand of ``?:`` inside it, which the statements do not pair)
        paired = self.keys.get(target)
        if paired is not None and any(
            "@" + self.contexts.get(c, c) == paired for c in _around(gc, self.parents)
        ):
            return True
        return self.both_guarded(wc, gc)

    def both_guarded(self, want: str, got: str) -> bool:
        """Both in an operand of ``&&``, ``||`` or ``?:`` of the same statement's block:
        the short-circuit contexts of the two lowerings are numbered apart when a
        constant operand folds away, so what is checked there is that a guarded
        operation stays guarded (not by which operand)."""
        w, g = (
            _guarding_block(want, self.exp.inline, self.exp.parents),
            _guarding_block(got, self.inline, self.parents),
        )
        return (
            w is not None
            and g is not None
            and self.keys.get("@" + self.exp.contexts.get(w, w)) == "@" + self.contexts.get(g, g)
        )

    def block(self, want: tuple[Shape, ...], got: tuple[Shape, ...], where: str) -> None:
        if len(want) != len(got):
            raise Mismatch(f"{where}: {len(got)} statements re-read, {len(want)} extracted")
        for k, (w, g) in enumerate(zip(want, got, strict=True)):
            here = f"{where}, statement {k + 1} ({w.kind})"
            for n, (cls, tid) in enumerate(zip(w.uses, g.uses, strict=True)):
                if not self.value(tid, cls):
                    raise Mismatch(
                        f"{here}, value {n + 1}: {self.describe(tid)} is not the "
                        f"extracted {self.describe_class(cls)}"
                    )
            theirs = dict(g.defines)
            for name, mine in w.defines:
                if name in theirs and not self.rename(mine, theirs[name]):
                    raise Mismatch(f"{here}: {name.split(':')[-1]} defined twice")
            for b, (wb, gb) in enumerate(zip(w.blocks, g.blocks, strict=True)):
                self.block(wb, gb, f"{here} block {b + 1}")

    # -- values ---------------------------------------------------------------------------
    def value(self, tid: int, cls: int) -> bool:
        key = (tid, cls)
        if key not in self.memo:
            self.memo[key] = False  # a cycle never matches
            t = self.terms[tid]
            if t.op == "Phi" and t.attrs[1] in self.is_phi:
                self.memo[key] = self.is_phi[t.attrs[1]] == cls
            else:
                self.memo[key] = any(self.node(tid, n) for n in self.exp.nodes.get(cls, ()))
        return self.memo[key]

    def node(self, tid: int, n: ENode) -> bool:
        t = self.terms[tid]
        if n.op == "Const":
            return _same_constant(constant(self.terms, tid), literal_constant(n.attrs[0], n.ctype))
        if n.op in FOLDABLE:  # a constant expression, printed folded or spelled otherwise
            value = self.constant_of(n)
            if value is not None and _same_constant(constant(self.terms, tid), value):
                return True
        if n.op == "Fma":
            return self.fma(tid, n)
        if n.op == "Phi" and n.attrs[1] in self.phi_is:
            return tid == self.phi_is[n.attrs[1]]
        inner = self.identity(t)
        if inner is not None and self.node(inner, n):
            return True
        same = self.class_identity(n)
        if same is not None and self.value(tid, same):
            return True
        if t.op != n.op or len(t.args) != len(n.children):
            return False
        if not self.same_type(t.ty, n.ty) and not self.placed_elsewhere(tid, t, n):
            return False
        return self.operation(tid, t, n)

    def operation(self, tid: int, t: Term, n: ENode) -> bool:
        """The same operation on matching operands (the context checked by the caller)."""
        if t.op != n.op or len(t.args) != len(n.children) or _base(t.ty) != _base(n.ty):
            return False
        if n.op == "Load":
            return self.load(tid, t, n)
        if n.op in ("Var", "Phi", "Sym"):
            return t.attrs[0] == n.attrs[0] and self.rename(n.attrs[1], t.attrs[1])
        if n.op == "CallRes":
            return self.rename(n.attrs[0], t.attrs[0])
        if t.attrs != n.attrs:
            return False
        return self.args(t.args, n.children)

    def constant_of(self, n: ENode) -> Constant | None:
        """The value of an extracted constant expression (None if it is not one)."""
        if n.op == "Const":
            return literal_constant(n.attrs[0], n.ctype)
        if n.op not in FOLDABLE or not n.children:
            return None
        operands = []
        for c in n.children:
            nodes = self.exp.nodes.get(c, ())
            v = self.constant_of(nodes[0]) if nodes else None
            t = scalar(v[1]) if v is not None else None
            if v is None or t is None or isinstance(v[0], (str, Fraction)):
                return None
            operands.append((v[0], t))
        target = scalar(n.ctype)
        value = None if target is None else evaluate(n.op, target, operands)
        return None if value is None else (value, n.ctype)

    def placed_elsewhere(self, tid: int, t: Term, n: ENode) -> bool:
        """The re-read program computes ``n`` in another control context, one where (or
        around which) the extraction computes the same operation too: a load of a
        temporary before an inner loop, read again inside it (the re-read lowering
        shares the two); ``i + 1`` of a load carried across an inner loop, printed
        before it, and the same sum the loop stores to, which the re-read lowering
        takes from there (whenever a context runs, the contexts around it ran: the
        operation was evaluated there by the extraction's program already)."""
        base, _, ctx = t.ty.partition("@")
        want = self.back.get("@" + self.contexts.get(ctx, ctx))
        if base != n.ctype or not ctx or want is None:
            return False
        if self.placed is None:
            self.placed = {}
            # each class by its extracted node, whose type names the context the
            # extraction computes it in
            for cls, nodes in self.exp.nodes.items():
                m = nodes[0]
                self.placed.setdefault((m.op, m.ty, m.attrs), []).append(cls)
                if cls in self.exp.placed and "@" in m.ty:  # and where its temporary is
                    where = f"{_base(m.ty)}@{self.exp.placed[cls]}"
                    self.placed.setdefault((m.op, where, m.attrs), []).append(cls)
        return any(
            self.operation(tid, t, self.exp.nodes[c][0])
            for ctx in _around(want[1:], self.exp.parents)
            for c in self.placed.get((n.op, f"{base}@{ctx}", n.attrs), ())
        )

    def load(self, tid: int, t: Term, n: ENode) -> bool:
        """The same location read after the same stores; ``(&e[i][0])[k]`` is ``e[i][k]``,
        as ``ExprPrinter.access`` prints it."""
        if t.attrs[1] != n.attrs[1] and not self.unchanged_since(tid, t.attrs[1], n.attrs[1]):
            return False
        template, base, items = self.terms_access(
            t.attrs[0], t.args[0], self.terms.items(t.args[1])
        )
        want, wbase, witems = self.class_access(
            n.attrs[0], n.children[0], self.list_items(n.children[1])
        )
        return (
            template == want
            and len(items) == len(witems)
            and self.args((base, *items), (wbase, *witems))
        )

    def unchanged_since(self, tid: int, got: str, want: str) -> bool:
        """The re-read load ``tid`` reads its location as it was after an earlier event
        (``got``) than the extraction's (``want``), and no event from ``want`` back to
        ``got`` may change it: the same contents. The re-read can see further than the
        original lowering: a load the rewrite hoisted above an ``if`` is one term with
        the same load inside it, so a store there through that index is provably
        apart from a later load through it (events are numbered alike in both, as
        the literal comparison of versions already relies on, and checked here: the
        same kinds of event in the same order)."""
        access = self.leaves[tid].access if tid in self.leaves else None
        if access is None or want == "e-" or self.exp.events != tuple(e.kind for e in self.events):
            return False
        earliest = None if got == "e-" else int(got[1:])
        return unchanged_between(self.events, earliest, int(want[1:]), access)

    def terms_access(self, template: str, base: int, items: list[int]):
        b = self.terms[base]
        if b.op == "AddrOf" and template.startswith("[]") and b.attrs[0].endswith("[]"):
            inner = self.terms.items(b.args[1])
            if inner and constant(self.terms, inner[-1]) == (0, "int"):
                return self.terms_access(b.attrs[0] + template[2:], b.args[0], inner[:-1] + items)
        return template, base, items

    def class_access(self, template: str, base: int, items: list[int]):
        b = self.exp.nodes.get(base, (None,))[0]
        if (
            b is not None
            and b.op == "AddrOf"
            and template.startswith("[]")
            and b.attrs[0].endswith("[]")
        ):
            inner = self.list_items(b.children[1])
            last = self.exp.nodes.get(inner[-1], (None,))[0] if inner else None
            if last is not None and last.op == "Const" and last.attrs[0] == "0":
                return self.class_access(
                    b.attrs[0] + template[2:], b.children[0], inner[:-1] + items
                )
        return template, base, items

    def list_items(self, cls: int) -> list[int]:
        out = []
        node = self.exp.nodes.get(cls, (None,))[0]
        while node is not None and node.op == "TCons":
            out.append(node.children[0])
            node = self.exp.nodes.get(node.children[1], (None,))[0]
        return out

    def args(self, tids: tuple[int, ...], classes: tuple[int, ...]) -> bool:
        return all(self.value(a, c) for a, c in zip(tids, classes, strict=True))

    def rename(self, want: str, got: str) -> bool:
        """Keys of the two lowerings correspond one to one (a binding is never undone:
        a stale one can only make a later match fail, never succeed)."""
        if self.keys.get(want, got) != got or self.back.get(got, want) != want:
            return False
        self.keys[want], self.back[got] = got, want
        return True

    def fma(self, tid: int, n: ENode) -> bool:
        """``Fma(a, b, c)`` as codegen/cexpr.py prints it: ``a + b * c``, ``a - b' * c``
        (b is -b'), ``b * c - a'`` (a is -a'), or ``fma(b, c, a)``."""
        a, b, c = n.children
        t = self.terms[tid]
        if t.ty != n.ty:
            return False
        if t.op == "Call" and t.attrs[0] in ("fma", "fmaf", "fmal"):
            items = tuple(self.terms.items(t.args[0]))
            return len(items) == 3 and self.args(items, (b, c, a))
        if t.op not in ("Add", "Sub"):
            return False
        x, y = (self.terms[arg] for arg in t.args)
        if y.op == "Mul" and y.ty == n.ty:
            if t.op == "Add":
                return self.args((t.args[0], *y.args), (a, b, c))
            if self.negation(y.args[0], b) and self.args((t.args[0], y.args[1]), (a, c)):
                return True
        if t.op == "Sub" and x.op == "Mul" and x.ty == n.ty:
            return self.negation(t.args[1], a) and self.args(x.args, (b, c))
        return False

    def negation(self, tid: int, cls: int) -> bool:
        """``tid`` is minus the value of ``cls``: ``cls`` is ``-x`` with ``tid`` x, or a
        negative constant ``tid`` spells without its sign."""
        for n in self.exp.nodes.get(cls, ()):
            if n.op == "Neg" and self.value(tid, n.children[0]):
                return True
            if n.op == "Const":
                want = literal_constant(n.attrs[0], n.ctype)
                if not isinstance(want[0], str) and _same_constant(
                    (-want[0], want[1]), constant(self.terms, tid)
                ):
                    return True
        return False

    def identity(self, t: Term) -> int | None:
        """``x + 0``, ``0 + x``, ``x - 0``, ``x * 1``, ``1 * x`` in integer arithmetic: x."""
        if t.op not in ("Add", "Sub", "Mul") or len(t.args) != 2:
            return None
        ty = scalar(t.ty.split("@", 1)[0])
        if ty is None or ty.name in ("float", "double", "long double"):
            return None
        unit = 1 if t.op == "Mul" else 0
        for k, other in ((1, 0), (0, 1)):
            if k == 0 and t.op == "Sub":
                continue
            c = constant(self.terms, t.args[k])
            x = self.terms[t.args[other]]
            if c is not None and c[0] == unit and _base(x.ty) == _base(t.ty):
                return t.args[other]
        return None

    def class_identity(self, n: ENode) -> int | None:
        """The extracted side's ``x + 0``, ``x * 1``...: the class of x (``identity``)."""
        if n.op not in ("Add", "Sub", "Mul") or len(n.children) != 2:
            return None
        ty = scalar(_base(n.ty))
        if ty is None or ty.name in ("float", "double", "long double"):
            return None
        unit = 1 if n.op == "Mul" else 0
        for k, other in ((1, 0), (0, 1)):
            if k == 0 and n.op == "Sub":
                continue
            nodes = self.exp.nodes.get(n.children[k], ())
            c = self.constant_of(nodes[0]) if nodes else None
            x = self.exp.nodes.get(n.children[other], ())
            if c is not None and c[0] == unit and x and _base(x[0].ty) == _base(n.ty):
                return n.children[other]
        return None

    # -- messages -------------------------------------------------------------------------
    def describe(self, tid: int, depth: int = 3) -> str:
        t = self.terms[tid]
        c = constant(self.terms, tid)
        if c is not None:
            return f"{c[0]!r} ({c[1]})"
        head = f"{t.op}[{' '.join(t.attrs)}]" if t.attrs else t.op
        if not t.args or depth == 0:
            return head
        return f"{head}({', '.join(self.describe(a, depth - 1) for a in t.args)})"

    def describe_class(self, cls: int, depth: int = 3) -> str:
        nodes = self.exp.nodes.get(cls, ())
        if not nodes:
            return "?"
        n = nodes[0]
        if n.op == "Const":
            return f"{n.attrs[0]} ({n.ctype})"
        head = f"{n.op}[{' '.join(n.attrs)}]" if n.attrs else n.op
        if not n.children or depth == 0:
            return head
        return f"{head}({', '.join(self.describe_class(c, depth - 1) for c in n.children)})"


def _base(ty: str) -> str:
    """A term's C type without the control context it is computed in."""
    return ty.split("@", 1)[0]


def _same_constant(a: Constant | None, b: Constant | None) -> bool:
    if a is None or b is None or a[1] != b[1]:
        return False
    x, y = a[0], b[0]
    if isinstance(x, str) or isinstance(y, str):
        return x == y
    if isinstance(x, float) or isinstance(y, float):
        if math.isnan(float(x)) and math.isnan(float(y)):
            return True
        return struct.pack("<d", float(x)) == struct.pack("<d", float(y))
    return x == y
