"""One kernel's accesses, classes and neighbour groups, from the SSA of its body.

The SSA notes every memory access as written (``SSAKernel.sites``: the C
expression, its ``Access`` with the byte-offset polynomial, its block
context). This module reads strides off those polynomials along the thread
index and along each sequential inner loop; nothing here re-derives an address.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from pycparser import c_ast, c_generator

from ..errors import Unsupported
from ..frontend.kernels import Kernel
from ..frontend.load import LoadedFile
from ..ssa import ir
from ..ssa.cnodes import root_name
from ..ssa.memory import Access
from ..ssa.state import Site, SSAKernel
from ..ssa.statements import build_ssa
from .neighbours import Group, find_groups
from .spelling import Spelling, subscript_offset
from .strides import Dependence, Stride, classify, stride_along
from .thread import ThreadIndex, enclosing, loop_step, loop_variable, thread_index

_GEN = c_generator.CGenerator()
_NAME = re.compile(r"[A-Za-z_]\w*")


@dataclass
class AccessRecord:
    """One global load or store of a kernel body."""

    file: str
    line: int
    kernel_line: int
    array: str
    kind: str  # "load" | "store"
    index: str  # the access path as written after the array: "[k][j][i + 1]"
    thread_stride: int | float | None  # in elements (None: unknown or known at run time)
    cls: str
    lines_per_warp: int | None
    size: int  # bytes of the element
    site: Site = field(repr=False)
    loop: str | None = None  # the variable of the innermost sequential loop around it
    hint: str = ""
    key: tuple | None = field(default=None, repr=False)  # the address, by variable names

    @property
    def address(self) -> Access:
        return self.site.access


@dataclass
class StageAdvice:
    """What one version of a kernel body (as written, or as accsat prints it) shows."""

    accesses: list[AccessRecord] = field(default_factory=list)
    groups: list[Group] = field(default_factory=list)
    reason: str = ""  # why it was not analysed ("" when it was)


@dataclass
class KernelAdvice:
    file: str
    line: int
    function: str
    construct: str
    thread: ThreadIndex
    stages: dict[str, StageAdvice] = field(default_factory=dict)  # "written", "rewritten"
    pressure: list[dict] = field(default_factory=list)  # per variant (pressure.py)


@dataclass(frozen=True)
class InnerLoop:
    """A sequential loop inside the body, as its ``for`` header says."""

    var: str
    reads: frozenset[str]  # names its initialisation reads
    step: int | None
    phi: int | None  # the variable's term inside the loop body


def _no_cost(op: str, ty: str) -> float:
    return 0.0


def advise_kernel(
    kernel: Kernel, loaded: LoadedFile, convention: str, spelling: Spelling | None = None
) -> KernelAdvice:
    """The thread index and the as-written stage of one kernel (``spelling``: the file's,
    for the accesses as the user wrote them)."""
    chain, outer = enclosing(loaded.ast, kernel)
    thread = thread_index(kernel, chain, convention)
    advice = KernelAdvice(str(loaded.path), kernel.line, kernel.function, kernel.construct, thread)
    advice.stages["written"] = analyse_body(kernel, loaded, thread, outer, spelling)
    return advice


def analyse_body(
    kernel: Kernel,
    loaded: LoadedFile,
    thread: ThreadIndex,
    outer: list[c_ast.For],
    spelling: Spelling | None = None,
) -> StageAdvice:
    """Accesses and groups of one kernel body; ``outer``: the loops around the kernel's."""
    try:
        ssa = build_ssa(kernel, loaded.symbols, _no_cost, loaded.defined)
    except Unsupported as exc:
        line = f" (line {exc.line})" if exc.line and exc.line != kernel.line else ""
        return StageAdvice(reason=exc.reason + line)
    return _Body(kernel, ssa, thread, outer, str(loaded.path), spelling).advice()


class _Body:
    def __init__(
        self,
        kernel: Kernel,
        ssa: SSAKernel,
        thread: ThreadIndex,
        outer: list[c_ast.For],
        file: str,
        spelling: Spelling | None,
    ):
        self.kernel, self.ssa, self.thread, self.file = kernel, ssa, thread, file
        nodes = [(site.node, root_name(site.node) or "") for site in ssa.sites]
        self.written = spelling.texts(nodes) if spelling is not None else {}
        self.inner = _inner_loops(kernel.loop, ssa)
        self.index = self.var_term(thread.var)
        reads = {k: (v.var, v.reads) for k, v in self.inner.items()}
        self.dep = Dependence(ssa, self.index, thread.var, reads)
        self.loop_of_ctx = {loop.body.ctx: loop for loop in ssa.loops}
        # the indices a loop interchange could bring to the lanes: the enclosing loops'
        self.outer = [(v, self.var_term(v)) for v in map(loop_variable, outer) if v]
        self.deps: dict[int, Dependence] = {}

    def var_term(self, name: str | None) -> int | None:
        """The term a loop variable has in the body (None: the body never reads it)."""
        sym = self.kernel.scope.lookup(name) if name else None
        for tid, info in self.ssa.leaves.items():
            if sym is not None and info.holder is sym and self.ssa.terms[tid].op == "Var":
                return tid
        return None

    def advice(self) -> StageAdvice:
        records = [self.record(site) for site in self.ssa.sites]
        loads = [r for r in records if r.kind == "load"]
        stores = [r for r in records if r.kind == "store"]
        groups: list[Group] = []
        if self.thread.var and self.thread.step:
            groups += find_groups(
                loads,
                self.unit(self.index, self.dep),
                self.thread.step,
                "thread",
                self.thread.var,
                stores,
                _spelled(self.thread.var),
            )
        for loop in self.ssa.loops:
            info = self.inner.get(id(loop))
            if info is None or not info.step or info.phi is None:
                continue
            inside = [r for r in records if self.within(r.site.ctx, loop)]
            mine = [
                r for r in inside if r.kind == "load" and self.innermost_loop(r.site.ctx) is loop
            ]
            dep = Dependence(self.ssa, info.phi)
            groups += find_groups(
                mine,
                self.unit(info.phi, dep),
                info.step,
                "loop",
                info.var,
                [r for r in inside if r.kind == "store"],
                _spelled(info.var),
            )
        return StageAdvice(records, groups)

    def record(self, site: Site) -> AccessRecord:
        node = site.node
        text = self.written.get(id(node)) or _GEN.visit(node)
        array = root_name(node) or text
        index = text[len(array) :] if text.startswith(array) else text
        size = site.access.size or 1
        stride = stride_along(site.access.offset, self.index, self.dep)
        cls, elements, lines = classify(stride, self.thread.step if self.thread.var else 0, size)
        loop = self.innermost_loop(site.ctx)
        info = self.inner.get(id(loop)) if loop is not None else None
        coord = getattr(node, "coord", None)
        rec = AccessRecord(
            str(coord.file) if coord and coord.file else self.file,
            coord.line if coord else self.kernel.line,
            self.kernel.line,
            array,
            site.kind,
            index,
            elements,
            cls,
            lines,
            size,
            site,
            info.var if info else None,
        )
        rec.hint = self.hint(rec, stride, loop)
        rec.key = self.named(site)
        return rec

    def named(self, site: Site) -> tuple | None:
        """The address with its variables by name, comparable across two builds of the
        same body (None when it involves anything but variables and constants)."""
        if site.access.offset is None:
            return None
        terms = self.ssa.terms
        monos = []
        for mono, coef in site.access.offset:
            if any(terms[t].op not in ("Var", "Phi") for t in mono):
                return None
            monos.append((tuple(sorted(terms[t].attrs[0] for t in mono)), coef))
        return (root_name(site.node), site.kind, tuple(sorted(monos)))

    def innermost_loop(self, ctx: str | None) -> ir.Loop | None:
        while ctx is not None:
            if ctx in self.loop_of_ctx:
                return self.loop_of_ctx[ctx]
            ctx = self.ssa.ctx_parent.get(ctx)
        return None

    def within(self, ctx: str | None, loop: ir.Loop) -> bool:
        while ctx is not None:
            if ctx == loop.body.ctx:
                return True
            ctx = self.ssa.ctx_parent.get(ctx)
        return False

    @staticmethod
    def unit(index: int | None, dep: Dependence):
        """Bytes an access's address moves per unit of ``index`` (None: no constant)."""

        def per_unit(rec: AccessRecord) -> int | None:
            s = stride_along(rec.address.offset, index, dep)
            return None if s is None or s.runtime else s.constant

        return per_unit

    def hint(self, rec: AccessRecord, stride: Stride | None, loop: ir.Loop | None) -> str:
        var = self.thread.var
        if rec.cls == "unknown" and rec.address.offset is None:
            return (
                "address not modelled (a variable-length array dimension or an element "
                "of unknown size): stride unknown"
            )
        if rec.cls == "unknown":
            return "indirect or non-affine address: the lines a warp touches depend on the data"
        if rec.cls == "uniform":
            if rec.kind == "store" and self.index is not None:
                return f"every lane stores to the same address (a reduction over {var}?)"
            return ""
        if rec.cls == "coalesced":
            return ""
        if stride is not None and stride.runtime:
            return (
                f"the stride along {var} is a run-time value: a warp may touch up to "
                f"{rec.lines_per_warp} lines"
            )
        better = self.coalescing_index(rec, loop)
        if better:
            return (
                f"stride {rec.thread_stride} along {var}, unit stride along {better}: "
                f"a loop interchange making {better} the vector loop would coalesce it"
            )
        if rec.cls == "strided":
            return (
                f"stride {rec.thread_stride}: a warp reads {rec.lines_per_warp} lines "
                "where a unit stride would read fewer (structure-of-arrays layout?)"
            )
        return "each lane touches its own 128-byte line; no loop of the nest walks it contiguously"

    def coalescing_index(self, rec: AccessRecord, loop: ir.Loop | None) -> str | None:
        """Another loop variable along which this address moves by exactly one element."""
        candidates = [(v, t) for v, t in self.outer if v != self.thread.var]
        for inner in self.ssa.loops:
            info = self.inner.get(id(inner))
            if info is not None and loop is not None and self.within(loop.body.ctx, inner):
                candidates.append((info.var, info.phi))
        for var, tid in candidates:
            if tid is None:
                continue
            if tid not in self.deps:
                self.deps[tid] = Dependence(self.ssa, tid)
            dep = self.deps[tid]
            s = stride_along(rec.address.offset, tid, dep)
            if s is not None and not s.runtime and abs(s.constant) == rec.size:
                return var
        return None


def _spelled(var: str):
    def offset(rec: AccessRecord) -> int | None:
        return subscript_offset(rec.site.node, var)

    return offset


def _inner_loops(kernel_loop: c_ast.For, ssa: SSAKernel) -> dict[int, InnerLoop]:
    """Per sequential ``ir.Loop`` of the body (by id), what its ``for`` header says;
    loops sharing their line with another ``for`` are left out (which is which?)."""
    fors: dict[int, list[c_ast.For]] = {}
    stack: list[c_ast.Node] = [kernel_loop.stmt]
    while stack:
        node = stack.pop()
        if isinstance(node, c_ast.For) and node.coord:
            fors.setdefault(node.coord.line, []).append(node)
        stack.extend(child for child in node)
    out = {}
    for loop in ssa.loops:
        found = fors.get(loop.line, [])
        if len(found) != 1 or not loop.header.startswith("for"):
            continue
        var = loop_variable(found[0]) or ""
        init = _GEN.visit(found[0].init) if found[0].init is not None else ""
        phi = next((t for s, t in loop.head_phis.items() if s.name == var), None)
        out[id(loop)] = InnerLoop(
            var, frozenset(_NAME.findall(init)), loop_step(found[0], var) if var else None, phi
        )
    return out
