"""The thread index of a kernel: the loop variable that steps across the lanes of a warp.

Coalescing is decided by the 32 lanes of a warp, so what matters is the loop
whose consecutive iterations run on consecutive lanes. Which loop that is
depends on the directive and, where the standards leave it open, on the
compiler; ``CONVENTIONS`` are the two this module knows (docs/advise.md has
the table). Where they differ the result says so in ``ambiguous``.
"""

from __future__ import annotations

from dataclasses import dataclass

from pycparser import c_ast

from ..frontend import directives
from ..frontend.directives import Directive
from ..frontend.kernels import Kernel
from ..frontend.literals import parse_int

CONVENTIONS = ("nvc", "gcc")  # nvc also stands for clang's OpenMP offloading
_LEVELS = {"gang", "worker", "vector"}


@dataclass(frozen=True)
class ThreadIndex:
    var: str | None  # the loop variable lanes step through; None: no loop spreads over lanes
    step: int | None  # what one iteration adds to it (None: not a constant)
    rule: str  # the rule that decided, in words
    ambiguous: str = ""  # what the other compiler convention does, where it differs
    device: bool = True  # False: an OpenMP loop on the host (lanes are SIMD lanes)

    def as_dict(self) -> dict:
        return {
            "var": self.var,
            "step": self.step,
            "rule": self.rule,
            "ambiguous": self.ambiguous,
            "device": self.device,
        }


def enclosing(
    ast: c_ast.FileAST, kernel: Kernel
) -> tuple[list[tuple[Directive, c_ast.Node]], list[c_ast.For]]:
    """The directives on the way from the kernel's function down to its loop, outermost
    first, each with the statement it applies to (the kernel loop's own included); and
    the ``for`` loops around the kernel's."""
    for ext in ast.ext:
        if isinstance(ext, c_ast.FuncDef) and ext.decl.name == kernel.function:
            path = _path(ext.body, kernel.loop)
            if path is not None:
                chain = [(d, node) for d, node in path if d is not None]
                loops = [
                    node
                    for _, node in path
                    if isinstance(node, c_ast.For) and node is not kernel.loop
                ]
                return chain, loops
    return [], []


def _path(node: c_ast.Node, target: c_ast.Node) -> list | None:
    """The statements from ``node`` (excluded) down to ``target`` (included), each with
    the directive right before it (or None)."""
    if node is target:
        return []
    pending: Directive | None = None
    for child in node:
        if isinstance(child, c_ast.Pragma):
            pending = directives.parse(child.string)
            continue
        below = _path(child, target)
        if below is not None:
            return [(pending, child)] + below
        pending = None
    return None


def loop_variable(loop: c_ast.For) -> str | None:
    """The variable a ``for`` steps (read from its increment, else its initialisation)."""
    for expr in _exprs(loop.next):
        target = expr.expr if isinstance(expr, c_ast.UnaryOp) else getattr(expr, "lvalue", None)
        if isinstance(target, c_ast.ID):
            return target.name
    init = loop.init
    if isinstance(init, c_ast.DeclList) and init.decls:
        return init.decls[0].name
    for expr in _exprs(init):
        if isinstance(expr, c_ast.Assignment) and isinstance(expr.lvalue, c_ast.ID):
            return expr.lvalue.name
    return None


def loop_step(loop: c_ast.For, var: str) -> int | None:
    """What one iteration adds to ``var``: ``i++`` 1, ``i -= 2`` -2, ``i = i + 4`` 4;
    None when it is not a constant."""
    for expr in _exprs(loop.next):
        if isinstance(expr, c_ast.UnaryOp) and _is(expr.expr, var):
            return 1 if "++" in expr.op else -1 if "--" in expr.op else None
        if isinstance(expr, c_ast.Assignment) and _is(expr.lvalue, var):
            if expr.op in ("+=", "-="):
                k = int_constant(expr.rvalue)
                return None if k is None else k if expr.op == "+=" else -k
            rv = expr.rvalue
            if expr.op == "=" and isinstance(rv, c_ast.BinaryOp) and rv.op in ("+", "-"):
                if _is(rv.left, var):
                    k = int_constant(rv.right)
                    return None if k is None else k if rv.op == "+" else -k
                if rv.op == "+" and _is(rv.right, var):
                    return int_constant(rv.left)
    return None


def _exprs(node: c_ast.Node | None) -> list[c_ast.Node]:
    if node is None:
        return []
    return list(node.exprs) if isinstance(node, c_ast.ExprList) else [node]


def _is(node: c_ast.Node, var: str) -> bool:
    return isinstance(node, c_ast.ID) and node.name == var


def int_constant(node: c_ast.Node) -> int | None:
    """The value of an integer literal (negated or not); None for anything else."""
    if isinstance(node, c_ast.UnaryOp) and node.op == "-":
        k = int_constant(node.expr)
        return None if k is None else -k
    if isinstance(node, c_ast.Constant) and node.type not in (
        "char",
        "string",
        "float",
        "double",
        "long double",
    ):
        try:
            return parse_int(node.value)[0]
        except ValueError:
            return None
    return None


def thread_index(
    kernel: Kernel, chain: list[tuple[Directive, c_ast.Node]], convention: str = "nvc"
) -> ThreadIndex:
    """The kernel's thread index under ``convention`` ("nvc" or "gcc")."""
    var = loop_variable(kernel.loop)
    step = loop_step(kernel.loop, var) if var else None
    own = _own_directive(kernel, chain)
    found = (
        _acc(own, chain, convention)
        if _model(own, chain) == "acc"
        else _omp(own, chain, convention)
    )
    loop_is_index, rule, ambiguous, device = found
    if not loop_is_index:
        return ThreadIndex(None, None, rule, ambiguous, device)
    return ThreadIndex(var, step, rule, ambiguous, device)


def _own_directive(kernel: Kernel, chain) -> Directive | None:
    """The loop directive that made the kernel's loop parallel (its collapse head's for
    the inner loops of a ``collapse``); None for a loop found inside a bare region."""
    for d, node in reversed(chain):
        if d.is_loop:
            return d if node is kernel.loop or d.collapse > 1 else None
    return None


def _model(own: Directive | None, chain) -> str:
    if own is not None:
        return own.model
    regions = [d for d, _ in chain if d.is_region]
    return regions[-1].model if regions else "acc"


def _acc(own: Directive | None, chain, convention: str) -> tuple[bool, str, str, bool]:
    if own is None:
        region = next((d for d, _ in reversed(chain) if d.is_region), None)
        if region is not None and region.words[:1] == ("kernels",):
            return (
                convention == "nvc",
                "acc kernels region without loop directives",
                "nvc parallelizes and vectorizes the loops of a kernels region itself "
                "(check -Minfo=accel); gcc runs them gang-redundant, so lanes do not "
                "step through it",
                True,
            )
        return (
            False,
            "no loop directive in the compute region: the loop runs "
            "sequentially in every gang (gang-redundant)",
            "",
            True,
        )
    levels = _LEVELS & (set(own.words) | set(own.clauses))
    if "vector" in levels:
        return True, "OpenACC vector loop (innermost of its collapse)", "", True
    if not levels:
        return (
            True,
            "OpenACC loop without gang/worker/vector: compilers give the "
            "innermost independent loop the vector level",
            "",
            True,
        )
    named = "/".join(sorted(levels))
    return (
        convention == "nvc",
        f"OpenACC {named} loop without vector",
        "nvc usually adds vector(128) to this loop when no loop inside it is vector "
        "(check -Minfo=accel); gcc runs it vector-single: one lane of each warp "
        "works and no loop spreads over the lanes",
        True,
    )


def _omp(own: Directive | None, chain, convention: str) -> tuple[bool, str, str, bool]:
    device = any("target" in d.words for d, _ in chain)
    if own is None:
        return (
            False,
            "no loop directive in the region: the loop runs sequentially in one thread",
            "",
            device,
        )
    words = set(own.words)
    if "simd" in words:
        return True, "OpenMP simd loop (innermost of its collapse)", "", device
    if not device:
        return (
            True,
            "OpenMP worksharing loop on the host: strides describe SIMD "
            "vectorization of this loop, not GPU warps",
            "",
            False,
        )
    if words & {"for", "loop"}:
        return (
            convention == "nvc",
            "OpenMP parallel for in a target region",
            "nvc and clang give a team's threads consecutive iterations (lanes of a "
            "warp); gcc maps each OpenMP thread to a whole warp and uses its lanes "
            "only for simd",
            True,
        )
    return (
        False,
        "OpenMP distribute without parallel for: one thread per team runs the iterations",
        "",
        True,
    )
